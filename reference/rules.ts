// The rule catalog: every rule of the spec, and every decision taken where the spec says
// "not shown", with a stable ID. The reference cites these IDs (fault names, comments), the
// suite keys its report by them, and scripts/docs.ts renders them as docs/rules.md and .json.

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
    title: 'A channel draft whose `to` does not hold exactly one channel ID is rejected with BAD_REQUEST, saying so, and nothing is created.',
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
  },
  {
    id: 'drafts.error-texts', section: 'Errors', severity: 'decision', since: 1,
    title: 'Draft errors are HTTP 400 with Zulip\'s texts: "Must specify exactly 1 channel ID for channel messages", "Message must not contain null bytes", "Topic must not contain null bytes", "Invalid drafts[i][\\"type\\"]".',
    why: 'HTTP status codes and exact texts are not shown; Zulip\'s are used.',
  },
  {
    id: 'drafts.invalid-audience-rejected', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A channel draft to a channel that does not exist or is not accessible gets "Invalid channel ID"; a direct draft to an unknown user gets "Invalid user ID N".',
    why: 'The spec does not say whether the audience is validated; Zulip validates it when the draft is created.',
  },
  {
    id: 'drafts.negative-timestamp-rejected', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A negative timestamp is rejected with "Timestamp must not be negative."; a future one is accepted.',
    why: 'The spec gives no range for timestamp; Zulip refuses negative ones only.',
  },
  {
    id: 'drafts.content-normalized', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'Content loses surrounding whitespace; blank content is rejected; content longer than max_message_length is truncated.',
    why: 'The spec does not say how content is stored; Zulip strips it, refuses a blank one and truncates a long one like a message.',
  },
  {
    id: 'drafts.topic-normalized', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A channel topic longer than max_topic_length is truncated; the topic of any other draft is stored empty.',
    why: 'The spec says the topic of non-channel drafts is ignored and gives no topic limit for drafts; Zulip stores "" and truncates channel topics.',
  },
  {
    id: 'drafts.audience-normalized', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A direct draft\'s `to` is stored sorted, without duplicates and without the owner (unless only the owner); a direct draft with an empty `to` and any unaddressed draft read back as type "" with `to` [].',
    why: 'The spec does not say how the audience is stored; this is how Zulip reads it back.',
  },
  {
    id: 'drafts.unknown-keys-rejected', section: 'Resources: Draft', severity: 'decision', since: 1,
    title: 'A draft object with a key outside the draft fields (including `id`) is rejected: Argument "k" at drafts[i] is unexpected.',
    why: 'The spec says id is "not to be sent"; Zulip validates draft objects strictly.',
  },
  {
    id: 'drafts.event-shapes', section: 'Events', severity: 'decision', since: 1,
    title: 'Drafts events are {type:"drafts", op:"add", drafts}, {op:"update", draft} and {op:"remove", draft_id}.',
    why: 'The spec names drafts events but not their payloads; Zulip\'s shapes are used.',
  },
  {
    id: 'drafts.edit-delete-follow-model', section: 'Endpoints 5 (with Zulip\'s GET/PATCH/DELETE /drafts)', severity: 'decision', since: 1,
    title: 'Sequences of create, edit (full replacement), delete and list agree with a model of the user\'s drafts; another user\'s or a missing draft is 404 "Draft does not exist".',
    why: 'Editing, deleting and listing drafts are Zulip endpoints outside the spec.',
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
    title: 'mentioned is set for exactly the users mentioned directly or through a user group; a silent mention sets nothing.',
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
    title: 'has_alert_word is set on a message that holds one of the recipient\'s alert words, in any case.',
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
    title: 'Flag errors are HTTP 400 with Zulip\'s texts, checked in Zulip\'s order: "Missing \'messages\' argument", "Invalid flag: \'x\'", "Flag not editable: \'x\'", "Invalid message flag operation: \'x\'".',
    why: 'Error texts and statuses are not shown; Zulip\'s are used.',
  },
  {
    id: 'flags.inaccessible-messages', section: 'Errors (not shown)', severity: 'decision', since: 1,
    title: 'add starred, add collapsed and remove read with a message the user may not see (or that does not exist) fail whole with "Invalid message(s)"; add read, remove starred and remove collapsed on such messages change nothing and succeed.',
    why: 'The spec does not say what happens to messages the user may not see; Zulip treats a message outside the user\'s history as read and historical and checks access only when that must change.',
  },
  {
    id: 'flags.event-shape', section: 'Events (not shown)', severity: 'decision', since: 1,
    title: 'update_message_flags events carry op, operation, flag, the changed messages and all:false; for read/remove, message_details.',
    why: 'Event payloads are not shown; Zulip\'s shape is used.',
  },
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]['id'];

const byId = new Map<string, Rule>(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return byId.get(id);
}

/** Whether the rule describes behaviour a server at this feature level has. */
export function ruleAppliesAt(rule: Rule, level: number): boolean {
  return level >= rule.since && (rule.before === undefined || level < rule.before);
}
