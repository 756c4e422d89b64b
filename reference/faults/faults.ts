// Seeded faults: each one breaks exactly one rule, and carries that rule's ID as its name,
// so that the suite's self-test can check that the rule catches it. Switched on by the
// environment variable TEAMCHAT_FAULTS (comma-separated) or the server options.

import type { RuleId } from '../../conformance/rules.js';
import { dialectDecisions, type Dialect } from '../dialects/dialect.js';
import { alternate } from '../dialects/alternate.js';
import { DRAFT_TYPES } from '../operations/drafts.js';
import { extension, mayUploadEmoji } from '../operations/emoji.js';
import { sendEvent } from '../model/events.js';
import { LONG_TEXT } from '../operations/fields.js';
import { has } from '../model/levels.js';
import { FLAG_BITS, type DialectDecisions, type Realm, type ScheduledMessage, type ScheduledMessageId, type SpecRules, type UserId } from '../model/model.js';
import { JsonError, missingArgument } from '../model/params.js';
import { escapeHtml } from '../model/rendering.js';
import { bool } from '../operations/settings.js';
import { characterLength, normalizeContent } from '../model/text.js';
import { derivedFault } from './derived.js';

/** Replacements of named functions: each takes the function it replaces and returns the faulty one. */
type Wraps<Table> = { readonly [Name in keyof Table]?: (base: Table[Name]) => Table[Name] };

export interface Fault {
  /** What the fault makes the server do wrong. */
  readonly does: string;
  /** Other rules that observe the same wrong behaviour, and so may fail too. */
  readonly alsoCaughtBy?: readonly RuleId[];
  /** The feature level at which the fault shows (for rules of older servers). */
  readonly level?: number;
  /** The dialects in which it shows, when not all: its rule needs a configuration only they have. */
  readonly dialects?: readonly Dialect[];
  /** Rules besides its own area's whose requests meet the fault (an --only pattern): the envelope of another operation's refusal. */
  readonly alongside?: string;
  /** The rule functions (rules.ts) it replaces. */
  readonly rules?: Wraps<SpecRules>;
  /** The dialect's decisions (dialect.ts) it replaces. */
  readonly dialect?: Wraps<DialectDecisions>;
  /** Seconds the server's clock starts ahead of the machine's: a test clock set ahead, for a fault that shows only then. */
  readonly clockAhead?: number;
}

/** How far ahead of the machine's clock the faults start the server's (a test clock set ahead). */
export function clockAheadOf(faults: FaultSet): number {
  return Math.max(0, ...[...faults].map((name) => faultNamed(name)?.clockAhead ?? 0));
}

/**
 * Zulip's stored form of an emoji name. The two emoji-name faults store the name as their own
 * comparison sees it where the dialect stores that form, and leave a dialect that stores names
 * as given alone.
 */
const zulipStoredName = (name: string) => name.toLowerCase().replace(/ /g, '_');

/** The fault fields.summary-count-follows-model: deleted summary fields, still counted. */
const deletedSummaryFields = new WeakMap<Realm, number>();

/** The fault scheduled.delivered-as-edited: each edited message as it was first scheduled. */
const firstScheduled = new WeakMap<ScheduledMessage, { readonly recipient: ScheduledMessage['recipient']; readonly content: string }>();

/** The fault scheduled.deleted-never-sent: deleted messages the worker still sends. */
const deletedScheduled = new WeakMap<Realm, ScheduledMessage[]>();
function deletedButSent(realm: Realm): ScheduledMessage[] {
  let list = deletedScheduled.get(realm);
  if (!list) deletedScheduled.set(realm, (list = []));
  return list;
}

