// The rule catalog: every rule of the spec, and every decision taken where the spec says
// "not shown", with a stable ID. It belongs to the judge: the suite keys its report by these
// IDs; the reference only cites them (fault names, comments) and imports nothing but their
// type; scripts/docs.ts renders them as docs/rules.md and .json.

export type Severity = 'must' | 'decision';

export interface Rule {
  readonly id: string;
  /** The spec section the rule comes from. */
  readonly section: string;
  readonly severity: Severity;
  /** The feature level the behaviour starts at. */
  readonly since: number;
  /** For rules about the behaviour of older servers: the level at which it ends. */
  readonly before?: number;
  readonly title: string;
  /** For decisions: what was chosen and why (what the real Zulip server does). */
  readonly why?: string;
  /** For decisions: what the reference's alternate dialect does instead (`--dialect alternate`). */
  readonly alternate?: string;
}

export const RULES = [
  // ---- Drafts -------------------------------------------------------------------------------
  {
    id: 'drafts.create-returns-ids-in-order', section: 'Endpoints 5. Create drafts', severity: 'must', since: 1,
    title: 'A valid batch succeeds with one distinct integer ID per draft, in the order submitted.',
  },
  {
    id: 'drafts.created-drafts-read-back', section: 'Resources: Draft', severity: 'must', since: 1,
    title: 'A created draft reads back with the type, audience, content, channel topic and timestamp it was created with.',
  },
  {
    id: 'drafts.timestamp-filled-when-absent', section: 'Resources: Draft', severity: 'must', since: 1,
    title: 'A draft created without timestamp gets the time of creation, in integer seconds, from the server.',
  },
  {
    id: 'drafts.channel-draft-needs-one-channel', section: 'Errors; Limits: Channel draft audience', severity: 'must', since: 1,
    title: 'A channel draft whose `to` does not hold exactly one channel ID (none, or two or more distinct ones) is rejected with code BAD_REQUEST and a msg, and nothing is created.',
  },
  {
    id: 'drafts.null-bytes-rejected', section: 'Resources: Draft', severity: 'must', since: 1,
    title: 'A draft whose content, or whose channel topic, holds a NUL byte is rejected and nothing is created.',
  },
  {
    id: 'drafts.type-must-be-listed', section: 'Resources: Draft', severity: 'must', since: 1,
    title: 'A draft whose type is not "", "stream" or "private" is rejected and nothing is created.',
  },
  {
    id: 'drafts.required-fields', section: 'Resources: Draft', severity: 'must', since: 1,
    title: 'A draft lacking type, to, topic or content is rejected and nothing is created.',
  },
  {
    id: 'drafts.field-types', section: 'Resources: Draft', severity: 'must', since: 1,
    title: 'A draft whose topic or content is not a string (a number, a boolean, an object, a list) is refused, or reads back with both as strings: the Draft table types them so.',
  },
  {
    id: 'drafts.unaddressed-to-ignored', section: 'Resources: Draft', severity: 'must', since: 1,
    title: 'The `to` of an unaddressed ("") draft is ignored: any list of integers is accepted.',
  },
  {
    id: 'drafts.drafts-parameter-optional', section: 'Endpoints 5. Create drafts', severity: 'must', since: 1,
    title: 'The `drafts` parameter is optional: a request without it succeeds and creates nothing.',
  },
  {
    id: 'drafts.event-to-other-clients', section: 'Endpoints 5; Events', severity: 'must', since: 1,
    title: 'Creating drafts sends a drafts event to the other event queues of the same user.',
  },
  {
    id: 'drafts.sync-off-deletes-drafts', section: 'User settings: enable_drafts_synchronization', severity: 'must', since: 1,
    title: 'Turning enable_drafts_synchronization off deletes every draft the server holds for the user.',
  },
  {
    id: 'drafts.sync-off-sends-no-event', section: 'Events', severity: 'must', since: 1,
    title: 'Turning enable_drafts_synchronization off sends no drafts event.',
  },
  {
    id: 'drafts.sync-off-endpoints-refuse', section: 'User settings: enable_drafts_synchronization', severity: 'decision', since: 1,
    title: 'While synchronization is off, every drafts endpoint answers 400 "User has disabled synchronizing drafts."',
    why: 'The spec does not say what the drafts endpoints answer while the setting is off; Zulip checks the setting before anything else.',
    alternate: "GET /drafts answers an empty list; POST, PATCH and DELETE are refused with HTTP 409.",
  },
  {
    id: 'drafts.error-texts', section: 'Errors', severity: 'decision', since: 1,
    title: 'Draft errors are HTTP 400 with Zulip\'s texts: "Must specify exactly 1 channel ID for channel messages", "Message must not contain null bytes", "Topic must not contain null bytes", "Invalid drafts[i][\\"type\\"]".',
    why: 'HTTP status codes and exact texts are not shown; Zulip\'s are used.',
    alternate: "HTTP 422 with its own texts; codes INVALID_PARAMETER outside the error table.",
  },
  {
    id: 'drafts.invalid-audience-rejected', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A channel draft to a channel that does not exist or is not accessible gets "Invalid channel ID"; a direct draft to an unknown user gets "Invalid user ID N".',
    why: 'The spec does not say whether the audience is validated; Zulip validates it when the draft is created.',
    alternate: "The audience is not validated: drafts to unknown channels or users are stored.",
  },
  {
    id: 'drafts.negative-timestamp-rejected', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A negative timestamp is rejected with "Timestamp must not be negative."; a future one is accepted.',
    why: 'The spec gives no range for timestamp; Zulip refuses negative ones only.',
    alternate: "A timestamp more than a minute ahead of the server's clock is refused; a negative one is stored.",
  },
  {
    id: 'drafts.content-normalized', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'Content loses surrounding whitespace; blank content is rejected; content longer than max_message_length is truncated.',
    why: 'The spec does not say how content is stored; Zulip strips it, refuses a blank one and truncates a long one like a message.',
    alternate: "Content is stored exactly as sent, blank content included; content longer than its own max_message_length is refused.",
  },
  {
    id: 'drafts.topic-normalized', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A channel topic longer than max_topic_length is truncated; the topic of any other draft is stored empty.',
    why: 'The spec says the topic of non-channel drafts is ignored and gives no topic limit for drafts; Zulip stores "" and truncates channel topics.',
    alternate: "A channel topic longer than its own max_topic_length is refused; the topic of any other draft is stored empty.",
  },
  {
    id: 'drafts.audience-normalized', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A direct draft\'s `to` is stored sorted, without duplicates and without the owner (unless only the owner); a direct draft with an empty `to` and any unaddressed draft read back as type "" with `to` [].',
    why: 'The spec does not say how the audience is stored; this is how Zulip reads it back.',
    alternate: "A direct draft's `to` is stored as sent (order, duplicates and the owner kept); a direct draft with an empty `to` stays type \"private\".",
  },
  {
    id: 'drafts.unknown-keys-rejected', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A draft object with a key outside the draft fields (including `id`) is rejected: Argument "k" at drafts[i] is unexpected.',
    why: 'The spec says id is "not to be sent"; Zulip validates draft objects strictly.',
    alternate: "Keys outside the draft fields are ignored.",
  },
  {
    id: 'drafts.event-shapes', section: 'Events', severity: 'decision', since: 1,
    title: 'Drafts events are {type:"drafts", op:"add", drafts}, {op:"update", draft} and {op:"remove", draft_id}.',
    why: 'The spec names drafts events but not their payloads; Zulip\'s shapes are used.',
    alternate: "{type:\"drafts\", op:\"created\", drafts}, {op:\"edited\", draft}, {op:\"deleted\", draft_ids}.",
  },
  {
    id: 'drafts.edit-delete-follow-model', section: 'Endpoints 5 (with Zulip\'s GET/PATCH/DELETE /drafts)', severity: 'decision', since: 1,
    title: 'Sequences of create, edit (full replacement), delete and list agree with a model of the user\'s drafts; another user\'s or a missing draft is 404 "Draft does not exist".',
    why: 'Editing, deleting and listing drafts are Zulip endpoints outside the spec.',
    alternate: "GET /drafts lists the newest draft first; another user's draft is refused with HTTP 403, a missing one with 404, in its own words.",
  },

  // ---- Message flags --------------------------------------------------------------------------
  {
    id: 'flags.required-parameters', section: 'Endpoints 6. Update personal message flags', severity: 'must', since: 1,
    title: 'messages, op and flag are all required: a request lacking one is refused and changes no flag.',
  },
  {
    id: 'flags.op-add-or-remove', section: 'Endpoints 6. Update personal message flags', severity: 'must', since: 1,
    title: 'op is "add" or "remove": any other op is refused and changes no flag.',
  },
  {
    id: 'flags.only-changeable-flags', section: 'Resources: Message flag', severity: 'must', since: 1,
    title: 'Only read, starred and collapsed can be changed: every other flag of the table, with either op, and any name outside the table, is refused and changes no flag.',
  },
  {
    id: 'flags.add-sets-flag', section: 'States and transitions', severity: 'must', since: 1,
    title: 'op add gives each accessible message the flag.',
  },
  {
    id: 'flags.remove-clears-flag', section: 'States and transitions', severity: 'must', since: 1,
    title: 'op remove takes the flag away from each message (for read, except messages in channels the user is not subscribed to).',
  },
  {
    id: 'flags.response-lists-modified', section: 'Endpoints 6; States and transitions', severity: 'must', since: 1,
    title: 'Every message whose flag the request changed is listed in `messages` of the response.',
  },
  {
    id: 'flags.response-lists-only-modified', section: 'Endpoints 6. Update personal message flags', severity: 'must', since: 1,
    title: '`messages` holds the IDs of modified messages: a message whose flag already had the asked value is not listed.',
  },
  {
    id: 'flags.remove-read-skips-unsubscribed', section: 'States and transitions', severity: 'must', since: 1,
    title: 'Removing read skips messages in channels the user is not subscribed to: they stay read.',
  },
  {
    id: 'flags.ignored-channels-listed', section: 'Endpoints 6. Update personal message flags', severity: 'must', since: 355,
    title: 'For flag read and op remove, ignored_because_not_subscribed_channels lists exactly the channels whose messages were skipped.',
  },
  {
    id: 'flags.ignored-channels-only-for-read-remove', section: 'Endpoints 6. Update personal message flags', severity: 'must', since: 355,
    title: 'ignored_because_not_subscribed_channels is present only when flag is read and op is remove.',
  },
  {
    id: 'flags.ignored-channels-absent-before-355', section: 'Endpoints 6; Versioning', severity: 'must', since: 1, before: 355,
    title: 'A server below feature level 355 sends no ignored_because_not_subscribed_channels.',
  },
  {
    id: 'flags.unread-only-in-subscribed-channels', section: 'Resources: Message flag (Invariant)', severity: 'must', since: 1,
    title: 'All unread messages of a user are in channels the user is subscribed to, after every operation, unsubscribing included.',
  },
  {
    id: 'flags.messages-start-unread', section: 'Resources: Message flag', severity: 'must', since: 1,
    title: 'A message starts unread for its recipients, and for its sender when sent through the API.',
  },
  {
    id: 'flags.mention-flags', section: 'Resources: Message flag', severity: 'must', since: 1,
    title: 'mentioned is set for exactly the users mentioned directly or through a user group (in Zulip\'s syntax, which the spec does not show: @**name**, @**name|id**, @**|id**, @*group*); a name no user has, or a group that does not exist, mentions no one.',
  },
  {
    id: 'flags.wildcard-mention-flags', section: 'Resources: Message flag', severity: 'must', since: 224,
    title: 'A channel wildcard mention sets stream_wildcard_mentioned, a topic wildcard mention topic_wildcard_mentioned, and wildcard_mentioned mirrors either.',
  },
  {
    id: 'flags.wildcard-mentioned-before-224', section: 'Resources: Message flag; Versioning', severity: 'must', since: 1, before: 224,
    title: 'Below feature level 224 a wildcard mention sets wildcard_mentioned, and the split wildcard flags do not exist.',
  },
  {
    id: 'flags.alert-word-flag', section: 'Resources: Message flag', severity: 'must', since: 1,
    title: 'has_alert_word is set on a message that holds one of the recipient\'s alert words as registered, standing apart from other words, and not on one that holds none of them in any case.',
  },
  {
    id: 'flags.historical-flag', section: 'Resources: Message flag', severity: 'must', since: 1,
    title: 'A message the user did not receive but may read (a public channel\'s history) carries historical once it is in the user\'s history (starred).',
  },
  {
    id: 'flags.model-sequence', section: 'States and transitions', severity: 'must', since: 1,
    title: 'Random sequences of add and remove of the changeable flags, over subscribed, unsubscribed, direct and never-received messages, agree with a model after every step.',
  },
  {
    id: 'flags.error-texts', section: 'Errors (not shown)', severity: 'decision', since: 1,
    title: 'Flag errors are HTTP 400 with Zulip\'s texts, checked in Zulip\'s order: "Missing \'messages\' argument", "Invalid flag: \'x\'", "Flag not editable: \'x\'", "Invalid message flag operation: \'x\'". From level 224, when Zulip stores the channel wildcard as stream_wildcard_mentioned, wildcard_mentioned is an invalid flag.',
    why: 'Error texts and statuses are not shown; Zulip\'s are used (its flag table at each level).',
    alternate: "HTTP 422 with its own texts, op checked before flag and messages last.",
  },
  {
    id: 'flags.inaccessible-messages', section: 'Errors (not shown)', severity: 'decision', since: 1,
    title: 'add starred, add collapsed and remove read with a message the user may not see (or that does not exist) fail whole with "Invalid message(s)"; add read, remove starred and remove collapsed on such messages change nothing and succeed.',
    why: 'The spec does not say what happens to messages the user may not see; Zulip treats a message outside the user\'s history as read and historical and checks access only when that must change.',
    alternate: "Messages the user may not see, or that do not exist, are skipped by every op: the request succeeds and changes none of them.",
  },
  {
    id: 'flags.silent-mentions', section: 'Resources: Message flag (not shown)', severity: 'decision', since: 1,
    title: 'A silent mention (@_**name|id**) sets no flag: it names a user without mentioning them.',
    why: 'The spec knows no silent mention; Zulip\'s syntax has one, which neither notifies nor sets mentioned.',
    alternate: 'A silent mention is a mention: it sets mentioned.',
  },
  {
    id: 'flags.alert-word-matching', section: 'Resources: Message flag (not shown)', severity: 'decision', since: 1,
    title: 'An alert word counts in any case ("WORD" and "Word" for the registered "word"), and only standing apart: a letter, a digit or an underscore right before or after it ("xword", "word2", "_word") keeps has_alert_word off.',
    why: 'The spec says a message "contains" one of the user\'s alert words, not in which case, nor whether part of a longer word counts; Zulip compares in lower case and counts an alert word only between characters that are not part of a word.',
    alternate: 'An alert word counts only in the case it was registered in, and anywhere in the text, inside a longer word too.',
  },
  {
    id: 'flags.event-shape', section: 'Events (not shown)', severity: 'decision', since: 1,
    title: 'update_message_flags events carry op, operation, flag, the changed messages and all:false; for read/remove, message_details.',
    why: 'Event payloads are not shown; Zulip\'s shape is used.',
    alternate: "{type:\"update_message_flags\", op, flag, messages}, messages sorted, nothing more.",
  },

  // ---- Scheduled messages ---------------------------------------------------------------------
  {
    id: 'scheduled.edits-follow-model', section: 'Endpoints 2. Edit a scheduled message', severity: 'must', since: 184,
    title: 'Random sequences of create, edit and delete, from channel and direct messages, agree with a model: an accepted edit gives the message each field it names and keeps the others; a refused edit changes nothing.',
  },
  {
    id: 'scheduled.type-values', section: 'Resources: Scheduled message; Endpoints 2. Edit a scheduled message', severity: 'must', since: 184,
    title: 'type is one of direct, channel, stream, private (below level 248: direct, stream, private): any other value is refused and changes nothing.',
  },
  {
    id: 'scheduled.type-synonyms', section: 'Resources: Scheduled message', severity: 'must', since: 184,
    title: 'private means direct and stream means channel: an edit with either name of a type gives the same message (below level 248, private and direct).',
  },
  {
    id: 'scheduled.channel-type-absent-before-248', section: 'Resources: Scheduled message; Versioning', severity: 'must', since: 184, before: 248,
    title: 'A server below feature level 248 does not have the type name channel ("stream is a synonym for channel (added at feature level 248)"): an edit using it is refused and changes nothing; direct is valid at every level.',
  },
  {
    id: 'scheduled.to-required-on-type-change', section: 'Endpoints 2. Edit a scheduled message', severity: 'must', since: 184,
    title: 'An edit that changes the type without `to` is refused and changes nothing.',
  },
  {
    id: 'scheduled.to-matches-type', section: 'Resources: Scheduled message; Endpoints 2. Edit a scheduled message', severity: 'must', since: 184,
    title: '`to` is a channel ID for a channel message and a list of user IDs for a direct one (the new type, or else the existing one): a list of two or more IDs for a channel message, or a bare channel ID that is no user\'s for a direct one, is refused and changes nothing.',
  },
  {
    id: 'scheduled.topic-required-on-change-to-channel', section: 'Endpoints 2. Edit a scheduled message', severity: 'must', since: 184,
    title: 'An edit that changes a direct message to a channel message without topic is refused and changes nothing.',
  },
  {
    id: 'scheduled.required-topic-not-empty', section: 'Endpoints 2. Edit a scheduled message (Topic rules)', severity: 'must', since: 184,
    title: 'Where the topic is required, "(no topic)", the empty string and the organization\'s empty-topic display name are refused and change nothing.',
  },
  {
    id: 'scheduled.topic-ignored-for-direct', section: 'Endpoints 2. Edit a scheduled message', severity: 'must', since: 184,
    title: 'A topic is ignored when the existing or the new type is direct: any topic is accepted and the message stays without one.',
  },
  {
    id: 'scheduled.empty-topic-names', section: 'Endpoints 2. Edit a scheduled message (Topic rules)', severity: 'must', since: 370,
    title: 'A topic given where it is not required that is "(no topic)" or the empty-topic display name is stored as the empty topic.',
  },
  {
    id: 'scheduled.empty-topic-valid-since-334', section: 'Endpoints 2. Edit a scheduled message (Topic rules)', severity: 'must', since: 334,
    title: 'The empty topic is valid for a channel message: an edit to topic "" is accepted and stored.',
  },
  {
    id: 'scheduled.empty-topic-invalid-before-334', section: 'Endpoints 2. Edit a scheduled message (Topic rules); Versioning', severity: 'must', since: 184, before: 334,
    title: 'Below feature level 334 the empty topic is not valid for a channel message: an edit to topic "" is refused and changes nothing.',
  },
  {
    id: 'scheduled.no-topic-ordinary-before-370', section: 'Endpoints 2. Edit a scheduled message (Topic rules); Versioning', severity: 'must', since: 184, before: 370,
    title: 'Below feature level 370 "(no topic)" and the display name are ordinary topics: stored as given.',
  },
  {
    id: 'scheduled.content-limit', section: 'Resources: Scheduled message; Limits: Message size', severity: 'must', since: 184,
    title: 'Content of up to max_message_length characters is stored whole; stored content never exceeds max_message_length characters.',
  },
  {
    id: 'scheduled.topic-limit', section: 'Resources: Scheduled message; Limits: Topic length', severity: 'must', since: 184,
    title: 'A topic of up to max_topic_length characters is stored whole; a stored topic never exceeds max_topic_length characters.',
  },
  {
    id: 'scheduled.failed-needs-timestamp', section: 'States and transitions; Endpoints 2. Edit a scheduled message', severity: 'must', since: 184,
    title: 'An edit of a failed message without scheduled_delivery_timestamp is refused and changes nothing; with a new future timestamp it is accepted.',
  },
  {
    id: 'scheduled.missing-channel-error', section: 'Errors', severity: 'must', since: 184,
    title: 'An edit to a channel that does not exist is refused with code STREAM_DOES_NOT_EXIST, `stream_id` the requested ID and a msg, and changes nothing.',
  },
  {
    id: 'scheduled.invalid-user-error', section: 'Errors', severity: 'must', since: 184,
    title: 'An edit of a direct message\'s `to` naming a user ID that does not exist is refused with code BAD_REQUEST and a msg, and changes nothing.',
  },
  {
    id: 'scheduled.missing-message-error', section: 'Errors', severity: 'must', since: 184,
    title: 'An edit of a scheduled message ID that does not exist (never, or no longer) is refused with code BAD_REQUEST and a msg.',
  },
  {
    id: 'scheduled.own-messages-only', section: 'Authentication; Errors', severity: 'must', since: 173,
    title: 'Another user\'s scheduled message cannot be edited or deleted, by another member or by an administrator: the request is refused and the message is unchanged.',
  },
  {
    id: 'scheduled.delivered-as-edited', section: 'Endpoints 2. Edit a scheduled message', severity: 'must', since: 184,
    title: 'An edited scheduled message is sent as edited: at its time, the message delivered carries the content, topic and recipients of its last edit, the text exactly as sent.',
  },
  {
    id: 'scheduled.delete-missing-error', section: 'Errors', severity: 'must', since: 173,
    title: 'Deleting a scheduled message ID that does not exist (never, or no longer) is refused with code BAD_REQUEST and a msg.',
  },
  {
    id: 'scheduled.delete-removes', section: 'Endpoints 3. Delete a scheduled message', severity: 'must', since: 173,
    title: 'Deleting a scheduled message succeeds and it is gone.',
  },
  {
    id: 'scheduled.deleted-never-sent', section: 'States and transitions; Endpoints 3. Delete a scheduled message', severity: 'must', since: 173,
    title: 'A deleted scheduled message, pending or failed, is never sent, also once its time has passed.',
  },
  {
    id: 'scheduled.sent-at-its-time', section: 'Resources: Scheduled message', severity: 'must', since: 173,
    title: 'A scheduled message is sent at its scheduled_delivery_timestamp: the message sent carries no earlier timestamp, and with the reference clock (whose advance delivers as a worker on time) none is there while the time is still ahead, and the one sent is stamped no more than a minute after it (a worker that runs each minute, as Zulip\'s does).',
  },
  {
    id: 'scheduled.error-texts', section: 'Errors (not shown)', severity: 'decision', since: 184,
    title: 'Edit errors come in Zulip\'s order with its texts: "Nothing to change", "Recipient required when updating type of scheduled message.", "Topic required when updating scheduled message type to channel.", "Scheduled delivery time must be in the future.", "Scheduled message does not exist" (404, also for another user\'s message), "Channel with ID \'N\' does not exist" (also for a private channel the sender is not subscribed to), "Invalid user ID N". Type given without to, or channel type without topic, is refused even when the type does not change. A list of one channel ID for a channel message is refused ("Invalid data type for channel ID"), an integer for a direct one too ("Invalid data type for recipients"); a `to` that is neither gets "to[\"int\"] is not an integer"; a topic with a NUL "Topic must not contain null bytes".',
    why: 'Texts, statuses and the order of checks are not shown; Zulip\'s are used, and Zulip requires to and topic whenever type is given. The spec never speaks of private channels: to Zulip, one the sender cannot post to does not exist.',
    alternate: "Its own texts and statuses (422; 400 for a missing message, 403 for another user's); the message is looked up first; an edit that gives nothing, or gives the current type without `to` or topic, is accepted and changes nothing.",
  },
  {
    id: 'scheduled.future-timestamp', section: 'Endpoints 2. Edit a scheduled message', severity: 'decision', since: 173,
    title: 'scheduled_delivery_timestamp at or before the server\'s now is refused on create and edit: "Scheduled delivery time must be in the future."',
    why: 'The spec gives no range for the timestamp; Zulip refuses times that are not in the future.',
    alternate: "A time in the past is accepted: the message is due at once.",
  },
  {
    id: 'scheduled.topic-normalized', section: 'Endpoints 2. Edit a scheduled message (Topic rules)', severity: 'decision', since: 184,
    title: 'A topic loses its surrounding whitespace before the topic rules apply; case is kept ("(No Topic)" is an ordinary topic); `subject` is taken as `topic`, its older name.',
    why: 'The spec does not say how a topic is compared with "(no topic)"; Zulip strips topics when it parses them and compares exactly.',
    alternate: "Topics are stored as given, surrounding whitespace included.",
  },
  {
    id: 'scheduled.limits-truncate', section: 'Limits', severity: 'decision', since: 184,
    title: 'Content over max_message_length is truncated to its first max-20 characters and "\\n[message truncated]"; a topic over max_topic_length to its first max-3 characters and "...".',
    why: 'The spec bounds content and topic but does not say what happens past the bound; Zulip truncates.',
    alternate: "Its own limits (max_message_length 4321, max_topic_length 47); content or a topic past them is refused.",
  },
  {
    id: 'scheduled.listing-shape', section: 'Resources: Scheduled message (Zulip GET /scheduled_messages)', severity: 'decision', since: 173,
    title: 'GET /scheduled_messages lists the user\'s undelivered messages, failed ones included, by delivery time, with type "stream" or "private", `to` the channel ID or the other participants (the sender alone for a message to oneself), and topic only for channel messages.',
    why: 'Listing is a Zulip endpoint outside the spec; its shape is Zulip\'s.',
    alternate: "Listed newest delivery time first, with type \"direct\" (and \"channel\" from level 248), `to` of a direct message listing every participant, topic \"\" for direct messages, no rendered_content.",
  },
  {
    id: 'scheduled.delivery', section: 'States and transitions (not shown)', severity: 'decision', since: 173,
    title: 'At its time, not before, a scheduled message is sent as a message from its sender, with its content and recipient, and leaves the list; the worker wakes each minute, so messages are sent by the minute they come due in, then in the order they were made (above level 415 strictly by delivery time is also accepted: Zulip\'s main branch has since ordered so); an edit of it then answers "Scheduled message was already sent".',
    why: 'How a scheduled message is delivered is not shown; this is what Zulip\'s worker does.',
    alternate: "A delivered message leaves no trace among the scheduled ones: an edit of it then answers that it does not exist.",
  },
  {
    id: 'scheduled.late-delivery-fails', section: 'States and transitions (not shown)', severity: 'decision', since: 173,
    title: 'A message the worker could only send over ten minutes after its time (one found a little under ten minutes late is still sent) is not sent: it becomes failed:true, stays listed, and the sender gets a direct message from the notification bot saying "Message could not be sent at the scheduled time."; the owner gets {op:"update", scheduled_message} with failed:true; a failed message is never tried again.',
    why: 'How a message becomes failed is not shown; this is Zulip\'s rule.',
    alternate: "A message found over five minutes late fails, silently: no notification message.",
  },
  {
    id: 'scheduled.edit-clears-failed', section: 'States and transitions (not shown)', severity: 'decision', since: 184,
    title: 'A failed message edited without a new timestamp is refused ("Scheduled delivery time must be in the future."); edited with a new timestamp it is pending again (failed:false) and is sent at the new time, which sends the owner {op:"remove", scheduled_message_id}.',
    why: 'The state after editing is not shown; Zulip resets failed.',
    alternate: "A failed message edited with a new time is sent at that time, but is listed with failed:true until then.",
  },
  {
    id: 'scheduled.event-shapes', section: 'Events (not shown)', severity: 'decision', since: 173,
    title: 'scheduled_messages events go to the owner: {op:"add", scheduled_messages:[...]}, {op:"update", scheduled_message}, {op:"remove", scheduled_message_id}.',
    why: 'Event payloads are not shown; Zulip\'s are used.',
    alternate: "{op:\"update\", scheduled_messages:[...]} and {op:\"remove\", scheduled_message_ids:[id]}.",
  },


  // ---- Settings defaults ----------------------------------------------------------------------
  {
    id: 'defaults.values-stored', section: 'Endpoints 1; Resources: User settings defaults', severity: 'must', since: 96,
    title: 'Every setting of the spec\'s tables that exists at the level takes each of its valid values: the update succeeds and /register\'s realm_user_settings_defaults shows the value.',
  },
  {
    id: 'defaults.enum-values', section: 'Resources: User settings defaults (integer settings with enumerated values)', severity: 'must', since: 96,
    title: 'An integer setting with enumerated values refuses a value outside its set at the level (desktop_icon_count_display 4 below 227, web_channel_default_view 3 below 383 and 4 below 401): the whole request is refused and no default changes.',
  },
  {
    id: 'defaults.string-values', section: 'Resources: User settings defaults (string settings)', severity: 'must', since: 96,
    title: 'A string setting with allowed values refuses any other string, and the whole request with it; notification_sound takes any string.',
  },
  {
    id: 'defaults.value-types', section: 'Resources: User settings defaults', severity: 'must', since: 96,
    title: 'A value of the wrong type (a boolean setting given other than true or false, an integer setting given other than an integer) is refused, and the whole request with it.',
  },
  {
    id: 'defaults.settings-at-their-levels', section: 'Resources: User settings defaults; Versioning', severity: 'must', since: 96,
    title: 'A setting the level does not have (added later, renamed or removed earlier) is not a parameter of the operation: the request succeeds, names it in ignored_parameters_unsupported, and changes no default. One the level has is never named there, default_view (until 219), whose values the spec does not give, included.',
  },
  {
    id: 'defaults.updates-follow-model', section: 'Endpoints 1. Update realm-level defaults of user settings', severity: 'must', since: 96,
    title: 'Random sequences of updates, some with one invalid value, agree with a model of the stored defaults: an accepted update sets every value it names and keeps the rest; a refused one changes nothing.',
  },
  {
    id: 'defaults.existing-users-unchanged', section: 'Endpoints 1 ("affects only users created afterwards")', severity: 'must', since: 96,
    title: 'Updating the defaults changes no existing user\'s own settings.',
  },
  {
    id: 'defaults.new-users-get-defaults', section: 'Endpoints 1; What the service does', severity: 'must', since: 96,
    title: 'A user created after an update starts with the updated defaults.',
  },
  {
    id: 'defaults.error-texts', section: 'Errors (not shown)', severity: 'decision', since: 96,
    title: 'Refusals are HTTP 400: "Invalid color_scheme: Value error, Not in the list of possible values" for an integer out of its set, "Invalid web_home_view" for a string, "color_scheme is not an integer" for a wrong type; a member gets "Must be an organization administrator" (UNAUTHORIZED_PRINCIPAL).',
    why: 'Texts and statuses are not shown; Zulip\'s are used.',
    alternate: 'HTTP 422 (403 for a member) with its own texts.',
  },
  {
    id: 'defaults.integer-ranges', section: 'Resources: User settings defaults (integer settings without an enumeration)', severity: 'decision', since: 96,
    title: 'email_notifications_batching_period_seconds takes 1 to 604800 ("Invalid email batching period: N seconds"); web_font_size_px and web_line_height_percent take any integer.',
    why: 'The spec gives these integers no range; Zulip checks only the batching period.',
    alternate: 'web_font_size_px and web_line_height_percent take 1 to 1000, the batching period 0 to 2592000.',
  },
  {
    id: 'defaults.event-shape', section: 'Events (not shown)', severity: 'decision', since: 96,
    title: 'Each changed default sends {type:"realm_user_settings_defaults", op:"update", property, value} to every user; an unchanged one sends nothing.',
    why: 'Event payloads are not shown; Zulip\'s are used.',
    alternate: 'One {type:"realm_user_settings_defaults", op:"update", changes:{name: value, ...}} per request that changed something.',
  },

  // ---- Custom profile fields ------------------------------------------------------------------
  {
    id: 'fields.create-returns-id', section: 'Endpoints 4. Create a custom profile field', severity: 'must', since: 1,
    title: 'A valid create of every field type of the level succeeds with an integer `id`, and GET /realm/profile_fields lists that field with the type, name and hint sent, and each flag sent at its level.',
  },
  {
    id: 'fields.field-type-required', section: 'Endpoints 4. Create a custom profile field', severity: 'must', since: 1,
    title: 'A create without field_type is refused and creates nothing.',
  },
  {
    id: 'fields.field-type-values', section: 'Resources: Custom profile field; Endpoints 4', severity: 'must', since: 1,
    title: 'field_type is 1 to 8 (8 from level 151): any other value is refused and creates nothing.',
  },
  {
    id: 'fields.summary-limit', section: 'Endpoints 4 (Rules); Limits', severity: 'must', since: 146,
    title: 'A create with display_in_profile_summary true is refused, and creates nothing, when two fields of the organization already have it; with fewer it succeeds.',
  },
  {
    id: 'fields.summary-types', section: 'Endpoints 4 (Rules)', severity: 'must', since: 146,
    title: 'A Long text (2) or Person picker (6) field with display_in_profile_summary true is refused and creates nothing.',
  },
  {
    id: 'fields.select-options', section: 'Resources: Custom profile field (field_data for type 3)', severity: 'must', since: 1,
    title: 'A List of options field whose field_data keys options by identifier, each with string text and order, is created with those options; an option without text or order, or with either not a string, is refused and creates nothing.',
  },
  {
    id: 'fields.flags-at-their-levels', section: 'Resources: Custom profile field; Versioning', severity: 'must', since: 1, before: 296,
    title: 'Below its level (display_in_profile_summary 146, required 244, editable_by_user 296) a flag is not a parameter: the create succeeds as without it (from level 167 naming it in ignored_parameters_unsupported); a Long text field with display_in_profile_summary is created below 146.',
  },
  {
    id: 'fields.summary-count-follows-model', section: 'Endpoints 4 (Rules); Limits', severity: 'must', since: 146,
    title: 'Random sequences of creates (in and out of the summary, of every type) and deletes agree with a model of the number of summary fields: a summary field is created exactly when fewer than two exist and its type allows it.',
  },
  {
    id: 'fields.name-optional', section: 'Endpoints 4. Create a custom profile field', severity: 'must', since: 1,
    title: 'name is not required: a create without it (and otherwise valid) succeeds with an id, and the field is listed.',
  },
  {
    id: 'fields.name-rules', section: 'Resources: Custom profile field (not shown)', severity: 'decision', since: 1,
    title: 'A given name is stripped and must not be blank ("Label cannot be blank."), at most 40 characters, the hint at most 80 ("name is too long (limit: 40 characters)"), and names are unique ("A field with that label already exists.").',
    why: 'The spec lists name and hint as optional strings; what an empty name does, limits and uniqueness are not shown. Zulip\'s rules are used for a given name (Zulip also refuses an absent one, against the spec: see fields.name-optional).',
    alternate: 'An absent or empty name is accepted and stored empty; names are kept as sent, may repeat, and are refused past 60 characters (hints past 120).',
  },
  {
    id: 'fields.field-data-rules', section: 'Resources: Custom profile field (field_data)', severity: 'decision', since: 1,
    title: 'A List of options needs at least one option ("Field must have at least one choice.") and no two with the same text, and each option has a non-blank key and exactly a non-blank text and order ("\'value\' cannot be blank.", "text key is missing from field_data", \'field_data["text"] cannot be blank.\', "Unexpected arguments: …"); an External account needs a known subtype (github, twitter, or custom with a url_pattern holding %(username)s once); other types\' field_data is ignored and stored as "".',
    why: 'The spec says field_data is used by types 3 and 7 only and leaves type 7\'s shape unstabilized; Zulip\'s validation is used.',
    alternate: 'A List of options may have no option; any object is an External account\'s field_data; other types store the field_data they are given.',
  },
  {
    id: 'fields.error-texts', section: 'Errors (not shown)', severity: 'decision', since: 1,
    title: 'Refusals are HTTP 400 in Zulip\'s order with its texts: "Missing \'field_type\' argument", "Only 2 custom profile fields can be displayed in the profile summary.", "Invalid field type.", "Field type not supported for display in profile summary."; a member gets "Must be an organization administrator"; deleting a missing field "Field id N not found.".',
    why: 'Texts, statuses and the order of checks are not shown; Zulip\'s are used (the summary count is checked before the type).',
    alternate: 'HTTP 422 (403 for a member) with its own texts; the type is checked before the summary count.',
  },
  {
    id: 'fields.listing-shape', section: 'Resources: Custom profile field (Zulip GET /realm/profile_fields)', severity: 'decision', since: 1,
    title: 'GET /realm/profile_fields lists {custom_fields} by order (the ID at creation), each with id, name, type, hint, field_data as a JSON string ("" when unused), order, and the flags of the level (a field created without them: hint "", required false, editable_by_user true), display_in_profile_summary only when true; every change sends {type:"custom_profile_fields", fields: the whole list} to every user.',
    why: 'Reading fields is a Zulip endpoint outside the spec, and event payloads are not shown; Zulip\'s shapes are used.',
    alternate: 'Listed newest first, field_data as an object, every flag always present; a create sends {type:"custom_profile_fields", op:"add", field}, a delete {op:"remove", field_id}.',
  },

  // ---- Typing notifications ----------------------------------------------------------------------
  {
    id: 'typing.only-to-receivers', section: 'Resources: User settings defaults (receives_typing_notifications); Events', severity: 'must', since: 253,
    title: 'Typing notifications, direct and in a channel, reach no recipient whose receives_typing_notifications is off.',
  },
  {
    id: 'typing.reaches-receivers', section: 'Resources: User settings defaults (receives_typing_notifications); Events', severity: 'must', since: 253,
    title: 'A user whose receives_typing_notifications is on receives typing notifications from others: a direct typing notification brings that recipient an event.',
  },
  {
    id: 'typing.event-shape', section: 'Events (not shown)', severity: 'decision', since: 1,
    title: 'POST /typing sends {type:"typing", op, message_type:"direct" ("private" below level 215), sender, recipients} to the participants, the sender included, and {type:"typing", op, message_type:"stream", sender, stream_id, topic} to the channel\'s other subscribers whose queue declared stream_typing_notifications.',
    why: 'Event names and payloads are not shown; Zulip\'s are used.',
    alternate: '{type:"typing", op, message_type:"direct" or "channel", sender_id, recipient_ids} to every participant with notifications on, the sender included, whatever the queue declared.',
  },

  // ---- Message reminders ------------------------------------------------------------------------
  {
    id: 'reminders.create-returns-id', section: 'Endpoints 7. Create a message reminder', severity: 'must', since: 381,
    title: 'A reminder for a message the user may read, at a future time, succeeds with an integer reminder_id, and GET /reminders lists it with that message and time.',
  },
  {
    id: 'reminders.delivered-to-self', section: 'What the service does 6; Endpoints 7', severity: 'must', since: 381,
    title: 'At its time a reminder arrives as a direct message from a bot (not the user) to the user alone, linking the referenced message; no other user receives it.',
  },
  {
    id: 'reminders.sent-at-its-time', section: 'Endpoints 7. Create a message reminder', severity: 'must', since: 381,
    title: 'A reminder is sent at its scheduled_delivery_timestamp, "UNIX seconds in UTC when the reminder is sent": the message sent carries no earlier timestamp, and with the reference clock (whose advance delivers as a worker on time) none is there while the time is still ahead, and the one sent is stamped no more than a minute after it (a worker that runs each minute, as Zulip\'s does).',
  },
  {
    id: 'reminders.note-delivered', section: 'Endpoints 7 (note, feature level 415)', severity: 'must', since: 415,
    title: 'The note of a reminder is shown in the delivered message.',
  },
  {
    id: 'reminders.note-absent-before-415', section: 'Endpoints 7; Versioning', severity: 'must', since: 381, before: 415,
    title: 'Below feature level 415 note is not a parameter: the reminder is created, and the response names note in ignored_parameters_unsupported.',
  },
  {
    id: 'reminders.parameters', section: 'Endpoints 7 (all three listed as optional; not shown)', severity: 'decision', since: 381,
    title: 'message_id and scheduled_delivery_timestamp are required ("Missing \'message_id\' argument"); a time not in the future is refused ("Scheduled delivery time must be in the future."); a message that does not exist or that the user may not read gets "Invalid message(s)"; from level 415 a note longer than /register\'s max_reminder_note_length gets "Maximum reminder note length: N characters".',
    why: 'The spec lists all three parameters as optional and shows no errors; Zulip requires the first two and checks them so.',
    alternate: 'Without message_id a reminder holds its note alone; without a time it is due in an hour; a past time is due at once; a message the user may not read is refused with HTTP 403.',
  },
  {
    id: 'reminders.delivery', section: 'States and transitions (delivery of a reminder: not shown)', severity: 'decision', since: 381,
    title: 'A reminder is sent by the Notification Bot, "You requested a reminder for the following message." ("direct message" for one) (with " Note:" and the quoted note from 415, its leading newlines and trailing whitespace dropped), the sender\'s silent mention, a link to it as Zulip writes one (#narrow/channel/{id}-{name}/topic/{topic}/near/{id}, #narrow/dm/{ids}/near/{id}, names encoded with .XX), and the message quoted, not before its time; it is not subject to the scheduled messages\' ten-minute lateness rule.',
    why: 'How a reminder is delivered is not shown; this is what Zulip\'s worker sends.',
    alternate: 'Its own words ("Reminder: …" with the message\'s link); a reminder found over five minutes late fails.',
  },
  {
    id: 'reminders.listing-shape', section: 'Resources: Reminder (Zulip GET /reminders)', severity: 'decision', since: 399,
    title: 'GET /reminders lists the user\'s undelivered reminders by time, each {reminder_id, type:"private", to:[user], content, rendered_content, scheduled_delivery_timestamp, failed, reminder_target_message_id}; reminders events are {op:"add", reminders} and {op:"remove", reminder_id}; a missing or another user\'s reminder is 404 "Reminder does not exist".',
    why: 'Listing and deleting reminders are Zulip endpoints outside the spec (from level 399, with the reminders events), and event payloads are not shown.',
    alternate: 'Newest first, {reminder_id, message_id, scheduled_delivery_timestamp, note, failed}; events {op:"created", reminder} and {op:"deleted", reminder_ids}; another user\'s reminder is 403.',
  },

  // ---- Custom emoji ---------------------------------------------------------------------------
  {
    id: 'emoji.upload-stores', section: 'Endpoints 8. Upload custom emoji', severity: 'must', since: 1,
    title: 'An upload by a user the organization lets upload, with an allowed name and one file part holding a small PNG or GIF, succeeds, and GET /realm/emoji lists an active emoji of that name.',
  },
  {
    id: 'emoji.upload-access', section: 'Endpoints 8 ("Access depends on the organization\'s configuration")', severity: 'must', since: 1,
    title: 'An upload by a user of the profile whom the organization\'s configuration does not let upload (realm_can_add_custom_emoji_group in /register, or the older policy) is refused and stores nothing; skipped where the configuration lets every user of the profile upload.',
  },
  {
    id: 'emoji.name-characters', section: 'Endpoints 8 (emoji_name)', severity: 'must', since: 1,
    title: 'A name with any character other than letters, numbers, dashes, spaces and underscores, or an empty one, is refused and stores nothing.',
  },
  {
    id: 'emoji.name-alphabet', section: 'Endpoints 8 (emoji_name)', severity: 'must', since: 1,
    title: 'Every name made of ASCII letters of either case, digits, dashes and spaces (underscores standing for spaces) is accepted, wherever those characters stand.',
  },
  {
    id: 'emoji.name-case-ignored', section: 'Endpoints 8 ("Case is ignored")', severity: 'must', since: 1,
    title: 'Names that differ only in case name the same emoji: an upload under another case of an active emoji\'s name makes no second active emoji.',
  },
  {
    id: 'emoji.underscores-are-spaces', section: 'Endpoints 8 ("Underscores are treated as spaces")', severity: 'must', since: 1,
    title: 'Names that differ only by underscores for spaces name the same emoji: an upload under the other form of an active emoji\'s name makes no second active emoji.',
  },
  {
    id: 'emoji.one-file-part', section: 'Endpoints 8 (Body)', severity: 'must', since: 1,
    title: 'An upload with no file part, two file parts, or a body that is not multipart is refused and stores nothing.',
  },
  {
    id: 'emoji.images-only', section: 'Endpoints 8 (Body: image or gif; a refusal of other bytes: not shown)', severity: 'decision', since: 1,
    title: 'A file whose bytes are not an image (text, or a truncated image) is refused, whatever type its part declares, and stores nothing.',
    why: 'The spec says the body carries "the image file (image or gif)" and shows none of this endpoint\'s errors: a server that stores what it cannot show keeps every stated rule. Zulip refuses bytes it cannot decode ("Invalid image format").',
  },
  {
    id: 'emoji.size-limit', section: 'Limits: Custom emoji file size', severity: 'must', since: 1,
    title: 'A file of exactly MAX_EMOJI_FILE_SIZE_MIB MiB is accepted; one byte more is refused and stores nothing.',
  },
  {
    id: 'emoji.name-rules', section: 'Endpoints 8 (not shown)', severity: 'decision', since: 1,
    title: 'Names are stripped, spaces become underscores, upper case is folded to lower case, any length is taken; an active emoji\'s name is refused ("A custom emoji with this name already exists."), a deactivated one\'s is free; a name with another character gets "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.", a name of spaces alone "Emoji name is missing".',
    why: 'The spec lists the characters, says case is ignored and underscores are spaces, but not how names are stored or what a name in use does; Zulip stores them with underscores and refuses an active name. Zulip refuses upper case where the spec ignores case, and names ending in a dash or underscore (fixtures/expectations/zulip.json); the reference keeps the spec.',
    alternate: 'Names are stored as given with spaces; a name in use replaces the active emoji; letters are any Unicode letters; a name is refused past 40 characters.',
  },
  {
    id: 'emoji.permission', section: 'Authentication ("Which roles may upload emoji: not shown")', severity: 'decision', since: 1,
    title: 'Every member may upload (Zulip\'s default can_add_custom_emoji_group, role:members), guests never; a user the configuration does not let upload gets "Insufficient permission"; an emoji is removed (deactivated) by an administrator or its author ("Must be an organization administrator or emoji author").',
    why: 'The spec says only that it depends on the organization\'s configuration; Zulip\'s default is used, and /register says who may (realm_can_add_custom_emoji_group).',
    alternate: 'Administrators only; any uploader may remove any emoji.',
  },
  {
    id: 'emoji.image-bytes', section: 'Endpoints 8 (what counts as an image: not shown)', severity: 'decision', since: 1,
    title: 'An upload is an image when its bytes are a whole PNG (chunks from IHDR to IEND with their CRCs, nothing after), GIF (87a or 89a, ending in its trailer), JPEG (from its start to its end marker) or WebP (RIFF, its size, WEBP), whatever type its part declares; it is served at a source_url with the extension of its format (png, gif, jpg, webp) as that type; otherwise "Invalid image format" (code BAD_IMAGE); a file over the limit gets "Uploaded file is larger than the allowed limit of N MiB"; no file part or two get "You must upload exactly one file.".',
    why: 'The spec says "image or gif"; Zulip decodes the file (after checking its declared type); the reference checks the bytes.',
    alternate: 'Also the declared type must be image/*; refusals are HTTP 422 and 413 in its own words.',
  },
  {
    id: 'emoji.listing-shape', section: 'Resources: Custom emoji (Zulip GET /realm/emoji)', severity: 'decision', since: 1,
    title: 'GET /realm/emoji maps IDs to {id, name, source_url, deactivated, author_id, still_url}, deactivated emoji included; every change sends {type:"realm_emoji", op:"update", realm_emoji: that map}; the image is served at source_url, and a file name of no emoji is a 404; removing a name no active emoji has gets "Emoji \'NAME\' does not exist" (HTTP 404 from level 190, 400 before).',
    why: 'Listing emoji is a Zulip endpoint outside the spec, and event payloads are not shown.',
    alternate: 'Active emoji only, and every change sends {op:"add", emoji} or {op:"remove", name}.',
  },
  // ---- Conventions, authentication and versioning: the rules of every operation ----------------
  {
    id: 'general.envelope', section: 'Conventions; Errors', severity: 'must', since: 1,
    title: 'Every answer of a spec operation is a JSON object with result "success" or "error" and a string msg, empty on success and not empty on an error.',
  },
  {
    id: 'general.authentication-required', section: 'Authentication', severity: 'must', since: 1,
    title: 'Every endpoint refuses a request without credentials, with a wrong API key, with an unknown email, with one account\'s API key beside another account\'s email, or with an account\'s own email and key sent other than as HTTP Basic (under another scheme, or without the colon between them), and the request changes nothing.',
  },
  {
    id: 'general.own-data-only', section: 'Authentication', severity: 'must', since: 1,
    title: 'An operation on one\'s own data (drafts, scheduled messages, flags, reminders) changes the caller\'s data only: what the other profile users observe of theirs stays as it was, their flags on the same messages included, and none of their event queues is told of it.',
  },
  {
    id: 'general.admin-only', section: 'Authentication; Endpoints 1 and 4', severity: 'must', since: 1,
    title: 'Updating the settings defaults (from level 96) and creating a profile field are refused to a regular member, and the request changes nothing.',
  },
  {
    id: 'general.ignored-parameters-listed', section: 'Conventions; Versioning', severity: 'must', since: 167,
    title: 'A success response of a spec operation carries ignored_parameters_unsupported exactly when the request had parameters the operation does not support, naming exactly those.',
  },
  {
    id: 'general.ignored-parameters-on-settings', section: 'Versioning', severity: 'must', since: 78,
    title: 'The settings operation (PATCH /settings) lists the parameters it does not support in ignored_parameters_unsupported from feature level 78, and the settings-defaults operation from 96.',
  },
  {
    id: 'general.ignored-parameters-absent-before-167', section: 'Versioning', severity: 'must', since: 1, before: 167,
    title: 'Below feature level 167 the spec operations send no ignored_parameters_unsupported (nor does the settings operation below 78).',
  },
  {
    id: 'general.error-statuses', section: 'Errors (HTTP status codes: not shown)', severity: 'decision', since: 1,
    title: 'Errors outside the error table are HTTP 400 with code BAD_REQUEST (REQUEST_VARIABLE_MISSING for a missing parameter, with var_name); refused credentials are HTTP 401 with WWW-Authenticate, code UNAUTHORIZED, or INVALID_API_KEY for a well-formed key that is wrong; credentials under a scheme other than Basic are a plain HTTP 400.',
    why: 'The spec shows no status codes and codes only for its error table; Zulip\'s are used. INVALID_API_KEY is what Zulip 8.0-dev (level 218) answered a wrong key with, and what its API description shows; newer Zulip sources suggest UNAUTHORIZED there, which the suite accepts as well (it checks the status and the header).',
    alternate: 'HTTP 422 with code INVALID_PARAMETER or MISSING_PARAMETER and its own texts; wrong credentials HTTP 403 with code AUTHENTICATION_FAILED.',
  },
  {
    id: 'general.realm-limits', section: 'Limits (values not shown)', severity: 'decision', since: 1,
    title: 'POST /register reports max_message_length 10000, max_topic_length 60 and, from level 334, realm_empty_topic_display_name "general chat".',
    why: 'The spec takes the limits from the registration response without giving values; Zulip\'s defaults are used.',
    alternate: 'max_message_length 4321, max_topic_length 47, realm_empty_topic_display_name "(sans sujet)".',
  },
  {
    id: 'general.ids-ascend', section: 'Resources (IDs: not shown)', severity: 'decision', since: 1,
    title: 'Draft, scheduled message and message IDs ascend in the order of creation.',
    why: 'The spec says only that IDs are integers; Zulip\'s come from database sequences.',
    alternate: 'Draft and scheduled message IDs are scattered over 1 to 2^31-2 in no order; message and channel IDs ascend with gaps.',
  },
  {
    id: 'general.date-header', section: 'Other operations (the HTTP layer, not shown)', severity: 'decision', since: 1,
    title: 'The HTTP Date header of an answer tells the time the API keeps: with the reference clock moved on, the clock\'s time.',
    why: 'The spec says nothing of HTTP headers. Zulip has no clock to move: its Date header tells its machine\'s time, which is the time it stamps; the reference keeps the two together, as they are on Zulip.',
    alternate: 'The Date header tells the machine\'s time however far the reference clock has moved: the suite takes the time from what the API stamps and from the clock\'s answers, never from the Date header (CONTRACT).',
  },
  {
    id: 'general.unknown-endpoints', section: 'Other operations (the HTTP layer, not shown)', severity: 'decision', since: 1,
    title: 'A path under /api/v1 the server does not have (an operation\'s path whose identifier is no integer among them) is answered HTTP 404; a method a path does not have HTTP 405 with an Allow header naming the methods it has; OPTIONS HTTP 204 with that Allow header, credentials or none; HEAD as GET.',
    why: 'The spec shows seven operations and says the others are not shown, nor what a path or a method a server does not have is answered. Zulip\'s dispatch answers as above (its 404 is an HTML page; the reference\'s is JSON).',
    alternate: 'Only the methods a path has are answered: any other, HEAD and OPTIONS among them, is HTTP 404 as a path the server does not have, without Allow.',
  },
  {
    id: 'general.channel-history-read', section: 'Other operations (GET /messages, not shown)', severity: 'decision', since: 1,
    title: 'GET /messages narrowed to a public channel gives its messages to a user who never joined it: the channel\'s history.',
    why: 'Reading messages is outside the spec; Zulip gives the history of a public channel to every member of the organization.',
    alternate: 'A user\'s history holds only what they received or flagged, whatever the narrow: a message of a channel they never joined is read only by GET /messages/{id} (from level 120), or once they flagged it.',
  },
  {
    id: 'general.message-rendering', section: 'Other operations (GET /messages, not shown)', severity: 'decision', since: 1,
    title: 'GET /messages and GET /messages/{id} give content rendered as HTML (a paragraph, `<p>…</p>`) unless apply_markdown=false asks for the raw text.',
    why: 'Reading messages is outside the spec; Zulip renders Markdown by default.',
    alternate: 'Content is rendered in its own markup (`<div class="tc-message">…</div>`); apply_markdown=false gives the raw text.',
  },
  // ---- The organization as one model ------------------------------------------------------
  {
    id: 'organization.model', section: 'States and transitions', severity: 'must', since: 1,
    title: 'Whatever the profile\'s users do, in any order, two requests at once included, every user\'s drafts, scheduled messages and flags, the profile fields and the defaults are what the spec\'s statements make of them, after some serial order of what was sent: each actor\'s operations change its own data only, refused requests change nothing, and every answer is the one those statements give.',
  },
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]['id'];
/** The rules that are decisions: where the reference's two dialects differ. */
export type DecisionId = Extract<(typeof RULES)[number], { severity: 'decision' }>['id'];

