// The reference's dialects: what it does at each point where the spec is silent. `zulip` makes
// Zulip's choice; `alternate` keeps every rule the spec states and makes each of those choices
// differently, so that the suite can be shown to judge the spec and not Zulip; `random` draws,
// for each decision, one of the two from a seed (and limits of its own), so that a seed sweep
// meets many conforming servers, not two. The area modules call a dialect where a decision
// falls; each member below names the decision of the catalog it belongs to (DECIDED_BY).

import type { DecisionId } from '../conformance/rules.js';
import { alternate } from './dialects/alternate.js';
import { zulip } from './dialects/zulip.js';
import type { DraftFields } from './drafts.js';
import type { EmojiChange } from './emoji.js';
import type { ProfileFieldsChange } from './fields.js';
import type { FlagOperation } from './flags.js';
import type { UploadedFile } from './http.js';
import type {
  Channel, CustomEmoji, Draft, IdKind, ProfileField, ProfileFieldType, Realm, RealmSettings, Reminder, ScheduledMessage, User, UserId,
} from './model.js';
import type { JsonError } from './params.js';
import type { TypingOp } from './typing.js';

export type Dialect = 'zulip' | 'alternate' | 'random';
export const DIALECTS: readonly Dialect[] = ['zulip', 'alternate', 'random'];

type Event = Record<string, unknown> & { type: string };
type TypingEvent = { event: Event; audience: Iterable<UserId>; capability?: string };

export interface DialectDecisions {
  // general.realm-limits
  realmSettings(fixture: RealmSettings): RealmSettings;
  // general.ids-ascend (users are numbered 1, 2, 3 in every dialect); `lastMessage`, the last
  // message ID given out, for a dialect that numbers another kind in the messages' range
  nextId(kind: Exclude<IdKind, 'user'>, last: number, lastMessage: number): number;
  // general.date-header: the time the HTTP Date header tells, in unix seconds
  httpDateTime(realm: Realm): number;
  // general.channel-history-read: whether a read narrowed to a channel gives the channel's
  // history, or only what the user received or flagged, as a read without a narrow does
  channelHistoryReadable(): boolean;
  // general.error-statuses
  errorResponse(realm: Realm, error: JsonError): { status: number; headers: Record<string, string>; body: Record<string, unknown> };
  // general.message-rendering
  renderContent(realm: Realm, content: string): string;

  // drafts.sync-off-endpoints-refuse
  draftsReadableWhileSynchronizationOff(): boolean;
  // drafts.unknown-keys-rejected
  rejectsUnknownDraftKeys(): boolean;
  // drafts.content-normalized
  draftContent(realm: Realm, given: string, name: string): string;
  // drafts.negative-timestamp-rejected
  checkDraftTimestamp(realm: Realm, given: number): void;
  // drafts.topic-normalized
  draftTopic(realm: Realm, topic: string): string;
  // drafts.audience-normalized
  draftChannels(to: number[]): number[];
  directDraftAddress(user: User, to: number[], topic: string): Pick<DraftFields, 'type' | 'to' | 'topic'>;
  // drafts.invalid-audience-rejected
  checkDraftChannel(realm: Realm, user: User, id: number): void;
  checkDraftUsers(realm: Realm, ids: readonly number[]): void;
  // drafts.event-shapes
  draftsEvent(op: 'add' | 'update' | 'remove', drafts: readonly Draft[]): Event;
  // drafts.edit-delete-follow-model
  draftsListed(drafts: Draft[]): Draft[];
  draftNotFound(realm: Realm, id: number): JsonError;

  // scheduled.topic-normalized
  editedTopic(given: string): string;
  newMessageTopic(realm: Realm, given: string | undefined): string;
  // scheduled.limits-truncate
  fitScheduledToLimit(realm: Realm, text: string, what: 'topic' | 'content'): string;
  // scheduled.future-timestamp
  checkDeliveryTimeInFuture(realm: Realm, timestamp: number): void;
  // scheduled.error-texts
  scheduledEditLooksUpMessageFirst(): boolean;
  emptyScheduledEdit(): void;
  othersScheduledMessage(notFound: JsonError): JsonError;
  // scheduled.listing-shape
  scheduledMessageDict(realm: Realm, scheduled: ScheduledMessage): Record<string, unknown>;
  scheduledMessagesListed(list: ScheduledMessage[]): ScheduledMessage[];
  // scheduled.event-shapes
  scheduledMessageUpdateEvent(dict: Record<string, unknown>): Record<string, unknown>;
  scheduledMessageRemoveEvent(id: number): Record<string, unknown>;
  // scheduled.edit-clears-failed
  rescheduleFailedMessage(scheduled: ScheduledMessage): void;
  // scheduled.late-delivery-fails
  latestScheduledDeliverySeconds(): number;
  noticeFailedScheduledMessage(realm: Realm, sender: User, scheduled: ScheduledMessage, reason: string, failedAt: number): void;
  // scheduled.delivery
  forgetDeliveredScheduledMessage(realm: Realm, scheduled: ScheduledMessage): void;
  deliveryOrder(a: ScheduledMessage, b: ScheduledMessage): number;

