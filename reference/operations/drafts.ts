// Drafts: spec "Resources: Draft" and "Endpoints 5. Create drafts", with Zulip's GET, PATCH
// and DELETE /drafts for reading and changing them.

import { listening, sendEvent } from '../model/events.js';
import type { Request } from '../model/request.js';
import type { Draft, DraftFields, DraftId, DraftType, Realm, User } from '../model/model.js';
import {
  JsonError, checkIntList, checkNumber, checkString, checkStrictDict, fieldMissing, missingArgument, pathId, type Params,
} from '../model/params.js';

export const DRAFT_TYPES: readonly DraftType[] = ['', 'stream', 'private'];
const DRAFT_KEYS = ['type', 'to', 'topic', 'content', 'timestamp'] as const;

// ---- Rules ------------------------------------------------------------------------------

/** drafts.sync-off-endpoints-refuse */
function checkDraftsSynchronizationEnabled(user: User): void {
  if (user.settings.enable_drafts_synchronization === false) {
    throw new JsonError('User has disabled synchronizing drafts.').otherwise('Draft synchronization is turned off for this user', 409);
  }
}

/** drafts.field-types: type, topic and content are strings, as the Draft table types them. */
function draftTextField(given: unknown, field: string): string {
  return typeof given === 'string' ? given : checkString(given, field);
}

const REQUIRED_DRAFT_KEYS = ['type', 'to', 'topic', 'content'] as const;

/** drafts.required-fields: type, to, topic and content; timestamp is optional. */
function checkRequiredDraftKeys(dict: Record<string, unknown>, name: string): void {
  for (const key of REQUIRED_DRAFT_KEYS) {
    if (!(key in dict)) throw fieldMissing(fieldName(name, key));
  }
}

/** drafts.type-must-be-listed */
function checkDraftType(given: string, name: string): DraftType {
  if (!DRAFT_TYPES.includes(given as DraftType)) throw new JsonError(`Invalid ${name}`);
  return given as DraftType;
}

/** drafts.timestamp-filled-when-absent: the time of the request. */
function draftTimestampNow(realm: Realm): number {
  return realm.clock.now();
}

/** drafts.null-bytes-rejected */
function checkTopicWithoutNullBytes(topic: string): void {
  if (topic.includes('\0')) throw new JsonError('Topic must not contain null bytes');
}

/** drafts.channel-draft-needs-one-channel */
function checkOneChannel(channels: readonly number[]): number {
  if (channels.length !== 1) {
    throw new JsonError('Must specify exactly 1 channel ID for channel messages').otherwise(`A channel draft is addressed to one channel, not ${channels.length}`);
  }
  return channels[0]!;
}

/** drafts.unaddressed-to-ignored: an unaddressed draft's `to` is not read. */
function unaddressedDraft(_to: readonly number[], content: string, timestamp: number): DraftFields {
  return { type: '', to: [], topic: UNADDRESSED_TOPIC, content, timestamp };
}

/** drafts.topic-normalized: the topic an unaddressed draft keeps (the spec: ignored; Zulip's: ""). */
const UNADDRESSED_TOPIC = '';

/** drafts.event-shapes: the type of the drafts events a queue asks for (event names are not shown; Zulip's). */
const DRAFTS_EVENT = 'drafts';

/** drafts.drafts-parameter-optional: omitting `drafts` is an empty batch. */
function draftsParameter(params: Params): unknown[] {
  return params.list('drafts') ?? [];
}

/** drafts.created-drafts-read-back */
function storeDraft(user: User, draft: Draft): void {
  user.drafts.set(draft.id, draft);
}

/** drafts.create-returns-ids-in-order */
function idsOfCreatedDrafts(drafts: readonly Draft[]): DraftId[] {
  return drafts.map((draft) => draft.id);
}

/** drafts.event-to-other-clients (a request that creates no draft is announced too, as Zulip does: an event of no drafts). */
function announceCreatedDrafts(realm: Realm, user: User, drafts: readonly Draft[]): void {
  const audience = realm.rules.ownDataAudience(realm, user);
  if (listening(realm, DRAFTS_EVENT, audience)) sendEvent(realm, realm.dialect.draftsEvent('add', drafts), audience);
}

