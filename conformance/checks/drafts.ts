// Checks of the drafts rules (spec "Resources: Draft", "Endpoints 5. Create drafts").
// The generated drafts are those the spec allows; the decisions' checks add what Zulip does.

import fc from 'fast-check';
import type { Role } from '../run/client.js';
import { check, expect, modelRun, inZulipWords, refused, refusedExactly, succeeded, Skip, type Check, type Context } from '../run/harness.js';
import { sameJson, SHAPES } from '../run/shape.js';
import { characterLength, MARKED, MARKED_SHORT, text, topicText } from './generators.js';
import { aboutDrafts, fetchState, pollEvents, registerQueue, runChannel, serverStamp, type Queue, type SpecOperation } from './world.js';

export interface DraftInput {
  type: unknown;
  to: unknown;
  topic: unknown;
  content: unknown;
  timestamp?: number;
  [key: string]: unknown;
}

interface StoredDraft {
  id: number;
  type: string;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

// ---- Generators -------------------------------------------------------------------------------

const DAY = 86_400;

/**
 * The time of a last edit: in the past of the target's clock (a day of slack for clocks that
 * differ), since 2001. A future one is the spec's "last edit" only by a stretch, so it is left
 * to a decision (drafts.negative-timestamp-rejected).
 */
function timestampOf(context: Context) {
  const now = context.approximateNow();
  // Up to the start of yesterday: the same seed draws the same times all day long.
  return fc.option(fc.integer({ min: 1_000_000_000, max: Math.floor(now / DAY) * DAY - DAY }), { nil: undefined });
}

/** A draft the spec allows and whose stored form is what was sent; content tagged later. */
function validDraft(context: Context): fc.Arbitrary<DraftInput> {
  const { users, memberChannels, maxTopicLength } = context.probe;
  const topic = topicText(maxTopicLength);
  const body = text(60);
  const timestamp = () => timestampOf(context);
  const channel = fc.record({
    type: fc.constant('stream'), to: fc.constantFrom(...memberChannels.map((c) => [c.id])), topic, content: body, timestamp: timestamp(),
  });
  const direct = fc.record({
    type: fc.constant('private'),
    to: fc.oneof(fc.constant([users.member.id]), fc.subarray([users.other.id, users.admin.id], { minLength: 1 })),
    topic: fc.oneof(fc.constant(''), topic), content: body, timestamp: timestamp(),
  });
  const unaddressed = fc.record({ type: fc.constant(''), to: fc.constant([]), topic: fc.constant(''), content: body, timestamp: timestamp() });
  return fc.oneof(channel, direct, unaddressed).map((draft) => {
    const result: DraftInput = { ...draft };
    if (result.timestamp === undefined) delete result.timestamp;
    return result;
  });
}

/** Content carries the run prefix (for cleanup) and the draft's position (for matching). */
function tagged(context: Context, drafts: DraftInput[]): DraftInput[] {
  return drafts.map((draft, index) => ({ ...draft, content: `${context.prefix} #${index} ${String(draft.content)}.` }));
}

function validBatch(context: Context, maxLength = 4): fc.Arbitrary<DraftInput[]> {
  return fc.array(validDraft(context), { minLength: 1, maxLength }).map((drafts) => tagged(context, drafts));
}

/**
 * The boundaries of a batch: one draft of each kind together (a channel draft whose topic and
 * content hold every kind of character that must come back as sent, a direct draft to two users,
 * an unaddressed one), and a batch of a hundred.
 */
function batchBoundaries(context: Context): Array<fc.Arbitrary<DraftInput[]>> {
  const { users, memberChannels } = context.probe;
  const kinds: DraftInput[] = [
    { type: 'stream', to: [memberChannels[0]!.id], topic: Array.from(MARKED_SHORT).slice(0, context.probe.maxTopicLength).join('').trim(), content: `to a channel ${MARKED}` },
    { type: 'private', to: [users.other.id, users.admin.id], topic: '', content: 'to two users' },
    { type: '', to: [], topic: '', content: 'to no one' },
  ];
  const hundred = fc.array(validDraft(context), { minLength: 100, maxLength: 100 }).map((drafts) => tagged(context, drafts));
  // A smoke run keeps its budget: the hundred drafts would cost it a hundred deletes.
  return [fc.constant(tagged(context, kinds)), ...(context.options.smoke ? [] : [hundred])];
}

/** A valid batch with one draft spoilt by `spoil` at a generated position. */
function spoiltBatch<T>(context: Context, spoiler: fc.Arbitrary<T>, spoil: (draft: DraftInput, how: T) => DraftInput) {
  return fc.tuple(validBatch(context), fc.nat(), spoiler).map(([batch, position, how]) => {
    const index = position % batch.length;
    const drafts = batch.map((draft, i) => (i === index ? spoil(draft, how) : draft));
    return { drafts, index, how };
  });
}

/** Channels member may draft to: those member was in when the run began, and one of the run's own. */
function draftChannels(context: Context): Promise<number[]> {
  return context.memo('drafts-channels', async () => {
    const own = await runChannel(context, ['member']);
    return [...new Set([...context.probe.memberChannels.map((channel) => channel.id), own.id])];
  });
}

// ---- Observation -----------------------------------------------------------------------------

async function ourDrafts(context: Context, as: Role = 'member'): Promise<StoredDraft[]> {
  const body = succeeded(await context.call(as, 'GET', '/drafts'), 'GET /drafts', SHAPES.drafts);
  expect(Array.isArray(body.drafts), `GET /drafts: no drafts list: ${JSON.stringify(body)}`);
  return (body.drafts as StoredDraft[]).filter((draft) => typeof draft.content === 'string' && draft.content.includes(context.prefix));
}

/** The run's drafts as POST /register gives them to a client that registers now; null where the target gives none there. */
async function registeredDrafts(context: Context, as: Role = 'member'): Promise<StoredDraft[] | null> {
  const state = await fetchState(context, as, ['drafts']);
  if (!Array.isArray(state.drafts)) return null;
  return (state.drafts as StoredDraft[]).filter((draft) => typeof draft?.content === 'string' && draft.content.includes(context.prefix));
}

async function removeDrafts(context: Context, ids: readonly number[], as: Role = 'member'): Promise<void> {
  for (const id of ids) {
    await context.cleanup.now(`delete draft ${id}`, async () => {
      const response = await context.call(as, 'DELETE', `/drafts/${id}`);
      if (response.status >= 500) throw new Error(`DELETE /drafts/${id}: ${response.status}`);
    });
  }
}

async function ourDraftIds(context: Context, as: Role = 'member'): Promise<Set<number>> {
  return new Set((await ourDrafts(context, as)).map((draft) => draft.id));
}

/** The position tag `tagged` puts into content, or null. */
function positionOf(context: Context, draft: StoredDraft): number | null {
  const match = new RegExp(`^\\s*${context.prefix} #(\\d+) `).exec(draft.content);
  return match ? Number(match[1]) : null;
}

/**
 * Creates the batch, expecting success, and reads back what it created: the drafts that were
 * not there before, found by the position tag in their content (or, for a single draft, the
 * one new draft), so that one wrong answer does not hide another.
 */
async function createAndRead(context: Context, drafts: DraftInput[], as: Role = 'member') {
  const before = await ourDraftIds(context, as);
  const response = await context.call(as, 'POST', '/drafts', { drafts });
  const body = succeeded(response, 'POST /drafts');
  const ids: unknown = body.ids;
  const created = (await ourDrafts(context, as)).filter((draft) => !before.has(draft.id));
  const cleanupIds = created.map((draft) => draft.id);
  try {
    expect(Array.isArray(ids) && ids.every((id) => Number.isInteger(id)), `POST /drafts: ids is not a list of integers: ${JSON.stringify(ids)}`);
  } catch (error) {
    await removeDrafts(context, cleanupIds, as);
    throw error;
  }
  const at = (index: number): StoredDraft | undefined =>
    created.find((draft) => positionOf(context, draft) === index) ?? (drafts.length === 1 && created.length === 1 ? created[0] : undefined);
  return { response, ids: ids as number[], created, createdIds: cleanupIds, at };
}

/** Posts drafts (or, without them, no `drafts` parameter) and removes whatever the request created. */
async function postAndRemoveCreated(context: Context, drafts?: unknown[]) {
  const before = await ourDraftIds(context);
  const response = await context.call('member', 'POST', '/drafts', drafts === undefined ? {} : { drafts });
  const created = [...(await ourDraftIds(context))].filter((id) => !before.has(id));
  await removeDrafts(context, created);
  return { response, created };
}

/** Posts a batch that must be refused, and checks that it created nothing. */
async function postRefused(context: Context, drafts: unknown[]) {
  const { response, created } = await postAndRemoveCreated(context, drafts);
  expect(created.length === 0, `POST /drafts: the request was answered ${response.status} ${JSON.stringify(response.body)}, yet ${created.length} draft(s) were created`);
  return refused(response, 'POST /drafts');
}

const sortedIds = (ids: unknown) => (Array.isArray(ids) ? [...ids].sort((a, b) => a - b) : ids);

/** Differences between a draft as sent and as read back, for the fields the spec fixes. */
function readBackDifferences(sent: DraftInput, stored: StoredDraft | undefined): string | null {
  if (!stored) return 'not found in GET /drafts';
  const differences: string[] = [];
  if (stored.type !== sent.type) differences.push(`type ${JSON.stringify(stored.type)} != ${JSON.stringify(sent.type)}`);
  if (JSON.stringify(sortedIds(stored.to)) !== JSON.stringify(sortedIds(sent.to))) differences.push(`to ${JSON.stringify(stored.to)} != ${JSON.stringify(sent.to)}`);
  if (stored.content !== sent.content) differences.push(`content ${JSON.stringify(stored.content)} != ${JSON.stringify(sent.content)}`);
  if (sent.type === 'stream' && stored.topic !== sent.topic) differences.push(`topic ${JSON.stringify(stored.topic)} != ${JSON.stringify(sent.topic)}`);
  if (sent.timestamp !== undefined && stored.timestamp !== sent.timestamp) differences.push(`timestamp ${stored.timestamp} != ${sent.timestamp}`);
  if (!Number.isInteger(stored.timestamp)) differences.push(`timestamp ${JSON.stringify(stored.timestamp)} is not an integer`);
  return differences.length > 0 ? differences.join('; ') : null;
}

/** The drafts synchronization setting, switched for the check and put back at the end. */
async function withSynchronizationSetting(context: Context, as: Role) {
  const registered = await fetchState(context, as, ['user_settings']);
  const original = registered.user_settings?.enable_drafts_synchronization;
  expect(typeof original === 'boolean', `POST /register: user_settings.enable_drafts_synchronization is not a boolean: ${JSON.stringify(registered.user_settings)}`);
  let restored = false;
  const set = async (value: boolean) => {
    succeeded(await context.call(as, 'PATCH', '/settings', { enable_drafts_synchronization: value }), `PATCH /settings enable_drafts_synchronization=${value}`);
    restored = value === original;
    if (!restored) context.putBack(`restore ${as}'s enable_drafts_synchronization=${original}`, { as, method: 'PATCH', path: '/settings', params: { enable_drafts_synchronization: original } });
  };
  return { as, original, set, isRestored: () => restored };
}

/**
 * A user of the profile whose drafts the server may delete: one with no drafts this run did not
 * make (switching synchronization off deletes every draft). The first of member, other, admin.
 */
function synchronizationUser(context: Context): Promise<Role> {
  return context.memo('drafts-sync-user', async () => {
    const foreign: string[] = [];
    for (const role of ['member', 'other', 'admin'] as const) {
      const body = succeeded(await context.call(role, 'GET', '/drafts'), `GET /drafts as ${role}`, SHAPES.drafts);
      expect(Array.isArray(body.drafts), `GET /drafts: no drafts list: ${JSON.stringify(body).slice(0, 300)}`);
      const count = (body.drafts as StoredDraft[]).filter((draft) => !String(draft?.content).includes(context.prefix)).length;
      if (count === 0) return role;
      foreign.push(`${role} has ${count}`);
    }
    throw new Skip(`every user of the profile has drafts this run did not create (${foreign.join(', ')}); switching synchronization off would delete them`);
  });
}

/** A batch any user may draft: unaddressed, or to users of the profile. */
function synchronizationBatch(context: Context): fc.Arbitrary<DraftInput[]> {
  const ids = Object.values(context.probe.users).map((user) => user.id);
  const draft = fc.record({
    type: fc.constantFrom('', 'private'), to: fc.subarray(ids, { minLength: 1 }), content: text(60),
  }).map(({ type, to, content }): DraftInput => ({ type, to: type === '' ? [] : to, topic: '', content }));
  return fc.array(draft, { minLength: 1, maxLength: 3 }).map((drafts) => tagged(context, drafts));
}

// ---- Checks of what the spec states ---------------------------------------------------------

const mustChecks: Check[] = [
  check('drafts.create-returns-ids-in-order', async (context) => {
    await context.property(validBatch(context), async (drafts) => {
      const { ids, at, createdIds } = await createAndRead(context, drafts);
      try {
        expect(ids.length === drafts.length, `${drafts.length} drafts sent, ${ids.length} ids returned: ${JSON.stringify(ids)}`);
        expect(new Set(ids).size === ids.length, `ids are not distinct: ${JSON.stringify(ids)}`);
        drafts.forEach((_, index) => {
          expect(at(index)?.id === ids[index], `ids[${index}] is ${ids[index]}, but the draft sent at position ${index} has ID ${at(index)?.id}`);
        }, { boundaries: batchBoundaries(context) });
      } finally {
        await removeDrafts(context, createdIds);
      }
    }, { boundaries: batchBoundaries(context) });
  }, ['channel']),

  check('drafts.created-drafts-read-back', async (context) => {
    await context.property(validBatch(context), async (drafts) => {
      const { at, created, createdIds } = await createAndRead(context, drafts);
      try {
        drafts.forEach((draft, index) => {
          const difference = readBackDifferences(draft, at(index));
          expect(difference === null, `the draft sent at position ${index} reads back differently through GET /drafts: ${difference}`);
        });
        // Through the other path the target offers: the state a client that registers now is given.
        const registered = await registeredDrafts(context);
        if (registered === null) return;
        for (const [index, draft] of drafts.entries()) {
          const stored = created.find((candidate) => candidate.id === at(index)?.id);
          const difference = readBackDifferences(draft, registered.find((candidate) => candidate.id === stored?.id));
          expect(difference === null, `the draft sent at position ${index} reads back differently through POST /register's drafts: ${difference}`);
        }
      } finally {
        await removeDrafts(context, createdIds);
      }
    }, { boundaries: batchBoundaries(context) });
  }, ['channel']),

  check('drafts.timestamp-filled-when-absent', async (context) => {
    const batch = validBatch(context).map((drafts) => drafts.map(({ timestamp: _, ...draft }) => draft as DraftInput));
    await context.property(batch, async (drafts) => {
      // The time of creation lies between two readings of the target's API time, one before and
      // one after (the reference clock's answers, or the stamps of messages sent then).
      const before = await serverStamp(context);
      const { created, createdIds } = await createAndRead(context, drafts);
      try {
        const after = await serverStamp(context);
        expect(created.length === drafts.length, `${drafts.length} drafts sent, ${created.length} created`);
        for (const { id, timestamp: value } of created) {
          expect(Number.isInteger(value), `draft ${id}: timestamp ${JSON.stringify(value)} is not integer seconds`);
          expect(value >= before && value <= after, `draft ${id}: timestamp ${value} is not the time of creation, which the target's own time puts between ${before} and ${after} (${context.deliveryState.mode === 'clock' ? 'the reference clock\'s answers' : 'the timestamps of messages sent just before and after'})`);
        }
      } finally {
        await removeDrafts(context, createdIds);
      }
    });
  }, ['channel']),

  check('drafts.channel-draft-needs-one-channel', async (context) => {
    // [7, 7] names one channel twice: whether that is "exactly one channel ID" is open, so
    // only none or distinct IDs are sent.
    const ids = await draftChannels(context);
    const notOne = fc.oneof(fc.constant([] as number[]), fc.shuffledSubarray(ids, { minLength: 2 }));
    const batchesWith = (to: fc.Arbitrary<number[]>) => spoiltBatch(context, fc.tuple(to, topicText(context.probe.maxTopicLength)), (draft, [channels, topic]) => ({ ...draft, type: 'stream', to: channels, topic }));
    // The boundaries: no channel, and two (one past the one allowed).
    const boundaries = [fc.constant([] as number[]), fc.constant(ids.slice(0, 2))].map(batchesWith);
    await context.property(batchesWith(notOne), async ({ drafts }) => {
      const body = await postRefused(context, drafts);
      expect(body.code === 'BAD_REQUEST', `code is ${JSON.stringify(body.code)}, not BAD_REQUEST`);
      expect(body.msg !== '', `the error's msg is empty`);
    }, { boundaries });
  }, ['channel']),

  check('drafts.null-bytes-rejected', async (context) => {
    const [channel] = context.probe.memberChannels;
    const where = fc.record({ field: fc.constantFrom('content', 'topic'), at: fc.nat() });
    const batchesWith = (spot: fc.Arbitrary<{ field: string; at: number }>) => spoiltBatch(context, spot, (draft, { field, at }) => {
      if (field === 'content') {
        const content = String(draft.content);
        const cut = at % (content.length + 1);
        return { ...draft, content: content.slice(0, cut) + '\0' + content.slice(cut) };
      }
      const topic = draft.type === 'stream' ? String(draft.topic) : 'topic';
      const cut = at % (topic.length + 1);
      return { ...draft, type: 'stream', to: draft.type === 'stream' ? draft.to : [channel!.id], topic: topic.slice(0, cut) + '\0' + topic.slice(cut) };
    });
    // The boundaries: a NUL in each field, at its start.
    const boundaries = ['content', 'topic'].map((field) => batchesWith(fc.constant({ field, at: 0 })));
    await context.property(batchesWith(where), async ({ drafts }) => {
      await postRefused(context, drafts);
    }, { boundaries });
  }, ['channel']),

  check('drafts.type-must-be-listed', async (context) => {
    const nearMisses = fc.constantFrom<unknown>('channel', 'direct', 'Stream', 'STREAM', 'Private', ' stream', 'stream ', 'private\n', 'dm', 'huddle', 'null', 'unaddressed', null, 0, true, [], {});
    const strings = fc.string({ maxLength: 12 }).filter((type) => !['', 'stream', 'private'].includes(type));
    const batches = spoiltBatch(context, fc.oneof(nearMisses, strings), (draft, type) => ({ ...draft, type }));
    // The boundaries: the spec's own words for the other types, and neither type at all.
    const boundaries = ['channel', 'direct', null].map((type) => spoiltBatch(context, fc.constant<unknown>(type), (draft, given) => ({ ...draft, type: given })));
    await context.property(batches, async ({ drafts }) => {
      await postRefused(context, drafts);
    }, { boundaries });
  }, ['channel']),

  check('drafts.required-fields', async (context) => {
    const batches = spoiltBatch(context, fc.constantFrom('type', 'to', 'topic', 'content'), (draft, key) => {
      const { [key]: _, ...rest } = draft;
      return rest as DraftInput;
    });
    // The boundaries: each required field left out.
    const boundaries = ['type', 'to', 'topic', 'content'].map((key) => spoiltBatch(context, fc.constant(key), (draft, left) => {
      const { [left]: _, ...rest } = draft;
      return rest as DraftInput;
    }));
    await context.property(batches, async ({ drafts }) => {
      await postRefused(context, drafts);
    }, { boundaries });
  }, ['channel']),

  check('drafts.field-types', async (context) => {
    const { memberChannels } = context.probe;
    const keys = ['topic', 'content'] as const;
    const wrong: unknown[] = [5, 0, -1.5, true, false, {}, { text: 'x' }, [], ['x'], [1]];
    // The boundaries: each field with a number, a boolean, an object and a list.
    const boundaries = keys.flatMap((key) => [5, true, { text: 'x' }, ['x']].map((value) => fc.constant<[(typeof keys)[number], unknown]>([key, value])));
    await context.property(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...wrong)), async ([key, value]) => {
      const draft = { type: 'stream', to: [memberChannels[0]!.id], topic: `${context.prefix} types`, content: `${context.prefix} types`, [key]: value };
      const response = await context.call('member', 'POST', '/drafts', { drafts: [draft] });
      // Refused: nothing breaks the table's types (that nothing is made is drafts.required-fields' kind of check).
      if (response.status !== 200 || (response.body as { result?: unknown } | null)?.result !== 'success') return;
      const ids = ((response.body as { ids?: unknown }).ids as unknown[] | undefined ?? []).filter((id): id is number => Number.isInteger(id));
      try {
        const listed = succeeded(await context.call('member', 'GET', '/drafts'), 'GET /drafts', SHAPES.drafts).drafts as StoredDraft[];
        for (const stored of listed.filter((candidate) => ids.includes(candidate.id))) {
          expect(typeof stored.topic === 'string' && typeof stored.content === 'string',
            `a draft with ${key} ${JSON.stringify(value)} was accepted and reads back with topic ${JSON.stringify(stored.topic)} and content ${JSON.stringify(stored.content)}: the Draft table makes both strings`);
        }
      } finally {
        await removeDrafts(context, ids);
      }
    }, { boundaries });
  }, ['channel']),

  check('drafts.unaddressed-to-ignored', async (context) => {
    const to = fc.array(fc.integer({ min: -1_000_000, max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 6 });
    const drafts = fc.tuple(to, text(40)).map(([recipients, body]) => tagged(context, [{ type: '', to: recipients, topic: '', content: body }]));
    await context.property(drafts, async (batch) => {
      const { at, createdIds } = await createAndRead(context, batch);
      try {
        expect(at(0)?.type === '', `the unaddressed draft reads back as ${JSON.stringify(at(0))}`);
      } finally {
        await removeDrafts(context, createdIds);
      }
    });
  }),

  check('drafts.drafts-parameter-optional', async (context) => {
    const { response, created } = await postAndRemoveCreated(context);
    const body = succeeded(response, 'POST /drafts without drafts');
    expect(created.length === 0, `POST /drafts without drafts created ${created.length} draft(s)`);
    expect(Array.isArray(body.ids) && body.ids.length === 0, `POST /drafts without drafts: ids is ${JSON.stringify(body.ids)}, not []`);
  }),

  check('drafts.event-to-other-clients', async (context) => {
    await context.property(validBatch(context, 3), async (drafts) => {
      // Event names and payloads are not shown: the queue takes every event.
      const queue = await registerQueue(context, 'member', null);
      let ids: number[] = [];
      try {
        ids = (await createAndRead(context, drafts)).createdIds;
        const about = aboutDrafts(ids, drafts.map((draft) => String(draft.content)));
        const events = await pollEvents(context, 'member', queue, (seen) => seen.some(about));
        expect(events.some(about), `no event about the new drafts reached another queue of the user within the wait (events: ${JSON.stringify(events)})`);
      } finally {
        await removeDrafts(context, ids);
        await queue.remove();
      }
    }, context.runsSmokeAtMost(10));
  }, ['channel']),

  check('drafts.sync-off-deletes-drafts', (context) => switchingSynchronization(context, deletesDraftsProperty), [], ['profile users\' settings']),
  check('drafts.sync-off-sends-no-event', (context) => switchingSynchronization(context, sendsNoEventProperty), ['events'], ['profile users\' settings']),
];

