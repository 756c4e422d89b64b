// Checks of the scheduled-message rules (spec "Resources: Scheduled message", "Endpoints 2. Edit
// a scheduled message", "3. Delete a scheduled message", the topic rules and the limits), over
// messages the run schedules itself, far in the future unless a check moves the clock.

import fc from 'fast-check';
import type { ParamList, Response, Role } from '../run/client.js';
import { check, expect, modelRun, inZulipWords, noServerError, refused, refusedExactly, succeeded, Skip, Violation, type Check, type Context } from '../run/harness.js';
import { canonical, SHAPES } from '../run/shape.js';
import { caseTopic, characterLength, fitTopic, MARKED, MISSING_ID, MARKED_SHORT, text, topicText } from './generators.js';
import { ON_TIME_SECONDS, due, deliveryProperty, stampedLate } from './deliveries.js';
import { advanceClock, createChannel, fetchState, runChannel, messagesAfter, namesId, pollEvents, readConversation, registerQueue, serverStamp, targetNow, type Conversation, type PreparedOperation, type SpecOperation } from './world.js';

type Kind = 'channel' | 'direct';

/** A scheduled message as the spec describes it; `to` of a direct one without the sender (unless alone). */
interface Scheduled {
  readonly kind: Kind;
  readonly to: number | readonly number[];
  /** Channel messages only. */
  readonly topic: string;
  readonly content: string;
  readonly timestamp: number;
}

/** An edit request: each parameter present or absent. */
interface Edit {
  type?: string;
  to?: number | number[];
  topic?: string;
  content?: string;
  scheduled_delivery_timestamp?: number;
}

const DAY = 86_400;
/** Past this many seconds late, Zulip gives a scheduled message up. */
const LATE_SECONDS = 10 * 60;

/** The spec's type names: "`stream` is a synonym for `channel` (added at feature level 248)"; private and direct throughout. */
const typeNames = (level: number, kind: Kind): string[] =>
  kind === 'channel' ? (level >= 248 ? ['stream', 'channel'] : ['stream']) : ['private', 'direct'];
const kindOfType = (level: number, type: string): Kind | null =>
  typeNames(level, 'channel').includes(type) ? 'channel' : typeNames(level, 'direct').includes(type) ? 'direct' : null;
const otherKind = (kind: Kind): Kind => (kind === 'channel' ? 'direct' : 'channel');

// ---- The run's audience ---------------------------------------------------------------------

interface World {
  /** Two channels member may post to: the run's own, and one more. */
  readonly channels: readonly [number, number];
  /** Audiences of direct messages: member alone, or others. */
  readonly audiences: ReadonlyArray<readonly number[]>;
}

function world(context: Context): Promise<World> {
  return context.memo('scheduled-world', async () => {
    const { users } = context.probe;
    const first = await runChannel(context, ['member', 'other']);
    const second = await runChannel(context, ['member']);
    return { channels: [first.id, second.id], audiences: [[users.member.id], [users.other.id], [users.admin.id], [users.other.id, users.admin.id].sort((a, b) => a - b)] };
  });
}

/**
 * A private channel of the run: `member`'s own (subscribed), a channel that exists for member; or
 * `other`'s alone, which Zulip answers member as one that does not exist (scheduled.error-texts).
 */
function privateChannel(context: Context, whose: 'member' | 'other'): Promise<number> {
  return context.memo(`scheduled-private ${whose}`, async () => (await createChannel(context, `scheduled-private-${whose}`, [whose], true)).id);
}

/** A time far enough ahead that no clock a check moves reaches it. */
const farFuture = (now: number, offset = 0) => now + 30 * DAY + offset;

// ---- Generators ---------------------------------------------------------------------------

const content = (context: Context) => text(40).map((body) => `${context.prefix} ${body}`);

/** An ordinary topic: none of the empty topic's names, no surrounding whitespace. */
function ordinaryTopic(context: Context): fc.Arbitrary<string> {
  return topicText(context.probe.maxTopicLength).filter((topic) => !emptyTopicNames(context).includes(topic));
}

/** "(no topic)", "" and the display name the target reports (servers below 334 have none). */
function emptyTopicNames(context: Context): string[] {
  const displayName = context.probe.emptyTopicDisplayName;
  return ['(no topic)', '', ...(displayName ? [displayName] : [])];
}

/** Other case of the empty topic's names: ordinary topics to the spec. */
function otherCaseNames(context: Context): string[] {
  const names = ['(No Topic)', '(NO TOPIC)'];
  const displayName = context.probe.emptyTopicDisplayName;
  if (displayName && displayName.toUpperCase() !== displayName) names.push(displayName.toUpperCase());
  return names;
}

function audience(w: World, kind: Kind): fc.Arbitrary<number | number[]> {
  return kind === 'channel' ? fc.constantFrom(...w.channels) : fc.constantFrom(...w.audiences.map((ids) => [...ids]));
}

function initial(context: Context, w: World, kind: Kind): fc.Arbitrary<Scheduled> {
  return fc.record({
    kind: fc.constant(kind),
    to: audience(w, kind),
    topic: kind === 'channel' ? ordinaryTopic(context) : fc.constant(''),
    content: content(context),
    timestamp: fc.integer({ min: 0, max: 1000 }),
  });
}

const anyKind = fc.constantFrom<Kind>('channel', 'direct');

// ---- Scheduling, reading, editing -----------------------------------------------------------