/** drafts.edit-delete-follow-model */
function removeDraft(user: User, draft: Draft): void {
  user.drafts.delete(draft.id);
}

/** drafts.sync-off-deletes-drafts; drafts.sync-off-sends-no-event */
function deleteDraftsSilently(_realm: Realm, user: User): void {
  user.drafts.clear();
}

export const DRAFT_RULES = {
  checkRequiredDraftKeys, draftTextField, checkDraftType, draftTimestampNow, checkTopicWithoutNullBytes, checkOneChannel, unaddressedDraft,
  draftsParameter, storeDraft, idsOfCreatedDrafts, announceCreatedDrafts, removeDraft, deleteDraftsSilently,
};

// ---- Validation ---------------------------------------------------------------------------

/** The names of a draft's fields in error texts (`drafts[2]["topic"]`, drafts.error-texts): made once for each position of a batch. */
export interface DraftNames {
  readonly draft: string;
  readonly type: string;
  readonly to: string;
  readonly topic: string;
  readonly content: string;
  readonly timestamp: string;
}

/** drafts.error-texts: a field's name in a refusal, as Zulip writes it. */
const fieldName = (name: string, key: string) => `${name}["${key}"]`;
/** drafts.error-texts: the names of one draft's fields. */
export const namesOf = (name: string): DraftNames => ({
  draft: name, type: fieldName(name, 'type'), to: fieldName(name, 'to'), topic: fieldName(name, 'topic'), content: fieldName(name, 'content'), timestamp: fieldName(name, 'timestamp'),
});
/** drafts.error-texts: the names of a batch's drafts, by position. */
const batchNames: DraftNames[] = [];
/** drafts.error-texts: the names of an edited draft's fields. */
const editNames = namesOf('draft');
/** drafts.error-texts: the names of the draft at a batch's position. */
const namesInBatch = (index: number): DraftNames => (batchNames[index] ??= namesOf(`drafts[${index}]`));

/** A channel draft's `to`: one array for each channel, shared by its drafts (never changed: an edit replaces it). */
const channelAddresses: Array<readonly number[]> = [];
const channelAddress = (channelId: number): number[] => (channelAddresses[channelId] ??= Object.freeze([channelId])) as number[];

/** Parses one draft object as Zulip's strict schema does, then validates it against the rules. */
export function checkDraft(realm: Realm, user: User, value: unknown, names: DraftNames): DraftFields {
  const dict = checkStrictDict(value, names.draft, realm.dialect.rejectsUnknownDraftKeys() ? DRAFT_KEYS : Object.keys(value ?? {}));
  realm.rules.checkRequiredDraftKeys(dict, names.draft);
  const type = realm.rules.checkDraftType(realm.rules.draftTextField(dict.type, names.type), names.type);
  const to = checkIntList(dict.to, names.to);
  const topic = realm.rules.draftTextField(dict.topic ?? '', names.topic);
  const content = realm.dialect.draftContent(realm, realm.rules.draftTextField(dict.content, names.content), names.content);
  const given = dict.timestamp === undefined || dict.timestamp === null ? undefined : checkNumber(dict.timestamp, names.timestamp);
  checkGivenTimestamp(realm, given);
  const timestamp = given === undefined ? realm.rules.draftTimestampNow(realm) : Math.round(given * 1e6) / 1e6;
  if (type === 'stream') return checkChannelDraft(realm, user, to, topic, content, timestamp);
  if (type === 'private') return checkDirectDraft(realm, user, to, topic, content, timestamp);
  return realm.rules.unaddressedDraft(to, content, timestamp);
}

/** drafts.negative-timestamp-rejected: a timestamp given is checked as the dialect checks one (the spec states no check). */
function checkGivenTimestamp(realm: Realm, given: number | undefined): void {
  if (given !== undefined) realm.dialect.checkDraftTimestamp(realm, given);
}

