// Checks of the message flags rules (spec "Message flag", "States and transitions",
// "Endpoints 6. Update personal message flags"), over messages the run sends itself.

import fc from 'fast-check';
import { TransientError, type Exchange, type Response, type Role } from '../run/client.js';
import { check, expect, modelRun, refused, refusedExactly, succeeded, Skip, Unobservable, type Check, type Context } from '../run/harness.js';
import { SHAPES } from '../run/shape.js';
import { text } from './generators.js';
import { createChannel, fetchMessage, fetchState, flagTable, namesId, runChannel, pollEvents, readConversation, registerQueue, send, type Channel, type Conversation, type SpecOperation } from './world.js';

const CHANGEABLE = ['read', 'starred', 'collapsed'] as const;
type Changeable = (typeof CHANGEABLE)[number];
type Op = 'add' | 'remove';

// ---- The run's messages ---------------------------------------------------------------------

interface World {
  /** member and other are subscribed. */
  readonly subscribed: Channel;
  /** member was subscribed when its messages came, then left. */
  readonly left: Channel;
  /** Public, member never joined: its messages are member's history, not received. */
  readonly history: Channel;
  /** member joined it after its messages came: member is subscribed, and they are member's history. */
  readonly joined: Channel;
  readonly messages: {
    readonly subscribed: number[];
    readonly own: number;
    readonly left: number[];
    readonly history: number[];
    readonly joined: number[];
    /** One more of the joined channel, which only flags.remove-clears-flag's boundary touches: still member's history when read is taken from it. */
    readonly untouched: number;
    readonly direct: number[];
  };
  /** The channel of each channel message, for the unread invariant. */
  readonly channelOf: ReadonlyMap<number, number>;
}

function world(context: Context): Promise<World> {
  return context.memo('flags-world', async () => {
    const { users } = context.probe;
    const subscribed = await runChannel(context, ['member', 'other']);
    const left = await createChannel(context, 'flags-left', ['member', 'other']);
    const history = await createChannel(context, 'flags-history', ['other']);
    const joined = await createChannel(context, 'flags-joined', ['other']);
    const say = (n: number) => `${context.prefix} message ${n}`;
    // Messages 3 and 10 mention member: the details of an event say so.
    // The world's channel messages have a topic of their own, so that one narrow reads them all.
    const topic = worldTopic(context);
    const messages = {
      subscribed: [await send(context, 'other', subscribed, say(1), topic), await send(context, 'other', subscribed, say(2), topic), await send(context, 'other', subscribed, `${say(3)} @**${users.member.fullName}|${users.member.id}**`, topic)],
      own: await send(context, 'member', subscribed, say(4), topic),
      left: [await send(context, 'other', left, say(5), topic), await send(context, 'other', left, say(6), topic)],
      history: [await send(context, 'other', history, say(7), topic), await send(context, 'other', history, say(8), topic)],
      joined: [await send(context, 'other', joined, say(13), topic), await send(context, 'other', joined, say(14), topic)],
      untouched: await send(context, 'other', joined, say(15), topic),
      direct: [await send(context, 'other', [users.member.id], say(9)), await send(context, 'other', [users.member.id], `${say(10)} @**${users.member.fullName}|${users.member.id}**`)],
    };
    const unsubscribed = succeeded(await context.call('member', 'DELETE', '/users/me/subscriptions', { subscriptions: [left.name] }), 'DELETE /users/me/subscriptions');
    expect(unsubscribed.removed?.includes(left.name), `DELETE /users/me/subscriptions did not remove ${left.name}: ${JSON.stringify(unsubscribed)}`);
    // member joins after the messages came: they stay its history, in a channel it is subscribed to.
    succeeded(await context.call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: joined.name }] }), `POST /users/me/subscriptions ${joined.name}`);
    const channelOf = new Map<number, number>([
      ...[...messages.subscribed, messages.own].map((id) => [id, subscribed.id] as const),
      ...messages.left.map((id) => [id, left.id] as const),
      ...messages.history.map((id) => [id, history.id] as const),
      ...[...messages.joined, messages.untouched].map((id) => [id, joined.id] as const),
    ]);
    return { subscribed, left, history, joined, messages, channelOf };
  });
}

/** Messages member may not see: one in a private channel member is not in, one between other and admin. */
function unseenMessages(context: Context): Promise<{ hidden: number; othersDirect: number }> {
  return context.memo('flags-unseen', async () => {
    const channel = await createChannel(context, 'flags-hidden', ['other'], true);
    return { hidden: await send(context, 'other', channel, `${context.prefix} message 11`), othersDirect: await send(context, 'other', [context.probe.users.admin.id], `${context.prefix} message 12`) };
  });
}

/** A batch past any small constant: messages of the subscribed channel, in a topic of their own. */
const MANY = 120;
const manyOfRun = new WeakMap<Context, number[]>();

/** The run's many messages, sent once; outside a smoke run, the largest batch the flags rules send. */
function many(context: Context): Promise<number[]> {
  return context.memo('flags-many', async () => {
    const w = await world(context);
    // So many sends meet a transient fault now and then: one whose answer was lost may have been
    // sent, so the messages are those the conversation shows, sent until there are enough.
    const made = async () => (await readConversation(context, 'other', { channel: w.subscribed.id, topic: manyTopic(context) }, MANY + 10))
      .filter((message) => String(message.content).includes(`${context.prefix} many `)).map((message) => message.id as number);
    let ids: number[] = [];
    for (let round = 0; round < 3 && ids.length < MANY; round++) {
      for (let n = ids.length; n < MANY; n++) {
        try {
          await send(context, 'other', w.subscribed, `${context.prefix} many ${round}.${n}`, manyTopic(context));
        } catch (error) {
          if (!(error instanceof TransientError)) throw error;
        }
      }
      ids = await made();
    }
    for (const id of ids) context.noteMessage(id);
    manyOfRun.set(context, ids);
    return ids;
  });
}

const manyTopic = (context: Context) => `${context.prefix} many`;

/** The boundary of a batch rule outside a smoke run: every visible message and the many. */
async function largestBatch(context: Context, w: World): Promise<Array<fc.Arbitrary<number[]>>> {
  return context.options.smoke ? [] : [fc.constant([...visible(w), ...(await many(context))])];
}