/** Runs a property that switches synchronization, for a user with only the run's drafts, and puts the setting back. */
async function switchingSynchronization(context: Context, property: (context: Context, setting: Setting) => Promise<void>) {
  const setting = await withSynchronizationSetting(context, await synchronizationUser(context));
  try {
    await property(context, setting);
  } finally {
    if (!setting.isRestored()) await setting.set(setting.original);
  }
}

type Setting = Awaited<ReturnType<typeof withSynchronizationSetting>>;

function deletesDraftsProperty(context: Context, setting: Setting) {
  const { as } = setting;
  return context.property(synchronizationBatch(context), async (drafts) => {
      await setting.set(true);
      const { createdIds } = await createAndRead(context, drafts, as);
      await setting.set(false);
      await setting.set(true);
      const left = await ourDrafts(context, as);
      if (left.length > 0) await removeDrafts(context, left.map((draft) => draft.id), as);
      expect(left.length === 0, `after switching ${as}'s synchronization off and on, ${left.length} of the ${createdIds.length} drafts are still on the server`);
    }, context.runsSmokeAtMost(10));
}

function sendsNoEventProperty(context: Context, setting: Setting) {
  const { as } = setting;
  return context.property(synchronizationBatch(context), async (drafts) => {
    await setting.set(true);
    let createdIds: number[] = [];
    let queue: Queue | null = null;
    try {
      createdIds = (await createAndRead(context, drafts, as)).createdIds;
      // Registered after the drafts are made, so that their own events are not in it; it takes
      // every event, since event names are not shown.
      queue = await registerQueue(context, as, null);
      await setting.set(false);
      await setting.set(true);
      // The spec orders no events: nothing that names these drafts (an ID, a content) may come at
      // all, before the settings events of switching, between them or after. The settings event
      // of switching back on ends the wait (a server that sends none is watched for the whole
      // wait), and what follows it closely is looked at too. A drafts event that names none of them
      // counts only before that event: switching on, about which the spec is silent, may send one.
      const switchedOn = (event: any) => event.type === 'user_settings' && event.property === 'enable_drafts_synchronization' && event.value === true;
      const events = await pollEvents(context, as, queue, (seen) => seen.some(switchedOn));
      const on = events.findIndex(switchedOn);
      const after = on < 0 ? [] : [...events.slice(on + 1), ...await pollEvents(context, as, queue, () => false, 25)];
      const contents = drafts.map((draft) => String(draft.content));
      const [named, typed] = [aboutDrafts(createdIds, contents, false), aboutDrafts(createdIds, contents)];
      const judged = (event: any, before: boolean) => !/settings/.test(String(event.type)) && (before ? typed(event) : named(event));
      const draftEvents = [...(on < 0 ? events : events.slice(0, on)).filter((event) => judged(event, true)), ...after.filter((event) => judged(event, false))];
      expect(draftEvents.length === 0, `switching ${as}'s synchronization off sent events about the drafts: ${JSON.stringify(draftEvents)}`);
    } finally {
      await removeDrafts(context, createdIds, as);
      await queue?.remove();
    }
  }, context.runsSmokeAtMost(5));
}