interface Listed {
  scheduled_message_id: number;
  type: string;
  to: number | number[];
  topic?: string;
  content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

/** Schedules the message; `timestamp` is an offset from the far future unless `at` is given. */
async function schedule(context: Context, message: Scheduled, options: { as?: Role; at?: number } = {}): Promise<{ id: number; message: Scheduled }> {
  const as = options.as ?? 'member';
  const timestamp = options.at ?? farFuture(await targetNow(context), message.timestamp);
  const params: ParamList = message.kind === 'channel'
    ? { type: 'stream', to: message.to as number, topic: message.topic, content: message.content, scheduled_delivery_timestamp: timestamp }
    : { type: 'private', to: message.to as number[], content: message.content, scheduled_delivery_timestamp: timestamp };
  const body = succeeded(await context.call(as, 'POST', '/scheduled_messages', params), 'POST /scheduled_messages');
  expect(Number.isInteger(body.scheduled_message_id), `POST /scheduled_messages: no scheduled_message_id: ${JSON.stringify(body)}`);
  return { id: body.scheduled_message_id, message: { ...message, timestamp } };
}

async function listed(context: Context, as: Role = 'member'): Promise<Map<number, Listed>> {
  const body = succeeded(await context.call(as, 'GET', '/scheduled_messages'), 'GET /scheduled_messages', SHAPES.scheduledMessages);
  expect(Array.isArray(body.scheduled_messages), `GET /scheduled_messages: no scheduled_messages list: ${JSON.stringify(body)}`);
  return new Map((body.scheduled_messages as Listed[]).map((item) => [item.scheduled_message_id, item]));
}

/** The user's scheduled messages as POST /register gives them to a client that registers now; null where the target gives none there. */
async function registeredScheduled(context: Context, as: Role = 'member'): Promise<Map<number, Listed> | null> {
  const state = await fetchState(context, as, ['scheduled_messages']);
  if (!Array.isArray(state.scheduled_messages)) return null;
  return new Map((state.scheduled_messages as Listed[]).map((item) => [item.scheduled_message_id, item]));
}

async function readBack(context: Context, id: number, as: Role = 'member'): Promise<Listed | undefined> {
  return (await listed(context, as)).get(id);
}

async function remove(context: Context, id: number, as: Role = 'member'): Promise<void> {
  await context.cleanup.request(`delete scheduled message ${id}`, () => context.call(as, 'DELETE', `/scheduled_messages/${id}`));
}

function edit(context: Context, id: number, changes: Edit, as: Role = 'member'): Promise<Response> {
  return context.call(as, 'PATCH', `/scheduled_messages/${id}`, changes as ParamList);
}

/** What the spec says of a listed message: its kind, audience (without the sender), topic, content, time. */
function asScheduled(context: Context, item: Listed, sender: number): Scheduled | string {
  const kind = kindOfType(Math.max(context.level, 248), item.type);
  if (kind === null) return `type ${JSON.stringify(item.type)} is none of the spec's`;
  if (kind === 'direct' && !Array.isArray(item.to)) return `to ${JSON.stringify(item.to)} of a direct message is not a list`;
  const to = kind === 'direct' ? otherParticipants(item.to as number[], sender) : item.to;
  return { kind, to, topic: kind === 'channel' ? String(item.topic) : '', content: item.content, timestamp: item.scheduled_delivery_timestamp };
}

function normalizeAudience(message: Scheduled, sender: number): Scheduled {
  if (message.kind === 'channel') return message;
  return { ...message, to: otherParticipants(message.to as number[], sender), topic: '' };
}

/** A direct message's audience as the spec's `to` reads: the others, sorted, or the sender alone. */
function otherParticipants(ids: readonly number[], sender: number): number[] {
  const others = [...new Set(ids)].filter((id) => id !== sender).sort((a, b) => a - b);
  return others.length > 0 ? others : [sender];
}

/** Differences between what the spec says the message is and what GET lists. */
function differences(context: Context, expected: Scheduled, item: Listed | undefined, sender = context.probe.users.member.id): string | null {
  if (!item) return 'it is no longer listed by GET /scheduled_messages';
  const actual = asScheduled(context, item, sender);
  if (typeof actual === 'string') return actual;
  const want = normalizeAudience(expected, sender);
  const found: string[] = [];
  for (const key of ['kind', 'to', 'topic', 'content', 'timestamp'] as const) {
    if (JSON.stringify(actual[key]) !== JSON.stringify(want[key])) found.push(`${key} is ${shown(actual[key])}, expected ${shown(want[key])}`);
  }
  return found.length > 0 ? found.join('; ') : null;
}

/** A value for a message: a long text by its start, its end and its length in characters. */
function shown(value: unknown): string {
  if (typeof value !== 'string' || value.length <= 120) return JSON.stringify(value);
  const characters = [...value];
  return `${JSON.stringify(characters.slice(0, 40).join(''))}…${JSON.stringify(characters.slice(-20).join(''))} (${characters.length} characters)`;
}

function describeEdit(changes: Edit): string {
  return `PATCH /scheduled_messages ${JSON.stringify(changes)}`;
}

/** Schedules `start`, sends the edit, reads back, removes; returns all of it. */
async function tryEdit(context: Context, start: Scheduled, changes: Edit | ((scheduled: Scheduled) => Edit)) {
  const created = await schedule(context, start);
  try {
    const request = typeof changes === 'function' ? changes(created.message) : changes;
    const response = await edit(context, created.id, request);
    const after = await readBack(context, created.id);
    return { ...created, request, response, after };
  } finally {
    await remove(context, created.id);
  }
}

/** The edit must be refused and leave the message as it was. */
async function expectRefusedUnchanged(context: Context, start: Scheduled, changes: Edit | ((scheduled: Scheduled) => Edit)) {
  const { message, request, response, after } = await tryEdit(context, start, changes);
  const body = refused(response, describeEdit(request));
  const changed = differences(context, message, after);
  expect(changed === null, `${describeEdit(request)} was refused (${JSON.stringify(body)}), yet the message changed: ${changed}`);
  return body;
}

/** The edit must be accepted and leave the message as `expected` says. */
async function expectAccepted(context: Context, start: Scheduled, changes: Edit | ((scheduled: Scheduled) => Edit), expected: (before: Scheduled, request: Edit) => Scheduled) {
  const { message, request, response, after } = await tryEdit(context, start, changes);
  succeeded(response, describeEdit(request));
  const wrong = differences(context, expected(message, request), after);
  expect(wrong === null, `after ${describeEdit(request)} on ${JSON.stringify(normalizeAudience(message, context.probe.users.member.id))}: ${wrong}`);
  return after!;
}

// ---- The spec's outcome of an edit ------------------------------------------------------------

/**
 * What the spec says an edit does to a message: the new message, "refused", or "open" where
 * the spec leaves the outcome to the server (nothing given; the type given but not changed
 * without `to` or topic; a topic that is one of the empty topic's names with the type given).
 */
function specOutcome(context: Context, state: Scheduled, change: Edit): Scheduled | 'refused' | 'open' {
  const level = context.level;
  if (Object.values(change).every((value) => value === undefined)) return 'open';
  const given = change.type === undefined ? null : kindOfType(level, change.type);
  if (change.type !== undefined && given === null) return 'refused';
  const kind = given ?? state.kind;
  const typeChanged = given !== null && given !== state.kind;
  if (given !== null && !typeChanged) {
    if (change.to === undefined || (kind === 'channel' && (change.topic === undefined || emptyTopicNames(context).includes(change.topic)))) return 'open';
  }
  if (typeChanged && change.to === undefined) return 'refused';
  if (change.to !== undefined && (kind === 'channel') === Array.isArray(change.to)) return 'refused';
  let topic = kind === 'channel' && state.kind === 'channel' ? state.topic : '';
  if (kind === 'channel' && typeChanged) {
    if (change.topic === undefined || emptyTopicNames(context).includes(change.topic)) return 'refused';
    topic = change.topic;
  } else if (kind === 'channel' && change.topic !== undefined) {
    topic = change.topic;
    if (level >= 370 && emptyTopicNames(context).includes(topic)) topic = '';
    if (topic === '' && level < 334) return 'refused';
  }
  return {
    kind,
    to: change.to ?? state.to,
    topic,
    content: change.content ?? state.content,
    timestamp: change.scheduled_delivery_timestamp ?? state.timestamp,
  };
}

const EDIT_PARAMETERS = ['type', 'to', 'topic', 'content', 'scheduled_delivery_timestamp'] as const;

/** An edit with each of the 31 non-empty combinations of present parameters equally likely. */
function editArbitrary(context: Context, w: World, now: number): fc.Arbitrary<Edit> {
  const level = context.level;
  const types = [...typeNames(level, 'channel'), ...typeNames(level, 'direct')];
  const values = fc.record({
    type: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...types) }, { weight: 1, arbitrary: fc.constantFrom('Stream', 'dm', 'group', '') }),
    to: fc.oneof(audience(w, 'channel'), audience(w, 'direct')),
    topic: fc.oneof({ weight: 4, arbitrary: ordinaryTopic(context) }, { weight: 3, arbitrary: fc.constantFrom(...emptyTopicNames(context), ...otherCaseNames(context)) }),
    content: content(context),
    scheduled_delivery_timestamp: fc.integer({ min: 0, max: 1000 }).map((offset) => farFuture(now, 2000 + offset)),
  });
  const mask = fc.constantFrom(...Array.from({ length: 31 }, (_, i) => i + 1));
  return fc.tuple(mask, values).map(([present, all]) => {
    const change: Record<string, unknown> = {};
    EDIT_PARAMETERS.forEach((name, bit) => {
      if (present & (1 << bit)) change[name] = all[name];
    });
    return change as Edit;
  });
}

// ---- The reference clock -----------------------------------------------------------------------

/** Schedules a message a minute ahead and lets the clock pass its time with the worker down, then up. */
async function scheduleFailed(context: Context, message: Scheduled) {
  const now = await advanceClock(context, 0);
  const created = await schedule(context, message, { at: now + 60 });
  await advanceClock(context, 60 + LATE_SECONDS + 60, false);
  await advanceClock(context, 0);
  const item = await readBack(context, created.id);
  if (item?.failed !== true) {
    await remove(context, created.id);
    throw new Skip(`the target did not fail a message its worker found ${LATE_SECONDS + 60} seconds late (listed as ${JSON.stringify(item)}), so there is no failed message to check with`);
  }
  return created;
}

/**
 * Whether a message may be the member's scheduled message: what another user of the profile sends
 * (another rule's, another client's, with equal text) is never taken for it. Who sent it is
 * scheduled.delivery's to judge: a server that sends it as a bot still shows every other rule its
 * delivery.
 */
const sentByMember = (context: Context) => (message: { sender_id?: unknown }) => message.sender_id === context.probe.users.member.id || !Object.values(context.probe.users).some((user) => user.id === message.sender_id);

/** The conversation a scheduled message goes to, as GET /messages narrows to it. */
function conversationOf(message: Scheduled): Conversation {
  return message.kind === 'channel' ? { channel: message.to as number, topic: message.topic } : { dm: message.to as number[] };
}

async function maxMessageId(context: Context, as: Role = 'member'): Promise<number> {
  const me = succeeded(await context.call(as, 'GET', '/users/me'), 'GET /users/me');
  expect(Number.isInteger(me.max_message_id), `GET /users/me: no max_message_id: ${JSON.stringify(me)}`);
  return me.max_message_id;
}

// ---- Checks of what the spec states ---------------------------------------------------------


/** A valid edit from each kind to `to`'s kind, for checks that spoil one part of it. */
function changeTo(context: Context, w: World, kind: Kind, typeName?: string): fc.Arbitrary<Edit> {
  return fc.record({
    type: typeName === undefined ? fc.constantFrom(...typeNames(context.level, kind)) : fc.constant(typeName),
    to: audience(w, kind),
    topic: ordinaryTopic(context),
    content: content(context),
  }).map((change) => (kind === 'direct' ? { type: change.type, to: change.to, content: change.content } : change));
}

