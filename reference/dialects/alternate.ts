// The alternate dialect: a second conforming server. It keeps every rule the spec states and
// decides every point where the spec is silent otherwise than Zulip, as the rule catalog's
// `alternate` texts record it.

import { draftDict } from '../operations/drafts.js';
import { UNICODE_NAME, emojiDict, mayUploadEmoji } from '../operations/emoji.js';
import { profileFieldDict } from '../operations/fields.js';
import { has } from '../model/levels.js';
import { messageUrl } from '../operations/reminders.js';
import { escapeHtml } from '../model/rendering.js';
import type { DialectDecisions, DraftId } from '../model/model.js';
import { JsonError } from '../model/params.js';
import { checkEditedTopic } from '../operations/scheduled.js';
import { characterLength, normalizeContent } from '../model/text.js';

/** general.realm-limits: the alternate dialect's own limits and empty-topic display name. */
export const ALTERNATE_REALM_SETTINGS = { emptyTopicDisplayName: '(sans sujet)', maxMessageLength: 4321, maxTopicLength: 47 };

/** Scattered IDs: the Lehmer sequence mod 2^31-1, distinct and in no order, from a seed per kind. */
const LEHMER_SEEDS = { scheduledMessage: 7 } as const;

/**
 * Draft IDs in the messages' range, scattered: blocks of 16 IDs, each block opened past the last
 * message ID given out and handed out in this order. The messages sent next take the same
 * numbers, so that a draft's ID is also a message's, as on a server whose IDs come from one range.
 */
const DRAFT_BLOCK = [5, 12, 2, 9, 15, 0, 7, 13, 3, 10, 1, 14, 8, 4, 11, 6];

function nextDraftId(last: number, lastMessage: number): number {
  const block = last === 0 ? -1 : Math.floor((last - 1) / DRAFT_BLOCK.length);
  const position = last === 0 ? DRAFT_BLOCK.length - 1 : DRAFT_BLOCK.indexOf((last - 1) % DRAFT_BLOCK.length);
  if (position < DRAFT_BLOCK.length - 1) return block * DRAFT_BLOCK.length + DRAFT_BLOCK[position + 1]! + 1;
  const next = Math.max(block + 1, Math.ceil(lastMessage / DRAFT_BLOCK.length));
  return next * DRAFT_BLOCK.length + DRAFT_BLOCK[0]! + 1;
}
/** Gaps between the IDs of other kinds. */
const STEPS: Readonly<Record<string, number>> = { channel: 10, reminder: 5, profileField: 3, emoji: 1 };

const ALTERNATE_CODES: Readonly<Record<string, string>> = {
  BAD_REQUEST: 'INVALID_PARAMETER',
  REQUEST_VARIABLE_MISSING: 'MISSING_PARAMETER',
  UNAUTHORIZED: 'AUTHENTICATION_FAILED',
  INVALID_API_KEY: 'AUTHENTICATION_FAILED',
  UNAUTHORIZED_PRINCIPAL: 'FORBIDDEN',
};

const challenge = (status: number): Record<string, string> => (status === 401 ? { 'WWW-Authenticate': 'Basic realm="teamchat"' } : {});