/** The spec states no order for `messages`: the visible messages newest first, in every run but a smoke run (its budget of requests has no room). */
const newestFirst = (context: Context, w: World): Array<fc.Arbitrary<number[]>> => (context.options.smoke ? [] : [fc.constant([...visible(w)].sort((a, b) => b - a))]);

/** The messages member may see, in each situation the spec distinguishes. */
const visible = (w: World) => [...w.messages.subscribed, w.messages.own, ...w.messages.left, ...w.messages.history, ...w.messages.joined, ...w.messages.direct];
const subscribedChannels = (w: World) => new Set([w.subscribed.id, w.joined.id]);

const worldTopic = (context: Context) => `${context.prefix} world`;

/**
 * The user's flags on the messages: those of the world read a conversation at a time through
 * GET /messages, any other (or one a narrow did not show) through GET /messages/{id}. A message
 * the target gives no read of (below level 120, a history that holds only what the user received
 * or flagged) is left out: its flags are not observed, and the rules judge the others.
 */
async function flagsOf(context: Context, ids: readonly number[], as: Role = 'member'): Promise<Map<number, string[]>> {
  const flags = new Map<number, string[]>();
  // Below level 120 a message is read one at a time only among the user's own (fetchMessage): the
  // world's channel history is read by its conversation whatever the count.
  const w = as === 'member' && (ids.length > 2 || context.level < 120) ? await world(context) : null;
  if (w) {
    const conversations: Array<[Conversation, readonly number[]]> = [
      [{ channel: w.subscribed.id, topic: worldTopic(context) }, [...w.messages.subscribed, w.messages.own]],
      [{ channel: w.left.id, topic: worldTopic(context) }, w.messages.left],
      [{ channel: w.history.id, topic: worldTopic(context) }, w.messages.history],
      [{ channel: w.joined.id, topic: worldTopic(context) }, [...w.messages.joined, w.messages.untouched]],
      [{ dm: [context.probe.users.other.id] }, w.messages.direct],
      [{ channel: w.subscribed.id, topic: manyTopic(context) }, manyOfRun.get(context) ?? []],
    ];
    for (const [where, members] of conversations) {
      if (!members.some((id) => ids.includes(id))) continue;
      for (const message of await readConversation(context, as, where, MANY + 10)) {
        if (ids.includes(message.id) && Array.isArray(message.flags)) flags.set(message.id, message.flags);
      }
    }
  }
  for (const id of ids) {
    if (flags.has(id)) continue;
    let message: any;
    try {
      message = await fetchMessage(context, as, id);
    } catch (error) {
      if (error instanceof Unobservable) continue;
      throw error;
    }
    expect(Array.isArray(message.flags), `message ${id} has no flags list: ${JSON.stringify(message)}`);
    flags.set(id, message.flags);
  }
  return flags;
}

/** The user's flags on one message; a message the target gives no read of ends the rule as a skip, with the reason. */
async function flagsOfOne(context: Context, id: number, as: Role = 'member'): Promise<string[]> {
  const message = await fetchMessage(context, as, id);
  expect(Array.isArray(message.flags), `message ${id} has no flags list: ${JSON.stringify(message)}`);
  return message.flags;
}

/** The IDs whose flags were observed in every one of the reads. */
const observedIn = (ids: readonly number[], ...reads: ReadonlyArray<Map<number, string[]>>) => ids.filter((id) => reads.every((read) => read.has(id)));

/** A judgment over observed messages only: with none observed, nothing was judged, and the rule says so. */
function judged(ids: readonly number[], what: string): void {
  if (ids.length === 0) throw new Unobservable(`${what}: the target gave no read of any of the messages (below level 120, a history that holds only what the user received or flagged), so nothing could be judged`);
}

/** `refused`: the request must be refused, so it may be sent again after a transient fault. */
function updateFlags(context: Context, messages: unknown, op: unknown, flag: unknown, refused = false): Promise<Response> {
  const params: Record<string, any> = {};
  if (messages !== undefined) params.messages = messages;
  if (op !== undefined) params.op = op;
  if (flag !== undefined) params.flag = flag;
  return context.call('member', 'POST', '/messages/flags', params, { repeatable: refused });
}

/** The same flags on every message observed in both reads. */
const same = (a: Map<number, string[]>, b: Map<number, string[]>) =>
  [...a].every(([id, flags]) => !b.has(id) || JSON.stringify([...flags].sort()) === JSON.stringify([...b.get(id)!].sort()));

/** The request must be refused and change no flag of member's visible messages. */
async function refusedChangingNothing(context: Context, w: World, send: () => Promise<Response>, what: string, ids: readonly number[] = visible(w)) {
  // The messages the request names are those it could change; with none named, all of them.
  const watched = ids.length > 0 ? ids : visible(w);
  const before = await flagsOf(context, watched);
  const response = await send();
  const after = await flagsOf(context, watched);
  expect(same(before, after), `${what}: flags changed: before ${JSON.stringify([...before])}, after ${JSON.stringify([...after])}`);
  return refused(response, what);
}

/** One flags request with the flags read before and after; `changed` are the IDs whose flag moved. */
async function flagStep(context: Context, ids: number[], op: Op, flag: Changeable) {
  const before = await flagsOf(context, ids);
  const response = await updateFlags(context, ids, op, flag);
  const body = succeeded(response, `POST /messages/flags ${op} ${flag}`, SHAPES.flags);
  const after = await flagsOf(context, ids);
  // Judged on the messages observed before and after: of the others, whether the flag moved is unknown.
  const observed = [...new Set(observedIn(ids, before, after))];
  const changed = observed.filter((id) => before.get(id)!.includes(flag) !== after.get(id)!.includes(flag));
  expect(Array.isArray(body.messages), `POST /messages/flags: messages is not a list: ${JSON.stringify(body)}`);
  return { body, before, after, changed, observed };
}

const stepArbitrary = (w: World) => fc.record({
  ids: fc.subarray(visible(w), { minLength: 1 }),
  op: fc.constantFrom<Op>('add', 'remove'),
  flag: fc.constantFrom<Changeable>(...CHANGEABLE),
});

/** Every op with every changeable flag, each on its own generated messages, in a generated order. */
const stepsArbitrary = (w: World) =>
  fc.tuple(fc.array(fc.subarray(visible(w), { minLength: 1 }), { minLength: 6, maxLength: 6 }), fc.shuffledSubarray([0, 1, 2, 3, 4, 5], { minLength: 6 })).map(([subsets, order]) =>
    order.map((index) => ({ ids: subsets[index]!, op: (index < 3 ? 'add' : 'remove') as Op, flag: CHANGEABLE[index % 3]! })),
  );