function checkChannelDraft(realm: Realm, user: User, to: number[], topic: string, content: string, timestamp: number): DraftFields {
  const storedTopic = realm.dialect.draftTopic(realm, topic);
  realm.rules.checkTopicWithoutNullBytes(storedTopic);
  const channelId = realm.rules.checkOneChannel(realm.dialect.draftChannels(to));
  realm.dialect.checkDraftChannel(realm, user, channelId);
  return { type: 'stream', to: channelAddress(channelId), topic: storedTopic, content, timestamp };
}

function checkDirectDraft(realm: Realm, user: User, to: number[], topic: string, content: string, timestamp: number): DraftFields {
  realm.dialect.checkDraftUsers(realm, to);
  const address = realm.dialect.directDraftAddress(user, to, topic);
  return address.type === '' ? realm.rules.unaddressedDraft(to, content, timestamp) : { ...address, content, timestamp };
}

export function draftDict(draft: Draft): Record<string, unknown> {
  return { id: draft.id, type: draft.type, to: draft.to, topic: draft.topic, content: draft.content, timestamp: Math.floor(draft.timestamp) };
}

/** Drafts in the order of their last edit. */
export function draftsByEditTime(user: User): Draft[] {
  return [...user.drafts.values()].sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
}

function findDraft(realm: Realm, user: User, id: number): Draft {
  const draft = user.drafts.get(id as DraftId);
  if (!draft) throw realm.dialect.draftNotFound(realm, id);
  return draft;
}

// ---- Actions ------------------------------------------------------------------------------

export function doCreateDrafts(realm: Realm, user: User, drafts: DraftFields[]): Draft[] {
  const created = drafts.map(({ type, to, topic, content, timestamp }): Draft => ({ id: realm.nextId('draft') as DraftId, type, to, topic, content, timestamp }));
  for (const draft of created) realm.rules.storeDraft(user, draft);
  realm.rules.announceCreatedDrafts(realm, user, created);
  return created;
}

export function doEditDraft(realm: Realm, user: User, draft: Draft, fields: DraftFields): void {
  Object.assign(draft, fields);
  const audience = realm.rules.ownDataAudience(realm, user);
  if (listening(realm, 'drafts', audience)) sendEvent(realm, realm.dialect.draftsEvent('update', [draft]), audience);
}

export function doDeleteDraft(realm: Realm, user: User, draft: Draft): void {
  realm.rules.removeDraft(user, draft);
  sendEvent(realm, realm.dialect.draftsEvent('remove', [draft]), realm.rules.ownDataAudience(realm, user));
}

export function doDeleteAllDrafts(realm: Realm, user: User): void {
  realm.rules.deleteDraftsSilently(realm, user);
}

// ---- Operations ---------------------------------------------------------------------------

export function createDrafts({ realm, user, params }: Request) {
  checkDraftsSynchronizationEnabled(user);
  const drafts = realm.rules.draftsParameter(params).map((value, index) => checkDraft(realm, user, value, namesInBatch(index)));
  return { ids: realm.rules.idsOfCreatedDrafts(doCreateDrafts(realm, user, drafts)) };
}

export function getDrafts({ realm, user }: Request) {
  if (!realm.dialect.draftsReadableWhileSynchronizationOff()) checkDraftsSynchronizationEnabled(user);
  const drafts = realm.dialect.draftsListed(draftsByEditTime(user)).map(draftDict);
  return { count: drafts.length, drafts };
}

export function editDraft({ realm, user, params, path }: Request) {
  checkDraftsSynchronizationEnabled(user);
  const value = params.json('draft');
  if (value === undefined) throw missingArgument('draft');
  const fields = checkDraft(realm, user, value, editNames);
  doEditDraft(realm, user, findDraft(realm, user, pathId(path.draft_id!)), fields);
  return {};
}

export function deleteDraft({ realm, user, path }: Request) {
  checkDraftsSynchronizationEnabled(user);
  doDeleteDraft(realm, user, findDraft(realm, user, pathId(path.draft_id!)));
  return {};
}
