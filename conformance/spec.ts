// The spec's statements: docs/spec.md (a copy of the spec) cut into sections, the anchor a rule
// cites, and the statement a rule comes from. The catalog's rules name their sections; the
// harness, --explain and the docs all read the statement from here, so they cannot disagree.

import { readFileSync } from 'node:fs';
import type { Rule } from './rules.js';

const SPEC = new URL('../../docs/spec.md', import.meta.url);

let spec: string[] | null = null;
function specLines(): string[] {
  try {
    spec ??= readFileSync(SPEC, 'utf8').split('\n');
  } catch {
    spec = [];
  }
  return spec;
}

/** The annotated spec (docs/annotated.html, which npm run docs writes and every running reference serves at GET /): this installation's copy. */
export const ANNOTATED_SPEC = new URL('../../docs/annotated.html', import.meta.url);

/** The name under which an HTML report ships the annotated spec beside itself, so that its links work wherever the two are opened. */
export const ANNOTATED_BESIDE = 'teamchat-annotated-spec.html';

/** A rule's place on the annotated spec: this installation's copy, or (`beside`) the copy an HTML report ships next to itself. */
export const annotatedLink = (id: string, beside = false) => `${beside ? ANNOTATED_BESIDE : ANNOTATED_SPEC.href}#rule-${id}`;