// ---- Checks of the decisions (Zulip's behaviour) ------------------------------------------

const decisionChecks: Check[] = [
  check('drafts.sync-off-endpoints-refuse', async (context) => {
    const as = await synchronizationUser(context);
    const setting = await withSynchronizationSetting(context, as);
    await setting.set(true);
    const [draft] = tagged(context, [{ type: '', to: [], topic: '', content: 'kept' }]);
    const { createdIds } = await createAndRead(context, [draft!], as);
    try {
      await setting.set(false);
      const message = 'User has disabled synchronizing drafts.';
      refusedExactly(await context.call(as, 'GET', '/drafts'), 'GET /drafts while off', message);
      refusedExactly(await context.call(as, 'POST', '/drafts', { drafts: [draft] }), 'POST /drafts while off', message);
      refusedExactly(await context.call(as, 'PATCH', `/drafts/${createdIds[0]}`, { draft }), 'PATCH /drafts/{id} while off', message);
      refusedExactly(await context.call(as, 'DELETE', `/drafts/${createdIds[0]}`), 'DELETE /drafts/{id} while off', message);
    } finally {
      await setting.set(setting.original);
    }
  }, [], ['profile users\' settings']),

  check('drafts.error-texts', async (context) => {
    const [channel] = context.probe.memberChannels;
    const KINDS = ['two-channels', 'no-channel', 'nul-content', 'nul-topic', 'bad-type'] as const;
    const batchesWith = (kinds: fc.Arbitrary<(typeof KINDS)[number]>) => spoiltBatch(context, kinds, (draft, kind): DraftInput => {
      switch (kind) {
        case 'two-channels': return { ...draft, type: 'stream', to: [channel!.id, channel!.id], topic: 'two' };
        case 'no-channel': return { ...draft, type: 'stream', to: [], topic: 'none' };
        case 'nul-content': return { ...draft, content: `${String(draft.content)}\0` };
        case 'nul-topic': return { ...draft, type: 'stream', to: [channel!.id], topic: 'a\0b' };
        default: return { ...draft, type: 'channel' };
      }
    });
    const texts: Record<string, (index: number) => string> = {
      'two-channels': () => inZulipWords(context.level, 'Must specify exactly 1 channel ID for channel messages'),
      'no-channel': () => inZulipWords(context.level, 'Must specify exactly 1 channel ID for channel messages'),
      'nul-content': () => 'Message must not contain null bytes',
      'nul-topic': () => 'Topic must not contain null bytes',
      'bad-type': (index) => `Invalid drafts[${index}]["type"]`,
    };
    // The boundaries: each error once.
    const boundaries = KINDS.map((kind) => batchesWith(fc.constant(kind)));
    await context.property(batchesWith(fc.constantFrom(...KINDS)), async ({ drafts, index, how }) => {
      const { response } = await postAndRemoveCreated(context, drafts);
      // Drafts are validated in order: the first spoilt one is the one reported.
      refusedExactly(response, 'POST /drafts', texts[how]!(index));
    }, { boundaries });
  }, ['channel']),

  check('drafts.invalid-audience-rejected', async (context) => {
    const absent = fc.integer({ min: 1_000_000_000, max: 2_000_000_000 });
    await context.property(fc.tuple(fc.boolean(), absent), async ([toChannel, id]) => {
      const draft = toChannel ? { type: 'stream', to: [id], topic: 'nowhere', content: `${context.prefix} x` } : { type: 'private', to: [id], topic: '', content: `${context.prefix} x` };
      const { response } = await postAndRemoveCreated(context, [draft]);
      refusedExactly(response, 'POST /drafts', toChannel ? inZulipWords(context.level, 'Invalid channel ID') : `Invalid user ID ${id}`);
    });
  }),

  check('drafts.negative-timestamp-rejected', async (context) => {
    const negative = fc.oneof(fc.integer({ min: -(2 ** 31), max: -1 }), fc.double({ min: -1e9, max: -0.001, noNaN: true }));
    const future = fc.integer({ min: 1, max: 10 * 365 * 86400 });
    await context.property(fc.tuple(negative, future), async ([past, ahead]) => {
      const content = `${context.prefix} time`;
      const { response } = await postAndRemoveCreated(context, [{ type: '', to: [], topic: '', content, timestamp: past }]);
      refusedExactly(response, 'POST /drafts', 'Timestamp must not be negative.');
      const when = context.approximateNow() + ahead;
      const { at, createdIds } = await createAndRead(context, [{ type: '', to: [], topic: '', content, timestamp: when }]);
      try {
        expect(at(0)?.timestamp === when, `a future timestamp ${when} reads back as ${at(0)?.timestamp}`);
      } finally {
        await removeDrafts(context, createdIds);
      }
    });
  }),

  check('drafts.content-normalized', async (context) => {
    const max = context.probe.maxMessageLength;
    const space = fc.string({ unit: fc.constantFrom(' ', '\n', '\t'), minLength: 1, maxLength: 4 });
    await context.property(fc.tuple(space, space, text(30), fc.integer({ min: 1, max: 40 })), async ([before, after, body, over]) => {
      const content = `${context.prefix} ${body}.`;
      const padded = await createAndRead(context, [{ type: '', to: [], topic: '', content: before + content + after }]);
      const long = await createAndRead(context, [{ type: '', to: [], topic: '', content: `${context.prefix} ${'x'.repeat(max + over)}` }]);
      try {
        const stored = padded.at(0)?.content;
        expect(stored === content, `content with surrounding whitespace reads back as ${JSON.stringify(stored)}, not ${JSON.stringify(content)}`);
        const truncated = long.at(0)?.content ?? '';
        expect(characterLength(truncated) === max && truncated.endsWith('\n[message truncated]'), `content of ${max + over + context.prefix.length + 1} characters reads back with ${characterLength(truncated)} characters, ending ${JSON.stringify(truncated.slice(-24))}`);
        refusedExactly(await context.call('member', 'POST', '/drafts', { drafts: [{ type: '', to: [], topic: '', content: before + after }] }), 'POST /drafts with blank content', 'drafts[0]["content"] cannot be blank');
      } finally {
        await removeDrafts(context, [...padded.createdIds, ...long.createdIds]);
      }
    });
  }),

  check('drafts.topic-normalized', async (context) => {
    const max = context.probe.maxTopicLength;
    const [channel] = context.probe.memberChannels;
    const long = fc.string({ unit: fc.constantFrom('a', 'é', '話', '𝒜'), minLength: max + 1, maxLength: max + 20 });
    await context.property(fc.tuple(long, topicText(max)), async ([longTopic, topic]) => {
      const drafts = tagged(context, [
        { type: 'stream', to: [channel!.id], topic: longTopic, content: 'long' },
        { type: 'private', to: [context.probe.users.other.id], topic, content: 'direct' },
        { type: '', to: [], topic, content: 'unaddressed' },
      ]);
      const { at, createdIds } = await createAndRead(context, drafts);
      try {
        const expected = Array.from(longTopic).slice(0, max - 3).join('') + '...';
        expect(at(0)?.topic === expected, `a topic of ${characterLength(longTopic)} characters reads back as ${JSON.stringify(at(0)?.topic)}`);
        expect(at(1)?.topic === '', `a direct draft's topic reads back as ${JSON.stringify(at(1)?.topic)}`);
        expect(at(2)?.topic === '', `an unaddressed draft's topic reads back as ${JSON.stringify(at(2)?.topic)}`);
      } finally {
        await removeDrafts(context, createdIds);
      }
    });
  }, ['channel']),

  check('drafts.audience-normalized', async (context) => {
    const { member, other, admin } = context.probe.users;
    const recipients = fc.array(fc.constantFrom(member.id, other.id, admin.id), { minLength: 1, maxLength: 6 });
    await context.property(fc.tuple(recipients, fc.array(fc.nat(1000), { maxLength: 3 })), async ([to, ignored]) => {
      const drafts = tagged(context, [
        { type: 'private', to, topic: '', content: 'direct' },
        { type: 'private', to: [], topic: '', content: 'nobody' },
        { type: '', to: ignored, topic: '', content: 'unaddressed' },
      ]);
      const { at, createdIds } = await createAndRead(context, drafts);
      try {
        const unique = [...new Set(to)].sort((a, b) => a - b);
        const others = unique.filter((id) => id !== member.id);
        const expected = others.length > 0 ? others : unique;
        expect(JSON.stringify(at(0)?.to) === JSON.stringify(expected), `to ${JSON.stringify(to)} reads back as ${JSON.stringify(at(0)?.to)}, not ${JSON.stringify(expected)}`);
        const nobody = at(1);
        expect(nobody?.type === '' && JSON.stringify(nobody.to) === '[]', `a direct draft to nobody reads back as ${JSON.stringify(nobody)}`);
        expect(JSON.stringify(at(2)?.to) === '[]', `an unaddressed draft's to reads back as ${JSON.stringify(at(2)?.to)}`);
      } finally {
        await removeDrafts(context, createdIds);
      }
    });
  }),

  check('drafts.unknown-keys-rejected', async (context) => {
    const keys = fc.oneof(fc.constantFrom('id', 'Type', 'topic_name', 'stream_id', 'recipients'), fc.string({ minLength: 1, maxLength: 10 }).filter((key) => !['type', 'to', 'topic', 'content', 'timestamp', '__proto__'].includes(key)));
    const batches = spoiltBatch(context, fc.tuple(keys, fc.jsonValue()), (draft, [key, value]) => ({ ...draft, [key]: value }));
    await context.property(batches, async ({ drafts, index, how: [key] }) => {
      const { response } = await postAndRemoveCreated(context, drafts);
      refusedExactly(response, 'POST /drafts', `Argument "${key}" at drafts[${index}] is unexpected`);
    });
  }, ['channel']),

  check('drafts.event-shapes', async (context) => {
    await context.property(fc.tuple(validBatch(context, 3), validDraft(context)), async ([drafts, replacement]) => {
      const queue = await registerQueue(context, 'member', ['drafts']);
      let ids: number[] = [];
      try {
        const created = await createAndRead(context, drafts);
        ids = drafts.map((_, index) => created.at(index)?.id ?? -1);
        const [edited] = tagged(context, [replacement]);
        succeeded(await context.call('member', 'PATCH', `/drafts/${ids[0]}`, { draft: edited }), 'PATCH /drafts/{id}');
        succeeded(await context.call('member', 'DELETE', `/drafts/${ids[0]}`), 'DELETE /drafts/{id}');
        // Only the events of these drafts: another client of the same user (another run) makes drafts meanwhile.
        const about = aboutDrafts(ids, drafts.map((draft) => String(draft.content)), false);
        const events = (await pollEvents(context, 'member', queue, (seen) => seen.some((event) => event.op === 'remove' && about(event)))).filter(about);
        const [add, update, remove] = events;
        const expectedAdd = drafts.map((_, index) => created.at(index));
        expect(add?.type === 'drafts' && add.op === 'add' && sameJson(add.drafts, expectedAdd), `the add event is ${JSON.stringify(add)}, not {type:"drafts", op:"add", drafts:${JSON.stringify(expectedAdd)}}`);
        expect(update?.type === 'drafts' && update.op === 'update' && update.draft?.id === ids[0] && update.draft.content === edited!.content, `the update event is ${JSON.stringify(update)}`);
        expect(remove?.type === 'drafts' && remove.op === 'remove' && remove.draft_id === ids[0], `the remove event is ${JSON.stringify(remove)}`);
      } finally {
        await removeDrafts(context, ids.slice(1).filter((id) => id >= 0));
        await queue.remove();
      }
    }, context.runsSmokeAtMost(10));
  }, ['channel', 'events']),

  check('drafts.edit-delete-follow-model', async (context) => {
    await context.property(draftCommands(context), async (commands) => {
      const model: DraftModel = { baseline: await ourDraftIds(context), drafts: [] };
      try {
        // After a transient fault the model becomes what the server holds.
        await modelRun(context, model, commands, async (state) => {
          state.drafts = (await ourDrafts(context)).filter((draft) => !state.baseline.has(draft.id)).map((draft) => ({ id: draft.id, expected: { type: draft.type, to: draft.to, topic: draft.topic, content: draft.content } }));
        });
      } finally {
        await removeDrafts(context, model.drafts.map((entry) => entry.id));
      }
    }, context.runsSmokeAtMost(25));
  }, ['channel']),
];