/** In each run, every op with every changeable flag on generated messages; `assert` judges each step. */
async function everyStep(context: Context, assert: (step: { ids: number[]; op: Op; flag: Changeable }, result: Awaited<ReturnType<typeof flagStep>>) => void) {
  const w = await world(context);
  // The boundary: every step on a message of a channel member left and a direct one, the two
  // the rules of the response tell apart when read is removed.
  const pair = [w.messages.left[0]!, w.messages.direct[0]!];
  const stepsOn = (ids: number[]) => fc.shuffledSubarray([0, 1, 2, 3, 4, 5], { minLength: 6 }).map((order) => order.map((index) => ({ ids, op: (index < 3 ? 'add' : 'remove') as Op, flag: CHANGEABLE[index % 3]! })));
  // Outside a smoke run, every step on the largest batch too.
  const largest = (await largestBatch(context, w)).map((batch) => batch.chain(stepsOn));
  await context.property(stepsArbitrary(w), async (steps) => {
    const made = await stepsMade(context, steps);
    steps.forEach((step, index) => assert(step, made[index]!));
  }, { runs: context.runsSmokeAtMost(20), boundaries: [stepsOn(pair), ...largest] });
}

type StepResult = Awaited<ReturnType<typeof flagStep>>;

/** In a smoke run, the steps made for one rule judged on every step, by their sequence: the others judge the same. */
const stepsOfRun = new WeakMap<Context, Map<string, { results: StepResult[]; exchanges: Exchange[] }>>();

/**
 * The steps made, and what each observed. The three rules judged on every step take the same
 * cases (the same boundary at the same seed): a smoke run, which keeps a budget of requests, makes
 * each sequence once and lets each rule judge it, its exchanges shown again in each rule's record.
 */
async function stepsMade(context: Context, steps: ReadonlyArray<{ ids: number[]; op: Op; flag: Changeable }>): Promise<StepResult[]> {
  const key = JSON.stringify(steps);
  const shared = context.options.smoke ? stepsOfRun.get(context) ?? stepsOfRun.set(context, new Map()).get(context)! : null;
  const known = shared?.get(key);
  if (known) {
    context.client.showAgain(known.exchanges);
    return known.results;
  }
  const tap = context.client.tap();
  const results: StepResult[] = [];
  try {
    for (const step of steps) results.push(await flagStep(context, step.ids, step.op, step.flag));
  } finally {
    const exchanges = tap.stop();
    // Only a sequence made whole is shared: a step that failed is the rule's own to show.
    if (results.length === steps.length) shared?.set(key, { results, exchanges });
  }
  return results;
}

// ---- Checks of what the spec states ---------------------------------------------------------


/** other's alert words made of letters and digits (POST /register alert_words); a skip where it has none. */
async function alertWordsOfOther(context: Context): Promise<string[]> {
  const registered = await fetchState(context, 'other', ['alert_words']);
  const words = ((registered.alert_words ?? []) as string[]).filter((word) => /^[\p{L}\p{N}]+$/u.test(word));
  if (words.length === 0) throw new Skip(`'other' has no alert word made of letters and digits (POST /register alert_words)`);
  return words;
}

