// Personal message flags: spec "Message flag", "States and transitions" and "Endpoints 6.
// Update personal message flags".

import { sendEvent } from '../model/events.js';
import type { Request } from '../model/request.js';
import { has } from '../model/levels.js';
import { FLAG_BITS, type ChannelId, type Message, type MessageId, type Realm, type StoredFlag, type User, type FlagOperation, type FlagsResult } from '../model/model.js';
import { messageIsAccessible } from '../model/messaging.js';
import { JsonError, checkIntList, missingArgument, type Params } from '../model/params.js';

/** The flags the flags operation can change. */
export const CHANGEABLE_FLAGS: readonly StoredFlag[] = ['read', 'starred', 'collapsed'];

/**
 * Every flag name of the spec's table that exists at the level. Decision flags.error-texts: it
 * tells an unknown name ("Invalid flag") from a name that is not changeable ("Flag not editable").
 * The spec refuses both alike, every name but read, starred and collapsed: the table chooses the
 * text alone.
 */
export function flagTableAt(level: number): string[] {
  const wildcardFlags = level >= 224 ? ['stream_wildcard_mentioned', 'topic_wildcard_mentioned'] : [];
  return ['read', 'starred', 'collapsed', 'mentioned', ...wildcardFlags, 'has_alert_word', 'historical', 'wildcard_mentioned'];
}

/** What a user's copy has when the user never received the message: read, historical. */
const HISTORICAL_DEFAULT = FLAG_BITS.read | FLAG_BITS.historical;

function unsubscribedChannelOf(realm: Realm, user: User, message: Message | undefined): ChannelId | null {
  if (!message || message.recipient.type !== 'stream') return null;
  const channel = realm.channels.get(message.recipient.channelId)!;
  return channel.subscribers.has(user.id) ? null : channel.id;
}

/** The IDs in their order, each once; IDs in ascending order, as clients send them, have no repeats to look for. */
function withoutRepeats(ids: readonly number[]): readonly number[] {
  for (let index = 1; index < ids.length; index++) {
    if (ids[index]! <= ids[index - 1]!) return [...new Set(ids)];
  }
  return ids;
}

// ---- Rules ------------------------------------------------------------------------------

/**
 * Decision flags.error-texts: a parameter left out is named as missing, as Zulip names it. The
 * checks of its value refuse it as well (no list, no operation, no changeable flag): this chooses
 * the text alone.
 */
function missingNamed(value: unknown, name: string): void {
  if (value === undefined) throw missingArgument(name);
}

/** flags.required-parameters */
function flagParameter(params: Params): string {
  const flag = params.string('flag');
  missingNamed(flag, 'flag');
  return flag as string;
}

/** flags.op-add-or-remove */
function checkFlagOperation(op: string): FlagOperation {
  if (op === 'add' || op === 'remove') return op;
  throw new JsonError(`Invalid message flag operation: '${op}'`);
}

/**
 * flags.error-texts (the texts are not shown): Zulip refuses a name outside the flag table at the
 * level with other words than a name of the table that cannot be changed. It only chooses the
 * words: every name but read, starred and collapsed is refused by the next check all the same.
 * From level 224 Zulip stores the channel wildcard as stream_wildcard_mentioned and only reports
 * wildcard_mentioned, so it calls that an invalid flag.
 */
function checkFlagInTable(realm: Realm, flag: string): void {
  const known = flagTableAt(realm.featureLevel).includes(flag) && !(flag === 'wildcard_mentioned' && has(realm.featureLevel, 'splitWildcardMentionFlags'));
  if (!known) throw new JsonError(`Invalid flag: '${flag}'`);
}

/** flags.only-changeable-flags */
function checkChangeableFlag(flag: string): StoredFlag {
  if (!CHANGEABLE_FLAGS.includes(flag as StoredFlag)) throw new JsonError(`Flag not editable: '${flag}'`);
  return flag as StoredFlag;
}

/**
 * flags.remove-read-skips-unsubscribed: the unread invariant. Removing read skips the
 * messages of channels the user is not subscribed to, and names those channels.
 */
function messagesToChange(realm: Realm, user: User, op: FlagOperation, flag: StoredFlag, ids: readonly number[]): { candidates: readonly number[]; ignoredChannels: number[] } {
  const unique = withoutRepeats(ids);
  if (flag !== 'read' || op !== 'remove') return { candidates: unique, ignoredChannels: [] };
  const ignoredChannels = new Set<number>();
  const candidates: number[] = [];
  for (const id of unique) {
    const unsubscribed = unsubscribedChannelOf(realm, user, realm.messages.get(id as MessageId));
    if (unsubscribed !== null) ignoredChannels.add(unsubscribed);
    else candidates.push(id);
  }
  return { candidates, ignoredChannels: [...ignoredChannels].sort((a, b) => a - b) };
}

/** flags.historical-flag: a message from a channel's history gets read and historical. */
function flagsOfHistoricalMessage(): number {
  return HISTORICAL_DEFAULT;
}

/** flags.add-sets-flag; flags.remove-clears-flag: returns whether the flag changed. */
function changeFlag(message: Message, user: User, flag: StoredFlag, op: FlagOperation, bits: number): boolean {
  const bit = FLAG_BITS[flag];
  const target = op === 'add';
  if (((bits & bit) !== 0) === target) return false;
  message.userFlags.set(user.id, target ? bits | bit : bits & ~bit);
  return true;
}