  // fields.error-texts
  checksFieldTypeFirst(): boolean;
  // fields.field-data-rules
  checkSelectHasChoices(data: Record<string, unknown>): void;
  checkSelectChoiceUnique(texts: ReadonlySet<string>, text: string): void;
  externalAccountData(data: Record<string, unknown>): unknown;
  storedFieldData(type: ProfileFieldType, data: Record<string, unknown>): unknown;
  // fields.name-rules
  profileFieldName(given: string | undefined, hint: string): string;
  checkFieldNameFree(realm: Realm, name: string): void;
  // fields.listing-shape
  listsUnsetSummaryFlag(): boolean;
  profileFieldsListed(fields: ProfileField[]): ProfileField[];
  profileFieldsEvent(realm: Realm, change: ProfileFieldsChange): Event;

  // flags.error-texts
  flagsChecksOpFirst(): boolean;
  // flags.inaccessible-messages
  checkHistoryAccess(realm: Realm, user: User, ids: readonly number[]): void;
  // flags.event-shape
  flagsEvent(realm: Realm, user: User, op: FlagOperation, flag: string, modified: number[]): Event;

  // reminders.parameters
  checkReminderParametersGiven(messageId: number | undefined, timestamp: number | undefined): void;
  checkReminderTimeInFuture(when: number, now: number): void;
  // reminders.delivery
  reminderContent(realm: Realm, user: User, reminder: Reminder, note: string): string;
  latestReminderDeliverySeconds(): number;
  // reminders.listing-shape
  reminderDict(realm: Realm, reminder: Reminder): Record<string, unknown>;
  remindersListed(list: Reminder[]): Reminder[];
  remindersEvent(realm: Realm, op: 'add' | 'remove', reminder: Reminder): Record<string, unknown>;
  othersReminder(): JsonError;

  // emoji.name-rules
  emojiName(given: string): string;
  emojiNameLetters(): RegExp;
  checkEmojiNameLength(name: string): void;
  storedEmojiName(realm: Realm, name: string): string;
  checkEmojiNameFree(existing: CustomEmoji): void;
  // emoji.image-bytes
  checkDeclaredImageType(file: UploadedFile): void;
  // emoji.permission
  emojiUploaders(): 'members' | 'administrators';
  mayRemoveEmoji(realm: Realm, user: User, emoji: CustomEmoji): boolean;
  // emoji.listing-shape
  emojiListed(emoji: CustomEmoji[]): CustomEmoji[];
  emojiEvent(realm: Realm, change: EmojiChange): Event;
  emojiToRemove(found: CustomEmoji | undefined, name: string): CustomEmoji | undefined;

  // typing.event-shape
  directTypingEvent(realm: Realm, sender: User, op: TypingOp, userIds: UserId[]): TypingEvent;
  channelTypingEvent(realm: Realm, sender: User, op: TypingOp, channel: Channel, topic: string): TypingEvent;

  // defaults.event-shape
  defaultsEvents(changed: ReadonlyArray<readonly [string, unknown]>): Event[];
  // defaults.integer-ranges
  checkIntegerSetting(name: string, value: number): void;
}

