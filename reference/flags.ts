// Personal message flags: spec "Message flag", "States and transitions" and "Endpoints 6.
// Update personal message flags".

import { sendEvent } from './events.js';
import type { Request } from './http.js';
import { has } from './levels.js';
import { FLAG_BITS, type ChannelId, type Message, type MessageId, type Realm, type StoredFlag, type User } from './model.js';
import { messageIsAccessible } from './messages.js';
import { JsonError, checkIntList, missingArgument } from './params.js';

/** The flags the flags operation can change. */
export const CHANGEABLE_FLAGS: readonly StoredFlag[] = ['read', 'starred', 'collapsed'];

/** Every flag name of the spec's table that exists at the level. */
export function flagTableAt(level: number): string[] {
  const wildcardFlags = level >= 224 ? ['stream_wildcard_mentioned', 'topic_wildcard_mentioned'] : [];
  return ['read', 'starred', 'collapsed', 'mentioned', ...wildcardFlags, 'has_alert_word', 'historical', 'wildcard_mentioned'];
}

export interface FlagsResult {
  modified: number[];
  ignoredChannels: number[];
}

/** What a user's copy has when the user never received the message: read, historical. */
const HISTORICAL_DEFAULT = FLAG_BITS.read | FLAG_BITS.historical;

function unsubscribedChannelOf(realm: Realm, user: User, message: Message | undefined): ChannelId | null {
  if (!message || message.recipient.type !== 'stream') return null;
  const channel = realm.channels.get(message.recipient.channelId)!;
  return channel.subscribers.has(user.id) ? null : channel.id;
}

/**
 * Gives (op add) or takes away (op remove) the flag on each message. flags.response-lists-only-
 * modified: the spec says `messages` "holds the IDs of modified messages", so a message whose
 * flag already had the asked value is not listed (Zulip lists every requested ID).
 */
export function doUpdateMessageFlags(realm: Realm, user: User, op: 'add' | 'remove', flag: StoredFlag, ids: readonly number[]): FlagsResult {
  const bit = FLAG_BITS[flag];
  const target = op === 'add';
  const ignoredChannels = new Set<number>();
  const candidates: number[] = [];
  for (const id of new Set(ids)) {
    const message = realm.messages.get(id as MessageId);
    const unsubscribed = unsubscribedChannelOf(realm, user, message);
    // flags.remove-read-skips-unsubscribed: the unread invariant.
    if (flag === 'read' && !target && unsubscribed !== null) {
      ignoredChannels.add(unsubscribed);
      if (!realm.fault('flags.remove-read-skips-unsubscribed')) continue;
    }
    candidates.push(id);
  }
  // A message the user never received has the historical default flags. Changing one of
  // those away from the default needs read access to the message (flags.inaccessible-messages).
  const defaultHasFlag = (HISTORICAL_DEFAULT & bit) !== 0;
  const needsHistoryRow = defaultHasFlag !== target;
  // The alternate dialect skips such messages silently instead.
  if (needsHistoryRow && !realm.fault('flags.inaccessible-messages') && !realm.alternate('flags.inaccessible-messages')) {
    for (const id of candidates) {
      const message = realm.messages.get(id as MessageId);
      if (!message || (!message.userFlags.has(user.id) && !messageIsAccessible(realm, user, message))) throw new JsonError('Invalid message(s)');
    }
  }
  const modified: number[] = [];
  for (const id of candidates) {
    const message = realm.messages.get(id as MessageId);
    if (!message) continue;
    let bits = message.userFlags.get(user.id);
    if (bits === undefined) {
      if (!needsHistoryRow || !messageIsAccessible(realm, user, message)) continue;
      bits = realm.fault('flags.historical-flag') ? FLAG_BITS.read : HISTORICAL_DEFAULT;
    }
    if (flag === 'collapsed' && !target && realm.fault('flags.model-sequence')) message.userFlags.set(user.id, (bits &= ~FLAG_BITS.starred));
    if (((bits & bit) !== 0) === target) continue;
    if (flag === 'collapsed' && target && realm.fault('flags.add-sets-flag')) continue;
    if (flag === 'starred' && !target && realm.fault('flags.remove-clears-flag')) continue;
    message.userFlags.set(user.id, target ? bits | bit : bits & ~bit);
    modified.push(id);
  }
  sendEvent(realm, flagsEvent(realm, user, op, flag, modified), [user.id]);
  return { modified, ignoredChannels: [...ignoredChannels].sort((a, b) => a - b) };
}