const byId = new Map<string, Rule>(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return byId.get(id);
}

const position = new Map<string, number>(RULES.map((rule, index) => [rule.id, index]));

/** Orders rule results as the catalog lists the rules: every report does, a whole run's and a merged one's alike. */
export const inCatalogOrder = (a: { readonly id: string }, b: { readonly id: string }): number =>
  (position.get(a.id) ?? Infinity) - (position.get(b.id) ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Whether the rule describes behaviour a server at this feature level has. */
export function ruleAppliesAt(rule: Rule, level: number): boolean {
  return level >= rule.since && (rule.before === undefined || level < rule.before);
}

/**
 * Where each open point shows in the exchanges: the requests (`METHOD /path`, IDs as {id}, * for
 * any part) and the fields of their answers or of the requests themselves (`status`, `body.msg`,
 * `form.to`, * for any part) that a server decides there as the spec leaves it to. A differential run
 * (--compare) names the decisions that govern each place two servers differ; a place no decision
 * governs is a difference no rule covers.
 */
export interface Governed {
  readonly requests: string;
  readonly at: string;
}

/** Whether a request is taken or refused: its result, and what a success gives (a difference in how a refusal is worded follows from it). */
const whether = (requests: string, gives: readonly string[] = []): Governed[] => ['body.result', ...gives].map((at) => ({ requests, at }));
/** How a refusal is worded: its msg. */
const worded = (requests: string): Governed[] => [{ requests, at: 'body.msg' }];
/** With what status and code a refusal comes (where the spec's error table does not fix it). */
const refusedAs = (requests: string): Governed[] => [{ requests, at: 'status' }, { requests, at: 'body.code' }];
const EVENTS = (kind: string): Governed[] => [{ requests: 'GET /events', at: `body.events*${kind}*` }];
const ANY_EVENT: Governed[] = [{ requests: 'GET /events', at: 'body.events*' }];

export const GOVERNS: Readonly<Partial<Record<DecisionId, readonly Governed[]>>> = {
  'general.error-statuses': [{ requests: '*', at: 'status' }, { requests: '*', at: 'body.code' }, { requests: '*', at: 'body.var_name' }, { requests: '*', at: 'body.msg' }],
  'general.realm-limits': [{ requests: 'POST /register', at: 'body.max_message_length' }, { requests: 'POST /register', at: 'body.max_topic_length' }, { requests: 'POST /register', at: 'body.realm_empty_topic_display_name' }],
  'general.ids-ascend': [{ requests: 'GET /*', at: 'body.*id' }, { requests: 'GET /*', at: 'body.*.length' }, { requests: 'GET /drafts', at: 'body.drafts*' }, { requests: 'POST /register', at: 'body.drafts*' }, { requests: 'GET /scheduled_messages', at: 'body.scheduled_messages*' }, { requests: 'POST /register', at: 'body.scheduled_messages*' }, { requests: 'GET /messages', at: 'body.messages*' }],
  'general.channel-history-read': [{ requests: 'GET /messages', at: 'body.messages*' }, { requests: 'GET /messages', at: 'body.found_*' }, { requests: 'GET /messages', at: 'body.anchor' }, { requests: 'GET /messages', at: 'body.history_limited' }],
  'general.message-rendering': [{ requests: 'GET /messages', at: 'body.messages*content' }, { requests: 'GET /messages/{id}', at: 'body.message.content' }],
  'general.date-header': [],
  'general.unknown-endpoints': [],
  'drafts.sync-off-endpoints-refuse': [...whether('* /drafts'), ...whether('* /drafts/{id}'), { requests: 'GET /drafts', at: 'body.drafts*' }, { requests: 'GET /drafts', at: 'body.count' }],
  'drafts.error-texts': worded('POST /drafts'),
  'drafts.invalid-audience-rejected': whether('POST /drafts', ['body.ids*']),
  'drafts.negative-timestamp-rejected': whether('POST /drafts', ['body.ids*']),
  'drafts.content-normalized': [...whether('POST /drafts', ['body.ids*']), { requests: 'GET /drafts', at: 'body.drafts*content' }, ...EVENTS('content')],
  'drafts.topic-normalized': [...whether('POST /drafts', ['body.ids*']), { requests: 'GET /drafts', at: 'body.drafts*topic' }, ...EVENTS('topic')],
  'drafts.audience-normalized': [{ requests: 'GET /drafts', at: 'body.drafts*.to*' }, { requests: 'GET /drafts', at: 'body.drafts*.type' }, ...EVENTS('.to'), ...EVENTS('type')],
  'drafts.unknown-keys-rejected': whether('POST /drafts', ['body.ids*']),
  'drafts.event-shapes': ANY_EVENT,
  'drafts.edit-delete-follow-model': [{ requests: 'GET /drafts', at: 'body.drafts*' }, { requests: 'POST /register', at: 'body.drafts*' }, ...worded('PATCH /drafts/{id}'), ...worded('DELETE /drafts/{id}'), ...refusedAs('PATCH /drafts/{id}'), ...refusedAs('DELETE /drafts/{id}')],
  'flags.error-texts': worded('POST /messages/flags'),
  'flags.inaccessible-messages': whether('POST /messages/flags', ['body.messages*']),
  'flags.event-shape': ANY_EVENT,
  'flags.silent-mentions': [{ requests: 'GET /messages', at: 'body.messages*flags' }, { requests: 'GET /messages/{id}', at: 'body.message.flags' }],
  'flags.alert-word-matching': [{ requests: 'GET /messages', at: 'body.messages*flags' }, { requests: 'GET /messages/{id}', at: 'body.message.flags' }],
  'scheduled.error-texts': [...worded('PATCH /scheduled_messages/{id}'), ...worded('DELETE /scheduled_messages/{id}'), ...whether('PATCH /scheduled_messages/{id}'), ...refusedAs('PATCH /scheduled_messages/{id}'), ...refusedAs('DELETE /scheduled_messages/{id}')],
  'scheduled.future-timestamp': [...whether('POST /scheduled_messages', ['body.scheduled_message_id']), ...whether('PATCH /scheduled_messages/{id}')],
  'scheduled.topic-normalized': [{ requests: 'GET /scheduled_messages', at: 'body.scheduled_messages*topic' }],
  'scheduled.limits-truncate': [...whether('POST /scheduled_messages', ['body.scheduled_message_id']), ...whether('PATCH /scheduled_messages/{id}'), { requests: 'GET /scheduled_messages', at: 'body.scheduled_messages*content' }, { requests: 'GET /scheduled_messages', at: 'body.scheduled_messages*topic' }],
  'scheduled.listing-shape': [{ requests: 'GET /scheduled_messages', at: 'body.*' }],
  'scheduled.delivery': [...whether('PATCH /scheduled_messages/{id}'), ...worded('PATCH /scheduled_messages/{id}'), { requests: 'GET /scheduled_messages', at: 'body.scheduled_messages*' }, { requests: 'GET /messages', at: 'body.messages*' }],
  'scheduled.late-delivery-fails': [{ requests: 'GET /scheduled_messages', at: 'body.scheduled_messages*' }, { requests: 'GET /messages', at: 'body.messages*' }],
  'scheduled.edit-clears-failed': [...whether('PATCH /scheduled_messages/{id}'), { requests: 'GET /scheduled_messages', at: 'body.scheduled_messages*' }],
  'scheduled.event-shapes': ANY_EVENT,
  'defaults.error-texts': worded('PATCH /realm/user_settings_defaults'),
  'defaults.integer-ranges': [...whether('PATCH /realm/user_settings_defaults'), { requests: 'POST /register', at: 'body.realm_user_settings_defaults*' }],
  'defaults.event-shape': ANY_EVENT,
  'fields.name-rules': [...whether('POST /realm/profile_fields', ['body.id']), { requests: 'GET /realm/profile_fields', at: 'body.custom_fields*name' }, { requests: 'GET /realm/profile_fields', at: 'body.custom_fields*hint' }],
  'fields.field-data-rules': [...whether('POST /realm/profile_fields', ['body.id']), { requests: 'GET /realm/profile_fields', at: 'body.custom_fields*field_data' }],
  'fields.error-texts': [...worded('POST /realm/profile_fields'), ...worded('DELETE /realm/profile_fields/{id}')],
  'fields.listing-shape': [{ requests: 'GET /realm/profile_fields', at: 'body.*' }, ...ANY_EVENT, { requests: 'POST /register', at: 'body.custom_profile_fields*' }],
  'typing.event-shape': ANY_EVENT,
  'reminders.parameters': [...whether('POST /reminders', ['body.reminder_id']), ...worded('POST /reminders')],
  'reminders.delivery': [{ requests: 'GET /messages', at: 'body.messages*' }, { requests: 'GET /reminders', at: 'body.reminders*' }, { requests: 'POST /register', at: 'body.reminders*' }],
  'reminders.listing-shape': [{ requests: 'GET /reminders', at: 'body.*' }, ...ANY_EVENT, { requests: 'POST /register', at: 'body.reminders*' }, ...worded('DELETE /reminders/{id}'), ...refusedAs('DELETE /reminders/{id}')],
  'emoji.images-only': whether('POST /realm/emoji/*'),
  'emoji.name-rules': [...whether('POST /realm/emoji/*'), ...worded('POST /realm/emoji/*'), { requests: 'GET /realm/emoji', at: 'body.emoji*' }],
  'emoji.permission': [...whether('POST /realm/emoji/*'), ...whether('DELETE /realm/emoji/*'), ...worded('DELETE /realm/emoji/*'), { requests: 'POST /register', at: 'body.realm_can_add_custom_emoji_group*' }, { requests: 'POST /register', at: 'body.realm_add_custom_emoji_policy' }],
  'emoji.image-bytes': [...whether('POST /realm/emoji/*'), ...worded('POST /realm/emoji/*'), { requests: 'GET /realm/emoji', at: 'body.emoji*' }],
  'emoji.listing-shape': [{ requests: 'GET /realm/emoji', at: 'body.*' }, ...ANY_EVENT, { requests: 'POST /register', at: 'body.realm_emoji*' }],
};

/**
 * Where the spec states a rule in words that admit more than one reading: the readings, what
 * Zulip (and so the reference) does, what the alternate dialect does, and what the suite's
 * must checks accept. Rendered with the decisions as docs/ambiguities.md.
 */
export interface Reading {
  readonly topic: string;
  /** The spec's words. */
  readonly spec: string;
  readonly rules: readonly RuleId[];
  readonly readings: readonly string[];
  readonly zulip: string;
  /** What the reference does where it differs from Zulip (it follows the spec); else it does as Zulip. */
  readonly reference?: string;
  readonly alternate: string;
  readonly suite: string;
}

export const READINGS: readonly Reading[] = [
  {
    topic: 'A parameter the table says is not required',
    spec: 'Create a custom profile field: name — string — Required: no',
    rules: ['fields.name-optional', 'fields.name-rules'],
    readings: ['a create without `name` is valid', 'a field needs a label, so a server may refuse it (Zulip: "Label cannot be blank.")'],
    zulip: 'refuses it (listed in fixtures/expectations/zulip.json)',
    reference: 'accepts it: the field has the empty name',
    alternate: 'accepts it',
    suite: 'the first reading, as a must: a table that says a parameter is not required is a statement of the spec; what a given blank name does is a decision',
  },
  {
    topic: 'What "case is ignored" lets a server do with a second case',
    spec: 'emoji_name … Case is ignored. Underscores are treated as spaces.',
    rules: ['emoji.name-case-ignored', 'emoji.underscores-are-spaces'],
    readings: ['the second upload replaces the first emoji', 'the second upload is refused as a name in use', 'the second upload is a no-op success'],
    zulip: 'refuses a name in use; refuses upper case outright (listed in fixtures/expectations/zulip.json)',
    reference: 'refuses a name in use',
    alternate: 'replaces the emoji',
    suite: 'any of the three, as long as one active emoji has the name; a refusal counts only if the second name is accepted on its own once the first is gone',
  },
  {
    topic: 'How a delivered reminder "links" its message',
    spec: 'A user schedules a reminder to themselves that links a previously sent message; the reminder is delivered as a message from a notification bot.',
    rules: ['reminders.delivered-to-self'],
    readings: ['Zulip\'s narrow link (`#narrow/…/near/ID`)', 'any link whose path, query or fragment names the message\'s ID'],
    zulip: 'a Markdown link to `#narrow/channel/…/near/ID` or `#narrow/dm/…/near/ID`',
    alternate: 'a bare URL to the same narrow, and a note below it',
    suite: 'the second reading: the ID as a whole segment of a link\'s path, query or fragment, never inside a host, a port or a slug',
  },
  {
    topic: 'Type names and their levels',
    spec: '`private` is an older synonym for `direct`; `stream` is a synonym for `channel` (added at feature level 248).',
    rules: ['scheduled.type-values', 'scheduled.type-synonyms', 'scheduled.channel-type-absent-before-248'],
    readings: ['the parenthesis dates `channel` alone: `direct` and `private` are valid wherever scheduled messages exist', 'it dates the whole sentence: neither `channel` nor `direct` exists below 248'],
    zulip: 'accepts `direct` from level 174 and `channel` from 248',
    reference: 'the first reading on the scheduled-message endpoints (`direct` wherever they exist); Zulip\'s levels on POST /messages',
    alternate: 'as the reference',
    suite: 'the first reading: it refuses only `channel` below 248, and sends `direct` at every level',
  },
  {
    topic: '"Exactly one channel ID" with a repeated ID',
    spec: 'channel drafts: exactly one channel ID',
    rules: ['drafts.channel-draft-needs-one-channel'],
    readings: ['one entry in `to`: [7, 7] holds two IDs', 'one distinct channel: [7, 7] names channel 7'],
    zulip: 'refuses [7, 7] (it counts entries)',
    alternate: 'accepts [7, 7] as channel 7',
    suite: 'sends none or two or more distinct IDs only; [7, 7] is checked as Zulip\'s choice in drafts.error-texts',
  },
  {
    topic: 'A draft\'s timestamp in the future',
    spec: 'timestamp: Unix timestamp in seconds of the last edit',
    rules: ['drafts.created-drafts-read-back', 'drafts.negative-timestamp-rejected'],
    readings: ['any integer is a timestamp', 'a last edit lies in the past: a server may refuse a future one'],
    zulip: 'accepts any non-negative time',
    alternate: 'refuses a time more than a minute ahead; accepts a negative one',
    suite: 'sends past times (since 2001, a day before the target\'s Date) in must checks',
  },
  {
    topic: 'Draft types outside the list',
    spec: 'type: `""` (unaddressed), `stream`, `private`',
    rules: ['drafts.type-must-be-listed'],
    readings: ['the list is closed: `channel` or `direct` is an invalid draft type', 'a server may take the newer message type names as synonyms here too'],
    zulip: 'refuses any other type',
    alternate: 'refuses any other type',
    suite: 'the first reading: every value outside the three is refused',
  },
  {
    topic: 'A list as the `to` of a channel message',
    spec: 'to: integer or array of integers: channel ID (channel messages) or list of user IDs (direct)',
    rules: ['scheduled.to-matches-type'],
    readings: ['a channel message takes an integer; a list, even of one channel ID, is the wrong shape', 'a one-element list may stand for its element, as Zulip\'s POST /messages allows'],
    zulip: 'refuses a list for a channel message in the scheduled-message endpoints',
    alternate: 'refuses it',
    suite: 'neither reading in must checks: they send lists of two or more IDs for a channel message, and for a direct one a channel ID that is no user\'s; the refusal of a list of one channel ID is Zulip\'s choice, checked in scheduled.error-texts',
  },
  {
    topic: 'The unit of max_message_length and max_topic_length',
    spec: 'content: bounded by max_message_length; topic: bounded by max_topic_length',
    rules: ['scheduled.content-limit', 'scheduled.topic-limit'],
    readings: ['characters (Unicode code points)', 'UTF-16 code units, bytes or graphemes'],
    zulip: 'counts code points',
    alternate: 'counts code points',
    suite: 'counts code points: text of one- to four-byte characters up to the limit must be stored whole; astral characters are mathematical letters, not emoji, so that no server\'s emoji rendering weighs on the check',
  },
  {
    topic: 'What "messages holds the IDs of modified messages" excludes',
    spec: '`messages` holds the IDs of modified messages',
    rules: ['flags.response-lists-modified', 'flags.response-lists-only-modified'],
    readings: ['exactly the messages whose flag changed', 'the messages the request named (Zulip\'s echo)'],
    zulip: 'echoes every requested ID (listed in fixtures/expectations/zulip.json)',
    reference: 'lists exactly the changed ones',
    alternate: 'lists exactly the changed ones',
    suite: 'the first reading, as two rules, so that a server echoing the request fails only the second',
  },
  {
    topic: 'When ignored_parameters_unsupported must appear',
    spec: 'When a request contains parameters that the operation does not support, the success response additionally has `ignored_parameters_unsupported` … from feature level 167 every success response of every endpoint may carry it.',
    rules: ['general.ignored-parameters-listed', 'general.ignored-parameters-on-settings', 'general.ignored-parameters-absent-before-167'],
    readings: ['from its level, present exactly when there are unsupported parameters, naming them', '"may": a server may leave it out'],
    zulip: 'lists them from the level the route gained it (PATCH /settings from 78, every endpoint from 167)',
    alternate: 'as Zulip',
    suite: 'the first reading, with names no server supports (the run prefix and a word); "the settings operation" of level 78 is read as PATCH /settings',
  },
  {
    topic: 'Events whose names are not shown',
    spec: 'Drafts events carry draft changes to the user\'s other clients … Event names, queues and full payloads: not shown.',
    rules: ['drafts.event-to-other-clients', 'drafts.sync-off-sends-no-event'],
    readings: ['Zulip\'s `drafts` events', 'any event that carries the change'],
    zulip: 'sends {type: "drafts", op: "add" | "update" | "remove"}',
    alternate: 'sends {type: "drafts", op: "created" | "edited" | "deleted"}',
    suite: 'registers for every event and counts any whose type names drafts or whose payload holds the run\'s prefix or a draft\'s ID',
  },
  {
    topic: 'An edit that gives the current type without `to` or topic',
    spec: '`to`: required when `type` is being changed; topic: required when `type` is changed to `stream` or `channel`',
    rules: ['scheduled.edits-follow-model', 'scheduled.to-required-on-type-change'],
    readings: ['only a change of type needs them', 'giving `type` at all needs them (Zulip)'],
    zulip: 'requires `to` (and a topic for channel types) whenever `type` is given',
    alternate: 'requires them only when the type changes',
    suite: 'does not judge such an edit (the model calls it open); scheduled.error-texts checks Zulip\'s answer',
  },
  {
    topic: 'How "(no topic)" is compared',
    spec: 'when a topic is required it cannot be `(no topic)`, an empty string, or the organization\'s empty-topic display name',
    rules: ['scheduled.required-topic-not-empty', 'scheduled.empty-topic-names', 'scheduled.topic-normalized'],
    readings: ['exactly those strings', 'ignoring case or surrounding whitespace'],
    zulip: 'strips whitespace, then compares exactly',
    alternate: 'compares exactly, whitespace kept',
    suite: 'exact strings; other-case forms are ordinary topics; whitespace-wrapped forms only in the decision scheduled.topic-normalized',
  },
  {
    topic: 'Another user\'s scheduled message',
    spec: 'All other listed endpoints act on the authenticated user\'s own data',
    rules: ['scheduled.own-messages-only'],
    readings: ['refused as if it did not exist (BAD_REQUEST)', 'refused as forbidden'],
    zulip: 'answers as for a missing one: 404 "Scheduled message does not exist"',
    alternate: 'answers 403 with code FORBIDDEN',
    suite: 'any refusal that leaves the message unchanged',
  },
  {
    topic: 'External account fields in must checks',
    spec: 'The interface of `field_data` for type 7 is unstabilized; its shape is not shown.',
    rules: ['fields.create-returns-id', 'fields.field-type-values'],
    readings: ['a type 7 create without field_data is valid', 'no type 7 create can be known to be valid'],
    zulip: 'requires {subtype} (github, twitter, or custom with url_pattern)',
    alternate: 'takes any object',
    suite: 'the second reading: must checks create every type but 7; fields.field-data-rules checks Zulip\'s subtypes',
  },
  {
    topic: 'Integers without an enumeration',
    spec: 'Integer settings without an enumeration: web_font_size_px, web_line_height_percent, email_notifications_batching_period_seconds',
    rules: ['defaults.values-stored', 'defaults.integer-ranges'],
    readings: ['any integer is valid', 'a server may bound them'],
    zulip: 'bounds only the batching period (1 to 604800)',
    alternate: 'bounds all three',
    suite: 'sends values every reading allows (font 12 to 20, line height 100 to 180, batching 60 to 86400)',
  },
  {
    topic: 'The string settings\' lists',
    spec: 'emojiset: `google`; `twitter`; `text` (plain text) … notification_sound: notification sound name (free string)',
    rules: ['defaults.string-values'],
    readings: ['the lists are closed and notification_sound takes any string', 'servers may add values (google-blob) or restrict sounds to those they have'],
    zulip: 'accepts google-blob; refuses a sound it does not have (fixtures/expectations/zulip.json)',
    reference: 'the first reading',
    alternate: 'the first reading',
    suite: 'the first reading, in defaults.string-values alone: elsewhere it sends only values both readings allow',
  },
  {
    topic: '"Affects only users created afterwards"',
    spec: 'The change affects only users created afterwards.',
    rules: ['defaults.existing-users-unchanged', 'defaults.new-users-get-defaults'],
    readings: ['existing users keep their settings, and new users start with the defaults', 'only the first half is promised'],
    zulip: 'copies the defaults onto every new human user (not bots)',
    alternate: 'as Zulip',
    suite: 'both halves; the second only where it may create users (--create-users) and act as them (reference_api_keys)',
  },
  {
    topic: 'Whose typing notifications',
    spec: 'the server delivers such events only to users with this enabled (feature level 253)',
    rules: ['typing.only-to-receivers'],
    readings: ['no event to a user with the setting off', 'also: every user with it on gets one'],
    zulip: 'sends to every participant with it on (channel typing only to queues that declared stream_typing_notifications)',
    alternate: 'to every participant with it on',
    suite: 'the first reading, checked only when a recipient with the setting on got the notification (else skipped: the absence would prove nothing)',
  },
  {
    topic: 'What "letters" are in an emoji name',
    spec: 'It may contain only letters, numbers, dashes, and spaces. Case is ignored. Underscores are treated as spaces.',
    rules: ['emoji.name-alphabet', 'emoji.name-characters'],
    readings: ['ASCII letters', 'any Unicode letter (é, ж, 字)'],
    zulip: 'lower-case ASCII letters only, and no name ending in a dash or underscore',
    reference: 'ASCII letters of either case, anywhere in the name',
    alternate: 'any Unicode letter',
    suite: 'sends ASCII letters as valid names and never a non-ASCII letter either way; every other character (symbols, emoji, white space inside the name) must be refused',
  },
  {
    topic: 'White space around an emoji name',
    spec: 'It may contain only letters, numbers, dashes, and spaces.',
    rules: ['emoji.name-characters', 'emoji.name-alphabet'],
    readings: ['surrounding spaces are part of the name', 'they are stripped'],
    zulip: 'strips surrounding white space, tabs included',
    alternate: 'keeps the name as given',
    suite: 'compares names with surrounding spaces dropped, and puts forbidden white space (tab, no-break space) only inside a name',
  },
  {
    topic: 'MAX_EMOJI_FILE_SIZE_MIB on a given server',
    spec: 'Custom emoji file size: server-configured maximum (setting MAX_EMOJI_FILE_SIZE_MIB, in MiB); default 5',
    rules: ['emoji.size-limit'],
    readings: ['the server says its limit', 'the client must be told'],
    zulip: 'does not report it',
    reference: 'reports it as server_settings.max_emoji_file_size_mib (--max-emoji-file-size-mib, default 5)',
    alternate: 'as the reference',
    suite: 'takes the target\'s report, else --emoji-limit-mib, else 5, and says which in the report',
  },
  {
    topic: 'A reminder without message_id or time',
    spec: 'Form parameters (all three are listed as optional)',
    rules: ['reminders.create-returns-id', 'reminders.parameters'],
    readings: ['a server must accept a reminder without them', 'they are required in practice'],
    zulip: 'requires message_id and scheduled_delivery_timestamp',
    alternate: 'accepts both absent: a note alone, due in an hour',
    suite: 'sends both in must checks; what their absence does is the decision reminders.parameters',
  },
];

/**
 * The spec's statements, section by section, and the rules that check each: rendered as
 * docs/coverage.md. A statement with no rule is a gap the suite does not check.
 */
export interface Statement {
  readonly section: string;
  readonly says: string;
  readonly rules: readonly RuleId[];
}

export const STATEMENTS: readonly Statement[] = [
  { section: 'Conventions', says: 'Every JSON response has result and msg, msg empty on success.', rules: ['general.envelope'] },
  { section: 'Conventions', says: 'Unsupported parameters are named in ignored_parameters_unsupported; the request still succeeds.', rules: ['general.ignored-parameters-listed', 'defaults.settings-at-their-levels'] },
  { section: 'Conventions', says: 'Request bodies are form-encoded, lists and objects as JSON in one field; the emoji upload is multipart.', rules: ['emoji.one-file-part'] },
  { section: 'Resources: User settings defaults', says: 'Every setting of the four tables, with its type and values, each from its feature level.', rules: ['defaults.values-stored', 'defaults.settings-at-their-levels'] },
  { section: 'Resources: User settings defaults', says: 'An out-of-set value of an enumerated integer setting is invalid.', rules: ['defaults.enum-values'] },
  { section: 'Resources: User settings defaults', says: 'String settings take their allowed values; notification_sound is a free string.', rules: ['defaults.string-values'] },
  { section: 'Resources: User settings defaults', says: 'Booleans are sent as true or false; integers as integers.', rules: ['defaults.value-types'] },
  { section: 'Resources: User settings defaults', says: 'Integer settings without an enumeration (font size, line height, batching period).', rules: ['defaults.values-stored', 'defaults.integer-ranges'] },
  { section: 'Resources: User settings defaults', says: 'receives_typing_notifications: typing events only to users with it on (253), and those users receive them.', rules: ['typing.only-to-receivers', 'typing.reaches-receivers'] },
  { section: 'Resources: User settings defaults', says: 'enable_drafts_synchronization off deletes the user\'s drafts on the server, with no event.', rules: ['drafts.sync-off-deletes-drafts', 'drafts.sync-off-sends-no-event'] },
  { section: 'Resources: Scheduled message', says: 'type is direct, channel, stream or private; private means direct, stream means channel (channel from 248).', rules: ['scheduled.type-values', 'scheduled.type-synonyms', 'scheduled.channel-type-absent-before-248'] },
  { section: 'Resources: Scheduled message', says: 'to is a channel ID for channel messages, a list of user IDs for direct ones.', rules: ['scheduled.to-matches-type'] },
  { section: 'Resources: Scheduled message', says: 'content is bounded by max_message_length, topic by max_topic_length.', rules: ['scheduled.content-limit', 'scheduled.topic-limit'] },
  { section: 'Resources: Scheduled message', says: 'failed is true when the server tried to send and failed.', rules: ['scheduled.failed-needs-timestamp'] },
  { section: 'Resources: Scheduled message', says: 'scheduled_delivery_timestamp is the UNIX time of the later delivery.', rules: ['scheduled.sent-at-its-time'] },
  { section: 'Resources: Custom profile field', says: 'field_type 1 to 8, Pronouns (8) from level 151.', rules: ['fields.field-type-values', 'fields.create-returns-id'] },
  { section: 'Resources: Custom profile field', says: 'display_in_profile_summary (146), required (244), editable_by_user (296), each from its level.', rules: ['fields.flags-at-their-levels', 'fields.create-returns-id'] },
  { section: 'Resources: Custom profile field', says: 'Type 3\'s field_data keys options by identifier, each with text and order strings.', rules: ['fields.select-options'] },
  { section: 'Resources: Custom profile field', says: 'Type 7\'s field_data is unstabilized; its shape is not shown.', rules: ['fields.field-data-rules'] },
  { section: 'Resources: Draft', says: 'type is "", stream or private; to, topic and content are required.', rules: ['drafts.type-must-be-listed', 'drafts.required-fields'] },
  { section: 'Resources: Draft', says: 'topic and content are strings.', rules: ['drafts.field-types'] },
  { section: 'Resources: Draft', says: 'A channel draft has exactly one channel ID in to.', rules: ['drafts.channel-draft-needs-one-channel'] },
  { section: 'Resources: Draft', says: 'An unaddressed draft\'s to is ignored; a non-channel draft\'s topic is ignored.', rules: ['drafts.unaddressed-to-ignored', 'drafts.topic-normalized'] },
  { section: 'Resources: Draft', says: 'topic and content must not contain null bytes.', rules: ['drafts.null-bytes-rejected'] },
  { section: 'Resources: Draft', says: 'timestamp is filled in by the server when absent.', rules: ['drafts.timestamp-filled-when-absent'] },
  { section: 'Resources: Draft', says: 'id is set by the server and not to be sent.', rules: ['drafts.unknown-keys-rejected'] },
  { section: 'Resources: Message flag', says: 'Only read, starred and collapsed are changeable through the flags operation.', rules: ['flags.only-changeable-flags'] },
  { section: 'Resources: Message flag', says: 'Messages start unread, except ones the user sent from a non-API client.', rules: ['flags.messages-start-unread'] },
  { section: 'Resources: Message flag', says: 'mentioned, the wildcard flags (224), has_alert_word and historical mean what the table says.', rules: ['flags.mention-flags', 'flags.wildcard-mention-flags', 'flags.wildcard-mentioned-before-224', 'flags.alert-word-flag', 'flags.historical-flag'] },
  { section: 'Resources: Message flag', says: 'mentioned: what a silent mention, a form of Zulip\'s syntax the spec does not know, sets: not shown.', rules: ['flags.silent-mentions'] },
  { section: 'Resources: Message flag', says: 'has_alert_word: in which case an alert word counts, and whether part of a longer word does: not shown.', rules: ['flags.alert-word-matching'] },
  { section: 'Resources: Message flag', says: 'Invariant: all unread messages are in channels the user is subscribed to.', rules: ['flags.unread-only-in-subscribed-channels'] },
  { section: 'Resources: Reminder', says: 'A reminder carries a message, a delivery time and an optional note.', rules: ['reminders.create-returns-id', 'reminders.note-delivered'] },
  { section: 'Resources: Custom emoji', says: 'Identified by its name; carries an uploaded image or gif.', rules: ['emoji.upload-stores', 'emoji.images-only'] },
  { section: 'States and transitions', says: 'DELETE of a pending or failed scheduled message deletes it; sending is cancelled.', rules: ['scheduled.delete-removes', 'scheduled.deleted-never-sent'] },
  { section: 'States and transitions', says: 'op add gives a changeable flag; op remove takes it away; the IDs are listed in messages.', rules: ['flags.add-sets-flag', 'flags.remove-clears-flag', 'flags.response-lists-modified', 'flags.model-sequence'] },
  { section: 'States and transitions', says: 'remove read skips messages of unsubscribed channels and lists those channels.', rules: ['flags.remove-read-skips-unsubscribed', 'flags.ignored-channels-listed'] },
  { section: 'States and transitions', says: 'Editing a failed scheduled message requires scheduled_delivery_timestamp.', rules: ['scheduled.failed-needs-timestamp'] },
  { section: 'States and transitions', says: 'How a message becomes failed, the state after an edit, delivery of a reminder: not shown.', rules: ['scheduled.late-delivery-fails', 'scheduled.edit-clears-failed', 'scheduled.delivery', 'reminders.delivery'] },
  { section: 'Endpoints 1. Update realm-level defaults of user settings', says: 'Organization administrators only.', rules: ['general.admin-only'] },
  { section: 'Endpoints 1. Update realm-level defaults of user settings', says: 'Any subset of the settings; the change affects only users created afterwards; from level 96.', rules: ['defaults.updates-follow-model', 'defaults.existing-users-unchanged', 'defaults.new-users-get-defaults'] },
  { section: 'Endpoints 2. Edit a scheduled message', says: 'to is required when type changes; topic when it changes to a channel type; topic ignored for direct messages.', rules: ['scheduled.to-required-on-type-change', 'scheduled.topic-required-on-change-to-channel', 'scheduled.topic-ignored-for-direct'] },
  { section: 'Endpoints 2. Edit a scheduled message', says: 'A required topic cannot be "(no topic)", "" or the display name; otherwise those mean the empty topic (370); empty topics valid from 334.', rules: ['scheduled.required-topic-not-empty', 'scheduled.empty-topic-names', 'scheduled.no-topic-ordinary-before-370', 'scheduled.empty-topic-valid-since-334', 'scheduled.empty-topic-invalid-before-334'] },
  { section: 'Endpoints 2. Edit a scheduled message', says: 'Success is {result: "success", msg: ""}; the edit sets what it names.', rules: ['scheduled.edits-follow-model', 'scheduled.delivered-as-edited'] },
  { section: 'Endpoints 2. Edit a scheduled message', says: 'A user acts on their own scheduled messages.', rules: ['scheduled.own-messages-only'] },
  { section: 'Endpoints 3. Delete a scheduled message', says: 'DELETE cancels sending; a missing ID is an error.', rules: ['scheduled.delete-removes', 'scheduled.delete-missing-error'] },
  { section: 'Endpoints 4. Create a custom profile field', says: 'Organization administrators only; field_type required; success returns id.', rules: ['general.admin-only', 'fields.field-type-required', 'fields.create-returns-id'] },
  { section: 'Endpoints 4. Create a custom profile field', says: 'At most 2 summary fields; Long text and Person picker fields not in the summary.', rules: ['fields.summary-limit', 'fields.summary-types', 'fields.summary-count-follows-model'] },
  { section: 'Endpoints 4. Create a custom profile field', says: 'name and hint are optional strings.', rules: ['fields.name-optional', 'fields.name-rules'] },
  { section: 'Endpoints 5. Create drafts', says: 'drafts is optional; ids lists the created drafts in order.', rules: ['drafts.drafts-parameter-optional', 'drafts.create-returns-ids-in-order', 'drafts.created-drafts-read-back'] },
  { section: 'Endpoints 5. Create drafts', says: 'Drafts are synchronized to the user\'s other clients by drafts events.', rules: ['drafts.event-to-other-clients'] },
  { section: 'Endpoints 6. Update personal message flags', says: 'messages, op and flag are required; op is add or remove; flag is from the table.', rules: ['flags.required-parameters', 'flags.op-add-or-remove', 'flags.only-changeable-flags'] },
  { section: 'Endpoints 6. Update personal message flags', says: 'messages holds the IDs of modified messages.', rules: ['flags.response-lists-modified', 'flags.response-lists-only-modified'] },
  { section: 'Endpoints 6. Update personal message flags', says: 'ignored_because_not_subscribed_channels only for read/remove, from level 355.', rules: ['flags.ignored-channels-only-for-read-remove', 'flags.ignored-channels-absent-before-355'] },
  { section: 'Endpoints 7. Create a message reminder', says: 'From level 381; note from 415; all three parameters listed as optional.', rules: ['reminders.note-absent-before-415', 'reminders.parameters'] },
  { section: 'Endpoints 7. Create a message reminder', says: 'Success returns reminder_id; the reminder is sent to the current user from a notification bot.', rules: ['reminders.create-returns-id', 'reminders.delivered-to-self'] },
  { section: 'Endpoints 7. Create a message reminder', says: 'scheduled_delivery_timestamp: UNIX seconds in UTC when the reminder is sent.', rules: ['reminders.sent-at-its-time'] },
  { section: 'Endpoints 8. Upload custom emoji', says: 'The name may contain only letters, numbers, dashes and spaces; case is ignored; underscores are spaces.', rules: ['emoji.name-characters', 'emoji.name-alphabet', 'emoji.name-case-ignored', 'emoji.underscores-are-spaces', 'emoji.name-rules'] },
  { section: 'Endpoints 8. Upload custom emoji', says: 'A multipart body with a single file part: an image or gif.', rules: ['emoji.one-file-part', 'emoji.images-only', 'emoji.image-bytes'] },
  { section: 'Endpoints 8. Upload custom emoji', says: 'Access depends on the organization\'s configuration.', rules: ['emoji.upload-access', 'emoji.permission'] },
  { section: 'Authentication', says: 'Every request is authenticated with HTTP Basic: email and API key.', rules: ['general.authentication-required'] },
  { section: 'Authentication', says: 'All other listed endpoints act on the authenticated user\'s own data (scheduled messages, drafts, flags, reminders).', rules: ['general.own-data-only', 'organization.model'] },
  { section: 'Authentication', says: 'Bots use the bot\'s email and API key.', rules: [] },
  { section: 'Events', says: 'Drafts events after drafts are created; typing events only to receivers; no event when synchronization is switched off.', rules: ['drafts.event-to-other-clients', 'typing.only-to-receivers', 'drafts.sync-off-sends-no-event'] },
  { section: 'Events', says: 'Event names, queues and payloads: not shown.', rules: ['drafts.event-shapes', 'flags.event-shape', 'scheduled.event-shapes', 'defaults.event-shape', 'fields.listing-shape', 'reminders.listing-shape', 'emoji.listing-shape', 'typing.event-shape'] },
  { section: 'Errors', says: 'The error table: STREAM_DOES_NOT_EXIST with stream_id; BAD_REQUEST for an unknown user, a missing scheduled message, a channel draft without one channel.', rules: ['scheduled.missing-channel-error', 'scheduled.invalid-user-error', 'scheduled.missing-message-error', 'scheduled.delete-missing-error', 'drafts.channel-draft-needs-one-channel'] },
  { section: 'Errors', says: 'HTTP statuses and the other endpoints\' error cases: not shown.', rules: ['general.error-statuses', 'drafts.error-texts', 'flags.error-texts', 'scheduled.error-texts', 'defaults.error-texts', 'fields.error-texts', 'drafts.invalid-audience-rejected', 'flags.inaccessible-messages'] },
  { section: 'Limits', says: 'Emoji file size: MAX_EMOJI_FILE_SIZE_MIB, default 5.', rules: ['emoji.size-limit'] },
  { section: 'Limits', says: 'Two summary profile fields; one channel per channel draft; message and topic lengths from /register.', rules: ['fields.summary-limit', 'drafts.channel-draft-needs-one-channel', 'scheduled.content-limit', 'scheduled.topic-limit'] },
  { section: 'Limits', says: 'Values of max_message_length and max_topic_length, rate limits: not shown.', rules: ['general.realm-limits', 'scheduled.limits-truncate', 'drafts.content-normalized'] },
  { section: 'Versioning', says: 'Behaviours with a feature level appear only from that level.', rules: ['scheduled.channel-type-absent-before-248', 'flags.ignored-channels-absent-before-355', 'fields.flags-at-their-levels', 'reminders.note-absent-before-415', 'defaults.settings-at-their-levels'] },
  { section: 'Versioning', says: 'ignored_parameters_unsupported: settings at 78, settings defaults at 96, every endpoint at 167.', rules: ['general.ignored-parameters-on-settings', 'general.ignored-parameters-listed', 'general.ignored-parameters-absent-before-167'] },
  { section: 'Versioning', says: 'Renames and removals: dense_mode (364), default_view and its escape setting (219), realm_name_in_notifications (168), email_address_visibility (163), twenty_four_hour_time (99).', rules: ['defaults.settings-at-their-levels'] },
  { section: 'Other operations (used to set up and observe, not shown)', says: 'Reading drafts, scheduled messages, messages; IDs.', rules: ['drafts.edit-delete-follow-model', 'drafts.audience-normalized', 'drafts.negative-timestamp-rejected', 'drafts.sync-off-endpoints-refuse', 'scheduled.listing-shape', 'scheduled.future-timestamp', 'scheduled.topic-normalized', 'general.ids-ascend', 'general.message-rendering', 'general.date-header', 'general.unknown-endpoints', 'general.channel-history-read'] },
];

/**
 * The closest of the candidates to a mistyped word, if one is close enough to be meant: a rule ID
 * for --only, an option for either command line.
 */
export function closest(word: string, candidates: readonly string[]): string | null {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, index) => index);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length]!;
  };
  const ranked = candidates.map((candidate) => [candidate, distance(word, candidate)] as const).sort((a, b) => a[1] - b[1]);
  const [best] = ranked;
  return best && best[1] <= Math.max(2, Math.floor(word.length / 3)) ? best[0] : null;
}
