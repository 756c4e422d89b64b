// Typing notifications: Zulip's POST /typing, and the spec's rule that they reach only users
// with receives_typing_notifications on (from level 253).

import { sendEvent } from './events.js';
import type { Request } from './http.js';
import { has } from './levels.js';
import type { Realm, User, UserId } from './model.js';
import { JsonError, checkIntList, missingArgument } from './params.js';
import { checkChannelId, checkChannelTopic, checkDirectRecipientIds } from './messages.js';

/** typing.only-to-receivers: from level 253, only users who receive typing notifications. */
function receivers(realm: Realm, ids: Iterable<UserId>): UserId[] {
  const all = [...ids];
  if (!has(realm.featureLevel, 'receivesTypingNotifications') || realm.fault('typing.only-to-receivers')) return all;
  return all.filter((id) => realm.users.get(id)!.settings.receives_typing_notifications !== false);
}

const person = (user: User) => ({ user_id: user.id, email: user.email });

export function doSendTypingNotification(realm: Realm, sender: User, op: 'start' | 'stop', to: { userIds: UserId[] } | { channelId: number; topic: string }): void {
  const alternate = realm.alternate('typing.event-shape');
  if ('userIds' in to) {
    const recipients = to.userIds.map((id) => realm.users.get(id)!);
    const event = alternate
      ? { type: 'typing', op, message_type: 'direct', sender_id: sender.id, recipient_ids: to.userIds }
      : { type: 'typing', op, message_type: realm.featureLevel >= 215 ? 'direct' : 'private', sender: person(sender), recipients: realm.fault('typing.event-shape') ? undefined : recipients.map(person) };
    sendEvent(realm, event, receivers(realm, to.userIds));
    return;
  }
  const channel = realm.channels.get(to.channelId as never)!;
  if (alternate) {
    sendEvent(realm, { type: 'typing', op, message_type: 'channel', sender_id: sender.id, recipient_ids: [...channel.subscribers] }, receivers(realm, channel.subscribers));
    return;
  }
  // Zulip: to the channel's other subscribers, on queues that declared they understand channel typing.
  const others = [...channel.subscribers].filter((id) => id !== sender.id);
  sendEvent(realm, { type: 'typing', op, message_type: 'stream', sender: person(sender), stream_id: channel.id, topic: to.topic }, receivers(realm, others), 'stream_typing_notifications');
}

export function setTypingStatus({ realm, user, params }: Request) {
  const op = params.string('op');
  if (op === undefined) throw missingArgument('op');
  if (op !== 'start' && op !== 'stop') throw new JsonError("Invalid op: Value error, Not in the list of possible values");
  const type = params.string('type') ?? 'direct';
  const channelTypes = has(realm.featureLevel, 'channelTypeName') ? ['stream', 'channel'] : ['stream'];
  if (channelTypes.includes(type)) {
    const streamId = params.int('stream_id');
    if (streamId === undefined) throw missingArgument('stream_id');
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
