// The reference's dialects: what it does at each point where the spec is silent. `zulip` makes
// Zulip's choice; `alternate` keeps every rule the spec states and makes each of those choices
// differently, so that the suite can be shown to judge the spec and not Zulip; `random` draws,
// for each decision, one of the two from a seed (and limits of its own), so that a seed sweep
// meets many conforming servers, not two. The area modules call a dialect where a decision
// falls; each member of the model's DialectDecisions names the decision of the catalog it
// belongs to (DECIDED_BY).

import type { DecisionId } from '../../conformance/rules.js';
import { alternate } from './alternate.js';
import { zulip } from './zulip.js';
import type { DialectDecisions } from '../model/model.js';

export type Dialect = 'zulip' | 'alternate' | 'random';
export const DIALECTS: readonly Dialect[] = ['zulip', 'alternate', 'random'];


/** The decision each member belongs to: the random dialect draws per decision, so that one decision's members agree. */
export const DECIDED_BY: { readonly [Member in keyof DialectDecisions]: DecisionId } = {
  realmSettings: 'general.realm-limits',
  nextId: 'general.ids-ascend',
  httpDateTime: 'general.date-header',
  channelHistoryReadable: 'general.channel-history-read',
  errorResponse: 'general.error-statuses',
  renderContent: 'general.message-rendering',
  headAnsweredAsGet: 'general.unknown-endpoints',
  optionsAnswered: 'general.unknown-endpoints',
  methodNotAllowed: 'general.unknown-endpoints',
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
  silentMentionsSetNothing: 'flags.silent-mentions',
  alertWordsInAnyCase: 'flags.alert-word-matching',
  alertWordsStandApart: 'flags.alert-word-matching',
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