const mustChecks: Check[] = [
  check('flags.required-parameters', async (context) => {
    const w = await world(context);
    const request = fc.record({ drop: fc.constantFrom('messages', 'op', 'flag'), op: fc.constantFrom<Op>('add', 'remove'), flag: fc.constantFrom(...CHANGEABLE), ids: fc.subarray(visible(w), { minLength: 1 }) });
    // The boundaries: each parameter left out, the others at their first values on every message.
    const boundaries = (['messages', 'op', 'flag'] as const).map((drop) => fc.constant({ drop, op: 'add' as Op, flag: 'read' as Changeable, ids: [w.messages.subscribed[0]!] as number[] }));
    await context.property(request, async ({ drop, op, flag, ids }) => {
      await refusedChangingNothing(context, w, () => updateFlags(context, drop === 'messages' ? undefined : ids, drop === 'op' ? undefined : op, drop === 'flag' ? undefined : flag, true), `POST /messages/flags without ${drop}`, drop === 'messages' ? [] : ids);
    }, { runs: context.runsSmokeAtMost(20), boundaries });
  }),

  check('flags.op-add-or-remove', async (context) => {
    const w = await world(context);
    const ops = fc.oneof(fc.constantFrom('Add', 'ADD', ' add', 'remove ', 'delete', 'set', 'toggle', '', 'null', 'true'), fc.string({ maxLength: 8 }).filter((op) => op !== 'add' && op !== 'remove'));
    await context.property(fc.tuple(ops, fc.constantFrom(...CHANGEABLE), fc.subarray(visible(w), { minLength: 1 })), async ([op, flag, ids]) => {
      await refusedChangingNothing(context, w, () => updateFlags(context, ids, op, flag, true), `POST /messages/flags op=${JSON.stringify(op)}`, ids);
    }, context.runsSmokeAtMost(20));
  }),

  check('flags.only-changeable-flags', async (context) => {
    const w = await world(context);
    const table = flagTable(context.level);
    const fixed = table.filter((flag) => !(CHANGEABLE as readonly string[]).includes(flag));
    // Every flag of the table with each op, then generated names outside the table.
    // A smoke run names a channel message and a direct one; a full run every visible message.
    const named = context.options.smoke ? [w.messages.subscribed[0]!, w.messages.direct[0]!] : visible(w);
    // Each is refused and changes nothing: the flags are read before them all and after them all.
    const before = await flagsOf(context, named);
    const tried: string[] = [];
    for (const flag of fixed) {
      for (const op of context.some(['add', 'remove'] as const)) {
        refused(await updateFlags(context, named, op, flag, true), `POST /messages/flags ${op} ${flag}`);
        tried.push(`${op} ${flag}`);
      }
    }
    const after = await flagsOf(context, named);
    expect(same(before, after), `${tried.join(', ')} on ${JSON.stringify(named)}: each was refused, yet flags changed: before ${JSON.stringify([...before])}, after ${JSON.stringify([...after])}`);
    const outside = fc.oneof(fc.constantFrom('Read', 'STARRED', 'unread', 'is_private', 'active_mobile_push_notification', 'force_expand', ''), fc.string({ maxLength: 10 }).filter((flag) => !table.includes(flag)));
    await context.property(fc.tuple(outside, fc.constantFrom<Op>('add', 'remove'), fc.subarray(visible(w), { minLength: 1 })), async ([flag, op, ids]) => {
      await refusedChangingNothing(context, w, () => updateFlags(context, ids, op, flag, true), `POST /messages/flags flag=${JSON.stringify(flag)}`);
    }, context.runsSmokeAtMost(10));
  }),

  check('flags.add-sets-flag', async (context) => {
    const w = await world(context);
    const boundaries = [...newestFirst(context, w), ...(await largestBatch(context, w))];
    await context.property(fc.shuffledSubarray(visible(w), { minLength: 1 }), async (ids) => {
      for (const flag of CHANGEABLE) {
        const { after } = await flagStep(context, ids, 'add', flag);
        judged(observedIn(ids, after), `add ${flag}`);
        const lacking = observedIn(ids, after).filter((id) => !after.get(id)!.includes(flag));
        expect(lacking.length === 0, `add ${flag}: messages ${JSON.stringify(lacking)} lack ${flag} afterwards`);
      }
    }, { runs: context.runsSmokeAtMost(20), boundaries });
  }),

  check('flags.remove-clears-flag', async (context) => {
    const w = await world(context);
    // The boundary of every run, first: a message of a channel member joined after it came, still
    // member's history (no earlier step flagged it) when read is taken from it.
    const boundaries = [fc.constant<number[]>([w.messages.untouched]), ...newestFirst(context, w), ...(await largestBatch(context, w))];
    await context.property(fc.shuffledSubarray(visible(w), { minLength: 1 }), async (ids) => {
      for (const flag of CHANGEABLE) {
        if (flag !== 'read') succeeded(await updateFlags(context, ids, 'add', flag), `POST /messages/flags add ${flag}`);
        const { after } = await flagStep(context, ids, 'remove', flag);
        const exempt = (id: number) => flag === 'read' && w.channelOf.has(id) && !subscribedChannels(w).has(w.channelOf.get(id)!);
        judged(observedIn(ids, after), `remove ${flag}`);
        const keeping = observedIn(ids, after).filter((id) => !exempt(id) && after.get(id)!.includes(flag));
        expect(keeping.length === 0, `remove ${flag}: messages ${JSON.stringify(keeping)} still have ${flag}`);
      }
    }, { runs: context.runsSmokeAtMost(20), boundaries });
  }),

  check('flags.response-lists-modified', (context) =>
    everyStep(context, ({ op, flag }, { body, changed }) => {
      const missing = changed.filter((id) => !body.messages.includes(id));
      expect(missing.length === 0, `${op} ${flag}: messages ${JSON.stringify(missing)} changed but are not in the response's messages ${JSON.stringify(body.messages)}`);
    })),

  check('flags.response-lists-only-modified', (context) =>
    everyStep(context, ({ op, flag, ids }, { body, changed, observed }) => {
      const extra = (body.messages as number[]).filter((id) => !changed.includes(id) && (observed.includes(id) || !ids.includes(id)));
      expect(extra.length === 0, `${op} ${flag}: the response lists ${JSON.stringify(extra)}, whose ${flag} did not change (changed: ${JSON.stringify(changed)})`);
    })),

  check('flags.remove-read-skips-unsubscribed', async (context) => {
    const w = await world(context);
    const outside = [...w.messages.left, ...w.messages.history];
    await context.property(fc.tuple(fc.subarray(outside, { minLength: 1 }), fc.subarray(visible(w))), async ([skipped, others]) => {
      const { after } = await flagStep(context, [...new Set([...skipped, ...others])], 'remove', 'read');
      const unread = observedIn(skipped, after).filter((id) => !after.get(id)!.includes('read'));
      expect(unread.length === 0, `remove read made messages ${JSON.stringify(unread)} of channels member is not subscribed to unread`);
    }, context.runsSmokeAtMost(20));
  }),

  check('flags.ignored-channels-listed', async (context) => {
    const w = await world(context);
    // The boundaries: a message of each channel member is not in, and none.
    const boundaries = [[w.messages.left[0]!, w.messages.history[0]!], [w.messages.subscribed[0]!, w.messages.direct[0]!]].map((ids) => fc.constant(ids));
    await context.property(fc.subarray(visible(w), { minLength: 1 }), async (ids) => {
      const { body } = await flagStep(context, ids, 'remove', 'read');
      const expected = [...new Set(ids.filter((id) => w.channelOf.has(id) && !subscribedChannels(w).has(w.channelOf.get(id)!)).map((id) => w.channelOf.get(id)!))].sort((a, b) => a - b);
      const listed = body.ignored_because_not_subscribed_channels;
      expect(Array.isArray(listed), `remove read: no ignored_because_not_subscribed_channels list: ${JSON.stringify(body)}`);
      const actual = [...new Set(listed as number[])].sort((a, b) => a - b);
      expect(JSON.stringify(actual) === JSON.stringify(expected), `remove read: ignored_because_not_subscribed_channels is ${JSON.stringify(listed)}, not ${JSON.stringify(expected)}`);
    }, { runs: context.runsSmokeAtMost(20), boundaries });
  }),

  check('flags.ignored-channels-only-for-read-remove', (context) =>
    everyStep(context, ({ op, flag }, { body }) => {
      if (op === 'remove' && flag === 'read') return;
      expect(!('ignored_because_not_subscribed_channels' in body), `${op} ${flag}: the response carries ignored_because_not_subscribed_channels: ${JSON.stringify(body)}`);
    })),

  check('flags.ignored-channels-absent-before-355', (context) =>
    everyStep(context, ({ op, flag }, { body }) => {
      expect(!('ignored_because_not_subscribed_channels' in body), `at feature level ${context.level}, ${op} ${flag} carries ignored_because_not_subscribed_channels`);
    })),

  check('flags.unread-only-in-subscribed-channels', async (context) => {
    let round = 0;
    await context.property(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.boolean()), async ([count, markSomeRead]) => {
      const channel = await createChannel(context, `flags-leave${round++}`, ['member', 'other']);
      const ids: number[] = [];
      for (let i = 0; i < count; i++) ids.push(await send(context, 'other', channel, `${context.prefix} leave ${i}`));
      if (markSomeRead) succeeded(await updateFlags(context, ids.slice(0, 1), 'add', 'read'), 'POST /messages/flags add read');
      succeeded(await context.call('member', 'DELETE', '/users/me/subscriptions', { subscriptions: [channel.name] }), 'DELETE /users/me/subscriptions');
      const stillUnread = [...(await flagsOf(context, ids))].filter(([, flags]) => !flags.includes('read')).map(([id]) => id);
      expect(stillUnread.length === 0, `after member left ${channel.name}, messages ${JSON.stringify(stillUnread)} of it are still unread`);
      const removeRead = succeeded(await updateFlags(context, ids, 'remove', 'read'), 'POST /messages/flags remove read');
      const unreadAgain = [...(await flagsOf(context, ids))].filter(([, flags]) => !flags.includes('read')).map(([id]) => id);
      expect(unreadAgain.length === 0, `remove read made messages ${JSON.stringify(unreadAgain)} of a channel member left unread (response ${JSON.stringify(removeRead)})`);
    }, { runs: context.runsSmokeAtMost(5), boundaries: [fc.constant<[number, boolean]>([3, false]), fc.constant<[number, boolean]>([2, true])] });
    // A channel member never joined: a message of its history that member flags becomes one of
    // member's messages, and the invariant holds of it too (read, since member is not subscribed).
    const w = await world(context);
    // A message of its own, which no earlier rule has flagged: the flags are those the first flag made.
    const historic = await send(context, 'other', w.history, `${context.prefix} never joined`, worldTopic(context));
    succeeded(await updateFlags(context, [historic], 'add', 'collapsed'), `POST /messages/flags add collapsed on message ${historic} of ${w.history.name}, a channel member never joined`);
    try {
      const flags = (await flagsOf(context, [historic])).get(historic);
      if (flags !== undefined) expect(flags.includes('read'), `member flagged message ${historic} of ${w.history.name}, a channel member never joined, and it is unread: its flags are ${JSON.stringify(flags)}`);
    } finally {
      await updateFlags(context, [historic], 'remove', 'collapsed');
    }
  }),

  check('flags.messages-start-unread', async (context) => {
    const w = await world(context);
    // read_by_sender (POST /messages, Zulip's from level 236) asks that the sender's own copy start
    // read, as a non-API client's does: the sender's flag is then the spec's exception, and only
    // the recipient's is judged. Below 236 the target has no such parameter, and none is sent.
    const sent = fc.tuple(text(40), fc.boolean(), fc.option(fc.boolean(), { nil: undefined }));
    const boundary = (direct: boolean, readBySender: boolean | undefined) => fc.tuple(text(40), fc.constant(direct), fc.constant(readBySender));
    await context.property(sent, async ([body, direct, asked]) => {
      const readBySender = context.level >= 236 ? asked : undefined;
      const content = `${context.prefix} ${body}`;
      const id = direct ? await send(context, 'other', [context.probe.users.member.id], content, undefined, readBySender) : await send(context, 'other', w.subscribed, content, 'flags', readBySender);
      const memberFlags = await flagsOfOne(context, id, 'member');
      expect(!memberFlags!.includes('read'), `a new ${direct ? 'direct' : 'channel'} message${readBySender ? ' sent with read_by_sender=true' : ''} arrived read for its recipient: ${JSON.stringify(memberFlags)}`);
      if (readBySender === true) return;
      const senderFlags = await flagsOfOne(context, id, 'other');
      expect(!senderFlags!.includes('read'), `a message sent through the API arrived read for its sender: ${JSON.stringify(senderFlags)}`);
    }, { runs: context.runsSmokeAtMost(10), boundaries: [boundary(false, undefined), boundary(true, undefined), boundary(false, true), boundary(true, true)] });
  }),

  check('flags.mention-flags', async (context) => {
    const w = await world(context);
    const { users } = context.probe;
    const registered = await fetchState(context, 'admin', ['realm_user_groups']);
    const groups = (registered.realm_user_groups ?? []) as Array<{ name: string; members: number[] }>;
    const plain = (name: string) => !/[*|]/.test(name);
    const groupWith = (role: 'member' | 'other') => groups.find((g) => plain(g.name) && g.members.includes(users[role].id) && !g.members.includes(users[role === 'member' ? 'other' : 'member'].id));
    type Target = 'member' | 'other';
    // A name no user has and a group that does not exist mention no one. (What a silent mention sets is flags.silent-mentions'.)
    const forms = ['name', 'name|id', '|id', 'nobody', 'no group', ...(groupWith('member') && groupWith('other') ? ['group'] : [])];
    const mentionsNoOne = (form: string) => form === 'nobody' || form === 'no group';
    const mention = (role: Target, form: string) => {
      const user = users[role];
      switch (form) {
        case 'name': return `@**${user.fullName}**`;
        case 'name|id': return `@**${user.fullName}|${user.id}**`;
        case '|id': return `@**|${user.id}**`;
        case 'nobody': return `@**${context.prefix} nobody**`;
        case 'no group': return `@*${context.prefix} no group*`;
        default: return `@*${groupWith(role)!.name}*`;
      }
    };
    if (!plain(users.member.fullName) || !plain(users.other.fullName)) throw new Skip('a user\'s full name holds * or |, which the mention syntax cannot carry');
    const mentions = fc.array(fc.record({ who: fc.constantFrom<Target>('member', 'other'), form: fc.constantFrom(...forms) }), { maxLength: 3 });
    // The boundaries: no mention, and each form alone.
    const boundaries = [[], ...forms.map((form) => [{ who: 'member' as Target, form }])].map((list: Array<{ who: Target; form: string }>) => fc.constant(list));
    await context.property(mentions, async (list) => {
      // The first mention opens the message (the model's mentions stand after its marker).
      const content = [list.map(({ who, form }) => mention(who, form)).join(' and '), `${context.prefix} hello`].filter((part) => part !== '').join(' ');
      const id = await send(context, 'admin', w.subscribed, content);
      for (const who of ['member', 'other'] as const) {
        const flags = await flagsOfOne(context, id, who);
        const expected = list.some((m) => m.who === who && !mentionsNoOne(m.form));
        expect(flags!.includes('mentioned') === expected, `${who}'s copy of ${JSON.stringify(content)} has flags ${JSON.stringify(flags)}: mentioned should be ${expected ? 'set' : 'absent'}`);
      }
    }, { runs: context.runsSmokeAtMost(15), boundaries });
  }),

  check('flags.silent-mentions', async (context) => {
    const w = await world(context);
    const { users } = context.probe;
    if (/[*|]/.test(users.member.fullName)) throw new Skip('member\'s full name holds * or |, which the mention syntax cannot carry');
    // Each form of a silent mention: by name and ID, and by name alone; member alone, and beside a mention of other.
    const cases = [`@_**${users.member.fullName}|${users.member.id}**`, `@_**${users.member.fullName}**`].flatMap((silent) => [silent, `${silent} and @**|${users.other.id}**`]);
    const every = { boundaries: cases.map((one) => fc.constant(one)), exhaustive: true };
    await context.property(fc.constantFrom(...cases), async (mentions) => {
      const id = await send(context, 'admin', w.subscribed, `${mentions} ${context.prefix} hello`);
      const flags = await flagsOfOne(context, id, 'member');
      expect(!flags.includes('mentioned'), `member's copy of ${JSON.stringify(mentions)}, a silent mention of member, has flags ${JSON.stringify(flags)}: mentioned is set`);
    }, every);
  }),

  check('flags.wildcard-mention-flags', async (context) => {
    const w = await world(context);
    const wildcards = ['all', 'everyone', 'stream', ...(context.level >= 247 ? ['channel'] : []), 'topic'];
    let round = 0;
    // Every wildcard: the whole of what the rule can be asked (a smoke run: one of the channel's and the topic's).
    const asked = context.options.smoke ? [...context.some(wildcards.filter((wildcard) => wildcard !== 'topic')), 'topic'] : wildcards;
    const every = { boundaries: asked.map((wildcard) => fc.constant(wildcard)), exhaustive: true };
    await context.property(fc.constantFrom(...wildcards), async (wildcard) => {
      // Both take part in the topic first, so a topic wildcard applies to them on any reading.
      const topic = `wildcard ${round++}`;
      await send(context, 'member', w.subscribed, `${context.prefix} here`, topic);
      await send(context, 'other', w.subscribed, `${context.prefix} here too`, topic);
      const id = await send(context, 'admin', w.subscribed, `${context.prefix} hello @**${wildcard}**`, topic);
      const flag = wildcard === 'topic' ? 'topic_wildcard_mentioned' : 'stream_wildcard_mentioned';
      const other = wildcard === 'topic' ? 'stream_wildcard_mentioned' : 'topic_wildcard_mentioned';
      for (const who of ['member', 'other'] as const) {
        const flags = await flagsOfOne(context, id, who);
        expect(flags!.includes(flag) && flags!.includes('wildcard_mentioned') && !flags!.includes(other), `@**${wildcard}**: ${who}'s flags are ${JSON.stringify(flags)}, not ${flag} and wildcard_mentioned`);
      }
    }, every);
  }),

  check('flags.wildcard-mentioned-before-224', async (context) => {
    const w = await world(context);
    await context.property(fc.constantFrom('all', 'everyone', 'stream'), async (wildcard) => {
      const id = await send(context, 'admin', w.subscribed, `${context.prefix} hello @**${wildcard}**`);
      const flags = await flagsOfOne(context, id, 'other');
      expect(flags!.includes('wildcard_mentioned'), `@**${wildcard}** at level ${context.level}: flags ${JSON.stringify(flags)} lack wildcard_mentioned`);
      expect(!flags!.includes('stream_wildcard_mentioned') && !flags!.includes('topic_wildcard_mentioned'), `at level ${context.level} the flags ${JSON.stringify(flags)} name a wildcard flag of level 224`);
    }, context.runsSmokeAtMost(5));
  }),

  check('flags.alert-word-flag', async (context) => {
    const w = await world(context);
    const words = await alertWordsOfOther(context);
    // The word as registered: in which case else it counts is flags.alert-word-matching's.
    // The boundaries: the word after a space, in parentheses, and opening the message.
    const [first] = words;
    const boundaries = [fc.constant<[string, string]>([first!, ' ']), fc.constant<[string, string]>([first!, '(']), fc.constant<[string, string]>([first!, 'first'])];
    await context.property(fc.tuple(fc.constantFrom(...words), fc.constantFrom('', ' ', '(', '"', 'first')), async ([word, before]) => {
      const content = before === 'first' ? `${word} ${context.prefix} 1 2 3` : `${context.prefix} 1 2 ${before}${word}${before ? ')' : ''} 3`;
      const withWord = await send(context, 'admin', w.subscribed, content);
      const without = await send(context, 'admin', w.subscribed, `${context.prefix} 1 2 3`);
      const [withFlags, withoutFlags] = [await flagsOfOne(context, withWord, 'other'), await flagsOfOne(context, without, 'other')];
      expect(withFlags.includes('has_alert_word'), `a message holding the alert word as ${JSON.stringify(word)} has flags ${JSON.stringify(withFlags)}`);
      expect(!withoutFlags.includes('has_alert_word'), `a message without alert words has has_alert_word`);
    }, { runs: context.runsSmokeAtMost(10), boundaries });
  }),

  check('flags.alert-word-matching', async (context) => {
    const w = await world(context);
    const words = await alertWordsOfOther(context);
    const word = words[0]!;
    // Every case the decision speaks of: the word in capitals and capitalized (it counts), and each
    // neighbour that makes it part of a longer word (it does not): a letter, a digit or an underscore, before or after.
    const cases: ReadonlyArray<{ text: string; counts: boolean }> = [
      { text: word.toUpperCase(), counts: true }, { text: word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(), counts: true },
      ...[['x', ''], ['', 'x'], ['7', ''], ['', '7'], ['_', ''], ['', '_']].map(([before, after]) => ({ text: `${before}${word}${after}`, counts: false })),
    ].filter(({ text, counts }) => !counts || text !== word);
    const every = { boundaries: cases.map((one) => fc.constant(one)), exhaustive: true };
    await context.property(fc.constantFrom(...cases), async ({ text, counts }) => {
      const id = await send(context, 'admin', w.subscribed, `${context.prefix} 1 2 ${text} 3`);
      const flags = await flagsOfOne(context, id, 'other');
      expect(flags.includes('has_alert_word') === counts, `the alert word ${JSON.stringify(word)} as ${JSON.stringify(text)}: other's flags ${JSON.stringify(flags)} ${counts ? 'lack' : 'hold'} has_alert_word`);
    }, every);
  }),

  check('flags.historical-flag', async (context) => {
    const w = await world(context);
    // The boundary, first in every run: a channel member joins after a message came and leaves
    // again. Leaving marks read what member received of it; the message member never received is
    // still not member's, and carries historical once member stars it.
    const left = await createChannel(context, 'flags-left', ['other']);
    const before = await send(context, 'other', left, `${context.prefix} before member came`, worldTopic(context));
    succeeded(await context.call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: left.name }] }), `POST /users/me/subscriptions ${left.name}`);
    succeeded(await context.call('member', 'DELETE', '/users/me/subscriptions', { subscriptions: [left.name] }), `DELETE /users/me/subscriptions ${left.name}`);
    succeeded(await updateFlags(context, [before], 'add', 'starred'), `POST /messages/flags add starred on message ${before}`);
    const leftFlags = await flagsOfOne(context, before);
    expect(leftFlags!.includes('historical') && leftFlags!.includes('starred'), `member joined ${left.name} after message ${before} came and left it again; starred, the message has flags ${JSON.stringify(leftFlags)}`);
    await context.property(text(20), async (body) => {
      const id = await send(context, 'other', w.history, `${context.prefix} ${body}`);
      succeeded(await updateFlags(context, [id], 'add', 'starred'), 'POST /messages/flags add starred');
      const flags = await flagsOfOne(context, id);
      expect(flags!.includes('historical') && flags!.includes('starred'), `a starred message from a channel's history member never received has flags ${JSON.stringify(flags)}`);
    }, context.runsSmokeAtMost(10));
  }),

  check('flags.model-sequence', async (context) => {
    const w = await world(context);
    // The boundaries: on every message, each flag removed while the others are set, and each
    // added while the others are not.
    const all = visible(w);
    const step = (op: Op, flag: Changeable) => new FlagCommand(all, op, flag);
    const whileSet = [...CHANGEABLE.map((flag) => step('add', flag)), ...CHANGEABLE.flatMap((flag) => [step('remove', flag), step('add', flag)])];
    const whileUnset = [...CHANGEABLE.map((flag) => step('remove', flag)), ...CHANGEABLE.flatMap((flag) => [step('add', flag), step('remove', flag)])];
    // A smoke run keeps its budget: every flag set, then each removed, the last set first, on the
    // messages member received (the history channel's are flags.historical-flag's and
    // flags.remove-read-skips-unsubscribed's).
    const received = all.filter((id) => !w.messages.history.includes(id));
    const short = [...CHANGEABLE.map((flag) => new FlagCommand(received, 'add', flag)), ...[...CHANGEABLE].reverse().map((flag) => new FlagCommand(received, 'remove', flag))];
    const boundaries = context.options.smoke ? [fc.constant(short)] : [fc.constant(whileSet), fc.constant(whileUnset)];
    await context.property(fc.commands([stepArbitrary(w).map((one) => new FlagCommand(one.ids, one.op, one.flag))], { maxCommands: 8 }), async (commands) => {
      const watched = context.options.smoke ? received : all;
      const model: FlagModel = { world: w, watched, flags: await flagsOf(context, watched) };
      await modelRun(context, model, commands, async (state) => void (state.flags = await flagsOf(context, watched)));
    }, { runs: context.runsSmokeAtMost(15), boundaries: boundaries as never });
  }),
];