/** flags.response-lists-modified; flags.response-lists-only-modified */
function listedMessages(result: FlagsResult, _requested: readonly number[]): number[] {
  return result.modified;
}

/** flags.ignored-channels-only-for-read-remove; flags.ignored-channels-absent-before-355 */
function listsIgnoredChannels(realm: Realm, op: FlagOperation, flag: StoredFlag): boolean {
  return has(realm.featureLevel, 'ignoredBecauseNotSubscribedChannels') && flag === 'read' && op === 'remove';
}

export const FLAG_RULES = {
  flagParameter, checkFlagOperation, checkFlagInTable, checkChangeableFlag, messagesToChange, flagsOfHistoricalMessage, changeFlag, listedMessages, listsIgnoredChannels,
};

// ---- Actions ------------------------------------------------------------------------------

/**
 * Gives (op add) or takes away (op remove) the flag on each message. A message whose flag
 * already had the asked value is not modified, so not listed (flags.response-lists-only-modified:
 * the spec says `messages` "holds the IDs of modified messages"; Zulip lists every requested ID).
 */
export function doUpdateMessageFlags(realm: Realm, user: User, op: FlagOperation, flag: StoredFlag, ids: readonly number[]): FlagsResult {
  const { candidates, ignoredChannels } = realm.rules.messagesToChange(realm, user, op, flag, ids);
  // A message the user never received has the historical default flags. Changing one of
  // those away from the default needs read access to the message (flags.inaccessible-messages).
  const needsHistoryRow = ((HISTORICAL_DEFAULT & FLAG_BITS[flag]) !== 0) !== (op === 'add');
  checkHistoryAccess(realm, user, candidates, needsHistoryRow);
  const modified: number[] = [];
  for (const id of candidates) {
    const message = realm.messages.get(id as MessageId);
    if (!message) continue;
    let bits = message.userFlags.get(user.id);
    if (bits === undefined) {
      if (!needsHistoryRow || !messageIsAccessible(realm, user, message)) continue;
      bits = realm.rules.flagsOfHistoricalMessage();
    }
    if (realm.rules.changeFlag(message, user, flag, op, bits)) modified.push(id);
  }
  announceFlags(realm, user, op, flag, modified);
  return { modified, ignoredChannels };
}

/** flags.inaccessible-messages: whether the user may give a message they never received flags other than its default. */
function checkHistoryAccess(realm: Realm, user: User, candidates: readonly number[], needsHistoryRow: boolean): void {
  if (needsHistoryRow) realm.dialect.checkHistoryAccess(realm, user, candidates);
}

/** flags.event-shape: the change, to the user's own clients. */
function announceFlags(realm: Realm, user: User, op: FlagOperation, flag: StoredFlag, modified: number[]): void {
  sendEvent(realm, realm.dialect.flagsEvent(realm, user, op, flag, modified), realm.rules.ownDataAudience(realm, user));
}

/** flags.event-shape: the details of messages marked unread, as Zulip's update_message_flags events give them. */
export function messageDetails(realm: Realm, user: User, ids: number[]): Record<string, unknown> {
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

// ---- Operations ---------------------------------------------------------------------------

/** flags.error-texts: the name a refusal of a messages parameter that is no list of IDs gives ('messages is not a list'); the refusal itself stays in checkMessages. */
const MESSAGES_NAMED = 'messages';

function checkMessages(params: Params): number[] {
  const list = params.list('messages');
  missingNamed(list, 'messages');
  return checkIntList(list, MESSAGES_NAMED);
}

function checkOp({ realm, params }: Request): FlagOperation {
  const op = params.string('op');
  missingNamed(op, 'op');
  return realm.rules.checkFlagOperation(op as string);
}

function checkFlag({ realm, params }: Request): StoredFlag {
  const flag = realm.rules.flagParameter(params);
  realm.rules.checkFlagInTable(realm, flag);
  return realm.rules.checkChangeableFlag(flag);
}

/**
 * flags.error-texts: the order the parameters are checked in. Zulip reads messages, then the
 * presence of op and flag, then flag, then op's value; the dialect may check op, then flag, then messages.
 */
function flagsParameters(request: Request): { readonly ids: number[]; readonly op: FlagOperation; readonly flag: StoredFlag } {
  if (request.realm.dialect.flagsChecksOpFirst()) {
    const op = checkOp(request);
    const flag = checkFlag(request);
    return { ids: checkMessages(request.params), op, flag };
  }
  const ids = checkMessages(request.params);
  if (!request.params.has('op')) throw missingArgument('op');
  const flag = checkFlag(request);
  return { ids, op: checkOp(request), flag };
}

export function updateMessageFlags(request: Request) {
  const { realm, user } = request;
  const { ids, op, flag } = flagsParameters(request);
  const result = doUpdateMessageFlags(realm, user, op, flag, ids);
  const response: Record<string, unknown> = { messages: realm.rules.listedMessages(result, ids) };
  if (realm.rules.listsIgnoredChannels(realm, op, flag)) response.ignored_because_not_subscribed_channels = result.ignoredChannels;
  return response;
}