// ---- The model-based sequence --------------------------------------------------------------

interface DraftModel {
  /** Drafts of the run that were there before the sequence began, left out of comparisons. */
  readonly baseline: ReadonlySet<number>;
  /** The drafts the server should hold, with what they should read back as. */
  drafts: Array<{ id: number; expected: DraftInput }>;
}

type DraftCommand = fc.AsyncCommand<DraftModel, Context>;

/** What a spec-level draft reads back as on Zulip: a non-channel draft's topic is empty. */
const asStored = (draft: DraftInput): DraftInput => ({ ...draft, topic: draft.type === 'stream' ? draft.topic : '' });

async function compareWithModel(model: DraftModel, context: Context, after: string) {
  const stored = (await ourDrafts(context)).filter((draft) => !model.baseline.has(draft.id));
  const ids = stored.map((draft) => draft.id).sort((a, b) => a - b);
  const expectedIds = model.drafts.map((entry) => entry.id).sort((a, b) => a - b);
  expect(JSON.stringify(ids) === JSON.stringify(expectedIds), `after ${after}: the server holds drafts ${JSON.stringify(ids)}, the model ${JSON.stringify(expectedIds)}`);
  for (const entry of model.drafts) {
    const draft = stored.find((candidate) => candidate.id === entry.id);
    const difference = readBackDifferences(entry.expected, draft);
    expect(difference === null && draft!.topic === entry.expected.topic, `after ${after}: draft ${entry.id} differs from the model: ${difference ?? `topic ${JSON.stringify(draft!.topic)}`}`);
  }
}