/** flags.event-shape */
function flagsEvent(realm: Realm, user: User, op: 'add' | 'remove', flag: StoredFlag, modified: number[]) {
  if (realm.alternate('flags.event-shape')) return { type: 'update_message_flags', op, flag, messages: [...modified].sort((a, b) => a - b) };
  const event: Record<string, unknown> = { type: 'update_message_flags', op, operation: op, flag, messages: modified, all: false };
  if (realm.fault('flags.event-shape')) delete event.operation;
  if (flag === 'read' && op === 'remove') event.message_details = messageDetails(realm, user, modified);
  return event as { type: string };
}

function messageDetails(realm: Realm, user: User, ids: number[]): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  for (const id of ids) {
    const message = realm.messages.get(id as MessageId)!;
    const mentioned = ((message.userFlags.get(user.id) ?? 0) & FLAG_BITS.mentioned) !== 0;
    const detail: Record<string, unknown> = message.recipient.type === 'stream'
      ? { type: 'stream', stream_id: message.recipient.channelId, topic: message.recipient.topic, unmuted_stream_msg: true }
      : { type: 'private', user_ids: message.recipient.userIds.filter((other) => other !== user.id) };
    if (mentioned) detail.mentioned = true;
    details[String(id)] = detail;
  }
  return details;
}

function checkMessages({ params }: Request): number[] {
  const list = params.list('messages');
  if (list === undefined) throw missingArgument('messages');
  return checkIntList(list, 'messages');
}

function checkOp({ realm, params }: Request): 'add' | 'remove' {
  const op = params.string('op');
  if (op === undefined) throw missingArgument('op');
  if (op === 'add' || op === 'remove') return op;
  if (!realm.fault('flags.op-add-or-remove')) throw new JsonError(`Invalid message flag operation: '${op}'`);
  return 'add';
}

function checkFlag({ realm, params }: Request): StoredFlag {
  let flag = params.string('flag');
  if (flag === undefined) {
    if (!realm.fault('flags.required-parameters')) throw missingArgument('flag');
    flag = 'read';
  }
  if (!flagTableAt(realm.featureLevel).includes(flag)) {
    throw new JsonError(realm.fault('flags.error-texts') ? `Unknown flag ${flag}` : `Invalid flag: '${flag}'`);
  }
  const changeable = CHANGEABLE_FLAGS.includes(flag as StoredFlag) || (flag === 'mentioned' && realm.fault('flags.only-changeable-flags'));
  if (!changeable) throw new JsonError(`Flag not editable: '${flag}'`);
  return flag as StoredFlag;
}

export function updateMessageFlags(request: Request) {
  const { realm, user } = request;
  let ids: number[], op: 'add' | 'remove', flag: StoredFlag;
  // flags.error-texts: Zulip reads messages, then the presence of op and flag, then flag, then
  // op's value; the alternate dialect checks op, then flag, then messages.
  if (realm.alternate('flags.error-texts')) {
    op = checkOp(request);
    flag = checkFlag(request);
    ids = checkMessages(request);
  } else {
    ids = checkMessages(request);
    if (!request.params.has('op')) throw missingArgument('op');
    flag = checkFlag(request);
    op = checkOp(request);
  }
  const result = doUpdateMessageFlags(realm, user, op, flag, ids);
  let messages = result.modified;
  if (realm.fault('flags.response-lists-only-modified')) messages = [...ids];
  if (realm.fault('flags.response-lists-modified') && messages.length > 1) messages = messages.slice(1);
  const response: Record<string, unknown> = { messages };
  if (realm.fault('general.envelope')) response.msg = 'Flags updated';
  const readRemove = flag === 'read' && op === 'remove';
  const gated = has(realm.featureLevel, 'ignoredBecauseNotSubscribedChannels');
  if ((gated && (readRemove || realm.fault('flags.ignored-channels-only-for-read-remove'))) || (!gated && realm.fault('flags.ignored-channels-absent-before-355'))) {
    response.ignored_because_not_subscribed_channels = realm.fault('flags.ignored-channels-listed') ? [] : result.ignoredChannels;
  }
  return response;
}
