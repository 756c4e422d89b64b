// Seeded faults: each one breaks exactly one rule, and carries that rule's ID as its name,
// so that the suite's self-test can check that the rule catches it. Switched on by the
// environment variable TEAMCHAT_FAULTS (comma-separated) or the server options.

import type { RuleId } from '../conformance/rules.js';

export interface Fault {
  /** What the fault makes the server do wrong. */
  readonly does: string;
  /** Other rules that observe the same wrong behaviour, and so may fail too. */
  readonly alsoCaughtBy?: readonly RuleId[];
  /** The feature level at which the fault shows (for rules of older servers). */
  readonly level?: number;
}

export const FAULTS: Partial<Record<RuleId, Fault>> = {
  'general.envelope': { does: 'a success of the flags operation says msg "Flags updated"' },
  'general.authentication-required': { does: 'any well-formed API key is accepted with a known email', alsoCaughtBy: ['general.error-statuses'] },
  'general.admin-only': { does: 'a regular member may update the settings defaults and create profile fields' },
  'general.ignored-parameters-listed': { does: 'ignored_parameters_unsupported leaves out the first name', alsoCaughtBy: ['general.ignored-parameters-on-settings'] },
  'general.ignored-parameters-on-settings': { does: 'PATCH /settings never lists ignored parameters', level: 166 },
  'general.ignored-parameters-absent-before-167': { does: 'the spec operations list ignored parameters below level 167', level: 166 },
  'general.error-statuses': { does: 'refused credentials are answered with HTTP 403' },
  'general.realm-limits': { does: 'the organization\'s max_topic_length is 50' },
  'general.ids-ascend': { does: 'draft IDs are scattered, as in the alternate dialect' },
  'general.message-rendering': { does: 'GET /messages/{id} gives the raw text unless asked for HTML' },

  'defaults.values-stored': { does: 'color_scheme 3 is stored as 1', alsoCaughtBy: ['defaults.updates-follow-model'] },
  'defaults.enum-values': { does: 'an integer out of its set is accepted', alsoCaughtBy: ['defaults.updates-follow-model', 'defaults.error-texts'] },
  'defaults.string-values': { does: 'a string out of its set is accepted', alsoCaughtBy: ['defaults.updates-follow-model', 'defaults.error-texts'] },
  'defaults.value-types': { does: '0 and 1 are taken as booleans', alsoCaughtBy: ['defaults.error-texts'] },
  'defaults.settings-at-their-levels': { does: 'dense_mode is still a parameter at level 364 and above' },
  'defaults.updates-follow-model': { does: 'an update of three or more settings drops the last', alsoCaughtBy: ['defaults.values-stored'] },
  'defaults.existing-users-unchanged': { does: 'an update changes every existing user\'s own setting too' },
  'defaults.new-users-get-defaults': { does: 'a new user starts with the settings of a new organization, not its defaults' },
  'defaults.error-texts': { does: 'an out-of-set value says "Bad value for color_scheme"' },
  'defaults.integer-ranges': { does: 'a batching period of 0 is accepted' },
  'defaults.event-shape': { does: 'an unchanged default sends an event too' },

  'fields.create-returns-id': { does: 'the id answered is one more than the field\'s', alsoCaughtBy: ['fields.select-options', 'fields.listing-shape', 'fields.name-optional'] },
  'fields.field-type-required': { does: 'a create without field_type makes a Short text field', alsoCaughtBy: ['fields.error-texts'] },
  'fields.field-type-values': { does: 'field_type 9 is accepted', alsoCaughtBy: ['fields.error-texts'] },
  'fields.summary-limit': { does: 'a third summary field is accepted', alsoCaughtBy: ['fields.summary-count-follows-model'] },
  'fields.summary-types': { does: 'a Long text field may be in the summary', alsoCaughtBy: ['fields.summary-count-follows-model', 'fields.error-texts'] },
  'fields.select-options': { does: 'an option without order is accepted' },
  'fields.flags-at-their-levels': { does: 'display_in_profile_summary is read below level 146', level: 145 },
  'fields.summary-count-follows-model': { does: 'a deleted summary field keeps its place in the count', alsoCaughtBy: ['fields.summary-limit', 'fields.error-texts'] },
  'fields.name-rules': { does: 'names may repeat' },
  'fields.name-optional': { does: 'a create without name is refused ("Label cannot be blank."), as Zulip does' },
  'fields.field-data-rules': { does: 'a List of options may have no option' },
  'fields.error-texts': { does: 'an invalid field type says "Unknown field type."' },
  'fields.listing-shape': { does: 'field_data is listed as an object, {} when unused', alsoCaughtBy: ['fields.field-data-rules'] },

  'reminders.create-returns-id': { does: 'the reminder_id answered is not the reminder\'s', alsoCaughtBy: ['reminders.listing-shape'] },
  'reminders.delivered-to-self': { does: 'a reminder is sent from the user to themself', alsoCaughtBy: ['reminders.delivery', 'reminders.note-delivered'] },
  'reminders.note-delivered': { does: 'the note is left out of the delivered reminder', alsoCaughtBy: ['reminders.listing-shape'] },
  'reminders.note-absent-before-415': { does: 'note is a parameter below level 415', level: 414 },
  'reminders.parameters': { does: 'a reminder for a past time is accepted' },
  'reminders.delivery': { does: 'a reminder found over ten minutes late fails' },
  'reminders.listing-shape': { does: 'GET /reminders lacks reminder_target_message_id', alsoCaughtBy: ['reminders.create-returns-id'] },

  'emoji.upload-stores': { does: 'an uploaded GIF is answered with success but not stored', alsoCaughtBy: ['emoji.underscores-are-spaces', 'emoji.name-case-ignored'] },
  'emoji.name-characters': { does: 'names with any character are accepted', alsoCaughtBy: ['emoji.name-rules'] },
  'emoji.name-alphabet': { does: 'names with a dash are refused' },
  'emoji.name-case-ignored': { does: 'names that differ in case are different emoji', alsoCaughtBy: ['emoji.name-rules'] },
  'emoji.underscores-are-spaces': { does: 'names that differ by underscores for spaces are different emoji', alsoCaughtBy: ['emoji.name-alphabet', 'emoji.name-rules'] },
  'emoji.one-file-part': { does: 'an upload of two files stores the first' },
  'emoji.images-only': { does: 'any bytes declared as an image are taken', alsoCaughtBy: ['emoji.image-bytes'] },
  'emoji.size-limit': { does: 'a file one byte over the limit is accepted', alsoCaughtBy: ['emoji.image-bytes'] },
  'emoji.name-rules': { does: 'an upload under an active name replaces that emoji' },
  'emoji.permission': { does: 'any member may remove another\'s emoji' },
  'emoji.image-bytes': { does: 'a PNG declared application/octet-stream is refused' },
  'emoji.listing-shape': { does: 'removed emoji leave the list' },

  'typing.only-to-receivers': { does: 'typing notifications reach users who turned them off' },
  'typing.event-shape': { does: 'the direct typing event lacks recipients' },

  'drafts.create-returns-ids-in-order': { does: 'ids come back reversed for batches of two or more', alsoCaughtBy: ['drafts.event-shapes'] },
  'drafts.created-drafts-read-back': {
    does: 'a channel draft is stored with its topic upper-cased',
    alsoCaughtBy: ['drafts.topic-normalized', 'drafts.event-shapes', 'drafts.edit-delete-follow-model'],
  },
  'drafts.timestamp-filled-when-absent': { does: 'a missing timestamp is stored as 0', alsoCaughtBy: ['drafts.edit-delete-follow-model'] },
  'drafts.channel-draft-needs-one-channel': { does: 'a channel draft with two or more channel IDs is accepted', alsoCaughtBy: ['drafts.error-texts'] },
  'drafts.null-bytes-rejected': { does: 'a NUL byte in a channel topic is accepted', alsoCaughtBy: ['drafts.error-texts'] },
  'drafts.type-must-be-listed': { does: 'a draft of an unlisted type is stored as an unaddressed draft', alsoCaughtBy: ['drafts.error-texts'] },
  'drafts.required-fields': { does: 'a draft without topic is accepted' },
  'drafts.unaddressed-to-ignored': { does: 'an unaddressed draft with a non-empty to is refused', alsoCaughtBy: ['drafts.audience-normalized'] },
  'drafts.drafts-parameter-optional': { does: 'a request without drafts gets "Missing \'drafts\' argument"' },
  'drafts.event-to-other-clients': { does: 'no drafts event is sent on create', alsoCaughtBy: ['drafts.event-shapes'] },
  'drafts.sync-off-deletes-drafts': { does: 'turning synchronization off keeps the drafts' },
  'drafts.sync-off-sends-no-event': { does: 'turning synchronization off sends drafts remove events' },
  'drafts.sync-off-endpoints-refuse': { does: 'GET /drafts answers normally while synchronization is off' },
  'drafts.error-texts': { does: 'the one-channel error says "Exactly one channel ID is required"' },
  'drafts.invalid-audience-rejected': { does: 'a channel draft to a missing channel is accepted' },
  'drafts.negative-timestamp-rejected': { does: 'a negative timestamp is stored' },
  'drafts.content-normalized': { does: 'content is stored without stripping surrounding whitespace' },
  'drafts.topic-normalized': { does: 'the topic of a direct draft is stored', alsoCaughtBy: ['drafts.edit-delete-follow-model'] },
  'drafts.audience-normalized': { does: 'a direct draft keeps duplicate user IDs' },
  'drafts.unknown-keys-rejected': { does: 'unknown keys in a draft object are ignored' },
  'drafts.event-shapes': { does: 'the drafts add event calls its list "draft"' },
  'drafts.edit-delete-follow-model': { does: 'deleting a draft answers success but keeps it', alsoCaughtBy: ['drafts.event-shapes'] },

  'flags.required-parameters': { does: 'a request without flag changes read', alsoCaughtBy: ['flags.error-texts'] },
  'flags.op-add-or-remove': { does: 'an unknown op is taken as add', alsoCaughtBy: ['flags.error-texts'] },
  'flags.only-changeable-flags': { does: 'mentioned can be added and removed', alsoCaughtBy: ['flags.error-texts'] },
  'flags.add-sets-flag': { does: 'add collapsed changes nothing', alsoCaughtBy: ['flags.model-sequence'] },
  'flags.remove-clears-flag': { does: 'remove starred changes nothing', alsoCaughtBy: ['flags.model-sequence'] },
  'flags.response-lists-modified': { does: 'the first modified message is left out of `messages` when two or more changed', alsoCaughtBy: ['flags.model-sequence'] },
  'flags.response-lists-only-modified': { does: '`messages` echoes every requested ID, as Zulip does', alsoCaughtBy: ['flags.model-sequence'] },
  'flags.remove-read-skips-unsubscribed': {
    does: 'remove read marks messages of unsubscribed channels unread too',
    alsoCaughtBy: ['flags.unread-only-in-subscribed-channels', 'flags.model-sequence', 'flags.response-lists-only-modified'],
  },
  'flags.ignored-channels-listed': { does: 'ignored_because_not_subscribed_channels is always empty' },
  'flags.ignored-channels-only-for-read-remove': { does: 'ignored_because_not_subscribed_channels is sent for every op and flag, as Zulip does' },
  'flags.ignored-channels-absent-before-355': { does: 'ignored_because_not_subscribed_channels is sent below feature level 355', level: 354 },
  'flags.unread-only-in-subscribed-channels': { does: 'unsubscribing leaves the channel\'s messages unread' },
  'flags.messages-start-unread': { does: 'new messages arrive read', alsoCaughtBy: ['flags.model-sequence', 'flags.event-shape'] },
  'flags.mention-flags': { does: 'a silent mention sets mentioned' },
  'flags.wildcard-mention-flags': { does: 'a channel wildcard mention sets no flag' },
  'flags.wildcard-mentioned-before-224': { does: 'below level 224 the split wildcard flags are sent', level: 223 },
  'flags.alert-word-flag': { does: 'alert words match only in their own case' },
  'flags.historical-flag': { does: 'starring a message from a channel\'s history does not mark it historical' },
  'flags.model-sequence': { does: 'removing collapsed also removes starred', alsoCaughtBy: ['flags.remove-clears-flag'] },
  'flags.error-texts': { does: 'an unknown flag gets "Unknown flag x"' },
  'flags.inaccessible-messages': { does: 'starring a message the user may not see is accepted' },
  'flags.event-shape': { does: 'update_message_flags events lack operation' },

  'scheduled.edits-follow-model': { does: 'a content-only edit of a direct message keeps the old content', alsoCaughtBy: ['scheduled.topic-ignored-for-direct', 'scheduled.failed-needs-timestamp'] },
  'scheduled.type-values': { does: 'a type outside the list is taken as stream', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.error-texts'] },
  'scheduled.type-synonyms': { does: 'type channel is taken as private', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.to-matches-type', 'scheduled.missing-channel-error', 'scheduled.to-required-on-type-change'] },
  'scheduled.channel-type-absent-before-248': { does: 'channel is accepted below level 248', level: 247, alsoCaughtBy: ['scheduled.edits-follow-model'] },
  'scheduled.to-required-on-type-change': { does: 'a type given without to is accepted and ignored', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.error-texts'] },
  'scheduled.to-matches-type': { does: 'a channel message accepts a list as to and takes its first entry', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.error-texts'] },
  'scheduled.topic-required-on-change-to-channel': { does: 'a change to channel without topic is accepted, with the display name as topic', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.error-texts'] },
  'scheduled.required-topic-not-empty': { does: 'a required topic of "(no topic)", "" or the display name is accepted', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.topic-normalized'] },
  'scheduled.topic-ignored-for-direct': { does: 'a topic on an edit of a direct message is refused', alsoCaughtBy: ['scheduled.edits-follow-model'] },
  'scheduled.empty-topic-names': { does: '"(no topic)" is stored as given at level 370 and above', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.topic-normalized'] },
  'scheduled.empty-topic-valid-since-334': { does: 'the empty topic is refused at level 334 and above', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.empty-topic-names', 'scheduled.topic-normalized'] },
  'scheduled.empty-topic-invalid-before-334': { does: 'the empty topic is accepted below level 334', level: 333, alsoCaughtBy: ['scheduled.edits-follow-model'] },
  'scheduled.no-topic-ordinary-before-370': { does: '"(no topic)" means the empty topic below level 370', level: 369, alsoCaughtBy: ['scheduled.edits-follow-model'] },
  'scheduled.content-limit': { does: 'content over max_message_length is stored whole', alsoCaughtBy: ['scheduled.limits-truncate'] },
  'scheduled.topic-limit': { does: 'the topic limit counts UTF-16 code units, not characters', alsoCaughtBy: ['scheduled.limits-truncate'] },
  'scheduled.failed-needs-timestamp': { does: 'a failed message accepts an edit without a new timestamp' },
  'scheduled.missing-channel-error': { does: 'the missing-channel error lacks stream_id' },
  'scheduled.invalid-user-error': { does: 'unknown user IDs in to are dropped silently', alsoCaughtBy: ['scheduled.error-texts'] },
  'scheduled.missing-message-error': { does: 'a missing scheduled message answers code NOT_FOUND', alsoCaughtBy: ['scheduled.own-messages-only', 'scheduled.delete-missing-error', 'scheduled.error-texts'] },
  'scheduled.own-messages-only': { does: 'a user may edit and delete another user\'s scheduled message', alsoCaughtBy: ['scheduled.error-texts'] },
  'scheduled.delete-missing-error': { does: 'deleting a missing scheduled message succeeds', alsoCaughtBy: ['scheduled.error-texts'] },
  'scheduled.delete-removes': { does: 'deleting answers success but keeps the message', alsoCaughtBy: ['scheduled.edits-follow-model', 'scheduled.missing-message-error', 'scheduled.delete-missing-error', 'scheduled.deleted-never-sent', 'scheduled.error-texts', 'scheduled.event-shapes'] },
  'scheduled.deleted-never-sent': { does: 'a deleted message is still sent at its time' },
  'scheduled.error-texts': { does: '"Nothing to change" says "No changes"' },
  'scheduled.future-timestamp': { does: 'an edit with a past timestamp is accepted', alsoCaughtBy: ['scheduled.error-texts'] },
  'scheduled.topic-normalized': { does: 'a topic keeps its surrounding whitespace' },
  'scheduled.limits-truncate': { does: 'over-long content is refused instead of truncated' },
  'scheduled.listing-shape': { does: 'GET lists the sender among the to of direct messages' },
  'scheduled.delivery': { does: 'a due message is sent by the notification bot, not its sender' },
  'scheduled.late-delivery-fails': { does: 'a late message is sent anyway', alsoCaughtBy: ['scheduled.failed-needs-timestamp', 'scheduled.deleted-never-sent', 'scheduled.edit-clears-failed'] },
  'scheduled.edit-clears-failed': { does: 'a failed message edited with a new time stays failed' },
  'scheduled.event-shapes': { does: 'the update event calls its object scheduled_messages' },
};

export type FaultSet = ReadonlySet<string>;

export function faultsFromEnvironment(value = process.env.TEAMCHAT_FAULTS ?? ''): Set<string> {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!(name in FAULTS)) throw new Error(`unknown fault ${JSON.stringify(name)}; known: ${Object.keys(FAULTS).join(', ')}`);
  }
  return new Set(names);
}