class CreateDrafts implements DraftCommand {
  constructor(readonly drafts: DraftInput[]) {}
  check = () => true;
  async run(model: DraftModel, context: Context) {
    const { at } = await createAndRead(context, this.drafts);
    this.drafts.forEach((draft, index) => {
      const created = at(index);
      expect(created !== undefined, `after ${this.toString()}: the draft at position ${index} was not created`);
      model.drafts.push({ id: created.id, expected: asStored(draft) });
    });
    await compareWithModel(model, context, this.toString());
  }
  toString = () => `create ${this.drafts.length} draft(s) ${JSON.stringify(this.drafts.map((draft) => draft.type))}`;
}

class EditDraft implements DraftCommand {
  constructor(readonly position: number, readonly draft: DraftInput) {}
  check = (model: Readonly<DraftModel>) => model.drafts.length > 0;
  async run(model: DraftModel, context: Context) {
    const entry = model.drafts[this.position % model.drafts.length]!;
    succeeded(await context.call('member', 'PATCH', `/drafts/${entry.id}`, { draft: this.draft }), 'PATCH /drafts/{id}');
    entry.expected = asStored(this.draft);
    await compareWithModel(model, context, this.toString());
  }
  toString = () => `edit draft #${this.position} to ${JSON.stringify(this.draft.type)}`;
}