interface FlagModel {
  readonly world: World;
  /** The messages whose flags the model follows, read after each step. */
  readonly watched: readonly number[];
  flags: Map<number, string[]>;
}

/** One flags request, its effect predicted by the spec's transitions and checked with the invariant. */
class FlagCommand implements fc.AsyncCommand<FlagModel, Context> {
  constructor(readonly ids: number[], readonly op: Op, readonly flag: Changeable) {}
  check = () => true;
  async run(model: FlagModel, context: Context) {
    const w = model.world;
    succeeded(await updateFlags(context, this.ids, this.op, this.flag), `POST /messages/flags ${this}`);
    for (const id of this.ids) {
      const exempt = this.flag === 'read' && this.op === 'remove' && w.channelOf.has(id) && !subscribedChannels(w).has(w.channelOf.get(id)!);
      // A message not observed yet is not in the model: once read, it is.
      if (exempt || !model.flags.has(id)) continue;
      const flags = new Set(model.flags.get(id));
      if (this.op === 'add') flags.add(this.flag);
      else flags.delete(this.flag);
      model.flags.set(id, [...flags]);
    }
    const actual = await flagsOf(context, model.watched);
    judged([...model.flags.keys()], `after ${this}`);
    for (const [id, flags] of model.flags) {
      if (!actual.has(id)) continue;
      for (const flag of CHANGEABLE) {
        const expected = flags.includes(flag);
        expect(actual.get(id)!.includes(flag) === expected, `after ${this}: message ${id} should ${expected ? 'have' : 'lack'} ${flag}; its flags are ${JSON.stringify(actual.get(id))}`);
      }
      const channel = w.channelOf.get(id);
      if (channel !== undefined && !actual.get(id)!.includes('read')) {
        expect(subscribedChannels(w).has(channel), `after ${this}: message ${id} is unread in channel ${channel}, which member is not subscribed to`);
      }
    }
    model.flags = actual;
  }
  toString = () => `${this.op} ${this.flag} on ${JSON.stringify(this.ids)}`;
}