const mustChecks: Check[] = [
  check('scheduled.edits-follow-model', async (context) => {
    const w = await world(context);
    const now = await targetNow(context);
    const edits = fc.tuple(fc.nat({ max: 4 }), editArbitrary(context, w, now)).map(([position, change]) => new EditCommand(position, change));
    // Edits are drawn three times as often as the other commands: they are what the rules are about.
    const commands = [
      anyKind.chain((kind) => initial(context, w, kind)).map((message) => new ScheduleCommand(message)),
      edits, edits, edits,
      fc.nat({ max: 4 }).map((position) => new DeleteCommand(position)),
    ];
    // Each sequence starts from a channel message and a direct one.
    const starts = fc.tuple(initial(context, w, 'channel'), initial(context, w, 'direct'));
    // The boundary: each field edited alone on the direct message (position 1) and on the channel
    // one (position 0), then the type changed each way.
    const [channelTypeName] = typeNames(context.level, 'channel');
    const [directTypeName] = typeNames(context.level, 'direct');
    // The content and topic edited hold every kind of character that must come back as sent.
    const alone = (position: number): Edit[] => [{ content: `${context.prefix} edited ${position} ${MARKED}` }, ...(position === 0 ? [{ topic: Array.from(MARKED_SHORT).slice(0, context.probe.maxTopicLength).join('').trim() }] : [])];
    const every = fc.tuple(starts, audience(w, 'channel'), audience(w, 'direct')).map(([pair, channelTo, directTo]) => [pair, [
      ...alone(1).map((change) => new EditCommand(1, change)),
      ...alone(0).map((change) => new EditCommand(0, change)),
      new EditCommand(1, { type: channelTypeName, to: channelTo, topic: fitTopic('now a channel message', context.probe.maxTopicLength) }),
      new EditCommand(0, { type: directTypeName, to: directTo }),
    ]] as const);
    await context.property(fc.tuple(starts, fc.commands(commands, { maxCommands: 20, size: 'max' })), async ([[channel, direct], list]) => {
      const model: ScheduledModel = { context, messages: [] };
      const before = new Set((await listed(context)).keys());
      try {
        model.messages.push(await schedule(context, channel), await schedule(context, direct));
        // After a transient fault the sequence's messages are those listed that were not there before it.
        await modelRun(context, model, list, async (state) => {
          const sender = context.probe.users.member.id;
          state.messages = [...(await listed(context)).values()].filter((item) => !before.has(item.scheduled_message_id)).flatMap((item) => {
            const message = asScheduled(context, item, sender);
            return typeof message === 'string' ? [] : [{ id: item.scheduled_message_id, message }];
          });
        });
        // Through the other path the target offers: the state a client that registers now is given.
        const registered = await registeredScheduled(context);
        for (const { id, message } of registered === null ? [] : model.messages) {
          const wrong = differences(context, message, registered!.get(id));
          expect(wrong === null, `after ${list}: POST /register gives scheduled message ${id} otherwise than the model (${JSON.stringify(normalizeAudience(message, context.probe.users.member.id))}): ${wrong}`);
        }
      } finally {
        for (const entry of model.messages) await remove(context, entry.id);
      }
    }, { runs: context.runsSmokeAtMost(15), boundaries: [every] as never });
  }),

  check('scheduled.type-values', async (context) => {
    const w = await world(context);
    const known = [...typeNames(context.level, 'channel'), ...typeNames(context.level, 'direct')];
    const outside = fc.oneof(
      fc.constantFrom('Stream', 'PRIVATE', 'Direct', ' stream', 'private ', 'dm', 'group', 'huddle', '', 'null', ...(context.level < 248 ? [] : ['CHANNEL'])),
      fc.string({ maxLength: 8 }),
    ).filter((type) => !known.includes(type));
    // The boundaries: near misses of each name, on an edit that would be valid under the name.
    const nearMisses = ['Stream', 'dm', '', ...(context.level < 248 ? ['channel'] : ['CHANNEL'])].filter((type) => !known.includes(type));
    // A smoke run: each near miss once, the kinds taken in turn.
    const boundaries = nearMisses.flatMap((type, index) => (context.options.smoke ? [(['channel', 'direct'] as const)[(index + context.options.seed) % 2]!] : (['channel', 'direct'] as const))
      .map((toKind) => fc.tuple(initial(context, w, otherKind(toKind)), changeTo(context, w, toKind, type))));
    await context.property(fc.tuple(anyKind, anyKind, outside).chain(([from, toKind, type]) => fc.tuple(initial(context, w, from), changeTo(context, w, toKind, type))), async ([start, change]) => {
      await expectRefusedUnchanged(context, start, change);
    }, { runs: context.runsSmokeAtMost(10), boundaries });
  }),

  check('scheduled.type-synonyms', async (context) => {
    const w = await world(context);
    // The kinds whose type has two names at the target's level: below 248, direct only.
    const kinds = (['channel', 'direct'] as const).filter((kind) => typeNames(context.level, kind).length === 2);
    const caseOf = (from: fc.Arbitrary<Kind>, kind: fc.Arbitrary<Kind>) => fc.tuple(from, kind).chain(([start, to]) => fc.tuple(initial(context, w, start), changeTo(context, w, to, typeNames(context.level, to)[0])));
    // The boundaries: each kind with two names, from each kind.
    // A smoke run: each kind from one kind, taken in turn.
    const boundaries = kinds.flatMap((kind) => (context.options.smoke ? context.some(['channel', 'direct'] as const) : (['channel', 'direct'] as const)).map((from) => caseOf(fc.constant(from), fc.constant(kind))));
    await context.property(caseOf(anyKind, fc.constantFrom(...kinds)), async ([start, change]) => {
      const kind = kindOfType(context.level, change.type!)!;
      const [older, newer] = typeNames(context.level, kind);
      const first = await expectAccepted(context, start, { ...change, type: older }, (before, request) => specState(context, before, request));
      const second = await expectAccepted(context, start, { ...change, type: newer }, (before, request) => specState(context, before, request));
      expect(typeNames(248, kind).includes(first.type) && typeNames(248, kind).includes(second.type), `edits with type ${older} and ${newer} read back as types ${first.type} and ${second.type}`);
    }, { runs: context.runsSmokeAtMost(10), boundaries });
  }),

  check('scheduled.channel-type-absent-before-248', async (context) => {
    const w = await world(context);
    await context.property(anyKind.chain((from) => fc.tuple(initial(context, w, from), changeTo(context, w, 'channel', 'channel'))), async ([start, change]) => {
      await expectRefusedUnchanged(context, start, change);
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.to-required-on-type-change', async (context) => {
    const w = await world(context);
    await context.property(anyKind.chain((from) => fc.tuple(initial(context, w, from), changeTo(context, w, otherKind(from)))), async ([start, change]) => {
      const { to: _dropped, ...withoutTo } = change;
      await expectRefusedUnchanged(context, start, withoutTo);
    }, context.runsSmokeAtMost(10));
  }),

  check('scheduled.to-matches-type', async (context) => {
    const w = await world(context);
    // The new type's shape of `to`, or without a type the existing one's, swapped for the other
    // shape. Only shapes that no reading makes right: a list of two or more IDs for a channel
    // message (a one-element list may stand for its element), and for a direct message a channel
    // ID that is no user's (an integer may stand for a list of one user).
    const { userIds } = context.probe;
    const notUsers = w.channels.filter((id) => !userIds.includes(id));
    const shapes = fc.tuple(anyKind, fc.boolean()).filter(([from, changeType]) => notUsers.length > 0 || (changeType ? otherKind(from) : from) === 'channel');
    // A boundary's list for a channel message is of channels that exist: one that takes a list's
    // first entry for the channel has no refusal to hide behind.
    const casesOf = (shape: fc.Arbitrary<[Kind, boolean]>, boundary = false) => shape.chain(([from, changeType]) => {
      const kind = changeType ? otherKind(from) : from;
      const wrongTo = kind === 'channel'
        ? (boundary ? fc.constant<number[]>([...w.channels]) : fc.constantFrom([...w.channels], [context.probe.users.other.id, context.probe.users.admin.id].sort((a, b) => a - b), [context.probe.users.member.id, ...w.channels]))
        : fc.constantFrom(...notUsers);
      const change = changeType
        ? fc.tuple(changeTo(context, w, kind), wrongTo).map(([c, to]) => ({ ...c, to }))
        : fc.tuple(wrongTo, fc.option(content(context), { nil: undefined })).map(([to, body]) => ({ to, content: body }));
      return fc.tuple(initial(context, w, from), change);
    });
    // The boundaries: each shape, with and without a change of type (a smoke run: the two of a
    // channel message's `to`, and one of the others).
    const every: Array<[Kind, boolean]> = (['channel', 'direct'] as const).flatMap((from) => [false, true].map((changeType): [Kind, boolean] => [from, changeType]))
      .filter(([from, changeType]) => notUsers.length > 0 || (changeType ? otherKind(from) : from) === 'channel');
    const toChannel = every.filter(([from, changeType]) => (changeType ? otherKind(from) : from) === 'channel');
    const asked = context.options.smoke ? [...toChannel, ...context.some(every.filter((shape) => !toChannel.includes(shape)))] : every;
    await context.property(casesOf(shapes), async ([start, change]) => {
      await expectRefusedUnchanged(context, start, change);
    }, { runs: context.runsSmokeAtMost(10), boundaries: asked.map((shape) => casesOf(fc.constant(shape), true)) });
  }),

  check('scheduled.topic-required-on-change-to-channel', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(initial(context, w, 'direct'), changeTo(context, w, 'channel')), async ([start, change]) => {
      const { topic: _dropped, ...withoutTopic } = change;
      await expectRefusedUnchanged(context, start, withoutTopic);
    }, context.runsSmokeAtMost(10));
  }),

  check('scheduled.required-topic-not-empty', async (context) => {
    const w = await world(context);
    const [starts, changes] = [initial(context, w, 'direct'), changeTo(context, w, 'channel')];
    await context.property(fc.tuple(starts, changes, fc.constantFrom(...emptyTopicNames(context))), async ([start, change, topic]) => {
      await expectRefusedUnchanged(context, start, { ...change, topic });
    }, { runs: context.runsSmokeAtMost(10), boundaries: emptyTopicNames(context).map((name) => fc.tuple(starts, changes, fc.constant(name))) });
  }),

  check('scheduled.topic-ignored-for-direct', async (context) => {
    const w = await world(context);
    const long = fc.constantFrom('x', '日', '𝒜').map((unit) => unit.repeat(context.probe.maxTopicLength + 5));
    const anyTopic = fc.oneof(ordinaryTopic(context), fc.constantFrom(...emptyTopicNames(context), ...otherCaseNames(context)), long);
    // From a direct message with or without a new audience, or from a channel message to a direct one.
    const cases = fc.tuple(anyKind, anyTopic, fc.option(content(context), { nil: undefined })).chain(([from, topic, body]) => {
      const change = from === 'channel' || body === undefined
        ? changeTo(context, w, 'direct').map((c) => ({ ...c, topic }))
        : fc.constant<Edit>({ topic, content: body });
      return fc.tuple(initial(context, w, from), change);
    });
    // The boundaries: a topic on a content edit of a direct message, and on a change to one.
    const boundaries = [
      fc.tuple(initial(context, w, 'direct'), fc.tuple(ordinaryTopic(context), content(context)).map(([topic, body]): Edit => ({ topic, content: body }))),
      fc.tuple(initial(context, w, 'channel'), fc.tuple(changeTo(context, w, 'direct'), ordinaryTopic(context)).map(([change, topic]): Edit => ({ ...change, topic }))),
    ];
    await context.property(cases, async ([start, change]) => {
      await expectAccepted(context, start, change, (before, request) => specState(context, before, request));
    }, { runs: context.runsSmokeAtMost(15), boundaries });
  }),

  check('scheduled.empty-topic-names', async (context) => {
    const w = await world(context);
    const names = emptyTopicNames(context).filter((name) => name !== '');
    // The boundaries: each name in an edit of the topic alone (a path of its own in servers that
    // change the recipient apart), and each beside a change of channel.
    const boundaries = names.flatMap((name) => [
      fc.tuple(initial(context, w, 'channel'), fc.constant(name), fc.constant(undefined), fc.constant(undefined)),
      fc.tuple(initial(context, w, 'channel'), fc.constant(name), fc.constant(undefined), audience(w, 'channel')),
    ]);
    await context.property(fc.tuple(initial(context, w, 'channel'), fc.constantFrom(...names), fc.option(content(context), { nil: undefined }), fc.option(audience(w, 'channel'), { nil: undefined })), async ([start, topic, body, to]) => {
      await expectAccepted(context, start, { topic, content: body, to: to as number | undefined }, (before, request) => ({ ...before, ...fields(request), topic: '' }));
    }, { runs: context.runsSmokeAtMost(10), boundaries: context.options.smoke ? boundaries.filter((_, index) => index % 2 === 0) : boundaries });
  }),

  check('scheduled.empty-topic-valid-since-334', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(initial(context, w, 'channel'), fc.option(audience(w, 'channel'), { nil: undefined })), async ([start, to]) => {
      await expectAccepted(context, start, { topic: '', to: to as number | undefined }, (before, request) => ({ ...before, ...fields(request), topic: '' }));
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.empty-topic-invalid-before-334', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(initial(context, w, 'channel'), fc.option(content(context), { nil: undefined })), async ([start, body]) => {
      await expectRefusedUnchanged(context, start, { topic: '', content: body });
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.no-topic-ordinary-before-370', async (context) => {
    const w = await world(context);
    const names = emptyTopicNames(context).filter((name) => name !== '');
    await context.property(fc.tuple(initial(context, w, 'channel'), fc.constantFrom(...names)), async ([start, topic]) => {
      await expectAccepted(context, start, { topic }, (before) => ({ ...before, topic }));
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.content-limit', async (context) => {
    const w = await world(context);
    const max = context.probe.maxMessageLength;
    const units = fc.constantFrom('a', 'é', '日', '𝒜');
    const starts = anyKind.chain((kind) => initial(context, w, kind));
    await context.property(fc.tuple(starts, lengthAround(max), units), async ([start, length, unit]) => {
      const body = exactLength(`${context.prefix} `, unit, length);
      await checkLimit(context, start, { content: body }, 'content', body, max);
    }, { runs: context.runsSmokeAtMost(10), boundaries: atAndPastLimit(starts, max) });
  }),

  check('scheduled.topic-limit', async (context) => {
    const w = await world(context);
    const max = context.probe.maxTopicLength;
    const starts = initial(context, w, 'channel');
    await context.property(fc.tuple(starts, lengthAround(max), fc.constantFrom('a', 'é', '日', '𝒜')), async ([start, length, unit]) => {
      const topic = exactLength('t', unit, length);
      await checkLimit(context, start, { topic }, 'topic', topic, max);
    }, { runs: context.runsSmokeAtMost(10), boundaries: atAndPastLimit(starts, max) });
  }),

  check('scheduled.failed-needs-timestamp', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(anyKind.chain((kind) => initial(context, w, kind)), content(context), fc.boolean()), async ([start, body, withContent]) => {
      const { id, message } = await scheduleFailed(context, start);
      try {
        const refusedEdit: Edit = withContent ? { content: body } : message.kind === 'channel' ? { topic: `${message.topic} again` } : { to: [context.probe.users.other.id] };
        const response = await edit(context, id, refusedEdit);
        refused(response, `${describeEdit(refusedEdit)} on a failed message`);
        const unchanged = differences(context, message, await readBack(context, id));
        expect(unchanged === null, `${describeEdit(refusedEdit)} on a failed message was refused, yet the message changed: ${unchanged}`);
        const later = (await advanceClock(context, 0)) + 3600;
        succeeded(await edit(context, id, { content: body, scheduled_delivery_timestamp: later }), `PATCH a failed message with a new scheduled_delivery_timestamp`);
        const applied = differences(context, { ...message, content: body, timestamp: later }, await readBack(context, id));
        expect(applied === null, `after an accepted edit with a new time, the failed message reads back wrong: ${applied}`);
      } finally {
        await remove(context, id);
      }
    }, context.runsSmokeAtMost(3));
  }, ['reference-clock']),

  check('scheduled.missing-channel-error', async (context) => {
    const w = await world(context);
    // The boundary of "does not exist": a private channel the sender is subscribed to exists, and
    // an edit to it is not refused as one that does not (whatever else a server says of it).
    const own = await privateChannel(context, 'member');
    const { id: onPrivate } = await schedule(context, { kind: 'channel', to: w.channels[0], topic: 'private', content: `${context.prefix} private`, timestamp: 0 });
    try {
      const answer = await edit(context, onPrivate, { to: own });
      noServerError(answer, `PATCH /scheduled_messages/${onPrivate} to private channel ${own}`);
      expect(answer.body?.code !== 'STREAM_DOES_NOT_EXIST', `an edit to channel ${own}, private with the sender subscribed (a channel that exists), is refused as one that does not exist: ${answer.status} ${JSON.stringify(answer.body)}`);
    } finally {
      await remove(context, onPrivate);
    }
    const missing = fc.integer({ min: 0, max: 1000 }).map((k) => MISSING_ID + k);
    const cases = fc.tuple(anyKind, missing).chain(([from, id]) => fc.tuple(
      initial(context, w, from),
      from === 'channel' ? fc.constant<Edit>({ to: id }) : changeTo(context, w, 'channel').map((c) => ({ ...c, to: id })),
      fc.constant(id),
    ));
    await context.property(cases, async ([start, change, id]) => {
      const body = await expectRefusedUnchanged(context, start, change);
      expect(body.code === 'STREAM_DOES_NOT_EXIST', `a missing channel ${id}: code ${JSON.stringify(body.code)}, not STREAM_DOES_NOT_EXIST`);
      expect(body.stream_id === id, `a missing channel ${id}: stream_id is ${JSON.stringify(body.stream_id)}`);
      expect(body.msg !== '', `a missing channel ${id}: the error's msg is empty`);
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.invalid-user-error', async (context) => {
    const w = await world(context);
    const missing = fc.integer({ min: 0, max: 1000 }).map((k) => MISSING_ID + k);
    const cases = fc.tuple(anyKind, missing, fc.subarray([context.probe.users.other.id, context.probe.users.admin.id])).chain(([from, id, known]) => fc.tuple(
      initial(context, w, from),
      from === 'direct' ? fc.constant<Edit>({ to: [...known, id] }) : changeTo(context, w, 'direct').map((c) => ({ ...c, to: [...known, id] })),
      fc.constant(id),
    ));
    await context.property(cases, async ([start, change, id]) => {
      const body = await expectRefusedUnchanged(context, start, change);
      expect(body.code === 'BAD_REQUEST', `an unknown user ${id}: code ${JSON.stringify(body.code)}, not BAD_REQUEST`);
      expect(body.msg !== '', `an unknown user ${id}: the error's msg is empty`);
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.missing-message-error', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(anyKind.chain((kind) => initial(context, w, kind)), content(context), fc.boolean()), async ([start, body, deletedOne]) => {
      const id = deletedOne ? await deletedId(context, start) : MISSING_ID;
      const response = await edit(context, id, { content: body });
      refusedAsMissing(refused(response, `PATCH /scheduled_messages/${id} (no such message)`), id);
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.own-messages-only', async (context) => {
    const w = await world(context);
    const { users } = context.probe;
    const othersAudience = fc.constantFrom<number | number[]>(w.channels[0], [users.member.id], [users.admin.id]);
    await context.property(fc.tuple(initial(context, w, 'channel'), othersAudience, content(context)), async ([base, to, body]) => {
      const start: Scheduled = { ...base, kind: typeof to === 'number' ? 'channel' : 'direct', to };
      const { id, message } = await schedule(context, start, { as: 'other' });
      try {
        // Another member, and an administrator: the endpoints act on the caller's own data, whoever calls.
        for (const as of ['member', 'admin'] as const) {
          // Refused, in whatever words and code: the spec does not say how.
          if (context.level >= 184) refused(await edit(context, id, { content: body }, as), `${as}'s PATCH of other's scheduled message`);
          refused(await context.call(as, 'DELETE', `/scheduled_messages/${id}`), `${as}'s DELETE of other's scheduled message`);
          const changed = differences(context, message, await readBack(context, id, 'other'), users.other.id);
          expect(changed === null, `${as}'s attempts changed other's scheduled message: ${changed}`);
        }
      } finally {
        await remove(context, id, 'other');
      }
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.delete-missing-error', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(anyKind.chain((kind) => initial(context, w, kind)), fc.boolean()), async ([start, deletedOne]) => {
      const id = deletedOne ? await deletedId(context, start) : MISSING_ID;
      refusedAsMissing(refused(await context.call('member', 'DELETE', `/scheduled_messages/${id}`), `DELETE /scheduled_messages/${id} (no such message)`), id);
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.delete-removes', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(anyKind.chain((kind) => initial(context, w, kind)), anyKind.chain((kind) => initial(context, w, kind))), async ([first, second]) => {
      const doomed = await schedule(context, first);
      const kept = await schedule(context, second);
      try {
        succeeded(await context.call('member', 'DELETE', `/scheduled_messages/${doomed.id}`), `DELETE /scheduled_messages/${doomed.id}`);
        const list = await listed(context);
        expect(!list.has(doomed.id), `after DELETE /scheduled_messages/${doomed.id} it is still listed: ${JSON.stringify(list.get(doomed.id))}`);
        expect(list.has(kept.id), `deleting ${doomed.id} also removed ${kept.id}`);
      } finally {
        await remove(context, doomed.id);
        await remove(context, kept.id);
      }
    }, context.runsSmokeAtMost(6));
  }),

  check('scheduled.deleted-never-sent', async (context) => {
    const w = await world(context);
    // A failed message needs a worker that finds it late: only the reference clock can make one.
    const failedToo = context.deliveryState.mode === 'clock' ? fc.boolean() : fc.constant(false);
    await deliveryProperty(context, fc.tuple(anyKind.chain((kind) => initial(context, w, kind)), failedToo), async ([base, failedFirst]) => {
      // A twin that is not deleted goes to the same conversation: seeing it arrive shows that
      // the observation would have seen the deleted one. Both are found by their own tokens.
      const case_ = context.token('deleted');
      const start = { ...base, topic: base.kind === 'channel' ? caseTopic(context, case_, 'deleted') : '' };
      const doomed = { ...start, content: `${case_} deleted.` };
      const twin = { ...start, content: `${case_} twin.` };
      const delivery = await due(context);
      const { id } = failedFirst ? await scheduleFailed(context, doomed) : await schedule(context, doomed, { at: delivery.at });
      await schedule(context, twin, { at: failedFirst ? (await due(context)).at : delivery.at });
      succeeded(await context.call('member', 'DELETE', `/scheduled_messages/${id}`), `DELETE /scheduled_messages/${id}`);
      await delivery.passed();
      // The member's own messages of that conversation: a scheduled message is sent as its sender.
      const arrived = (await readConversation(context, 'member', conversationOf(start), 1000)).filter(sentByMember(context));
      const has = (text: string) => arrived.some((m) => String(m.content).includes(text));
      if (!has(twin.content)) throw new Skip(`a scheduled message was not delivered after its time (GET /messages shows none of ${JSON.stringify(twin.content)}), so the absence of a deleted one proves nothing`);
      const sent = arrived.filter((m) => String(m.content).includes(doomed.content));
      expect(sent.length === 0, `the ${failedFirst ? 'failed' : 'pending'} scheduled message ${id} was deleted, yet it was sent as message ${sent.map((m) => m.id).join(', ')}`);
    }, { runs: context.runsSmokeAtMost(3), boundaries: (['channel', 'direct'] as const).map((kind) => fc.tuple(initial(context, w, kind), fc.constant(false))) });
  }, ['deliveries']),

  // Not before its time: with the reference clock, nothing is there a few seconds before it; the
  // message sent, on any target, carries no earlier timestamp than the one it was scheduled for.
  check('scheduled.sent-at-its-time', async (context) => {
    const w = await world(context);
    await deliveryProperty(context, anyKind.chain((kind) => initial(context, w, kind)), async (base) => {
      const case_ = context.token('on-time');
      const start: Scheduled = { ...base, topic: base.kind === 'channel' ? caseTopic(context, case_, 'on time') : '', content: `${case_} on time.` };
      const delivery = await due(context);
      const { id } = await schedule(context, start, { at: delivery.at });
      const ours = async () => (await readConversation(context, 'member', conversationOf(start), 1000)).filter((message) => sentByMember(context)(message) && String(message.content).includes(case_));
      if (await delivery.almost()) {
        const early = await ours();
        for (const message of early) context.noteMessage(message.id);
        expect(early.length === 0, `scheduled message ${id}, due at ${delivery.at}, was sent before its time: ${JSON.stringify(early.map((message) => ({ id: message.id, timestamp: message.timestamp })))}`);
      }
      await delivery.passed();
      const sent = await ours();
      for (const message of sent) context.noteMessage(message.id);
      if (sent.length === 0) throw new Skip(`scheduled message ${id} was not delivered after its time, so when it went cannot be told`);
      const before = sent.filter((message) => !(message.timestamp >= delivery.at));
      expect(before.length === 0, `scheduled message ${id}, due at ${delivery.at}, was sent with timestamp ${before.map((message) => message.timestamp).join(', ')}: before its time`);
      // With the reference clock, whose advance delivers as a worker on time: not over a minute after it either.
      const late = stampedLate(delivery, sent);
      expect(late.length === 0, `scheduled message ${id}, due at ${delivery.at}, was sent with timestamp ${late.map((message) => message.timestamp).join(', ')}: over ${ON_TIME_SECONDS} s after its time, though the reference clock's advance delivers as a worker on time`);
    }, { runs: context.runsSmokeAtMost(3), boundaries: (['channel', 'direct'] as const).slice(0, context.options.smoke ? 1 : 2).map((kind) => initial(context, w, kind)) });
  }, ['deliveries']),

  // A message scheduled, then edited (its content, its topic, or its audience, type and all), is
  // delivered at its time as the edit left it: found in the edited conversation with the edited
  // text exactly, and never with the text it was first scheduled with.
  check('scheduled.delivered-as-edited', async (context) => {
    const w = await world(context);
    const changes = fc.constantFrom('content', 'topic', 'audience');
    // The boundaries: each kind of edit, the content with every kind of character that must come back as sent.
    const boundaries = (['content', 'topic', 'audience'] as const).map((what) => fc.tuple(initial(context, w, what === 'topic' ? 'channel' : 'direct'), initial(context, w, 'channel'), fc.constant(what), fc.constant(MARKED)));
    await deliveryProperty(context, fc.tuple(anyKind.chain((kind) => initial(context, w, kind)), anyKind.chain((kind) => initial(context, w, kind)), changes, text(30)), async ([base, other, what, words]) => {
      const case_ = context.token('edited');
      const start: Scheduled = { ...base, topic: base.kind === 'channel' ? caseTopic(context, case_, 'first') : '', content: `${case_} as scheduled.` };
      const edited: Scheduled = what === 'content' ? { ...start, content: `${case_} ${words} as edited.` }
        : what === 'topic' && start.kind === 'channel' ? { ...start, topic: caseTopic(context, case_, 'edited'), content: `${case_} ${words} as edited.` }
        : { ...other, topic: other.kind === 'channel' ? caseTopic(context, case_, 'moved') : '', content: `${case_} ${words} as edited.`, timestamp: start.timestamp };
      const request: Edit = { content: edited.content };
      if (edited.kind === 'channel' && edited.topic !== start.topic) request.topic = edited.topic;
      if (edited.kind !== start.kind || JSON.stringify(edited.to) !== JSON.stringify(start.to)) Object.assign(request, { type: edited.kind === 'channel' ? 'stream' : 'private', to: edited.to, ...(edited.kind === 'channel' ? { topic: edited.topic } : {}) });
      const delivery = await due(context);
      const { id } = await schedule(context, start, { at: delivery.at });
      succeeded(await edit(context, id, request), `PATCH /scheduled_messages/${id} ${describeEdit(request)}`);
      await delivery.passed();
      const arrived = await readConversation(context, 'member', conversationOf(edited), 1000);
      const sent = arrived.filter((message) => sentByMember(context)(message) && String(message.content).includes(case_));
      for (const message of sent) context.noteMessage(message.id);
      if (sent.length === 0) {
        // Not there: sent as it was first scheduled, or not sent at all (a worker that did not run is no verdict).
        const first = (await readConversation(context, 'member', conversationOf(start), 1000)).filter((message) => sentByMember(context)(message) && String(message.content).includes(case_));
        for (const message of first) context.noteMessage(message.id);
        if (first.length === 0) throw new Skip(`scheduled message ${id} was not delivered after its time, as edited or as first scheduled: its delivery could not be seen`);
        throw new Violation(`scheduled message ${id} was edited to ${describeEdit(request)}, yet sent as first scheduled: ${JSON.stringify(first.map((message) => message.content))}`);
      }
      expect(sent.length === 1 && sent[0].content === edited.content, `scheduled message ${id}, edited to ${describeEdit(request)}, was sent as ${JSON.stringify(sent.map((message) => message.content))} in the edited conversation, not once with the edited content exactly`);
    }, { runs: context.runsSmokeAtMost(3), boundaries: boundaries.map((boundary) => boundary as never) });
  }, ['deliveries']),
];

/** The spec's outcome of an edit it decides; a harness error when the check asked for an open one. */
function specState(context: Context, before: Scheduled, request: Edit): Scheduled {
  const outcome = specOutcome(context, before, request);
  if (typeof outcome === 'string') throw new Error(`harness: the check expected ${describeEdit(request)} to be accepted, the spec says ${outcome}`);
  return outcome;
}

/** The fields an edit sets directly. */
function fields(request: Edit): Partial<Scheduled> {
  const set: Record<string, unknown> = {};
  if (request.to !== undefined) set.to = request.to;
  if (request.content !== undefined) set.content = request.content;
  if (request.scheduled_delivery_timestamp !== undefined) set.timestamp = request.scheduled_delivery_timestamp;
  return set as Partial<Scheduled>;
}

/** Lengths at, just under and just over a limit. */
/**
 * The boundaries of a length limit: at the limit and one past it, in a unit of one UTF-16 code
 * unit and in one of two (a limit counted in code units would cut the second short).
 */
function atAndPastLimit<S>(starts: fc.Arbitrary<S>, max: number): Array<fc.Arbitrary<[S, number, string]>> {
  return ['a', '𝒜'].flatMap((unit) => [max, max + 1].map((length) => fc.tuple(starts, fc.constant(length), fc.constant(unit))));
}

const lengthAround = (max: number) => fc.oneof(fc.constantFrom(max - 1, max, max + 1), fc.integer({ min: Math.max(1, max - 10), max: max + 10 }));

/** `head` then `unit` repeated to `length` characters in all. */
function exactLength(head: string, unit: string, length: number): string {
  const headLength = characterLength(head);
  return head + unit.repeat(Math.max(0, length - headLength));
}

/** At or under the limit, stored whole; over it, refused or stored within it. */
async function checkLimit(context: Context, start: Scheduled, change: Edit, field: 'content' | 'topic', value: string, max: number) {
  const { message, response, after } = await tryEdit(context, start, change);
  const length = characterLength(value);
  if (length <= max) {
    succeeded(response, `an edit with a ${field} of ${length} characters (limit ${max})`);
    const wrong = differences(context, { ...message, [field]: value }, after);
    expect(wrong === null, `a ${field} of ${length} characters, within the limit of ${max}, was not stored whole: ${wrong}`);
    return;
  }
  if (response.body?.result === 'success') {
    const stored = field === 'content' ? after?.content : after?.topic;
    expect(typeof stored === 'string' && characterLength(stored) <= max, `a ${field} of ${length} characters was accepted and stored with ${stored === undefined ? 'no' : characterLength(String(stored))} characters; the limit is ${max}`);
  } else {
    refused(response, `an edit with a ${field} of ${length} characters`);
    const changed = differences(context, message, after);
    expect(changed === null, `an edit with a ${field} over the limit was refused, yet the message changed: ${changed}`);
  }
}

/** The ID of a scheduled message that existed and was deleted. */
async function deletedId(context: Context, start: Scheduled): Promise<number> {
  const { id } = await schedule(context, start);
  succeeded(await context.call('member', 'DELETE', `/scheduled_messages/${id}`), `DELETE /scheduled_messages/${id}`);
  return id;
}

/** The error table's answer for a missing scheduled message: code BAD_REQUEST and a msg (in any words). */
function refusedAsMissing(body: any, id: number): void {
  expect(body.code === 'BAD_REQUEST', `scheduled message ${id}: code ${JSON.stringify(body.code)}, not BAD_REQUEST`);
  expect(body.msg !== '', `scheduled message ${id}: the error's msg is empty`);
}

// ---- The model of a user's scheduled messages ---------------------------------------------------

interface ScheduledModel {
  readonly context: Context;
  messages: Array<{ id: number; message: Scheduled }>;
}

/** The model and GET /scheduled_messages agree on every message of the sequence. */
async function agreeWithModel(model: ScheduledModel, context: Context, after: string): Promise<void> {
  const list = await listed(context);
  for (const { id, message } of model.messages) {
    const wrong = differences(context, message, list.get(id));
    expect(wrong === null, `after ${after}: scheduled message ${id} should be ${JSON.stringify(normalizeAudience(message, context.probe.users.member.id))}, but ${wrong}`);
  }
}

class ScheduleCommand implements fc.AsyncCommand<ScheduledModel, Context> {
  constructor(readonly message: Scheduled) {}
  check = (model: ScheduledModel) => model.messages.length < 3;
  async run(model: ScheduledModel, context: Context) {
    model.messages.push(await schedule(context, this.message));
    await agreeWithModel(model, context, String(this));
  }
  toString = () => `schedule ${JSON.stringify(this.message)}`;
}

class EditCommand implements fc.AsyncCommand<ScheduledModel, Context> {
  constructor(readonly position: number, readonly change: Edit) {}
  check = (model: ScheduledModel) => {
    const target = model.messages[this.position % Math.max(1, model.messages.length)];
    return target !== undefined && specOutcome(model.context, target.message, this.change) !== 'open';
  };
  async run(model: ScheduledModel, context: Context) {
    const target = model.messages[this.position % model.messages.length]!;
    const outcome = specOutcome(context, target.message, this.change);
    if (outcome === 'open') return;
    const response = await edit(context, target.id, this.change);
    if (outcome === 'refused') refused(response, `${this} (the spec refuses it)`);
    else {
      succeeded(response, String(this));
      target.message = outcome;
    }
    await agreeWithModel(model, context, String(this));
  }
  toString = () => `edit message #${this.position} (counted round the list) with ${JSON.stringify(this.change)}`;
}

class DeleteCommand implements fc.AsyncCommand<ScheduledModel, Context> {
  constructor(readonly position: number) {}
  check = (model: ScheduledModel) => model.messages.length > 0;
  async run(model: ScheduledModel, context: Context) {
    const [target] = model.messages.splice(this.position % model.messages.length, 1);
    succeeded(await context.call('member', 'DELETE', `/scheduled_messages/${target!.id}`), String(this));
    const list = await listed(context);
    expect(!list.has(target!.id), `after ${this}: scheduled message ${target!.id} is still listed`);
    await agreeWithModel(model, context, String(this));
  }
  toString = () => `delete message #${this.position} (counted round the list)`;
}

// ---- Checks of the decisions ---------------------------------------------------------------

const decisionChecks: Check[] = [
  check('scheduled.error-texts', async (context) => {
    const w = await world(context);
    const { users } = context.probe;
    const now = await targetNow(context);
    const past = now - DAY;
    const channel = w.channels[0];
    const hidden = await privateChannel(context, 'other');
    const { id, message } = await schedule(context, { kind: 'channel', to: channel, topic: 'texts', content: `${context.prefix} texts`, timestamp: 0 });
    const gone = await deletedId(context, { kind: 'direct', to: [users.other.id], topic: '', content: `${context.prefix} gone`, timestamp: 0 });
    try {
      const cases: Array<[number, Edit, string | string[], number, string]> = [
        [id, {}, 'Nothing to change', 400, 'BAD_REQUEST'],
        [id, { type: 'private', scheduled_delivery_timestamp: past }, 'Recipient required when updating type of scheduled message.', 400, 'BAD_REQUEST'],
        [id, { type: 'stream' }, 'Recipient required when updating type of scheduled message.', 400, 'BAD_REQUEST'],
        [id, { type: 'stream', to: channel }, inZulipWords(context.level, 'Topic required when updating scheduled message type to channel.'), 400, 'BAD_REQUEST'],
        [id, { scheduled_delivery_timestamp: past }, 'Scheduled delivery time must be in the future.', 400, 'BAD_REQUEST'],
        [gone, { content: 'x', scheduled_delivery_timestamp: past }, 'Scheduled delivery time must be in the future.', 400, 'BAD_REQUEST'],
        [gone, { content: 'x' }, 'Scheduled message does not exist', 404, 'BAD_REQUEST'],
        [id, { to: MISSING_ID }, inZulipWords(context.level, `Channel with ID '${MISSING_ID}' does not exist`), 400, 'STREAM_DOES_NOT_EXIST'],
        // A private channel the sender is not in is, to Zulip, a channel that does not exist.
        [id, { to: hidden }, inZulipWords(context.level, `Channel with ID '${hidden}' does not exist`), 400, 'STREAM_DOES_NOT_EXIST'],
        [id, { type: 'private', to: [users.other.id, MISSING_ID] }, `Invalid user ID ${MISSING_ID}`, 400, 'BAD_REQUEST'],
        [id, { type: 'bogus', to: channel, topic: 'x' }, ['Invalid type: Value error, Not in the list of possible values', 'Invalid type'], 400, 'BAD_REQUEST'],
        // A list of one channel ID is not a channel ID to Zulip (a reading the must check leaves open).
        [id, { to: [channel] }, inZulipWords(context.level, 'Invalid data type for channel ID'), 400, 'BAD_REQUEST'],
        [id, { type: 'private', to: users.other.id }, 'Invalid data type for recipients', 400, 'BAD_REQUEST'],
        [id, { type: 'private', to: [users.other.email] as never }, 'to["int"] is not an integer', 400, 'BAD_REQUEST'],
        [id, { to: '"general"' as never }, 'to["int"] is not an integer', 400, 'BAD_REQUEST'],
        [id, { topic: 'a\0b' }, 'Topic must not contain null bytes', 400, 'BAD_REQUEST'],
      ];
      for (const [target, change, msg, status, code] of cases) {
        refusedExactly(await edit(context, target, change), `PATCH /scheduled_messages/${target === id ? '{id}' : '{deleted id}'} ${JSON.stringify(change)}`, msg, status, code);
      }
      refusedExactly(await context.call('member', 'DELETE', `/scheduled_messages/${gone}`), 'DELETE /scheduled_messages/{deleted id}', 'Scheduled message does not exist', 404);
      const unchanged = differences(context, message, await readBack(context, id));
      expect(unchanged === null, `the refused edits changed the message: ${unchanged}`);
      // Another user's message is answered as a missing one.
      const others = await schedule(context, { kind: 'direct', to: [users.member.id], topic: '', content: `${context.prefix} others`, timestamp: 0 }, { as: 'other' });
      try {
        refusedExactly(await edit(context, others.id, { content: 'x' }), `member's PATCH of other's scheduled message`, 'Scheduled message does not exist', 404);
        refusedExactly(await context.call('member', 'DELETE', `/scheduled_messages/${others.id}`), `member's DELETE of other's scheduled message`, 'Scheduled message does not exist', 404);
      } finally {
        await remove(context, others.id, 'other');
      }
    } finally {
      await remove(context, id);
    }
  }),

  check('scheduled.future-timestamp', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(anyKind.chain((kind) => initial(context, w, kind)), fc.constantFrom(0, 1, 60, DAY), fc.boolean()), async ([start, before, onEdit]) => {
      // On real time the estimate may run up to half a second ahead of the target's clock (the
      // stamp it starts from is whole seconds): a second less is surely not in the future.
      const now = (await targetNow(context)) - (context.deliveryState.mode === 'clock' ? 0 : 1);
      const response = onEdit && context.level >= 184
        ? (await tryEdit(context, start, { scheduled_delivery_timestamp: now - before })).response
        : await context.call('member', 'POST', '/scheduled_messages', start.kind === 'channel'
          ? { type: 'stream', to: start.to as number, topic: start.topic, content: start.content, scheduled_delivery_timestamp: now - before }
          : { type: 'private', to: start.to as number[], content: start.content, scheduled_delivery_timestamp: now - before });
      if (response.body?.scheduled_message_id) await remove(context, response.body.scheduled_message_id);
      refusedExactly(response, `${onEdit ? 'PATCH' : 'POST'} with scheduled_delivery_timestamp ${before} seconds before now`, 'Scheduled delivery time must be in the future.');
    }, context.runsSmokeAtMost(8));
  }),

  check('scheduled.topic-normalized', async (context) => {
    const w = await world(context);
    const space = fc.constantFrom(' ', '  ', '\t', ' \t ');
    await context.property(fc.tuple(initial(context, w, 'channel'), ordinaryTopic(context), space, space, fc.constantFrom(...otherCaseNames(context))), async ([start, topic, lead, trail, otherCase]) => {
      await expectAccepted(context, start, { topic: `${lead}${topic}${trail}` }, (before) => ({ ...before, topic }));
      await expectAccepted(context, start, { topic: otherCase }, (before) => ({ ...before, topic: otherCase }));
      // `subject` is Zulip's older name of `topic`.
      await expectAccepted(context, start, { subject: `${lead}${topic}` } as Edit, (before) => ({ ...before, topic }));
      const noTopic = `${lead}(no topic)${trail}`;
      if (context.level >= 370) await expectAccepted(context, start, { topic: noTopic }, (before) => ({ ...before, topic: '' }));
      await expectRefusedUnchanged(context, { ...start, kind: 'direct', to: [context.probe.users.other.id], topic: '' }, { type: 'stream', to: start.to as number, topic: noTopic });
    }, context.runsSmokeAtMost(5));
  }),

  check('scheduled.limits-truncate', async (context) => {
    const w = await world(context);
    const { maxMessageLength, maxTopicLength } = context.probe;
    await context.property(fc.tuple(initial(context, w, 'channel'), fc.integer({ min: 1, max: 30 }), fc.constantFrom('a', 'é', '日', '𝒜')), async ([start, over, unit]) => {
      const body = exactLength(`${context.prefix} `, unit, maxMessageLength + over);
      await expectAccepted(context, start, { content: body }, (before) => ({ ...before, content: firstCharacters(body, maxMessageLength - 20) + '\n[message truncated]' }));
      const topic = exactLength('t', unit, maxTopicLength + over);
      await expectAccepted(context, start, { topic }, (before) => ({ ...before, topic: firstCharacters(topic, maxTopicLength - 3) + '...' }));
      await expectAccepted(context, start, { topic: exactLength('t', unit, maxTopicLength) }, (before) => ({ ...before, topic: exactLength('t', unit, maxTopicLength) }));
    }, context.runsSmokeAtMost(4));
  }),

  check('scheduled.listing-shape', async (context) => {
    const w = await world(context);
    const { users } = context.probe;
    const shapes = fc.shuffledSubarray<[Kind, number | number[]]>([['channel', w.channels[0]], ['direct', [users.member.id]], ['direct', [users.other.id]], ['direct', [users.other.id, users.admin.id]]], { minLength: 2 });
    await context.property(fc.tuple(shapes, fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 4, maxLength: 4 })), async ([picked, offsets]) => {
      const now = await targetNow(context);
      const made: Array<{ id: number; to: number | number[]; at: number }> = [];
      try {
        for (const [index, [kind, to]] of picked.entries()) {
          const at = farFuture(now, offsets[index]!);
          const { id } = await schedule(context, { kind, to, topic: 'listing', content: `${context.prefix} listing ${index}`, timestamp: 0 }, { at });
          made.push({ id, to, at });
        }
        const body = succeeded(await context.call('member', 'GET', '/scheduled_messages'), 'GET /scheduled_messages');
        const ours = (body.scheduled_messages as Listed[]).filter((item) => made.some((m) => m.id === item.scheduled_message_id));
        const order = ours.map((item) => item.scheduled_delivery_timestamp);
        expect(order.every((t, i) => i === 0 || order[i - 1]! <= t), `GET /scheduled_messages is not ordered by delivery time: ${JSON.stringify(order)}`);
        for (const item of ours) {
          const { to, at } = made.find((m) => m.id === item.scheduled_message_id)!;
          const want = Array.isArray(to) ? { type: 'private', to: [...to].sort((a, b) => a - b) } : { type: 'stream', to, topic: 'listing' };
          const listedTo = Array.isArray(item.to) ? [...item.to].sort((a, b) => a - b) : item.to;
          const keys = ['scheduled_message_id', 'type', 'to', ...(Array.isArray(to) ? [] : ['topic']), 'content', 'rendered_content', 'scheduled_delivery_timestamp', 'failed'];
          expect(JSON.stringify(Object.keys(item).sort()) === JSON.stringify(keys.sort()), `GET lists ${JSON.stringify(item)}: its keys should be ${keys.join(', ')}`);
          expect(item.type === want.type && JSON.stringify(listedTo) === JSON.stringify(want.to) && item.scheduled_delivery_timestamp === at && item.failed === false,
            `GET lists ${JSON.stringify(item)}; expected ${JSON.stringify({ ...want, scheduled_delivery_timestamp: at, failed: false })}`);
        }
        const othersView = await listed(context, 'other');
        expect(made.every((m) => !othersView.has(m.id)), `other's GET /scheduled_messages lists member's messages`);
      } finally {
        for (const m of made) await remove(context, m.id);
      }
    }, context.runsSmokeAtMost(5));
  }),

  check('scheduled.delivery', async (context) => {
    const w = await world(context);
    await deliveryProperty(context, anyKind.chain((kind) => initial(context, w, kind)), async (generated) => {
      // Found by a token of its own and its sender, never by a text another message may share.
      const start: Scheduled = { ...generated, content: `${context.token('delivery')} ${generated.content}` };
      const since = await maxMessageId(context);
      const delivery = await due(context);
      // Three more, due earlier, made out of order. Zulip's worker wakes each minute and sends the
      // first due message by ID until none is left: what comes due within one minute goes in the
      // order it was made, however the times within it lie. On real time the four are kept clear
      // of a minute's first seconds, where a busy worker could still be at the minute before.
      const self = [context.probe.users.member.id];
      const room = delivery.at - (await targetNow(context)) >= 5 && (context.deliveryState.mode === 'clock' || delivery.at % 60 >= 5);
      const spread = room ? 1 : 0;
      const earlier: Array<{ id: number; message: Scheduled; at: number }> = [];
      for (const [name, before] of [['second', 1], ['first', 2], ['third', 1]] as const) {
        const at = delivery.at - before * spread;
        earlier.push({ ...(await schedule(context, { kind: 'direct', to: self, topic: '', content: `${context.prefix} ${name} of ${start.content}`, timestamp: 0 }, { at })), at });
      }
      const { id, message } = await schedule(context, start, { at: delivery.at });
      const made = [...earlier, { id, message, at: delivery.at }].map((one, index) => ({ ...one, index }));
      // Which of them the last look found not yet due: on a slow run the others may have gone earlier.
      let notDue = made;
      if (context.deliveryState.mode === 'clock') {
        // Nothing goes before its time, and a message goes once its time has come.
        await advanceClock(context, delivery.at - 3 - (await advanceClock(context, 0)));
        const early = await listed(context);
        // The clock runs on with the machine's: on a slow run some may have come due meanwhile.
        const read = await advanceClock(context, 0);
        notDue = made.filter((one) => one.at > read);
        expect(notDue.every((one) => early.has(one.id)), `before they were due, scheduled messages ${notDue.filter((one) => !early.has(one.id)).map((one) => one.id).join(', ')} were no longer listed`);
        await advanceClock(context, 3);
        expect(!(await listed(context)).has(id), `scheduled message ${id} is still listed once the clock has reached its time`);
      }
      await delivery.passed();
      const arrived = await messagesAfter(context, 'member', since);
      const sentIds = made.map(({ message: m }) => arrived.find((candidate) => sentByMember(context)(candidate) && candidate.content === m.content)?.id);
      // A message to oneself stays unread: the end of the run marks these read.
      for (const sentId of sentIds) if (sentId !== undefined) context.noteMessage(sentId);
      expect(sentIds.every((sentId) => sentId !== undefined), `scheduled messages ${JSON.stringify(made.map((one) => one.id))} due at ${made.map((one) => one.at).join(', ')} were sent as messages ${JSON.stringify(sentIds)}: not all of them were sent`);
      const sentAs = new Map(made.map((one, index) => [one.id, sentIds[index]!]));
      const byMinute = [...notDue].sort((a, b) => Math.ceil(a.at / 60) - Math.ceil(b.at / 60) || a.index - b.index);
      const byTime = [...notDue].sort((a, b) => a.at - b.at || a.index - b.index);
      const inOrder = (order: typeof made) => order.every((one, at) => at === 0 || sentAs.get(one.id)! > sentAs.get(order[at - 1]!.id)!);
      // Zulip's main branch has since ordered by delivery time, at a level above the ones examined.
      const orderHeld = inOrder(byMinute) || (context.level > 415 && inOrder(byTime));
      expect(orderHeld, `scheduled messages ${JSON.stringify(byMinute.map((one) => one.id))} (made in that order within each minute) due at ${byMinute.map((one) => one.at).join(', ')} were sent as messages ${JSON.stringify(byMinute.map((one) => sentAs.get(one.id)))}, not by the minute they came due in and then in the order they were made`);
      // The exact now, not the estimate: another run may have moved a reference clock since.
      const seen = await serverStamp(context);
      expect(!(await listed(context)).has(id), `scheduled message ${id} is still listed after its time`);
      const sent = (await messagesAfter(context, 'member', since)).filter((m) => sentByMember(context)(m) && m.content === message.content);
      expect(sent.length === 1, `scheduled message ${id} was sent ${sent.length} times (no other user of the profile's message counted): ${JSON.stringify(sent)}`);
      const [m] = sent;
      expect(m.sender_id === context.probe.users.member.id, `scheduled message ${id} was sent by ${m.sender_id}, not its sender`);
      expect(m.timestamp >= delivery.at && m.timestamp <= seen, `scheduled message ${id} for ${delivery.at} was sent at ${m.timestamp}, after ${seen}, when it was seen`);
      if (message.kind === 'channel') {
        expect(m.type === 'stream' && m.stream_id === message.to && m.subject === message.topic, `scheduled message ${id} arrived as ${JSON.stringify({ type: m.type, stream_id: m.stream_id, subject: m.subject })}`);
      } else {
        const participants = (m.display_recipient as Array<{ id: number }>).map((u) => u.id).sort((a, b) => a - b);
        const want = [...new Set([context.probe.users.member.id, ...(message.to as number[])])].sort((a, b) => a - b);
        expect(m.type === 'private' && JSON.stringify(participants) === JSON.stringify(want), `scheduled message ${id} arrived to ${JSON.stringify(participants)}, expected ${JSON.stringify(want)}`);
      }
      if (context.level >= 184) {
        refusedExactly(await edit(context, id, { content: `${message.content} again` }), `PATCH of the delivered scheduled message ${id}`, 'Scheduled message was already sent');
      }
    }, context.runsSmokeAtMost(3));
  }, ['deliveries']),

  check('scheduled.late-delivery-fails', async (context) => {
    const w = await world(context);
    await context.property(anyKind.chain((kind) => initial(context, w, kind)), async (start) => {
      const since = await maxMessageId(context);
      const now = await advanceClock(context, 0);
      const { id, message } = await schedule(context, start, { at: now + 60 });
      // Found ten seconds under ten minutes late: still sent.
      const onTheEdge = await schedule(context, { kind: 'direct', to: [context.probe.users.member.id], topic: '', content: `${context.prefix} late by ${LATE_SECONDS - 10} of ${message.content}`, timestamp: 0 }, { at: now + 130 });
      const queue = await registerQueue(context, 'member', ['scheduled_messages']);
      try {
        await advanceClock(context, 60 + LATE_SECONDS + 60, false);
        await advanceClock(context, 0);
        const arrived = await messagesAfter(context, 'member', since);
        const edge = arrived.filter((m) => sentByMember(context)(m) && m.content === onTheEdge.message.content);
        for (const m of edge) context.noteMessage(m.id);
        expect(edge.length === 1, `scheduled message ${onTheEdge.id}, found ${LATE_SECONDS - 10} seconds late, was sent ${edge.length} times, not once`);
        const item = await readBack(context, id);
        expect(item?.failed === true, `scheduled message ${id}, found ${LATE_SECONDS + 60} seconds late, is listed as ${JSON.stringify(item)}, not failed`);
        // Other messages of the run may fail in the same pass: the event of this one, in either shape.
        const ofThis = (event: any) => event?.scheduled_message?.scheduled_message_id === id || (Array.isArray(event?.scheduled_messages) && event.scheduled_messages.some((m: any) => m?.scheduled_message_id === id));
        const updated = (await pollEvents(context, 'member', queue, (seen) => seen.some(ofThis))).find(ofThis);
        expect(updated?.type === 'scheduled_messages' && updated.op === 'update' && canonical(updated.scheduled_message) === canonical(item),
          `when scheduled message ${id} failed the event was ${JSON.stringify(updated)}; expected op update with scheduled_message ${JSON.stringify(item)}`);
        const isNotice = (m: any) => m.sender_id !== context.probe.users.member.id && m.type === 'private' && String(m.content).includes('Message could not be sent at the scheduled time.');
        expect(!arrived.some((m) => sentByMember(context)(m) && m.content === message.content), `scheduled message ${id} was sent although it was late`);
        expect(arrived.some(isNotice), `no direct message told member that scheduled message ${id} could not be sent; new messages: ${JSON.stringify(arrived.map((m) => ({ sender: m.sender_email, content: m.content })))}`);
        // A failed message is never tried again: another pass of the worker neither sends it nor tells of it again.
        const afterFailure = await maxMessageId(context);
        await advanceClock(context, 60);
        expect((await readBack(context, id))?.failed === true, `scheduled message ${id} is no longer failed after another pass of the worker`);
        const again = await messagesAfter(context, 'member', afterFailure);
        expect(!again.some((m) => isNotice(m) || (sentByMember(context)(m) && m.content === message.content)), `another pass of the worker, a minute later, tried the failed message ${id} again: ${JSON.stringify(again.map((m) => ({ sender: m.sender_email, content: m.content })))}`);
      } finally {
        await queue.remove();
        await remove(context, id);
        if ((await listed(context)).has(onTheEdge.id)) await remove(context, onTheEdge.id);
      }
    }, context.runsSmokeAtMost(3));
  }, ['reference-clock', 'events']),

  check('scheduled.edit-clears-failed', async (context) => {
    const w = await world(context);
    await context.property(anyKind.chain((kind) => initial(context, w, kind)), async (start) => {
      const { id, message } = await scheduleFailed(context, start);
      try {
        refusedExactly(await edit(context, id, { content: `${message.content} again` }), `PATCH of the failed message ${id} without a new time`, 'Scheduled delivery time must be in the future.');
        const since = await maxMessageId(context);
        const at = (await advanceClock(context, 0)) + 60;
        succeeded(await edit(context, id, { scheduled_delivery_timestamp: at }), 'PATCH a failed message with a new time');
        const item = await readBack(context, id);
        expect(item?.failed === false, `after an edit with a new time the message is listed as ${JSON.stringify(item)}, not failed:false`);
        const queue = await registerQueue(context, 'member', ['scheduled_messages']);
        try {
          await advanceClock(context, 120);
          const sent = (await messagesAfter(context, 'member', since)).filter((m) => sentByMember(context)(m) && m.content === message.content);
          expect(sent.length === 1, `the edited message was sent ${sent.length} times at its new time`);
          // The event of this message: another client of member's (another run) schedules meanwhile.
          const [removed] = (await pollEvents(context, 'member', queue, (seen) => seen.some((event) => event?.scheduled_message_id === id))).filter((event) => event?.scheduled_message_id === id);
          expect(removed?.op === 'remove' && removed.scheduled_message_id === id, `when scheduled message ${id} was sent the event was ${JSON.stringify(removed)}; expected {type, op: "remove", scheduled_message_id: ${id}}`);
        } finally {
          await queue.remove();
        }
      } finally {
        await remove(context, id);
      }
    }, context.runsSmokeAtMost(3));
  }, ['reference-clock', 'events']),

  check('scheduled.event-shapes', async (context) => {
    const w = await world(context);
    await context.property(fc.tuple(anyKind.chain((kind) => initial(context, w, kind)), content(context)), async ([start, body]) => {
      const queue = await registerQueue(context, 'member', ['scheduled_messages']);
      try {
        const { id } = await schedule(context, start);
        // The events of this message: another client of member's (another run) schedules meanwhile.
        const mine = (event: any) => event?.scheduled_message_id === id || event?.scheduled_message?.scheduled_message_id === id || (Array.isArray(event?.scheduled_messages) && event.scheduled_messages.some((item: any) => item?.scheduled_message_id === id));
        const next = async () => (await pollEvents(context, 'member', queue, (seen) => seen.some(mine))).filter(mine);
        const [added] = await next();
        const listedNow = await readBack(context, id);
        expect(added?.type === 'scheduled_messages' && added.op === 'add' && canonical(added.scheduled_messages) === canonical([listedNow]),
          `after POST /scheduled_messages the event is ${JSON.stringify(added)}; expected op add with scheduled_messages [${JSON.stringify(listedNow)}]`);
        if (context.level >= 184) {
          succeeded(await edit(context, id, { content: body }), 'PATCH /scheduled_messages content');
          const [updated] = await next();
          const edited = await readBack(context, id);
          expect(updated?.op === 'update' && canonical(updated.scheduled_message) === canonical(edited),
            `after PATCH the event is ${JSON.stringify(updated)}; expected op update with scheduled_message ${JSON.stringify(edited)}`);
        }
        succeeded(await context.call('member', 'DELETE', `/scheduled_messages/${id}`), 'DELETE /scheduled_messages');
        const [removed] = await next();
        expect(removed?.op === 'remove' && removed.scheduled_message_id === id && Object.keys(removed).sort().join() === 'id,op,scheduled_message_id,type',
          `after DELETE the event is ${JSON.stringify(removed)}; expected {type, op: "remove", scheduled_message_id: ${id}}`);
      } finally {
        await queue.remove();
      }
    }, context.runsSmokeAtMost(5));
  }, ['events']),
];