class DeleteDraft implements DraftCommand {
  constructor(readonly position: number) {}
  check = (model: Readonly<DraftModel>) => model.drafts.length > 0;
  async run(model: DraftModel, context: Context) {
    const [entry] = model.drafts.splice(this.position % model.drafts.length, 1);
    succeeded(await context.call('member', 'DELETE', `/drafts/${entry!.id}`), 'DELETE /drafts/{id}');
    await compareWithModel(model, context, this.toString());
  }
  toString = () => `delete draft #${this.position}`;
}

/** Another user, or a draft that is gone: 404 "Draft does not exist", and nothing changes. */
class TouchMissingDraft implements DraftCommand {
  constructor(readonly position: number, readonly as: Role, readonly method: 'PATCH' | 'DELETE', readonly draft: DraftInput) {}
  check = (model: Readonly<DraftModel>) => this.as === 'other' ? model.drafts.length > 0 : true;
  async run(model: DraftModel, context: Context) {
    const id = this.as === 'other' ? model.drafts[this.position % model.drafts.length]!.id : 2_000_000_000 - (this.position % 1000);
    const response = await context.call(this.as, this.method, `/drafts/${id}`, this.method === 'PATCH' ? { draft: this.draft } : {});
    refusedExactly(response, `${this.method} /drafts/{id} as ${this.as}`, 'Draft does not exist', 404);
    await compareWithModel(model, context, this.toString());
  }
  toString = () => `${this.method} ${this.as === 'other' ? `draft #${this.position} as another user` : 'a missing draft'}`;
}

