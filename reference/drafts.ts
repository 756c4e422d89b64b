// Drafts: spec "Resources: Draft" and "Endpoints 5. Create drafts", with Zulip's GET, PATCH
// and DELETE /drafts for reading and changing them.

import { listening, sendEvent } from './events.js';
import type { Request } from './http.js';
import type { Draft, DraftId, DraftType, Realm, User, UserId } from './model.js';
import {
  JsonError, checkIntList, checkNumber, checkString, checkStrictDict, fieldMissing, missingArgument, pathId,
} from './params.js';
import { characterLength, normalizeContent, truncateTopic } from './text.js';

const DRAFT_TYPES: readonly DraftType[] = ['', 'stream', 'private'];
const DRAFT_KEYS = ['type', 'to', 'topic', 'content', 'timestamp'] as const;

type DraftFields = Omit<Draft, 'id'>;

// ---- Rules ------------------------------------------------------------------------------

/** drafts.sync-off-endpoints-refuse: the alternate dialect lets GET /drafts answer (an empty list). */
function checkDraftsSynchronizationEnabled(realm: Realm, user: User, reading = false): void {
  if (reading && (realm.fault('drafts.sync-off-endpoints-refuse') || realm.alternate('drafts.sync-off-endpoints-refuse'))) return;
  if (user.settings.enable_drafts_synchronization === false) {
    throw new JsonError('User has disabled synchronizing drafts.').otherwise('Draft synchronization is turned off for this user', 409);
  }
}

/** Parses one draft object as Zulip's strict schema does, then validates it against the rules. */
export function checkDraft(realm: Realm, user: User, value: unknown, name: string): DraftFields {
  const lenient = realm.fault('drafts.unknown-keys-rejected') || realm.alternate('drafts.unknown-keys-rejected');
  const dict = checkStrictDict(value, name, lenient ? Object.keys(value ?? {}) : DRAFT_KEYS);
  const field = (key: string) => `${name}["${key}"]`;
  for (const key of ['type', 'to', 'topic', 'content']) {
    if (key === 'topic' && realm.fault('drafts.required-fields')) continue;
    if (!(key in dict)) throw fieldMissing(field(key));
  }
  let type = checkString(dict.type, field('type')) as DraftType;
  if (!DRAFT_TYPES.includes(type) && realm.fault('drafts.type-must-be-listed')) type = '';
  if (!DRAFT_TYPES.includes(type)) throw new JsonError(`Invalid ${field('type')}`);
  const to = checkIntList(dict.to, field('to'));
  const topic = checkString(dict.topic ?? '', field('topic'));
  const content = checkDraftContent(realm, checkString(dict.content, field('content')), field('content'));
  const given = dict.timestamp === undefined || dict.timestamp === null ? undefined : checkNumber(dict.timestamp, field('timestamp'));
  const timestamp = checkDraftTimestamp(realm, given);
  if (type === 'stream') return checkChannelDraft(realm, user, to, topic, content, timestamp);
  if (type === 'private' && (to.length > 0 || realm.alternate('drafts.audience-normalized'))) return checkDirectDraft(realm, user, to, topic, content, timestamp);
  return checkUnaddressedDraft(realm, type, to, content, timestamp);
}

/**
 * drafts.null-bytes-rejected; drafts.content-normalized: Zulip strips and truncates; the
 * alternate dialect stores content as sent and refuses it past its limit.
 */
function checkDraftContent(realm: Realm, given: string, name: string): string {
  if (realm.alternate('drafts.content-normalized')) {
    if (given.includes('\0')) throw new JsonError('Message must not contain null bytes');
    if (characterLength(given) > realm.settings.maxMessageLength) throw new JsonError(`${name} is longer than ${realm.settings.maxMessageLength} characters`);
    return given;
  }
  const stripped = realm.fault('drafts.content-normalized') ? given : given.trim();
  if (stripped === '') throw new JsonError(`${name} cannot be blank`);
  return normalizeContent(stripped, realm.settings.maxMessageLength);
}

/** drafts.timestamp-filled-when-absent; drafts.negative-timestamp-rejected */
function checkDraftTimestamp(realm: Realm, given: number | undefined): number {
  if (given === undefined) return realm.fault('drafts.timestamp-filled-when-absent') ? 0 : realm.clock.now();
  if (realm.alternate('drafts.negative-timestamp-rejected')) {
    if (given > realm.clock.now() + 60) throw new JsonError('A draft cannot have been edited in the future');
  } else if (given < 0 && !realm.fault('drafts.negative-timestamp-rejected')) {
    throw new JsonError('Timestamp must not be negative.');
  }
  return Math.round(given * 1e6) / 1e6;
}