export const alternate: DialectDecisions = {
  // ---- general ----
  realmSettings: (fixture) => ({ ...fixture, ...ALTERNATE_REALM_SETTINGS }),
  nextId(kind, last, lastMessage) {
    if (kind === 'draft') return nextDraftId(last, lastMessage);
    if (kind === 'scheduledMessage') return ((last === 0 ? LEHMER_SEEDS[kind] : last) * 48271) % 2147483647;
    if (kind === 'message') return last + 1 + (last % 3);
    return last + STEPS[kind]!;
  },
  // The machine's time, whatever the reference clock says: the suite must read the API's time.
  httpDateTime: () => Date.now() / 1000,
  channelHistoryReadable: () => false,
  // An error of the spec's error table keeps its code and says it in the alternate's words;
  // any other error gets the alternate's status, code and text.
  errorResponse(_realm, error) {
    if (error.alternative) {
      const { status } = error.alternative;
      return { status, headers: challenge(status), body: { result: 'error', msg: error.alternative.msg, code: error.code, ...error.extra } };
    }
    const missingCredentials = error.status === 401 && error.msg.startsWith('Not logged in');
    const status = error.status === 400 ? 422 : error.status === 401 && !missingCredentials ? 403 : error.code === 'UNAUTHORIZED_PRINCIPAL' ? 403 : error.status;
    const msg = `Refused: ${error.msg.charAt(0).toLowerCase()}${error.msg.slice(1)}`;
    const { var_name: _zulipOnly, ...extra } = error.extra;
    return { status, headers: challenge(status), body: { result: 'error', msg, code: ALTERNATE_CODES[error.code] ?? error.code, ...extra } };
  },
  renderContent: (_realm, content) => `<div class="tc-message">${escapeHtml(content).replace(/\n/g, '<br>\n')}</div>`,
  // Only the methods a path has are answered: any other, HEAD and OPTIONS among them, is a path it does not have.
  headAnsweredAsGet: () => false,
  optionsAnswered: () => false,
  methodNotAllowed: () => ({ error: new JsonError('Not Found', 404), allow: false }),

  // ---- drafts ----
  draftsReadableWhileSynchronizationOff: () => true,
  rejectsUnknownDraftKeys: () => false,
  // Content as sent, refused past the limit.
  draftContent(realm, given, name) {
    if (given.includes('\0')) throw new JsonError('Message must not contain null bytes');
    if (characterLength(given) > realm.settings.maxMessageLength) throw new JsonError(`${name} is longer than ${realm.settings.maxMessageLength} characters`);
    return given;
  },
  checkDraftTimestamp(realm, given) {
    if (given > realm.clock.now() + 60) throw new JsonError('A draft cannot have been edited in the future');
  },
  draftTopic(realm, topic) {
    const max = realm.settings.maxTopicLength;
    if (characterLength(topic) > max) throw new JsonError(`The topic is longer than ${max} characters`);
    return topic;
  },
  // "Exactly one channel ID" as one distinct ID: [7, 7] is channel 7.
  draftChannels: (to) => [...new Set(to)],
  directDraftAddress: (_user, to) => ({ type: 'private', to, topic: '' }),
  checkDraftChannel: () => {},
  checkDraftUsers: () => {},
  draftsEvent(op, drafts) {
    if (op === 'add') return { type: 'drafts', op: 'created', drafts: drafts.map(draftDict) };
    if (op === 'update') return { type: 'drafts', op: 'edited', draft: draftDict(drafts[0]!) };
    return { type: 'drafts', op: 'deleted', draft_ids: drafts.map((draft) => draft.id) };
  },
  // The newest first.
  draftsListed: (drafts) => [...drafts].reverse(),
  // Another user's draft is forbidden; a missing one is not found.
  draftNotFound(realm, id) {
    const othersDraft = [...realm.users.values()].some((other) => other.drafts.has(id as DraftId));
    const error = new JsonError('Draft does not exist', 404);
    return othersDraft ? error.otherwise('That draft belongs to another user', 403) : error.otherwise(`No draft has ID ${id}`, 404);
  },

  // ---- scheduled messages ----
  editedTopic: (given) => given,
  // A new message's topic as an edit's: not stripped, refused past the limit.
  newMessageTopic(realm, given) {
    if (given === undefined) throw new JsonError('Missing topic');
    return checkEditedTopic(realm, given, false);
  },
  fitScheduledToLimit(realm, text, what) {
    if (what === 'topic') {
      const max = realm.settings.maxTopicLength;
      if (characterLength(text) > max) throw new JsonError(`Topics are at most ${max} characters long`);
      return text;
    }
    const max = realm.settings.maxMessageLength;
    if (characterLength(text.trimEnd()) > max) throw new JsonError('Message too long');
    return normalizeContent(text, max);
  },
  // A past time is "due now".
  checkDeliveryTimeInFuture: () => {},
  // The message is looked up first; an empty edit changes nothing and succeeds; `to` and a
  // topic are asked for only when the type changes, as the spec says.
  scheduledEditLooksUpMessageFirst: () => true,
  emptyScheduledEdit: () => {},
  othersScheduledMessage: () => new JsonError('Scheduled message does not exist', 403, 'FORBIDDEN').otherwise('That scheduled message belongs to another user', 403),
  scheduledMessageDict(realm, scheduled) {
    const { recipient } = scheduled;
    const channelType = has(realm.featureLevel, 'channelTypeName') ? 'channel' : 'stream';
    return {
      scheduled_message_id: scheduled.id,
      type: recipient.type === 'stream' ? channelType : 'direct',
      to: recipient.type === 'stream' ? recipient.channelId : recipient.userIds,
      topic: recipient.type === 'stream' ? recipient.topic : '',
      content: scheduled.content,
      scheduled_delivery_timestamp: scheduled.deliveryTimestamp,
      failed: scheduled.failed,
    };
  },
  // The latest first.
  scheduledMessagesListed: (list) => [...list].reverse(),
  scheduledMessageUpdateEvent: (dict) => ({ op: 'update', scheduled_messages: [dict] }),
  scheduledMessageRemoveEvent: (id) => ({ op: 'remove', scheduled_message_ids: [id] }),
  // Still listed as failed until it is sent.
  rescheduleFailedMessage(scheduled) {
    scheduled.retry = scheduled.failed;
    scheduled.failureMessage = null;
  },
  latestScheduledDeliverySeconds: () => 5 * 60,
  // Fails silently.
  noticeFailedScheduledMessage: () => {},
  // A delivered message is no longer scheduled: it is gone.
  forgetDeliveredScheduledMessage(realm, scheduled) {
    realm.scheduledMessages.delete(scheduled.id);
  },
  // Strictly by delivery time.
  deliveryOrder: (a, b) => a.deliveryTimestamp - b.deliveryTimestamp || a.id - b.id,

  // ---- custom profile fields ----
  checksFieldTypeFirst: () => true,
  checkSelectHasChoices: () => {},
  checkSelectChoiceUnique: () => {},
  externalAccountData: (data) => data,
  // The object given, as given.
  storedFieldData: (_type, data) => data,
  profileFieldName(given, hint) {
    if (characterLength(given ?? '') > 60) throw new JsonError('name is longer than 60 characters');
    if (characterLength(hint) > 120) throw new JsonError('hint is longer than 120 characters');
    return given ?? '';
  },
  checkFieldNameFree: () => {},
  listsUnsetSummaryFlag: () => true,
  // The newest first.
  profileFieldsListed: (fields) => [...fields].reverse(),
  profileFieldsEvent: (realm, change) => ('add' in change
    ? { type: 'custom_profile_fields', op: 'add', field: profileFieldDict(realm, change.add) }
    : { type: 'custom_profile_fields', op: 'remove', field_id: change.remove }),

  // ---- message flags ----
  flagsChecksOpFirst: () => true,
  // Messages the user may not read are skipped silently.
  checkHistoryAccess: () => {},
  // A silent mention is a mention.
  silentMentionsSetNothing: () => false,
  // An alert word counts only as registered, and inside a longer word too.
  alertWordsInAnyCase: () => false,
  alertWordsStandApart: () => false,
  flagsEvent: (_realm, _user, op, flag, modified) => ({ type: 'update_message_flags', op, flag, messages: [...modified].sort((a, b) => a - b) }),

  // ---- reminders ----
  // Both optional: a reminder of a note alone, an hour ahead; a past time is due now.
  checkReminderParametersGiven: () => {},
  checkReminderTimeInFuture: () => {},
  reminderContent(realm, _user, reminder, note) {
    const message = reminder.messageId === null ? undefined : realm.messages.get(reminder.messageId);
    return `Reminder: ${message ? messageUrl(realm, message) : 'a note to yourself'}${note !== '' ? `\n\n${note}` : ''}`;
  },
  // Found over five minutes late, a reminder fails.
  latestReminderDeliverySeconds: () => 5 * 60,
  reminderDict: (_realm, reminder) => ({
    reminder_id: reminder.id, message_id: reminder.messageId, scheduled_delivery_timestamp: reminder.deliveryTimestamp, note: reminder.note, failed: reminder.failed,
  }),
  remindersListed: (list) => [...list].reverse(),
  remindersEvent: (realm, op, reminder) => (op === 'add' ? { op: 'created', reminder: alternate.reminderDict(realm, reminder) } : { op: 'deleted', reminder_ids: [reminder.id] }),
  othersReminder: () => new JsonError('Reminder does not exist', 403, 'FORBIDDEN').otherwise('That reminder belongs to another user', 403),

  // ---- custom emoji ----
  // Any letters, not stripped, at most 40 characters, stored as given; an upload under an
  // active name replaces that emoji.
  emojiName: (given) => given,
  emojiNameLetters: () => UNICODE_NAME,
  checkEmojiNameLength(name) {
    if ([...name].length > 40) throw new JsonError('Emoji names are at most 40 characters long');
  },
  storedEmojiName: (_realm, name) => name,
  checkEmojiNameFree: () => {},
  // A file must also be declared an image.
  checkDeclaredImageType(file) {
    if (!file.mimeType.startsWith('image/')) throw new JsonError('Invalid image format', 400, 'BAD_IMAGE');
  },
  // Administrators upload, and may remove any emoji.
  emojiUploaders: () => 'administrators',
  mayRemoveEmoji: (realm, user) => mayUploadEmoji(realm, user),
  // Removed emoji leave the list.
  emojiListed: (emoji) => emoji.filter((one) => !one.deactivated),
  emojiEvent: (realm, change) => ('add' in change ? { type: 'realm_emoji', op: 'add', emoji: emojiDict(realm, change.add) } : { type: 'realm_emoji', op: 'remove', name: change.remove }),
  // By the name as the spec compares names.
  emojiToRemove: (found) => found,

  // ---- typing notifications ----
  directTypingEvent: (_realm, sender, op, userIds) => ({ event: { type: 'typing', op, message_type: 'direct', sender_id: sender.id, recipient_ids: userIds }, audience: userIds }),
  channelTypingEvent: (_realm, sender, op, channel) => ({
    event: { type: 'typing', op, message_type: 'channel', sender_id: sender.id, recipient_ids: [...channel.subscribers] }, audience: channel.subscribers,
  }),

  // ---- settings defaults ----
  // One event for all the changes.
  defaultsEvents: (changed) => (changed.length === 0 ? [] : [{ type: 'realm_user_settings_defaults', op: 'update', changes: Object.fromEntries(changed) }]),
  checkIntegerSetting(name, value) {
    const range: Record<string, [number, number]> = { web_font_size_px: [1, 1000], web_line_height_percent: [1, 1000], email_notifications_batching_period_seconds: [0, 30 * 86_400] };
    const [min, max] = range[name] ?? [-Infinity, Infinity];
    if (value < min || value > max) throw new JsonError(`${name} must lie between ${min} and ${max}`);
  },
};