function draftCommands(context: Context): fc.Arbitrary<Iterable<DraftCommand>> {
  const draft = validDraft(context).map((d) => tagged(context, [d])[0]!);
  return fc.commands(
    [
      validBatch(context, 3).map((drafts) => new CreateDrafts(drafts)),
      fc.tuple(fc.nat(), draft).map(([position, d]) => new EditDraft(position, d)),
      fc.nat().map((position) => new DeleteDraft(position)),
      fc.tuple(fc.nat(), fc.constantFrom<Role>('other', 'member'), fc.constantFrom<'PATCH' | 'DELETE'>('PATCH', 'DELETE'), draft)
        .map(([position, as, method, d]) => new TouchMissingDraft(position, as, method, d)),
    ],
    { maxCommands: 12 },
  );
}

export const DRAFTS_CHECKS: readonly Check[] = [...mustChecks, ...decisionChecks];

export const DRAFTS_OPERATIONS: readonly SpecOperation[] = [
  {
    name: 'POST /drafts', since: 1, ownData: true, repeatable: true,
    async prepare(context) {
      const before = await ourDraftIds(context);
      const content = context.token('general-draft');
      return {
        method: 'POST', path: '/drafts',
        valid: { drafts: [{ type: '', to: [], topic: '', content }] },
        invalid: { path: '/drafts', params: { drafts: [{ type: 'stream', to: [], topic: 'general', content }] } },
        observe: async () => JSON.stringify([...(await ourDraftIds(context))].sort((a, b) => a - b)),
        undo: async () => removeDrafts(context, [...(await ourDraftIds(context))].filter((id) => !before.has(id))),
        others: {
          observe: async (as) => JSON.stringify((await ourDrafts(context, as)).map(({ id, content: text }) => [id, text]).sort()),
          // By its content: the other users' own drafts events (a lease's claim) are no concern of it.
          tells: aboutDrafts([], [content], false),
        },
      };
    },
  },
];