/** drafts.channel-draft-needs-one-channel; drafts.null-bytes-rejected; drafts.invalid-audience-rejected */
function checkChannelDraft(realm: Realm, user: User, to: number[], topic: string, content: string, timestamp: number): DraftFields {
  let storedTopic = checkDraftTopic(realm, topic);
  if (realm.fault('drafts.created-drafts-read-back')) storedTopic = storedTopic.toUpperCase();
  if (storedTopic.includes('\0') && !realm.fault('drafts.null-bytes-rejected')) throw new JsonError('Topic must not contain null bytes');
  // The alternate dialect reads "exactly one channel ID" as one distinct ID: [7, 7] is channel 7.
  const channels = realm.alternate('drafts.audience-normalized') ? [...new Set(to)] : to;
  const oneChannel = channels.length === 1 || (channels.length > 1 && realm.fault('drafts.channel-draft-needs-one-channel'));
  if (!oneChannel) {
    const text = realm.fault('drafts.error-texts') ? 'Exactly one channel ID is required' : 'Must specify exactly 1 channel ID for channel messages';
    throw new JsonError(text).otherwise(`A channel draft is addressed to one channel, not ${channels.length}`);
  }
  const channel = realm.channels.get(to[0] as never);
  const accessible = channel !== undefined && realm.channelIsAccessible(user, channel);
  if (!accessible && !realm.fault('drafts.invalid-audience-rejected') && !realm.alternate('drafts.invalid-audience-rejected')) throw new JsonError('Invalid channel ID');
  return { type: 'stream', to: [to[0]!], topic: storedTopic, content, timestamp };
}

/** drafts.topic-normalized: Zulip truncates a long channel topic; the alternate dialect refuses it. */
function checkDraftTopic(realm: Realm, topic: string): string {
  const max = realm.settings.maxTopicLength;
  if (!realm.alternate('drafts.topic-normalized')) return truncateTopic(topic, max);
  if (characterLength(topic) > max) throw new JsonError(`The topic is longer than ${max} characters`);
  return topic;
}

/** drafts.audience-normalized; drafts.invalid-audience-rejected; drafts.topic-normalized */
function checkDirectDraft(realm: Realm, user: User, to: number[], topic: string, content: string, timestamp: number): DraftFields {
  for (const id of to) {
    if (!realm.users.has(id as UserId) && !realm.alternate('drafts.invalid-audience-rejected')) throw new JsonError(`Invalid user ID ${id}`);
  }
  if (realm.alternate('drafts.audience-normalized')) return { type: 'private', to, topic: '', content, timestamp };
  let recipients = [...new Set(to)].sort((a, b) => a - b);
  const others = recipients.filter((id) => id !== user.id);
  if (others.length > 0) recipients = others;
  if (realm.fault('drafts.audience-normalized')) recipients = to;
  return { type: 'private', to: recipients, topic: realm.fault('drafts.topic-normalized') ? topic : '', content, timestamp };
}

/** drafts.unaddressed-to-ignored; drafts.audience-normalized */
function checkUnaddressedDraft(realm: Realm, type: DraftType, to: number[], content: string, timestamp: number): DraftFields {
  if (type === '' && to.length > 0 && realm.fault('drafts.unaddressed-to-ignored')) throw new JsonError('Unaddressed drafts take no recipients');
  return { type: '', to: [], topic: '', content, timestamp };
}

export function draftDict(draft: Draft): Record<string, unknown> {
  return { id: draft.id, type: draft.type, to: draft.to, topic: draft.topic, content: draft.content, timestamp: Math.floor(draft.timestamp) };
}

/** Drafts in the order of their last edit. */
export function draftsByEditTime(user: User): Draft[] {
  return [...user.drafts.values()].sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
}

/** drafts.edit-delete-follow-model: the alternate dialect tells another user's draft from a missing one. */
function findDraft(realm: Realm, user: User, id: number): Draft {
  const draft = user.drafts.get(id as DraftId);
  if (draft) return draft;
  if (realm.alternate('drafts.edit-delete-follow-model')) {
    const othersDraft = [...realm.users.values()].some((other) => other.drafts.has(id as DraftId));
    throw othersDraft ? new JsonError('Draft does not exist', 404).otherwise('That draft belongs to another user', 403) : new JsonError('Draft does not exist', 404).otherwise(`No draft has ID ${id}`, 404);
  }
  throw new JsonError('Draft does not exist', 404);
}