/** A heading's anchor as GitHub and most Markdown renderers make it: stable while the heading is. */
export const slug = (heading: string) => heading.replace(/^#+\s*/, '').toLowerCase().replace(/[^a-z0-9 _-]/g, '').trim().replace(/ /g, '-');

interface Section {
  readonly heading: string;
  readonly start: number;
  readonly end: number;
}

/** The spec's sections a rule's `section` names ("Endpoints 5. Create drafts; Errors"). */
function sectionsOf(rule: Rule, lines: readonly string[]): Section[] {
  const found: Section[] = [];
  for (const part of rule.section.split(';')) {
    const name = part.replace(/\(.*?\)/g, '').replace(/^\s*(Endpoints|Resources:)\s*/, '').replace(/ (and|with) .*$/, '').trim().toLowerCase();
    if (!name) continue;
    // "Limits: Channel draft audience" is the section Limits.
    const heading = (wanted: string) => lines.findIndex((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '').toLowerCase().includes(wanted));
    const at = heading(name) >= 0 ? heading(name) : heading(name.split(':')[0]!.trim());
    if (at < 0 || found.some((section) => section.start === at)) continue;
    const depth = /^#+/.exec(lines[at]!)![0].length;
    const end = lines.findIndex((line, index) => index > at && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= depth);
    found.push({ heading: lines[at]!, start: at, end: end < 0 ? lines.length : end });
  }
  return found;
}

/** Where in docs/spec.md the rule comes from: its first section's anchor. */
export function specAnchor(rule: Rule): string | null {
  const [section] = sectionsOf(rule, specLines());
  return section ? `docs/spec.md#${slug(section.heading)}` : null;
}

/**
 * The statement a rule tests: the lines PINNED names (each table row with its table's header), and
 * the anchor of the section that holds the first. Null for a rule without a pin, or a pin the spec
 * no longer holds (a test names both).
 */
export function specStatement(rule: Rule): { anchor: string; lines: string[] } | null {
  const lines = specLines();
  const pinned = PINNED[rule.id];
  if (!pinned) return null;
  const at = pinned.map((text) => lines.findIndex((line) => !/^#/.test(line) && line.includes(text)));
  if (at.some((index) => index < 0)) return null;
  let heading = at[0]!;
  while (heading > 0 && !/^#{2,4} /.test(lines[heading]!)) heading--;
  return { anchor: `docs/spec.md#${slug(lines[heading]!)}`, lines: withTableHeaders(lines, at) };
}

/** The lines, each table row with its table's header and separator, in the spec's order. */
function withTableHeaders(lines: readonly string[], picked: readonly number[]): string[] {
  const shown = new Set<number>();
  for (const at of picked) {
    if (lines[at]!.startsWith('|')) {
      let header = at;
      while (header > 0 && lines[header - 1]!.startsWith('|')) header--;
      shown.add(header).add(header + 1);
    }
    shown.add(at);
  }
  return [...shown].sort((a, b) => a - b).map((index) => lines[index]!);
}

/**
 * The statement each rule tests: the spec's lines (a sentence, a bullet, a table row), each named
 * by words only it holds. docs/coverage.md, --explain and the annotated spec all quote these.
 */
export const PINNED: Readonly<Record<string, readonly string[]>> = {
  'drafts.create-returns-ids-in-order': ['`ids` lists the created drafts\' IDs in the same order as submitted'],
  'drafts.created-drafts-read-back': ['A user stores one or more drafts on the server'],
  'drafts.timestamp-filled-when-absent': ['| timestamp | integer | no |'],
  'drafts.channel-draft-needs-one-channel': ['Error: a channel draft whose `to` does not hold exactly one channel ID is rejected', '| Create drafts | a channel draft does not have exactly one channel ID'],
  'drafts.null-bytes-rejected': ['| topic | string | yes | channel drafts: topic name', '| content | string | yes | body; must not contain null bytes'],
  'drafts.type-must-be-listed': ['| type | string | yes |'],
  'drafts.required-fields': ['| type | string | yes |', '| to | array of integers | yes |', '| topic | string | yes | channel drafts', '| content | string | yes |'],
  'drafts.field-types': ['| topic | string | yes | channel drafts', '| content | string | yes |'],
  'drafts.unaddressed-to-ignored': ['| to | array of integers | yes |'],
  'drafts.drafts-parameter-optional': ['Form parameter: `drafts`, optional'],
  'drafts.event-to-other-clients': ['Drafts are synchronized to the user\'s other clients through drafts events', 'the server emits them after drafts are created'],
  'drafts.sync-off-deletes-drafts': ['| enable_drafts_synchronization |'],
  'drafts.sync-off-sends-no-event': ['No event is sent to delete local draft copies'],
  'drafts.sync-off-endpoints-refuse': ['| enable_drafts_synchronization |'],
  'drafts.error-texts': ['| Create drafts | a channel draft does not have exactly one channel ID', 'HTTP status codes of error responses: not shown.'],
  'drafts.invalid-audience-rejected': ['| to | array of integers | yes |', 'Error cases of the other endpoints (invalid enumerated values'],
  'drafts.negative-timestamp-rejected': ['| timestamp | integer | no |'],
  'drafts.content-normalized': ['| content | string | yes |'],
  'drafts.topic-normalized': ['| topic | string | yes | channel drafts'],
  'drafts.audience-normalized': ['| to | array of integers | yes |'],
  'drafts.unknown-keys-rejected': ['| id | integer | no | set by the server when drafts are fetched'],
  'drafts.event-shapes': ['The material names drafts events but not their payloads'],
  'drafts.edit-delete-follow-model': ['Other operations of the service: not shown.'],
  'flags.required-parameters': ['Form parameters, all required', '| messages | JSON-encoded array of integers |', '| op | string |', '| flag | string |'],
  'flags.op-add-or-remove': ['| op | string | `add` or `remove` |'],
  'flags.only-changeable-flags': ['The value of `flag` in the flags operation is one of the names below', '| read | user has read the message', '| starred | user starred', '| collapsed | user collapsed'],
  'flags.add-sets-flag': ['| message without flag F | flags operation `op=add`'],
  'flags.remove-clears-flag': ['| message with flag F | flags operation `op=remove`'],
  'flags.response-lists-modified': ['| message without flag F | flags operation `op=add`', '`messages` holds the IDs of modified messages'],
  'flags.response-lists-only-modified': ['`messages` holds the IDs of modified messages'],
  'flags.remove-read-skips-unsubscribed': ['| message with flag F | flags operation `op=remove`'],
  'flags.ignored-channels-listed': ['| message with flag F | flags operation `op=remove`', 'it lists channels whose messages were skipped because the user is not subscribed'],
  'flags.ignored-channels-only-for-read-remove': ['`ignored_because_not_subscribed_channels` is present only when `flag` is `read` and `op` is `remove`'],
  'flags.ignored-channels-absent-before-355': ['`ignored_because_not_subscribed_channels` is present only when `flag` is `read` and `op` is `remove` (feature level 355)', 'Behaviors above that carry a feature level appear only from that level on'],
  'flags.unread-only-in-subscribed-channels': ['Invariant: all unread messages are in channels the user is subscribed to.'],
  'flags.messages-start-unread': ['| read | user has read the message; messages start unread'],
  'flags.mention-flags': ['| mentioned | user mentioned directly or via a user group'],
  'flags.wildcard-mention-flags': ['| stream_wildcard_mentioned |', '| topic_wildcard_mentioned |', '| wildcard_mentioned | deprecated'],
  'flags.wildcard-mentioned-before-224': ['| wildcard_mentioned | deprecated', 'Flag `wildcard_mentioned` is deprecated since level 224'],
  'flags.alert-word-flag': ['| has_alert_word |'],
  'flags.historical-flag': ['| historical | message not received when sent'],
  'flags.model-sequence': ['| message without flag F |', '| message with flag F |'],
  'flags.error-texts': ['Error cases of the other endpoints (invalid enumerated values'],
  'flags.inaccessible-messages': ['| messages | JSON-encoded array of integers | IDs of the target messages |', 'Error cases of the other endpoints (invalid enumerated values'],
  'flags.event-shape': ['Event names, queues and full payloads: not shown.'],
  'flags.silent-mentions': ['| mentioned | user mentioned directly or via a user group'],
  'flags.alert-word-matching': ['| has_alert_word | contains one of the user\'s alert words'],
  'scheduled.edits-follow-model': ['Form parameters, all optional:', '| content | string | new content; limit is max_message_length |'],
  'scheduled.type-values': ['| type | string | `direct`, `channel`, `stream`, `private` |'],
  'scheduled.type-synonyms': ['`private` is an older synonym for `direct`'],
  'scheduled.channel-type-absent-before-248': ['`private` is an older synonym for `direct`', 'Behaviors above that carry a feature level appear only from that level on'],
  'scheduled.to-required-on-type-change': ['| to | integer or array of integers |'],
  'scheduled.to-matches-type': ['| to | integer, or array of integers |', '| to | integer or array of integers |'],
  'scheduled.topic-required-on-change-to-channel': ['| topic | string | required when `type` is changed to `stream` or `channel`'],
  'scheduled.required-topic-not-empty': ['when a topic is required it cannot be `(no topic)`'],
  'scheduled.topic-ignored-for-direct': ['| topic | string | required when `type` is changed to `stream` or `channel`'],
  'scheduled.empty-topic-names': ['When given otherwise, `(no topic)` and the display name are interpreted as an empty string'],
  'scheduled.empty-topic-valid-since-334': ['empty topic names are valid for channel messages from feature level 334'],
  'scheduled.empty-topic-invalid-before-334': ['empty topic names are valid for channel messages from feature level 334', 'Behaviors above that carry a feature level appear only from that level on'],
  'scheduled.no-topic-ordinary-before-370': ['When given otherwise, `(no topic)` and the display name are interpreted as an empty string', 'Behaviors above that carry a feature level appear only from that level on'],
  'scheduled.content-limit': ['| content | string | bounded by max_message_length |', '| Message size | scheduled message content |'],
  'scheduled.topic-limit': ['| topic | string | bounded by max_topic_length |', '| Topic length | scheduled message topic |'],
  'scheduled.failed-needs-timestamp': ['Editing such a message requires `scheduled_delivery_timestamp` in the edit request', '| scheduled_delivery_timestamp | integer | UNIX seconds in UTC; required when the message is in the failed state |'],
  'scheduled.missing-channel-error': ['| Edit scheduled message | target channel does not exist |'],
  'scheduled.invalid-user-error': ['| Edit scheduled message | a user ID in a direct message\'s `to` does not exist |'],
  'scheduled.missing-message-error': ['| Edit scheduled message | no scheduled message has the given ID |'],
  'scheduled.own-messages-only': ['act on the authenticated user\'s own data'],
  'scheduled.delivered-as-edited': ['A user edits or cancels a message scheduled for later delivery'],
  'scheduled.delete-missing-error': ['| Delete scheduled message | no scheduled message has the given ID |'],
  'scheduled.delete-removes': ['Success response: `{result: "success", msg: ""}`; sending is cancelled.', '| scheduled message (pending or failed) | DELETE scheduled message |'],
  'scheduled.deleted-never-sent': ['| scheduled message (pending or failed) | DELETE scheduled message |', 'Success response: `{result: "success", msg: ""}`; sending is cancelled.'],
  'scheduled.sent-at-its-time': ['| scheduled_delivery_timestamp | integer | UNIX timestamp in UTC seconds |'],
  'scheduled.error-texts': ['Error responses: see Errors (nonexistent channel', 'HTTP status codes of error responses: not shown.'],
  'scheduled.future-timestamp': ['| scheduled_delivery_timestamp | integer | UNIX seconds in UTC; required when the message is in the failed state |'],
  'scheduled.topic-normalized': ['Topic rules: when a topic is required'],
  'scheduled.limits-truncate': ['| Message size | scheduled message content |', '| Topic length | scheduled message topic |'],
  'scheduled.listing-shape': ['Fields of stored records (scheduled message object'],
  'scheduled.delivery': ['Other transitions (how a message becomes failed'],
  'scheduled.late-delivery-fails': ['A scheduled message that the server failed to send has `failed` equal to true'],
  'scheduled.edit-clears-failed': ['A scheduled message that the server failed to send has `failed` equal to true'],
  'scheduled.event-shapes': ['Event names, queues and full payloads: not shown.'],
  'defaults.values-stored': ['Request (form-encoded): any subset of the settings listed under Resources', 'All fields are optional in the update request'],
  'defaults.enum-values': ['Integer settings with enumerated values (an out-of-set value is invalid):'],
  'defaults.string-values': ['| web_home_view (feature level 219) |', '| emojiset |', '| web_animate_image_previews', '| resolved_topic_notice_auto_read_policy', '| notification_sound |'],
  'defaults.value-types': ['Boolean settings (send `true` or `false`):', 'with the types and values given there'],
  'defaults.settings-at-their-levels': ['Only these are supported; the former `dense_mode` setting no longer exists', 'Renames and removals:'],
  'defaults.updates-follow-model': ['Request (form-encoded): any subset of the settings listed under Resources'],
  'defaults.existing-users-unchanged': ['Existing users are never changed by this operation.', 'The change affects only users created afterwards'],
  'defaults.new-users-get-defaults': ['that are copied to new users', 'The change affects only users created afterwards'],
  'defaults.error-texts': ['Error cases of the other endpoints (invalid enumerated values'],
  'defaults.integer-ranges': ['Integer settings without an enumeration:', '| email_notifications_batching_period_seconds |'],
  'defaults.event-shape': ['Event names, queues and full payloads: not shown.'],
  'fields.create-returns-id': ['Success response: `{id: integer, result, msg}`.', '| id | integer | returned on creation |'],
  'fields.field-type-required': ['| field_type | integer (1 to 8) | yes |'],
  'fields.field-type-values': ['| field_type | integer | 1 Short text;', '| field_type | integer (1 to 8) | yes |'],
  'fields.summary-limit': ['at most 2 profile fields in an organization may have `display_in_profile_summary` true', '| Profile fields with `display_in_profile_summary` true |'],
  'fields.summary-types': ['Long text fields cannot be shown in summaries; Person picker fields are currently not supported for summaries'],
  'fields.select-options': ['For type 3, `field_data` is an object keyed by an option identifier'],
  'fields.flags-at-their-levels': ['| display_in_profile_summary | boolean | feature level 146 |', '| required | boolean | feature level 244', '| editable_by_user | boolean | feature level 296'],
  'fields.summary-count-follows-model': ['at most 2 profile fields in an organization may have `display_in_profile_summary` true'],
  'fields.name-optional': ['| name | string | no |'],
  'fields.name-rules': ['| name | string | shown in settings UI and profiles |'],
  'fields.field-data-rules': ['| field_data | object | used by types 3 and 7 only |', 'The interface of `field_data` for type 7 is unstabilized'],
  'fields.error-texts': ['Error cases of the other endpoints (invalid enumerated values'],
  'fields.listing-shape': ['Fields of stored records (scheduled message object, profile field record'],
  'typing.only-to-receivers': ['Typing-notification events are delivered only to users whose `receives_typing_notifications` is enabled.', '| receives_typing_notifications |'],
  'typing.reaches-receivers': ['| receives_typing_notifications | user receives typing-notification events from others'],
  'typing.event-shape': ['Event names, queues and full payloads: not shown.'],
  'reminders.create-returns-id': ['Success response: `{reminder_id: integer, result, msg}`.', '| message_id | integer |'],
  'reminders.delivered-to-self': ['the reminder is delivered as a message from a notification bot', 'The reminder is sent to the current user.'],
  'reminders.sent-at-its-time': ['| scheduled_delivery_timestamp | integer | UNIX seconds in UTC when the reminder is sent |'],
  'reminders.note-delivered': ['| note | string | note shown in the notification bot\'s message'],
  'reminders.note-absent-before-415': ['| note | string | note shown in the notification bot\'s message (feature level 415) |', 'Behaviors above that carry a feature level appear only from that level on'],
  'reminders.parameters': ['Form parameters (all three are listed as optional):'],
  'reminders.delivery': ['delivery of a reminder): not shown.'],
  'reminders.listing-shape': ['Identified by `reminder_id` (integer)'],
  'emoji.upload-stores': ['Body: multipart form data carrying the image file (image or gif)', 'Identified by its name; carries an uploaded image or gif.'],
  'emoji.upload-access': ['Access depends on the organization\'s configuration.'],
  'emoji.name-characters': ['It may contain only letters, numbers, dashes, and spaces.'],
  'emoji.name-alphabet': ['It may contain only letters, numbers, dashes, and spaces.'],
  'emoji.name-case-ignored': ['Case is ignored. Underscores are treated as spaces.'],
  'emoji.underscores-are-spaces': ['Case is ignored. Underscores are treated as spaces.'],
  'emoji.one-file-part': ['a single file part is expected'],
  'emoji.images-only': ['carrying the image file (image or gif)'],
  'emoji.size-limit': ['| Custom emoji file size | emoji upload |'],
  'emoji.name-rules': ['`emoji_name` string, required'],
  'emoji.permission': ['Which roles may upload emoji: not shown'],
  'emoji.image-bytes': ['carrying the image file (image or gif)'],
  'emoji.listing-shape': ['Fields of stored records (scheduled message object, profile field record, emoji record'],
  'general.envelope': ['Every JSON response has `result`', 'Error responses are JSON objects with `result` equal to `"error"`'],
  'general.authentication-required': ['Every request is authenticated with HTTP Basic authentication', 'All endpoints require authentication (see Authentication).'],
  'general.own-data-only': ['act on the authenticated user\'s own data'],
  'organization.model': ['act on the authenticated user\'s own data', 'Only these moves are established'],
  'general.admin-only': ['Endpoints 1 (settings defaults) and 4 (profile field creation) are restricted to organization administrators.'],
  'general.ignored-parameters-listed': ['When a request contains parameters that the operation does not support', 'from feature level 167 every success response of every endpoint may carry it'],
  'general.ignored-parameters-on-settings': ['introduced for one settings operation at feature level 78; added to the settings-defaults operation at level 96'],
  'general.ignored-parameters-absent-before-167': ['from feature level 167 every success response of every endpoint may carry it', 'Behaviors above that carry a feature level appear only from that level on'],
  'general.error-statuses': ['HTTP status codes of error responses: not shown.'],
  'general.realm-limits': ['Values of max_message_length and max_topic_length: not shown.'],
  'general.ids-ascend': ['| scheduled_message_id | integer | identifies the scheduled message', '| id | integer | no | set by the server when drafts are fetched'],
  'general.date-header': ['Other operations of the service: not shown.'],
  'general.unknown-endpoints': ['Other operations of the service: not shown.', 'Every path starts with `/api/v1`.'],
  'general.channel-history-read': ['Other operations of the service: not shown.', '| historical | message not received when sent but later added to the user\'s history |'],
  'general.message-rendering': ['Other operations of the service: not shown.'],
};

/** The spec's operations (its Endpoints 1–8), by method and path under /api/v1. */
const SPEC_OPERATIONS: ReadonlyArray<readonly [string, RegExp]> = [
  ['PATCH', /^\/realm\/user_settings_defaults$/], ['PATCH', /^\/scheduled_messages\/[^/]+$/], ['DELETE', /^\/scheduled_messages\/[^/]+$/],
  ['POST', /^\/realm\/profile_fields$/], ['POST', /^\/drafts$/], ['POST', /^\/messages\/flags$/], ['POST', /^\/reminders$/], ['POST', /^\/realm\/emoji\/[^/]+$/],
];

/** Whether a request, by its method and full URL, is one of the spec's operations. */
export function isSpecOperation(method: string, url: string): boolean {
  const path = new URL(url).pathname.replace(/^.*?\/api\/v1(?=\/)/, '');
  return SPEC_OPERATIONS.some(([wanted, pattern]) => wanted === method && pattern.test(path));
}