export const FAULTS: Partial<Record<RuleId, Fault>> = {
  'general.envelope': { does: 'a success of the flags operation says msg "Flags updated"', rules: { successEnvelope: (base) => (path, data) => (path.endsWith('/messages/flags') ? { ...base(path, data), msg: 'Flags updated' } : base(path, data)) } },
  'general.authentication-required': { does: 'any well-formed API key is accepted with a known email', alsoCaughtBy: ['general.error-statuses'], rules: { userOfCredentials: () => (realm, email) => realm.usersByEmail.get(email) } },
  'organization.model': {
    does: 'a draft equal to one the user has already (type, audience, topic and content) is not stored again, though the create answers its ID',
    rules: { storeDraft: (base) => (user, draft) => ([...user.drafts.values()].some((held) => held.type === draft.type && held.topic === draft.topic && held.content === draft.content && JSON.stringify(held.to) === JSON.stringify(draft.to)) ? undefined : base(user, draft)) },
  },
  'general.own-data-only': { does: 'what a user does to their own drafts, scheduled messages, flags and reminders is told to every user\'s clients', rules: { ownDataAudience: () => (realm) => [...realm.users.keys()] } },
  'general.admin-only': { does: 'a regular member may update the settings defaults and create profile fields', rules: { checkAdministrator: (base) => (realm, user, specEndpoint) => (specEndpoint ? undefined : base(realm, user, specEndpoint)) } },
  'general.ignored-parameters-listed': { does: 'ignored_parameters_unsupported leaves out the first name', alsoCaughtBy: ['general.ignored-parameters-on-settings'], rules: { ignoredParametersListed: (base) => (ignored) => base(ignored).slice(1) } },
  'general.ignored-parameters-on-settings': { does: 'PATCH /settings never lists ignored parameters', level: 166, rules: { listsIgnoredParameters: (base) => (realm, route) => route.ignoredParametersSince === undefined && base(realm, route) } },
  'general.ignored-parameters-absent-before-167': { does: 'the spec operations list ignored parameters below level 167', level: 166, rules: { listsIgnoredParameters: () => () => true } },
  'general.error-statuses': { does: 'refused credentials are answered with HTTP 403', dialect: { errorResponse: (base) => (realm, error) => ({ ...base(realm, error), ...(error.status === 401 ? { status: 403 } : {}) }) } },
  'general.realm-limits': { does: 'the organization\'s max_topic_length is 50', dialect: { realmSettings: (base) => (fixture) => ({ ...base(fixture), maxTopicLength: 50 }) } },
  'general.ids-ascend': { does: 'draft IDs are scattered, as in the alternate dialect', dialect: { nextId: (base) => (kind, last, lastMessage) => (kind === 'draft' ? alternate.nextId(kind, last, lastMessage) : base(kind, last, lastMessage)) } },
  'general.date-header': { does: 'the Date header tells the machine\'s time while the reference clock moves on', dialect: { httpDateTime: () => () => Date.now() / 1000 } },
  'general.unknown-endpoints': { does: 'a method a path does not have is refused with HTTP 405 but without an Allow header', dialect: { methodNotAllowed: (base) => (path, allowed) => ({ ...base(path, allowed), allow: false }) } },
  'general.channel-history-read': { does: 'a read narrowed to a public channel gives only what the user received or flagged', dialect: { channelHistoryReadable: () => () => false } },
  'general.message-rendering': { does: 'GET /messages/{id} gives the raw text unless asked for HTML', rules: { rendersByDefault: () => () => false } },

  'defaults.values-stored': { does: 'color_scheme 3 is stored as 1', alsoCaughtBy: ['defaults.updates-follow-model'], rules: { storeDefaults: (base) => (realm, changes) => base(realm, changes.map(([name, value]) => [name, name === 'color_scheme' && value === 3 ? 1 : value] as const)) } },
  'defaults.enum-values': { does: 'an integer out of its set is accepted', alsoCaughtBy: ['defaults.updates-follow-model', 'defaults.error-texts'], rules: { checkSettingValue: (base) => (setting, value, allowed) => (setting.kind.type === 'int' ? undefined : base(setting, value, allowed)) } },
  'defaults.string-values': { does: 'a string out of its set is accepted', alsoCaughtBy: ['defaults.updates-follow-model', 'defaults.error-texts'], rules: { checkSettingValue: (base) => (setting, value, allowed) => (setting.kind.type === 'int' ? base(setting, value, allowed) : undefined) } },
  'defaults.value-types': { does: '0 and 1 are taken as booleans', alsoCaughtBy: ['defaults.error-texts'], rules: { readBooleanSetting: () => (params, name) => { const value = params.json(name); return value === 0 || value === 1 ? value === 1 : params.bool(name); } } },
  'defaults.settings-at-their-levels': { does: 'dense_mode is still a parameter at level 364 and above', rules: { settingsOfLevel: (base) => (level) => (level >= 364 ? [...base(level), bool('dense_mode')] : base(level)) } },
  'defaults.updates-follow-model': { does: 'an update of three or more settings drops the last', alsoCaughtBy: ['defaults.values-stored'], rules: { storeDefaults: (base) => (realm, changes) => base(realm, changes.length >= 3 ? changes.slice(0, -1) : changes) } },
  'defaults.existing-users-unchanged': { does: 'an update changes every existing user\'s own setting too', rules: { storeDefaults: (base) => (realm, changes) => { base(realm, changes); for (const [name, value] of changes) for (const user of realm.users.values()) user.settings[name] = value; } } },
  'defaults.new-users-get-defaults': { does: 'a new user starts with the settings of a new organization, not its defaults', rules: { settingsOfNewUser: () => (realm) => ({ ...realm.initialUserSettings }) } },
  'defaults.error-texts': { does: 'an out-of-set value says "Bad value for color_scheme"', rules: { checkSettingValue: (base) => (setting, value, allowed) => { try { base(setting, value, allowed); } catch { throw new JsonError(`Bad value for ${setting.name}`); } } } },
  'defaults.integer-ranges': { does: 'a batching period of 0 is accepted', dialect: { checkIntegerSetting: (base) => (name, value) => (name === 'email_notifications_batching_period_seconds' && value === 0 ? undefined : base(name, value)) } },
  'defaults.event-shape': { does: 'an unchanged default sends an event too', rules: { changedDefaults: () => (_realm, changes) => [...changes] } },

  'fields.create-returns-id': { does: 'the id answered is one more than the field\'s', alsoCaughtBy: ['fields.select-options', 'fields.listing-shape', 'fields.name-optional'], rules: { idOfCreatedField: (base) => (field) => base(field) + 1 } },
  'fields.field-type-required': { does: 'a create without field_type makes a Short text field', alsoCaughtBy: ['fields.error-texts'], rules: { fieldTypeParameter: () => (params) => params.int('field_type') ?? 1 } },
  'fields.field-type-values': { does: 'field_type 9 is accepted', alsoCaughtBy: ['fields.error-texts'], rules: { checkFieldType: (base) => (realm, type) => (type === 9 ? (type as never) : base(realm, type)) } },
  'fields.summary-limit': { does: 'a third summary field is accepted', alsoCaughtBy: ['fields.summary-count-follows-model', 'fields.error-texts'], rules: { checkSummaryRoom: () => () => {} } },
  'fields.summary-types': { does: 'a Long text field may be in the summary', alsoCaughtBy: ['fields.summary-count-follows-model', 'fields.error-texts'], rules: { checkSummaryType: (base) => (type) => (type === LONG_TEXT ? undefined : base(type)) } },
  'fields.select-options': { does: 'an option without order is accepted', alsoCaughtBy: ['fields.field-data-rules'], rules: { checkSelectOption: (base) => (key, option) => base(key, option !== null && typeof option === 'object' ? { ...option, order: '0' } : option) } },
  'fields.flags-at-their-levels': { does: 'display_in_profile_summary is read below level 146', level: 145, rules: { readsSummaryFlag: () => () => true } },
  'fields.summary-count-follows-model': { does: 'a deleted summary field keeps its place in the count', alsoCaughtBy: ['fields.summary-limit', 'fields.error-texts'], rules: { summaryFieldCount: (base) => (realm) => base(realm) + (deletedSummaryFields.get(realm) ?? 0), removeProfileField: (base) => (realm, field) => { if (field.displayInProfileSummary) deletedSummaryFields.set(realm, (deletedSummaryFields.get(realm) ?? 0) + 1); base(realm, field); } } },
  'fields.name-rules': { does: 'names may repeat', dialect: { checkFieldNameFree: () => () => {} } },
  'fields.name-optional': { does: 'a create without name is refused ("Label cannot be blank."), as Zulip does', rules: { checkFieldNameOptional: () => (given) => { if (given === undefined) throw new JsonError('Label cannot be blank.'); } } },
  'fields.field-data-rules': { does: 'a List of options may have no option', dialect: { checkSelectHasChoices: () => () => {} } },
  'fields.error-texts': { does: 'an invalid field type says "Unknown field type."', rules: { checkFieldType: (base) => (realm, type) => { try { return base(realm, type); } catch { throw new JsonError('Unknown field type.'); } } } },
  'fields.listing-shape': { does: 'field_data is listed as an object, {} when unused', alsoCaughtBy: ['fields.field-data-rules'], rules: { listedFieldData: (base) => (field) => { const data = base(field); return typeof data === 'string' ? (data === '' ? {} : JSON.parse(data)) : data; } } },

  'reminders.create-returns-id': { does: 'the reminder_id answered is not the reminder\'s', alsoCaughtBy: ['reminders.listing-shape'], rules: { idOfCreatedReminder: (base) => (reminder) => base(reminder) + 1000 } },
  'reminders.sent-at-its-time': { does: 'the worker sends a reminder up to a minute before its time', alsoCaughtBy: ['reminders.delivery'], rules: { dueReminders: (base) => (realm, now) => base(realm, now + 60) } },
  'reminders.delivered-to-self': { does: 'a reminder is sent from the user to themself', alsoCaughtBy: ['reminders.delivery', 'reminders.note-delivered'], rules: { reminderSender: () => (_realm, user) => user } },
  'reminders.note-delivered': { does: 'the note is left out of the delivered reminder', alsoCaughtBy: ['reminders.listing-shape', 'reminders.delivery'], rules: { deliveredNote: () => () => '' } },
  'reminders.note-absent-before-415': { does: 'note is a parameter below level 415', level: 414, rules: { readsReminderNote: () => () => true } },
  'reminders.parameters': { does: 'a reminder for a past time is accepted', dialect: { checkReminderTimeInFuture: () => () => {} } },
  'reminders.delivery': { does: 'a reminder found over ten minutes late fails', dialect: { latestReminderDeliverySeconds: () => () => 10 * 60 } },
  'reminders.listing-shape': { does: 'GET /reminders lacks reminder_target_message_id', alsoCaughtBy: ['reminders.create-returns-id'], dialect: { reminderDict: (base) => (realm, reminder) => { const { reminder_target_message_id: _left, ...dict } = base(realm, reminder); return dict; } } },

  'emoji.upload-stores': { does: 'an uploaded GIF is answered with success but not stored', alsoCaughtBy: ['emoji.image-bytes', 'emoji.underscores-are-spaces', 'emoji.name-case-ignored'], rules: { storeEmoji: (base) => (realm, emoji) => (extension(emoji.data) === 'gif' ? undefined : base(realm, emoji)) } },
  'emoji.upload-access': { does: 'a member uploads where only administrators may', dialects: ['alternate'], rules: { mayUploadEmojiByConfiguration: () => (_realm, user) => user.role !== 'guest' } },
  'emoji.name-characters': { does: 'names with any character are accepted', alsoCaughtBy: ['emoji.name-rules'], rules: { checkEmojiNameCharacters: () => () => {} } },
  'emoji.name-alphabet': { does: 'names with a dash are refused', rules: { checkEmojiNameCharacters: (base) => (name, letters) => { if (name.includes('-')) throw new JsonError('Emoji names may not contain dashes'); base(name, letters); } } },
  'emoji.name-case-ignored': { does: 'names that differ in case are different emoji', alsoCaughtBy: ['emoji.name-rules'], rules: { emojiNameKey: () => (name) => name.replace(/_/g, ' ') }, dialect: { storedEmojiName: (base) => (realm, name) => (base(realm, name) === zulipStoredName(name) ? name.replace(/ /g, '_') : base(realm, name)) } },
  'emoji.underscores-are-spaces': { does: 'names that differ by underscores for spaces are different emoji', alsoCaughtBy: ['emoji.name-alphabet', 'emoji.name-rules'], rules: { emojiNameKey: () => (name) => name.toLowerCase() }, dialect: { storedEmojiName: (base) => (realm, name) => (base(realm, name) === zulipStoredName(name) ? name.toLowerCase() : base(realm, name)) } },
  'emoji.one-file-part': { does: 'an upload of two files stores the first', alsoCaughtBy: ['emoji.image-bytes'], rules: { filePartsAllowed: () => () => 2, checkOneFile: (base) => (files) => base(files.slice(0, 1)) } },
  'emoji.images-only': { does: 'any bytes declared as an image are taken', alsoCaughtBy: ['emoji.image-bytes'], rules: { isImageOrGif: (base) => (file) => file.mimeType.startsWith('image/') || base(file), isWholeImage: (base) => (file) => file.mimeType.startsWith('image/') || base(file) } },
  'emoji.size-limit': { does: 'a file one byte over the limit is accepted', alsoCaughtBy: ['emoji.image-bytes'], rules: { largestEmojiFile: (base) => (realm) => base(realm) + 1 } },
  'emoji.name-rules': { does: 'an upload under an active name replaces that emoji', dialect: { checkEmojiNameFree: () => () => {} } },
  'emoji.permission': { does: 'any member may remove another\'s emoji', dialect: { mayRemoveEmoji: () => (realm, user) => mayUploadEmoji(realm, user) } },
  'emoji.image-bytes': { does: 'a PNG declared application/octet-stream is refused', dialect: { checkDeclaredImageType: () => alternate.checkDeclaredImageType } },
  'emoji.listing-shape': { does: 'removed emoji leave the list', rules: { deactivateEmoji: (base) => (realm, emoji) => { base(realm, emoji); realm.emoji.delete(emoji.id); } } },

  'typing.only-to-receivers': { does: 'typing notifications reach users who turned them off', rules: { receivesTyping: () => () => true } },
  // With no receiver, only-to-receivers has nothing to judge (it skips) and the event's shape is absent.
  'typing.reaches-receivers': { does: 'typing notifications reach nobody', alsoCaughtBy: ['typing.only-to-receivers', 'typing.event-shape'], rules: { receivesTyping: () => () => false } },
  'typing.event-shape': { does: 'the direct typing event lacks recipients', dialect: { directTypingEvent: (base) => (realm, sender, op, userIds) => { const typing = base(realm, sender, op, userIds); const { recipients: _left, ...event } = typing.event; return { ...typing, event: { ...event, type: typing.event.type } }; } } },

  'drafts.create-returns-ids-in-order': { does: 'ids come back reversed for batches of two or more', alsoCaughtBy: ['drafts.event-shapes'], rules: { idsOfCreatedDrafts: (base) => (drafts) => { const ids = base(drafts); return ids.length > 1 ? ids.reverse() : ids; } } },
  'drafts.created-drafts-read-back': {
    does: 'a channel draft is stored with its topic upper-cased',
    alsoCaughtBy: ['drafts.topic-normalized', 'drafts.event-shapes', 'drafts.edit-delete-follow-model'],
    rules: { storeDraft: (base) => (user, draft) => base(user, draft.type === 'stream' ? { ...draft, topic: draft.topic.toUpperCase() } : draft) },
  },
  'drafts.timestamp-filled-when-absent': { does: 'a missing timestamp is stored as 0', alsoCaughtBy: ['drafts.edit-delete-follow-model'], rules: { draftTimestampNow: () => () => 0 } },
  'drafts.channel-draft-needs-one-channel': { does: 'a channel draft with two or more channel IDs is accepted', alsoCaughtBy: ['drafts.error-texts'], rules: { checkOneChannel: (base) => (channels) => (channels.length > 1 ? channels[0]! : base(channels)) } },
  'drafts.null-bytes-rejected': { does: 'a NUL byte in a channel topic is accepted', alsoCaughtBy: ['drafts.error-texts'], rules: { checkTopicWithoutNullBytes: () => () => {} } },
  'drafts.type-must-be-listed': { does: 'a draft of an unlisted type is stored as an unaddressed draft', alsoCaughtBy: ['drafts.error-texts'], rules: { checkDraftType: (base) => (given, name) => (DRAFT_TYPES.includes(given as never) ? base(given, name) : '') } },
  'drafts.field-types': { does: 'a draft\'s topic and content are stored as sent, strings or not', rules: { draftTextField: () => (given) => given as string } },
  'drafts.required-fields': { does: 'a draft without topic is accepted', rules: { checkRequiredDraftKeys: (base) => (dict, name) => base({ topic: '', ...dict }, name) } },
  'drafts.unaddressed-to-ignored': { does: 'an unaddressed draft with a non-empty to is refused', alsoCaughtBy: ['drafts.audience-normalized'], rules: { unaddressedDraft: (base) => (to, content, timestamp) => { if (to.length > 0) throw new JsonError('Unaddressed drafts take no recipients'); return base(to, content, timestamp); } } },
  'drafts.drafts-parameter-optional': { does: 'a request without drafts gets "Missing \'drafts\' argument"', rules: { draftsParameter: (base) => (params) => { if (!params.has('drafts')) throw missingArgument('drafts'); return base(params); } } },
  'drafts.event-to-other-clients': { does: 'no drafts event is sent on create', alsoCaughtBy: ['drafts.event-shapes'], rules: { announceCreatedDrafts: () => () => {} } },
  'drafts.sync-off-deletes-drafts': { does: 'turning synchronization off keeps the drafts', rules: { deleteDraftsSilently: () => () => {} } },
  'drafts.sync-off-sends-no-event': { does: 'turning synchronization off sends drafts remove events', rules: { deleteDraftsSilently: (base) => (realm, user) => { const ids = [...user.drafts.keys()]; base(realm, user); for (const id of ids) sendEvent(realm, { type: 'drafts', op: 'remove', draft_id: id }, [user.id]); } } },
  'drafts.sync-off-endpoints-refuse': { does: 'GET /drafts answers normally while synchronization is off', dialect: { draftsReadableWhileSynchronizationOff: () => () => true } },
  'drafts.error-texts': { does: 'the one-channel error says "Exactly one channel ID is required"', rules: { checkOneChannel: (base) => (channels) => { try { return base(channels); } catch { throw new JsonError('Exactly one channel ID is required'); } } } },
  'drafts.invalid-audience-rejected': { does: 'a channel draft to a missing channel is accepted', dialect: { checkDraftChannel: () => () => {} } },
  'drafts.negative-timestamp-rejected': { does: 'a negative timestamp is stored', dialect: { checkDraftTimestamp: () => () => {} } },
  'drafts.content-normalized': { does: 'content is stored without stripping surrounding whitespace', dialect: { draftContent: (base) => (realm, given, name) => { const stored = base(realm, given, name); return stored === given.trim() ? given : stored; } } },
  'drafts.topic-normalized': { does: 'the topic of a direct draft is stored', alsoCaughtBy: ['drafts.edit-delete-follow-model'], dialect: { directDraftAddress: (base) => (user, to, topic) => { const address = base(user, to, topic); return address.type === 'private' ? { ...address, topic } : address; } } },
  'drafts.audience-normalized': { does: 'a direct draft keeps duplicate user IDs', dialect: { directDraftAddress: (base) => (user, to, topic) => { const address = base(user, to, topic); return address.type === 'private' ? { ...address, to } : address; } } },
  'drafts.unknown-keys-rejected': { does: 'unknown keys in a draft object are ignored', dialect: { rejectsUnknownDraftKeys: () => () => false } },
  'drafts.event-shapes': { does: 'the drafts add event calls its list "draft"', dialect: { draftsEvent: (base) => (op, drafts) => { const event = base(op, drafts); if (op !== 'add') return event; const { drafts: listed, ...rest } = event; return { ...rest, type: event.type, draft: listed }; } } },
  'drafts.edit-delete-follow-model': { does: 'deleting a draft answers success but keeps it', alsoCaughtBy: ['drafts.event-shapes'], rules: { removeDraft: () => () => {} } },

  'flags.required-parameters': { does: 'a request without flag changes read', alsoCaughtBy: ['flags.error-texts'], rules: { flagParameter: () => (params) => params.string('flag') ?? 'read' } },
  'flags.op-add-or-remove': { does: 'an unknown op is taken as add', alsoCaughtBy: ['flags.error-texts'], rules: { checkFlagOperation: () => (op) => (op === 'remove' ? 'remove' : 'add') } },
  'flags.only-changeable-flags': { does: 'mentioned can be added and removed', alsoCaughtBy: ['flags.error-texts'], rules: { checkChangeableFlag: (base) => (flag) => (flag === 'mentioned' ? 'mentioned' : base(flag)) } },
  'flags.add-sets-flag': { does: 'add collapsed changes nothing', alsoCaughtBy: ['flags.model-sequence'], rules: { changeFlag: (base) => (message, user, flag, op, bits) => (flag === 'collapsed' && op === 'add' ? false : base(message, user, flag, op, bits)) } },
  'flags.remove-clears-flag': { does: 'remove starred changes nothing', alsoCaughtBy: ['flags.model-sequence'], rules: { changeFlag: (base) => (message, user, flag, op, bits) => (flag === 'starred' && op === 'remove' ? false : base(message, user, flag, op, bits)) } },
  'flags.response-lists-modified': { does: 'the first modified message is left out of `messages` when two or more changed', alsoCaughtBy: ['flags.model-sequence'], rules: { listedMessages: (base) => (result, requested) => { const listed = base(result, requested); return listed.length > 1 ? listed.slice(1) : listed; } } },
  'flags.response-lists-only-modified': { does: '`messages` echoes every requested ID, as Zulip does', alsoCaughtBy: ['flags.model-sequence'], rules: { listedMessages: () => (_result, requested) => [...requested] } },
  'flags.remove-read-skips-unsubscribed': {
    does: 'remove read marks messages of unsubscribed channels unread too',
    alsoCaughtBy: ['flags.unread-only-in-subscribed-channels', 'flags.model-sequence', 'flags.response-lists-only-modified'],
    rules: { messagesToChange: (base) => (realm, user, op, flag, ids) => ({ ...base(realm, user, op, flag, ids), candidates: [...new Set(ids)] }) },
  },
  'flags.ignored-channels-listed': { does: 'ignored_because_not_subscribed_channels is always empty', rules: { messagesToChange: (base) => (realm, user, op, flag, ids) => ({ ...base(realm, user, op, flag, ids), ignoredChannels: [] }) } },
  'flags.ignored-channels-only-for-read-remove': { does: 'ignored_because_not_subscribed_channels is sent for every op and flag, as Zulip does', rules: { listsIgnoredChannels: (base) => (realm, op, flag) => has(realm.featureLevel, 'ignoredBecauseNotSubscribedChannels') || base(realm, op, flag) } },
  'flags.ignored-channels-absent-before-355': { does: 'ignored_because_not_subscribed_channels is sent below feature level 355', level: 354, rules: { listsIgnoredChannels: (base) => (realm, op, flag) => !has(realm.featureLevel, 'ignoredBecauseNotSubscribedChannels') || base(realm, op, flag) } },
  'flags.unread-only-in-subscribed-channels': {
    does: 'unsubscribing leaves the channel\'s messages unread',
    // Messages of a channel left are unread already: that remove read leaves them read is then false too.
    alsoCaughtBy: ['flags.remove-read-skips-unsubscribed'],
    rules: { markReadOnLeaving: () => () => {} },
  },
  'flags.messages-start-unread': { does: 'new messages arrive read', alsoCaughtBy: ['flags.model-sequence', 'flags.event-shape'], rules: { flagsOfNewMessage: (base) => (flags) => base(flags) | FLAG_BITS.read } },
  'flags.mention-flags': { does: 'mentioned is never set', rules: { flagsOfNewMessage: (base) => (flags) => base({ ...flags, mentioned: false }) } },
  'flags.silent-mentions': { does: 'a silent mention sets mentioned', dialect: { silentMentionsSetNothing: () => () => false } },
  'flags.wildcard-mention-flags': { does: 'a channel wildcard mention sets no flag', rules: { flagsOfNewMessage: (base) => (flags) => base(flags) & ~FLAG_BITS.stream_wildcard_mentioned } },
  'flags.wildcard-mentioned-before-224': { does: 'below level 224 the split wildcard flags are sent', level: 223, rules: { splitsWildcardFlags: () => () => true } },
  'flags.alert-word-flag': { does: 'has_alert_word is never set', alsoCaughtBy: ['flags.alert-word-matching'], rules: { flagsOfNewMessage: (base) => (flags) => base({ ...flags, alertWord: false }) } },
  'flags.historical-flag': { does: 'starring a message from a channel\'s history does not mark it historical', rules: { flagsOfHistoricalMessage: () => () => FLAG_BITS.read } },
  'flags.model-sequence': { does: 'removing collapsed also removes starred', alsoCaughtBy: ['flags.remove-clears-flag'], rules: { changeFlag: (base) => (message, user, flag, op, bits) => { if (flag === 'collapsed' && op === 'remove') message.userFlags.set(user.id, (bits &= ~FLAG_BITS.starred)); return base(message, user, flag, op, bits); } } },
  'flags.error-texts': { does: 'an unknown flag gets "Unknown flag x"', rules: { checkFlagInTable: (base) => (realm, flag) => { try { base(realm, flag); } catch { throw new JsonError(`Unknown flag ${flag}`); } } } },
  'flags.inaccessible-messages': { does: 'starring a message the user may not see is accepted', dialect: { checkHistoryAccess: () => () => {} } },
  'flags.alert-word-matching': { does: 'alert words count only in their own case', dialect: { alertWordsInAnyCase: () => () => false } },
  'flags.event-shape': { does: 'update_message_flags events lack operation', dialect: { flagsEvent: (base) => (realm, user, op, flag, modified) => { const { operation: _left, ...event } = base(realm, user, op, flag, modified); return { ...event, type: 'update_message_flags' }; } } },

  'scheduled.edits-follow-model': { does: 'a content-only edit of a direct message keeps the old content', alsoCaughtBy: ['scheduled.topic-ignored-for-direct', 'scheduled.failed-needs-timestamp', 'scheduled.content-limit', 'scheduled.delivered-as-edited'], rules: { applyScheduledEdit: (base) => (scheduled, changes) => { const { content: _kept, ...others } = changes; base(scheduled, changes.recipient === undefined && scheduled.recipient.type === 'private' ? others : changes); } } },
  'scheduled.type-values': { does: 'a type outside the list is taken as stream', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.error-texts'], rules: { checkMessageType: (base) => (realm, given) => { try { return base(realm, given); } catch { return 'stream'; } } } },
  'scheduled.type-synonyms': { does: 'type channel is taken as private', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.to-matches-type', 'scheduled.missing-channel-error', 'scheduled.to-required-on-type-change'], rules: { messageTypeNames: (base) => (realm) => { const names = base(realm); return 'channel' in names ? { ...names, channel: 'private' } : names; } } },
  'scheduled.channel-type-absent-before-248': { does: 'channel is accepted below level 248', level: 247, alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.type-values'], rules: { messageTypeNames: (base) => (realm) => ({ ...base(realm), channel: 'stream' }) } },
  'scheduled.to-required-on-type-change': { does: 'a type given without to is accepted and ignored', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.error-texts'], rules: { checkToGivenOnTypeChange: () => () => {} } },
  'scheduled.to-matches-type': { does: 'a channel message accepts a list as to and takes its first entry', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.error-texts'], rules: { channelIdOfTo: (base) => (to) => (Array.isArray(to) && to.length > 0 ? to[0]! : base(to)) } },
  'scheduled.topic-required-on-change-to-channel': { does: 'a change to channel without topic is accepted, with the display name as topic', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.error-texts'], rules: { checkTopicGivenOnChangeToChannel: () => () => {} } },
  'scheduled.required-topic-not-empty': { does: 'a required topic of "(no topic)", "" or the display name is accepted', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.topic-normalized'], rules: { checkRequiredTopic: () => () => {} } },
  'scheduled.topic-ignored-for-direct': { does: 'a topic on an edit of a direct message is refused', alsoCaughtBy: ['scheduled.edits-follow-model'], rules: { ignoreTopicOfDirectMessage: () => () => { throw new JsonError('Direct messages have no topic'); } } },
  'scheduled.empty-topic-names': { does: '"(no topic)" is stored as given at level 370 and above', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.topic-normalized'], rules: { emptyTopicNamesMeanEmpty: (base) => (realm) => (has(realm.featureLevel, 'noTopicMeansEmptyTopic') ? false : base(realm)) } },
  'scheduled.empty-topic-valid-since-334': { does: 'the empty topic is refused at level 334 and above', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.empty-topic-names', 'scheduled.topic-normalized'], rules: { emptyTopicsValid: (base) => (realm) => (has(realm.featureLevel, 'emptyTopicNames') ? false : base(realm)) } },
  'scheduled.empty-topic-invalid-before-334': { does: 'the empty topic is accepted below level 334', level: 333, alsoCaughtBy: ['scheduled.edits-follow-model'], rules: { emptyTopicsValid: (base) => (realm) => (has(realm.featureLevel, 'emptyTopicNames') ? base(realm) : true) } },
  'scheduled.no-topic-ordinary-before-370': { does: '"(no topic)" means the empty topic below level 370', level: 369, alsoCaughtBy: ['scheduled.edits-follow-model'], rules: { emptyTopicNamesMeanEmpty: (base) => (realm) => (has(realm.featureLevel, 'noTopicMeansEmptyTopic') ? base(realm) : true) } },
  'scheduled.content-limit': { does: 'content over max_message_length is stored whole', alsoCaughtBy: ['scheduled.limits-truncate'], rules: { fitContentToLimit: () => (_realm, content) => normalizeContent(content, Number.MAX_SAFE_INTEGER) } },
  'scheduled.topic-limit': { does: 'the topic limit counts UTF-16 code units, not characters', alsoCaughtBy: ['scheduled.limits-truncate'], rules: { fitTopicToLimit: () => (realm, topic) => { const max = realm.settings.maxTopicLength; return topic.length <= max ? topic : topic.slice(0, max - 3).replace(/[\ud800-\udbff]$/, '') + '...'; } } },
  'scheduled.failed-needs-timestamp': { does: 'a failed message accepts an edit without a new timestamp', alsoCaughtBy: ['scheduled.edit-clears-failed'], rules: { checkFailedMessageGetsTimestamp: () => () => {} } },
  'scheduled.missing-channel-error': { does: 'the missing-channel error lacks stream_id', rules: { checkScheduledChannel: (base) => (realm, sender, id) => { try { return base(realm, sender, id); } catch (error) { if (error instanceof JsonError) throw new JsonError(error.msg, error.status, error.code); throw error; } } } },
  'scheduled.invalid-user-error': { does: 'unknown user IDs in to are dropped silently', alsoCaughtBy: ['scheduled.error-texts'], rules: { checkScheduledRecipientIds: (base) => (realm, sender, ids) => base(realm, sender, ids.filter((id) => realm.users.has(id as UserId))) } },
  'scheduled.missing-message-error': { does: 'a missing scheduled message answers code NOT_FOUND', alsoCaughtBy: ['scheduled.own-messages-only', 'scheduled.delete-missing-error', 'scheduled.error-texts'], rules: { scheduledMessageNotFound: (base) => (id) => { const error = base(id); return Object.assign(new JsonError(error.msg, error.status, 'NOT_FOUND'), { alternative: error.alternative }); } } },
  'scheduled.own-messages-only': { does: 'a user may edit and delete another user\'s scheduled message', alsoCaughtBy: ['scheduled.error-texts'], rules: { isOwnScheduledMessage: () => () => true } },
  'scheduled.delete-missing-error': { does: 'deleting a missing scheduled message succeeds', alsoCaughtBy: ['scheduled.error-texts'], rules: { deleteScheduledMessageById: (base) => (realm, user, id) => (realm.scheduledMessages.has(id as ScheduledMessageId) ? base(realm, user, id) : undefined) } },
  'scheduled.delete-removes': { does: 'deleting answers success but keeps the message', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.missing-message-error', 'scheduled.delete-missing-error', 'scheduled.deleted-never-sent', 'scheduled.error-texts', 'scheduled.event-shapes'], rules: { removeScheduledMessage: () => () => {} } },
  'scheduled.deleted-never-sent': { does: 'a deleted message is still sent at its time', rules: { removeScheduledMessage: (base) => (realm, scheduled) => { base(realm, scheduled); deletedButSent(realm).push(scheduled); }, dueScheduledMessages: (base) => (realm, now) => [...base(realm, now), ...deletedButSent(realm).filter((scheduled) => !scheduled.delivered && !scheduled.failed && scheduled.deliveryTimestamp <= now)] } },
  'scheduled.error-texts': { does: '"Nothing to change" says "No changes"', dialect: { emptyScheduledEdit: (base) => () => { try { return base(); } catch { throw new JsonError('No changes'); } } } },
  'scheduled.future-timestamp': { does: 'an edit with a past timestamp is accepted', alsoCaughtBy: ['scheduled.error-texts'], dialect: { checkDeliveryTimeInFuture: () => () => {} } },
  'scheduled.topic-normalized': { does: 'a topic keeps its surrounding whitespace', dialect: { editedTopic: () => (given) => given } },
  'scheduled.limits-truncate': { does: 'over-long content is refused instead of truncated', dialect: { fitScheduledToLimit: (base) => (realm, text, what) => { if (what === 'content' && characterLength(text.trimEnd()) > realm.settings.maxMessageLength) throw new JsonError('Message too long'); return base(realm, text, what); } } },
  'scheduled.listing-shape': { does: 'GET lists the sender among the to of direct messages', dialect: { scheduledMessageDict: (base) => (realm, scheduled) => (scheduled.recipient.type === 'private' ? { ...base(realm, scheduled), to: scheduled.recipient.userIds } : base(realm, scheduled)) } },
  'scheduled.delivery': { does: 'a due message is sent by the notification bot, not its sender', rules: { scheduledMessageSender: () => (realm) => realm.notificationBot! } },
  'scheduled.sent-at-its-time': { does: 'the worker sends what comes due within the next minute', alsoCaughtBy: ['scheduled.delivery', 'scheduled.late-delivery-fails', 'scheduled.deleted-never-sent', 'scheduled.failed-needs-timestamp', 'scheduled.edit-clears-failed'], rules: { dueScheduledMessages: (base) => (realm, now) => base(realm, now + 60) } },
  'scheduled.delivered-as-edited': {
    does: 'the listing shows an edit, yet the message is sent as it was first scheduled',
    rules: {
      applyScheduledEdit: (base) => (scheduled, changes) => {
        if (!firstScheduled.has(scheduled)) firstScheduled.set(scheduled, { recipient: scheduled.recipient, content: scheduled.content });
        base(scheduled, changes);
      },
      scheduledMessageToSend: (base) => (scheduled) => firstScheduled.get(scheduled) ?? base(scheduled),
    },
  },
  'scheduled.late-delivery-fails': { does: 'a late message is sent anyway', alsoCaughtBy: ['scheduled.failed-needs-timestamp', 'scheduled.deleted-never-sent', 'scheduled.edit-clears-failed'], dialect: { latestScheduledDeliverySeconds: () => () => Infinity } },
  'scheduled.edit-clears-failed': { does: 'a failed message edited with a new time stays failed', dialect: { rescheduleFailedMessage: () => () => {} } },
  'scheduled.event-shapes': { does: 'the update event calls its object scheduled_messages', alsoCaughtBy: ['scheduled.late-delivery-fails'], dialect: { scheduledMessageUpdateEvent: () => (dict) => ({ op: 'update', scheduled_messages: [dict] }) } },
};

/**
 * Faults of the kinds a rule catches only if the run sends the right case: an off-by-one at a
 * stated limit, a list cut short past some size, a delivered text shortened, a replacement of
 * the first occurrence only, an event filtered for one kind only, a setting that leaks to
 * existing users for one value only, a character the spec excludes let through. Named
 * `rule:what`, each breaks its rule; `npm run power` checks that the rule catches it at every seed.
 */
export const POWER_FAULTS: Readonly<Record<string, Fault & { readonly rule: RuleId }>> = {
  'general.envelope:one-refusal': {
    rule: 'general.envelope', does: 'an emoji upload without a file part is refused with an empty msg', alongside: 'emoji.*', alsoCaughtBy: ['emoji.image-bytes'],
    dialect: { errorResponse: (base) => (realm, error) => {
      const response = base(realm, error);
      return error.msg === 'You must upload exactly one file.' ? { ...response, body: { ...response.body, msg: '' } } : response;
    } },
  },
  'scheduled.content-limit:one-past': {
    rule: 'scheduled.content-limit', does: 'content exactly one character over max_message_length is stored whole', alsoCaughtBy: ['scheduled.limits-truncate'],
    rules: { fitContentToLimit: (base) => (realm, content) => (characterLength(content) === realm.settings.maxMessageLength + 1 ? content : base(realm, content)) },
  },
  'scheduled.topic-limit:one-past': {
    rule: 'scheduled.topic-limit', does: 'a topic exactly one character over max_topic_length is stored whole', alsoCaughtBy: ['scheduled.limits-truncate'],
    rules: { fitTopicToLimit: (base) => (realm, topic) => (characterLength(topic) === realm.settings.maxTopicLength + 1 ? topic : base(realm, topic)) },
  },
  'flags.add-sets-flag:first-hundred': {
    rule: 'flags.add-sets-flag', does: 'only the first hundred messages of a request are changed', alsoCaughtBy: ['flags.remove-clears-flag', 'flags.model-sequence', 'flags.response-lists-modified', 'flags.response-lists-only-modified'],
    rules: { messagesToChange: (base) => (realm, user, op, flag, ids) => base(realm, user, op, flag, ids.slice(0, 100)) },
  },
  'flags.response-lists-modified:first-hundred': {
    rule: 'flags.response-lists-modified', does: 'the response lists at most a hundred modified messages', alsoCaughtBy: ['flags.model-sequence'],
    rules: { listedMessages: (base) => (result, requested) => base(result, requested).slice(0, 100) },
  },
  'drafts.timestamp-filled-when-absent:machine-time': {
    rule: 'drafts.timestamp-filled-when-absent', does: 'a missing timestamp is the machine\'s time, while the server\'s clock (a test clock) runs a day ahead', alsoCaughtBy: ['drafts.edit-delete-follow-model'],
    rules: { draftTimestampNow: () => () => Math.floor(Date.now() / 1000) },
    clockAhead: 86_400,
  },
  'general.own-data-only:every-copy': {
    rule: 'general.own-data-only', does: 'a flag a user changes on a message changes on every other user\'s copy of it too', alsoCaughtBy: ['flags.model-sequence'],
    rules: {
      changeFlag: (base) => (message, user, flag, op, bits) => {
        const changed = base(message, user, flag, op, bits);
        if (changed) for (const [other, theirs] of message.userFlags) if (other !== user.id) base(message, { ...user, id: other }, flag, op, theirs);
        return changed;
      },
    },
  },
  'general.authentication-required:key-alone': {
    rule: 'general.authentication-required', does: 'the API key alone says who calls: a known email with another account\'s key acts as that account', alsoCaughtBy: ['general.error-statuses'],
    rules: { userOfCredentials: () => (realm, email, apiKey) => (realm.usersByEmail.has(email) ? [...realm.users.values()].find((user) => user.apiKey === apiKey) : undefined) },
  },
  'typing.only-to-receivers:at-register': {
    rule: 'typing.only-to-receivers', does: 'a client goes on getting typing notifications if its user received them when it registered', level: 253,
    rules: { receivesTyping: (base) => (realm, queue, kind) => base(realm, queue, kind) || queue.givenSettings.receives_typing_notifications !== false },
  },
  'scheduled.own-messages-only:administrators': {
    rule: 'scheduled.own-messages-only', does: 'an administrator may edit and delete any user\'s scheduled message',
    rules: { isOwnScheduledMessage: (base) => (user, scheduled) => base(user, scheduled) || user.role === 'administrator' || user.role === 'owner' },
  },
  'scheduled.edits-follow-model:markup': {
    rule: 'scheduled.edits-follow-model', does: 'a scheduled message\'s content is listed with <, > and & written as HTML entities',
    // Every rule that reads a scheduled message back sees it, where its text holds one of them.
    alsoCaughtBy: ['scheduled.type-values', 'scheduled.type-synonyms', 'scheduled.to-required-on-type-change', 'scheduled.to-matches-type', 'scheduled.topic-required-on-change-to-channel', 'scheduled.required-topic-not-empty', 'scheduled.topic-ignored-for-direct', 'scheduled.empty-topic-names', 'scheduled.empty-topic-valid-since-334', 'scheduled.empty-topic-invalid-before-334', 'scheduled.no-topic-ordinary-before-370', 'scheduled.content-limit', 'scheduled.topic-limit', 'scheduled.missing-channel-error', 'scheduled.invalid-user-error', 'scheduled.own-messages-only', 'scheduled.failed-needs-timestamp', 'scheduled.topic-normalized', 'scheduled.limits-truncate', 'scheduled.listing-shape', 'scheduled.event-shapes', 'scheduled.error-texts', 'scheduled.edit-clears-failed'],
    dialect: { scheduledMessageDict: (base) => (realm, scheduled) => ({ ...base(realm, scheduled), content: escapeHtml(scheduled.content) }) },
  },
  'drafts.created-drafts-read-back:markup': {
    rule: 'drafts.created-drafts-read-back', does: 'a draft\'s content is stored with <, > and & written as HTML entities',
    // Every rule that reads a draft back sees it, where its text holds one of them.
    alsoCaughtBy: ['drafts.edit-delete-follow-model', 'drafts.content-normalized', 'drafts.field-types', 'drafts.event-shapes', 'drafts.unaddressed-to-ignored', 'drafts.audience-normalized', 'drafts.topic-normalized'],
    dialect: { draftContent: (base) => (realm, given, name) => escapeHtml(base(realm, given, name)) },
  },
  'scheduled.empty-topic-names:topic-only-edit': {
    rule: 'scheduled.empty-topic-names', does: 'an edit of the topic alone refuses "(no topic)" as if the type were changing to a channel', level: 370,
    dialect: { editedTopic: (base) => (given) => { if (given === '(no topic)') throw new JsonError('Topic required when updating scheduled message type to channel.'); return base(given); } },
  },
  'emoji.upload-stores:gif87a': {
    rule: 'emoji.upload-stores', does: 'a GIF of the older version (GIF87a) is refused as not an image', alsoCaughtBy: ['emoji.image-bytes'],
    rules: { isImageOrGif: (base) => (file) => file.data.subarray(0, 6).toString('latin1') !== 'GIF87a' && base(file) },
  },
  'reminders.note-delivered:shortened': {
    rule: 'reminders.note-delivered', does: 'the delivered note is cut to its first hundred characters', level: 415,
    rules: { deliveredNote: (base) => (reminder) => base(reminder).slice(0, 100) },
  },
  'emoji.underscores-are-spaces:first-only': {
    rule: 'emoji.underscores-are-spaces', does: 'only the first underscore of a name is taken as a space', alsoCaughtBy: ['emoji.name-case-ignored'],
    rules: { emojiNameKey: (base) => (name) => base(name.replace('_', ' ').replace(/_/g, '\u0001')) },
    // Where the dialect stores names with underscores for spaces, it stores the first so.
    dialect: { storedEmojiName: (base) => (realm, name) => (base(realm, name) === zulipStoredName(name) ? name.toLowerCase().replace(' ', '_') : base(realm, name)) },
  },
  'typing.only-to-receivers:direct-only': {
    rule: 'typing.only-to-receivers', does: 'receives_typing_notifications is honoured for direct messages only', level: 253,
    rules: { receivesTyping: (base) => (realm, queue, kind) => kind !== 'direct' || base(realm, queue, kind) },
  },
  'defaults.existing-users-unchanged:one-value': {
    rule: 'defaults.existing-users-unchanged', does: 'a default of color_scheme 3 is also set on every existing user', level: 96,
    rules: {
      storeDefaults: (base) => (realm, changes) => {
        base(realm, changes);
        if (changes.some(([name, value]) => name === 'color_scheme' && value === 3)) for (const user of realm.users.values()) user.settings.color_scheme = 3;
      },
    },
  },
  'emoji.name-characters:dot': {
    rule: 'emoji.name-characters', does: 'a dot in a name is let through', alsoCaughtBy: ['emoji.name-rules'],
    rules: { checkEmojiNameCharacters: (base) => (name, letters) => base(name.replace(/\./g, ''), letters) },
  },
};

/** A fault by its name: a rule's seeded fault, or one of the power faults. */
export function faultNamed(name: string): (Fault & { readonly rule: RuleId }) | undefined {
  const fault = FAULTS[name as RuleId];
  return fault ? { ...fault, rule: name as RuleId } : POWER_FAULTS[name];
}

export type FaultSet = ReadonlySet<string>;

export function faultsFromEnvironment(value = process.env.TEAMCHAT_FAULTS ?? ''): Set<string> {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (faultNamed(name) === undefined && derivedFault(name) === undefined) throw new Error(`unknown fault ${JSON.stringify(name)}; known: ${[...Object.keys(FAULTS), ...Object.keys(POWER_FAULTS)].join(', ')}, and the derived faults derived:<rule function>:<operator> (npm run derived -- --list)`);
  }
  return new Set(names);
}

/** A realm's rules and decisions: the spec's rules (the table http/rules.ts gathers) and the dialect's, each fault's replacements applied. */
export function realmBehaviour(spec: SpecRules, faults: FaultSet, dialect: Dialect, dialectSeed = 0): { rules: SpecRules; decisions: DialectDecisions } {
  const rules: Record<string, unknown> = { ...spec };
  const decisions: Record<string, unknown> = { ...dialectDecisions(dialect, dialectSeed) };
  for (const name of faults) {
    const fault = faultNamed(name) ?? derivedFault(name);
    for (const [member, wrap] of Object.entries(fault?.rules ?? {})) rules[member] = (wrap as (base: unknown) => unknown)(rules[member]);
    for (const [member, wrap] of Object.entries((fault as Fault | undefined)?.dialect ?? {})) decisions[member] = (wrap as (base: unknown) => unknown)(decisions[member]);
  }
  return { rules: rules as unknown as SpecRules, decisions: decisions as unknown as DialectDecisions };
}

/** The rules a run of the fault selects (--only): its rule's area, or its rule alone, and the rules it names alongside. */
export const selectionOf = (rule: string, fault: Fault, alone = false): string => [alone ? rule : `${rule.split('.')[0]}.*`, ...(fault.alongside ? [fault.alongside] : [])].join(',');