/** drafts.event-shapes: the payloads of drafts events, in the realm's dialect. */
function draftsEvent(realm: Realm, op: 'add' | 'update' | 'remove', drafts: readonly Draft[]): Record<string, unknown> & { type: string } {
  if (realm.alternate('drafts.event-shapes')) {
    if (op === 'add') return { type: 'drafts', op: 'created', drafts: drafts.map(draftDict) };
    if (op === 'update') return { type: 'drafts', op: 'edited', draft: draftDict(drafts[0]!) };
    return { type: 'drafts', op: 'deleted', draft_ids: drafts.map((draft) => draft.id) };
  }
  if (op === 'add') return { type: 'drafts', op, [realm.fault('drafts.event-shapes') ? 'draft' : 'drafts']: drafts.map(draftDict) };
  if (op === 'update') return { type: 'drafts', op, draft: draftDict(drafts[0]!) };
  return { type: 'drafts', op, draft_id: drafts[0]!.id };
}

// ---- Actions ------------------------------------------------------------------------------

export function doCreateDrafts(realm: Realm, user: User, drafts: DraftFields[]): Draft[] {
  const created = drafts.map((fields) => ({ id: realm.nextDraftId(), ...fields }));
  for (const draft of created) user.drafts.set(draft.id, draft);
  if (created.length > 0 && !realm.fault('drafts.event-to-other-clients') && listening(realm, 'drafts', [user.id])) {
    sendEvent(realm, draftsEvent(realm, 'add', created), [user.id]);
  }
  return created;
}

export function doEditDraft(realm: Realm, user: User, draft: Draft, fields: DraftFields): void {
  Object.assign(draft, fields);
  if (listening(realm, 'drafts', [user.id])) sendEvent(realm, draftsEvent(realm, 'update', [draft]), [user.id]);
}

export function doDeleteDraft(realm: Realm, user: User, draft: Draft): void {
  if (!realm.fault('drafts.edit-delete-follow-model')) user.drafts.delete(draft.id);
  sendEvent(realm, draftsEvent(realm, 'remove', [draft]), [user.id]);
}

/** drafts.sync-off-deletes-drafts; drafts.sync-off-sends-no-event */
export function doDeleteAllDrafts(realm: Realm, user: User): void {
  if (realm.fault('drafts.sync-off-deletes-drafts')) return;
  const ids = [...user.drafts.keys()];
  user.drafts.clear();
  if (realm.fault('drafts.sync-off-sends-no-event')) {
    for (const id of ids) sendEvent(realm, { type: 'drafts', op: 'remove', draft_id: id }, [user.id]);
  }
}

// ---- Operations ---------------------------------------------------------------------------

export function createDrafts({ realm, user, params }: Request) {
  checkDraftsSynchronizationEnabled(realm, user);
  // drafts.drafts-parameter-optional: the spec makes `drafts` optional; omitting it is an
  // empty batch. Zulip requires it ("Missing 'drafts' argument").
  if (!params.has('drafts') && realm.fault('drafts.drafts-parameter-optional')) throw missingArgument('drafts');
  const list = params.list('drafts') ?? [];
  const drafts = list.map((value, index) => checkDraft(realm, user, value, `drafts[${index}]`));
  const ids = doCreateDrafts(realm, user, drafts).map((draft) => draft.id);
  if (ids.length > 1 && realm.fault('drafts.create-returns-ids-in-order')) ids.reverse();
  return { ids };
}

export function getDrafts({ realm, user }: Request) {
  checkDraftsSynchronizationEnabled(realm, user, true);
  const drafts = draftsByEditTime(user).map(draftDict);
  // drafts.edit-delete-follow-model: the alternate dialect lists the newest first.
  if (realm.alternate('drafts.edit-delete-follow-model')) drafts.reverse();
  return { count: drafts.length, drafts };
}

export function editDraft({ realm, user, params, path }: Request) {
  checkDraftsSynchronizationEnabled(realm, user);
  const value = params.json('draft');
  if (value === undefined) throw missingArgument('draft');
  const fields = checkDraft(realm, user, value, 'draft');
  doEditDraft(realm, user, findDraft(realm, user, pathId(path.draft_id!)), fields);
  return {};
}

export function deleteDraft({ realm, user, path }: Request) {
  checkDraftsSynchronizationEnabled(realm, user);
  doDeleteDraft(realm, user, findDraft(realm, user, pathId(path.draft_id!)));
  return {};
}