function firstCharacters(value: string, count: number): string {
  return Array.from(value).slice(0, count).join('');
}

export const SCHEDULED_CHECKS: readonly Check[] = [...mustChecks, ...decisionChecks];

/** A message to member alone, far ahead, for the general rules to edit or delete. */
async function prepareScheduled(context: Context, method: 'PATCH' | 'DELETE', valid: ParamList): Promise<PreparedOperation> {
  const token = context.token('general-scheduled');
  const { id } = await schedule(context, { kind: 'direct', to: [context.probe.users.member.id], topic: '', content: token, timestamp: 0 });
  return {
    method, path: `/scheduled_messages/${id}`, valid,
    invalid: { path: `/scheduled_messages/${MISSING_ID}`, params: valid },
    observe: async () => JSON.stringify((await readBack(context, id)) ?? 'absent'),
    undo: () => remove(context, id),
    others: {
      // The run's own only: other runs schedule for these users meanwhile.
      observe: async (as) => JSON.stringify([...(await listed(context, as)).values()].filter((item) => String(item.content).includes(context.prefix)).sort((a, b) => a.scheduled_message_id - b.scheduled_message_id)),
      tells: (event) => JSON.stringify(event).includes(token) || namesId(event, id, /scheduled_message_ids?$/),
    },
  };
}

export const SCHEDULED_OPERATIONS: readonly SpecOperation[] = [
  { name: 'PATCH /scheduled_messages/{id}', since: 184, ownData: true, repeatable: true, prepare: (context) => prepareScheduled(context, 'PATCH', { content: `${context.prefix} general, edited` }) },
  { name: 'DELETE /scheduled_messages/{id}', since: 173, ownData: true, prepare: (context) => prepareScheduled(context, 'DELETE', {}) },
];