/** The decision each member belongs to: the random dialect draws per decision, so that one decision's members agree. */
export const DECIDED_BY: { readonly [Member in keyof DialectDecisions]: DecisionId } = {
  realmSettings: 'general.realm-limits',
  nextId: 'general.ids-ascend',
  httpDateTime: 'general.date-header',
  channelHistoryReadable: 'general.channel-history-read',
  errorResponse: 'general.error-statuses',
  renderContent: 'general.message-rendering',
  draftsReadableWhileSynchronizationOff: 'drafts.sync-off-endpoints-refuse',
  rejectsUnknownDraftKeys: 'drafts.unknown-keys-rejected',
  draftContent: 'drafts.content-normalized',
  checkDraftTimestamp: 'drafts.negative-timestamp-rejected',
  draftTopic: 'drafts.topic-normalized',
  draftChannels: 'drafts.audience-normalized',
  directDraftAddress: 'drafts.audience-normalized',
  checkDraftChannel: 'drafts.invalid-audience-rejected',
  checkDraftUsers: 'drafts.invalid-audience-rejected',
  draftsEvent: 'drafts.event-shapes',
  draftsListed: 'drafts.edit-delete-follow-model',
  draftNotFound: 'drafts.edit-delete-follow-model',
  editedTopic: 'scheduled.topic-normalized',
  newMessageTopic: 'scheduled.topic-normalized',
  fitScheduledToLimit: 'scheduled.limits-truncate',
  checkDeliveryTimeInFuture: 'scheduled.future-timestamp',
  scheduledEditLooksUpMessageFirst: 'scheduled.error-texts',
  emptyScheduledEdit: 'scheduled.error-texts',
  othersScheduledMessage: 'scheduled.error-texts',
  scheduledMessageDict: 'scheduled.listing-shape',
  scheduledMessagesListed: 'scheduled.listing-shape',
  scheduledMessageUpdateEvent: 'scheduled.event-shapes',
  scheduledMessageRemoveEvent: 'scheduled.event-shapes',
  rescheduleFailedMessage: 'scheduled.edit-clears-failed',
  latestScheduledDeliverySeconds: 'scheduled.late-delivery-fails',
  noticeFailedScheduledMessage: 'scheduled.late-delivery-fails',
  forgetDeliveredScheduledMessage: 'scheduled.delivery',
  deliveryOrder: 'scheduled.delivery',
  checksFieldTypeFirst: 'fields.error-texts',
  checkSelectHasChoices: 'fields.field-data-rules',
  checkSelectChoiceUnique: 'fields.field-data-rules',
  externalAccountData: 'fields.field-data-rules',
  storedFieldData: 'fields.field-data-rules',
  profileFieldName: 'fields.name-rules',
  checkFieldNameFree: 'fields.name-rules',
  listsUnsetSummaryFlag: 'fields.listing-shape',
  profileFieldsListed: 'fields.listing-shape',
  profileFieldsEvent: 'fields.listing-shape',
  flagsChecksOpFirst: 'flags.error-texts',
  checkHistoryAccess: 'flags.inaccessible-messages',
  flagsEvent: 'flags.event-shape',
  checkReminderParametersGiven: 'reminders.parameters',
  checkReminderTimeInFuture: 'reminders.parameters',
  reminderContent: 'reminders.delivery',
  latestReminderDeliverySeconds: 'reminders.delivery',
  reminderDict: 'reminders.listing-shape',
  remindersListed: 'reminders.listing-shape',
  remindersEvent: 'reminders.listing-shape',
  othersReminder: 'reminders.listing-shape',
  emojiName: 'emoji.name-rules',
  emojiNameLetters: 'emoji.name-rules',
  checkEmojiNameLength: 'emoji.name-rules',
  storedEmojiName: 'emoji.name-rules',
  checkEmojiNameFree: 'emoji.name-rules',
  checkDeclaredImageType: 'emoji.image-bytes',
  emojiUploaders: 'emoji.permission',
  mayRemoveEmoji: 'emoji.permission',
  emojiListed: 'emoji.listing-shape',
  emojiEvent: 'emoji.listing-shape',
  emojiToRemove: 'emoji.listing-shape',
  directTypingEvent: 'typing.event-shape',
  channelTypingEvent: 'typing.event-shape',
  defaultsEvents: 'defaults.event-shape',
  checkIntegerSetting: 'defaults.integer-ranges',
};

/** A 32-bit hash of the seed and a text (FNV-1a, then mixed), for the random dialect's draws. */
function draw(seed: number, text: string): number {
  let hash = (2166136261 ^ seed) >>> 0;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> 0;
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** The random dialect's choice for a decision: the alternate dialect's (true) or Zulip's. */
export function drawnAlternate(seed: number, decision: string): boolean {
  return (draw(seed, decision) & 1) === 1;
}

/** general.realm-limits in the random dialect: limits and an empty-topic display name of its own. */
export function drawnRealmSettings(seed: number) {
  const names = ['(sans sujet)', 'general chat', '(kein Thema)', '¿sin tema?', 'no-topic'];
  return {
    emptyTopicDisplayName: names[draw(seed, 'topic name') % names.length]!,
    maxMessageLength: 1000 + (draw(seed, 'message length') % 9001),
    maxTopicLength: 20 + (draw(seed, 'topic length') % 61),
  };
}

/** The random dialect of a seed: for each decision, Zulip's members or the alternate's. */
function randomDialect(seed: number): DialectDecisions {
  const members = Object.keys(DECIDED_BY) as Array<keyof DialectDecisions>;
  const drawn = Object.fromEntries(members.map((member) => [member, (drawnAlternate(seed, DECIDED_BY[member]) ? alternate : zulip)[member]])) as unknown as DialectDecisions;
  if (drawnAlternate(seed, 'general.realm-limits')) drawn.realmSettings = (fixture) => ({ ...fixture, ...drawnRealmSettings(seed) });
  return drawn;
}

export function dialectDecisions(dialect: Dialect, seed = 0): DialectDecisions {
  if (dialect === 'random') return randomDialect(seed);
  return dialect === 'alternate' ? alternate : zulip;
}