// ---- Checks of the decisions ---------------------------------------------------------------

const decisionChecks: Check[] = [
  check('flags.error-texts', async (context) => {
    const w = await world(context);
    const [id] = visible(w);
    const cases: Array<[unknown, unknown, unknown, string, string]> = [
      [undefined, 'add', 'read', "Missing 'messages' argument", 'REQUEST_VARIABLE_MISSING'],
      [[id], undefined, 'read', "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING'],
      [[id], undefined, undefined, "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING'],
      [[id], 'add', undefined, "Missing 'flag' argument", 'REQUEST_VARIABLE_MISSING'],
      [[id], 'bogus', 'nonsense', "Invalid flag: 'nonsense'", 'BAD_REQUEST'],
      [[id], 'bogus', 'mentioned', "Flag not editable: 'mentioned'", 'BAD_REQUEST'],
      [[id], 'bogus', 'starred', "Invalid message flag operation: 'bogus'", 'BAD_REQUEST'],
    ];
    // Every flag of the table at the target's level that cannot be changed is "not editable";
    // the wildcard flags of level 224, below it, are not flags at all, and from it Zulip stores
    // the channel wildcard under its new name: wildcard_mentioned is then no flag either.
    const unknown = context.level < 224 ? ['stream_wildcard_mentioned', 'topic_wildcard_mentioned'] : ['wildcard_mentioned'];
    for (const flag of flagTable(context.level).filter((name) => !(CHANGEABLE as readonly string[]).includes(name) && !unknown.includes(name))) cases.push([[id], 'add', flag, `Flag not editable: '${flag}'`, 'BAD_REQUEST']);
    for (const flag of unknown) cases.push([[id], 'add', flag, `Invalid flag: '${flag}'`, 'BAD_REQUEST']);
    for (const [messages, op, flag, msg, code] of cases) {
      refusedExactly(await updateFlags(context, messages, op, flag), `POST /messages/flags ${JSON.stringify({ messages, op, flag })}`, msg, 400, code);
    }
  }),

  check('flags.inaccessible-messages', async (context) => {
    const w = await world(context);
    // remove read skips a channel message of a channel member is not in before access is
    // considered (and reports the channel as ignored), so it is tried with the others only.
    const { hidden, othersDirect } = await unseenMessages(context);
    const unseen = [hidden, othersDirect, 2_000_000_000];
    const refusing = fc.constantFrom<[Op, Changeable]>(['add', 'starred'], ['add', 'collapsed'], ['remove', 'read']);
    const harmless = fc.constantFrom<[Op, Changeable]>(['add', 'read'], ['remove', 'starred'], ['remove', 'collapsed']);
    const cases = fc.tuple(fc.constantFrom(...unseen), fc.constantFrom(...w.messages.subscribed), refusing, harmless).filter(([message, , [op]]) => !(op === 'remove' && message === hidden));
    await context.property(cases, async ([hidden, seen, [op, flag], [okOp, okFlag]]) => {
      await refusedChangingNothing(context, w, async () => {
        const response = await updateFlags(context, [seen, hidden], op, flag);
        refusedExactly(response, `${op} ${flag} with message ${hidden}`, 'Invalid message(s)');
        return response;
      }, `${op} ${flag} with message ${hidden}`);
      succeeded(await updateFlags(context, [hidden], okOp, okFlag), `${okOp} ${okFlag} with message ${hidden}`);
    }, context.runsSmokeAtMost(10));
  }),

  check('flags.event-shape', async (context) => {
    const w = await world(context);
    await context.property(fc.subarray(w.messages.direct.concat(w.messages.subscribed), { minLength: 1 }), async (ids) => {
      succeeded(await updateFlags(context, ids, 'add', 'read'), 'POST /messages/flags add read');
      const queue = await registerQueue(context, 'member', ['update_message_flags']);
      try {
        const { changed } = await flagStep(context, ids, 'remove', 'read');
        // The event of this change: another client of member's (another run) changes flags meanwhile.
        const mine = (event: any) => Array.isArray(event?.messages) && event.messages.some((id: unknown) => ids.includes(id as number));
        const [event] = (await pollEvents(context, 'member', queue, (seen) => seen.some(mine))).filter(mine);
        expect(event?.type === 'update_message_flags' && event.op === 'remove' && event.operation === 'remove' && event.flag === 'read' && event.all === false,
          `the event is ${JSON.stringify(event)}`);
        expect(JSON.stringify([...event.messages].sort()) === JSON.stringify([...changed].sort()), `the event lists ${JSON.stringify(event.messages)}, the changed messages are ${JSON.stringify(changed)}`);
        expect(JSON.stringify(Object.keys(event.message_details ?? {}).map(Number).sort()) === JSON.stringify([...changed].sort()), `message_details is ${JSON.stringify(event.message_details)}`);
        // Each detail as Zulip describes it: a channel message's channel and topic, a direct
        // message's other participants, and mentioned only where the message mentions member.
        const flags = await flagsOf(context, changed);
        for (const changedId of observedIn(changed, flags)) {
          const message = await fetchMessage(context, 'member', changedId);
          const detail = event.message_details[changedId];
          const others = message.type === 'private' ? (message.display_recipient as Array<{ id: number }>).map((user) => user.id).filter((user) => user !== context.probe.users.member.id).sort((a, b) => a - b) : [];
          const right = message.type === 'stream'
            // The world's channels are not muted.
            ? detail?.type === 'stream' && detail.stream_id === message.stream_id && detail.topic === message.subject && detail.user_ids === undefined && detail.unmuted_stream_msg === true
            : detail?.type === 'private' && JSON.stringify([...(detail.user_ids ?? [])].sort((a: number, b: number) => a - b)) === JSON.stringify(others) && detail.stream_id === undefined;
          expect(right && (detail.mentioned === true) === flags.get(changedId)!.includes('mentioned'), `message_details of message ${changedId} is ${JSON.stringify(detail)}; the message is ${JSON.stringify({ type: message.type, stream_id: message.stream_id, subject: message.subject, display_recipient: message.display_recipient, flags: flags.get(changedId) })}`);
        }
      } finally {
        await queue.remove();
      }
    }, context.runsSmokeAtMost(10));
  }, ['events']),
];

export const FLAGS_CHECKS: readonly Check[] = [...mustChecks, ...decisionChecks];

export const FLAGS_OPERATIONS: readonly SpecOperation[] = [
  {
    name: 'POST /messages/flags', since: 1, ownData: 'copies', repeatable: true,
    async prepare(context) {
      const id = await context.memo('flags-general', () => send(context, 'other', [context.probe.users.member.id], `${context.prefix} general`));
      return {
        method: 'POST', path: '/messages/flags',
        valid: { messages: [id], op: 'add', flag: 'starred' },
        invalid: { path: '/messages/flags', params: { messages: [id], op: 'toggle', flag: 'starred' } },
        observe: async () => JSON.stringify([...await flagsOfOne(context, id)].sort()),
        undo: async () => void (await updateFlags(context, [id], 'remove', 'starred')),
        others: {
          // other sent the message: its own copy is there to watch; admin has none, and must get none.
          observe: async (as) => JSON.stringify([...((await flagsOf(context, [id], as)).get(id) ?? ['(no copy)'])].sort()),
          tells: (event) => namesId(event, id, /^messages$|^message_ids?$/) || (event?.message_details !== null && typeof event?.message_details === 'object' && String(id) in event.message_details),
        },
      };
    },
  },
];
