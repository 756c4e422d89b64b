// Typing notifications: Zulip's POST /typing, and the spec's rule that they reach only users
// with receives_typing_notifications on (from level 253).

import { sendEvent } from '../model/events.js';
import type { Request } from '../model/request.js';
import { has, hasShape } from '../model/levels.js';
import type { EventQueue, Realm, TypingOp, User, UserId } from '../model/model.js';
import { JsonError, checkIntList, missingArgument } from '../model/params.js';
import { checkChannelId, checkChannelTopic, checkDirectRecipientIds } from '../model/messaging.js';

/**
 * typing.only-to-receivers: from level 253, a client gets typing notifications only while its user
 * receives them, as the setting is when the notification is sent.
 */
function receivesTyping(realm: Realm, queue: EventQueue, _kind: 'direct' | 'channel'): boolean {
  return !has(realm.featureLevel, 'receivesTypingNotifications') || realm.users.get(queue.userId)!.settings.receives_typing_notifications !== false;
}

export const TYPING_RULES = { receivesTyping };

/** A typing notification, to the clients whose user receives them (typing.only-to-receivers); the dialect says what the event holds and whom it is for. */
export function doSendTypingNotification(realm: Realm, sender: User, op: TypingOp, to: { userIds: UserId[] } | { channelId: number; topic: string }): void {
  const { event, audience, capability } = 'userIds' in to
    ? realm.dialect.directTypingEvent(realm, sender, op, to.userIds)
    : realm.dialect.channelTypingEvent(realm, sender, op, realm.channels.get(to.channelId as never)!, to.topic);
  const kind = 'userIds' in to ? 'direct' : 'channel';
  sendEvent(realm, event, audience, capability, (queue) => realm.rules.receivesTyping(realm, queue, kind));
}

/** Before stream_id, a channel's typing names the channel as the one ID of `to`. */
function channelOfTo(to: unknown[] | undefined): number | undefined {
  if (to === undefined) return undefined;
  const ids = checkIntList(to, 'to');
  if (ids.length !== 1) throw new JsonError('Invalid \'to\' argument: a channel typing notification names one channel');
  return ids[0];
}

export function setTypingStatus({ realm, user, params }: Request) {
  const op = params.string('op');
  if (op === undefined) throw missingArgument('op');
  if (op !== 'start' && op !== 'stop') throw new JsonError("Invalid op: Value error, Not in the list of possible values");
  const type = params.string('type') ?? 'direct';
  const channelTypes = !hasShape(realm.featureLevel, 'channelTyping') ? [] : has(realm.featureLevel, 'channelTypeName') ? ['stream', 'channel'] : ['stream'];
  if (channelTypes.includes(type)) {
    const streamId = hasShape(realm.featureLevel, 'typingStreamId') ? params.int('stream_id') : channelOfTo(params.list('to'));
    if (streamId === undefined) throw missingArgument(hasShape(realm.featureLevel, 'typingStreamId') ? 'stream_id' : 'to');
    const channel = checkChannelId(realm, user, streamId);
    doSendTypingNotification(realm, user, op, { channelId: channel.id, topic: checkChannelTopic(realm, params.string('topic')) });
    return {};
  }
  const directTypes = has(realm.featureLevel, 'directTypeName') ? ['private', 'direct'] : ['private'];
  if (!directTypes.includes(type) && params.string('type') !== undefined) throw new JsonError('Invalid type');
  const to = params.list('to');
  if (to === undefined) throw missingArgument('to');
  const ids = checkIntList(to, 'to');
  if (ids.length === 0) throw new JsonError('Empty list of recipients');
  doSendTypingNotification(realm, user, op, { userIds: checkDirectRecipientIds(realm, user, ids) });
  return {};
}
