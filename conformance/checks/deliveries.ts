// Deliveries: scheduled messages and reminders that the target's worker sends when they come
// due. With the reference clock (CONTRACT) the suite moves time and the worker runs at once. On
// a server without it, each delivery is scheduled --delivery-wait seconds ahead; the cases of a
// delivery property set up, then wait while the run goes on with other rules, and all of them
// are looked at after one shared wait, so that the run pays the wait once.

import fc from 'fast-check';
import { TransientError, curlLine, type Exchange } from '../run/client.js';
import { Skip, Violation, labelsOf, readable, succeeded, type Context, type PropertyCases } from '../run/harness.js';
import { advanceClock, readConversation, targetNow } from './world.js';

export interface Due {
  /** When to schedule the delivery for, in the target's unix seconds. */
  readonly at: number;
  /**
   * Resolves once the target's worker has had its time to deliver what was due at `at`; throws
   * a Skip when, on real time, it delivered nothing within the wait.
   */
  passed(): Promise<void>;
  /**
   * With the reference clock, moves it to a few seconds before `at` (the worker running as it
   * would) and resolves with true: what is due at `at` must not have gone yet. On real time it
   * cannot be timed so, and resolves with false.
   */
  almost(): Promise<boolean>;
  /**
   * After `passed`, the latest timestamp the delivery may carry: its time and a minute, where the
   * reference clock carried the run across it alone. Null on real time, where the run's own waits
   * make it late, and where the clock moved more than the run moved it (another run may have
   * stopped the worker meanwhile: what it then sends late is not this run's doing).
   */
  latest(): number | null;
}

/**
 * "UNIX seconds in UTC when the reminder is sent" (spec, Endpoints 7), and the clock's advance
 * delivers "as if the delivery worker had run on time" (CONTRACT): a worker on time sends what came
 * due within a minute of its time (Zulip's runs each minute, on the minute), so its message is
 * stamped no later.
 */
export const ON_TIME_SECONDS = 60;

/**
 * The messages a delivery sent that are stamped over a minute after its time, where the reference
 * clock carried the run across it alone (`latest`); none where that cannot be told.
 */
export function stampedLate<T extends { timestamp: unknown }>(delivery: Due, sent: readonly T[]): T[] {
  const latest = delivery.latest();
  return latest === null ? [] : sent.filter((message) => !(Number(message.timestamp) <= latest));
}

/**
 * Moves the clock by `seconds` and answers whether only this advance moved it since the run last
 * read it: no more than by `seconds` and the seconds that passed meanwhile on the machine. `from`
 * is the clock before the advance, as the run last read it and moved on since.
 */
export async function advancedAlone(context: Context, seconds: number): Promise<{ from: number; alone: boolean }> {
  const [from, started] = [context.approximateNow(), Date.now()];
  const now = await advanceClock(context, seconds);
  // Two seconds for the whole seconds both readings are rounded down to.
  return { from, alone: now - from <= seconds + 2 + Math.ceil((Date.now() - started) / 1000) };
}

/** A time a delivery of the case may be scheduled for, and the way to wait until it has passed. */
export async function due(context: Context): Promise<Due> {
  const state = context.deliveryState;
  if (state.mode === 'clock') {
    const now = await advanceClock(context, 0);
    // A minute ahead, at ten seconds into a minute or later: what a case schedules a second or two
    // before it comes due in the same minute, whatever second the run happens to start at (a
    // worker that goes minute by minute then sends it in one order, run after run).
    const at = now + 60 + Math.max(0, 10 - ((now + 60) % 60));
    let latest: number | null = null;
    return {
      at,
      passed: async () => {
        const { from, alone } = await advancedAlone(context, 120);
        latest = alone && from < at ? at + ON_TIME_SECONDS : null;
      },
      latest: () => latest,
      almost: async () => {
        const read = await advanceClock(context, 0);
        if (read < at - 3) await advanceClock(context, at - 3 - read);
        return true;
      },
    };
  }
  const park = state.park;
  if (state.mode !== 'real-time' || park === null) throw new Error('harness: a delivery asked for outside a delivery property, or against a target where deliveries cannot be seen');
  const at = (await targetNow(context)) + state.waitSeconds;
  state.latestDue = Math.max(state.latestDue ?? at, at);
  state.settle ??= () => settle(context);
  // What comes due is sent to the profile's users: the end of the run puts their flags back.
  context.noteMessage();
  return { at, passed: park, almost: async () => false, latest: () => null };
}

/**
 * A time within the run's own delivery wait for something the target cannot delete, so that it
 * is delivered before the run ends: on real time the end of the run waits for it as for any
 * delivery. Null where the run cannot wait for deliveries (it then stays, and is named).
 */
export async function dueWithinRun(context: Context): Promise<number | null> {
  const state = context.deliveryState;
  if (state.mode !== 'real-time') return null;
  const at = (await targetNow(context)) + state.waitSeconds;
  state.latestDue = Math.max(state.latestDue ?? at, at);
  state.settle ??= () => settle(context);
  context.noteMessage();
  return at;
}

/**
 * How many of a user's newest messages to read to find a delivery: on real time the rest of the
 * run's messages arrive between the delivery and its observation.
 */
export function deliveryWindow(context: Context): number {
  return context.deliveryState.mode === 'real-time' ? 1000 : 50;
}

interface Parked<T> {
  readonly value: T;
  readonly done: Promise<unknown>;
  readonly release: (reason: string | null) => void;
  readonly setUp: Exchange[];
}

/**
 * A property whose cases wait for deliveries (they call `due`). With the reference clock it is
 * an ordinary property. On real time it cannot shrink (each try would cost the wait): every
 * case sets up until it waits, the rule steps aside for the rest of the run, and when its turn
 * comes after the shared wait the cases go on, one after another. A failing case is shown as
 * it was generated, with the requests of its set-up and of its observation.
 */
export async function deliveryProperty<T>(context: Context, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs: number | PropertyCases<T> = context.options.runs): Promise<void> {
  const state = context.deliveryState;
  if (state.mode !== 'real-time') return context.property(arbitrary, predicate, runs, labelsOf(predicate));
  const { boundaries, random } = context.takeCases(runs);
  const values = [
    ...boundaries.map((boundary, index) => fc.sample(boundary, { seed: context.options.seed + index, numRuns: 1 })[0]!),
    ...(random > 0 ? fc.sample(arbitrary, { seed: context.options.seed, numRuns: random }) : []),
  ];
  const parked: Array<Parked<T>> = [];
  let early: { value: T; error: unknown; setUp: Exchange[] } | null = null;
  for (const value of values) {
    let waiting!: () => void;
    const parking = new Promise<void>((resolve) => (waiting = resolve));
    let release!: (reason: string | null) => void;
    const turn = new Promise<string | null>((resolve) => (release = resolve));
    state.park = () => {
      waiting();
      return turn.then((reason) => {
        if (reason !== null) throw new Skip(reason);
      });
    };
    context.client.takeHistory();
    context.casesRun++;
    const done = predicate(value).then(() => null, (error: unknown) => error ?? new Error('a case failed without an error'));
    const waits = await Promise.race([parking.then(() => true), done.then(() => false)]);
    state.park = null;
    const setUp = context.client.takeHistory();
    if (waits) {
      parked.push({ value, done, release, setUp });
      continue;
    }
    const error = await done;
    // A transient fault makes the case unknowable, not the rule: it is dropped.
    if (error instanceof TransientError) context.transientCost.dropped++;
    else if (error !== null) {
      early = { value, error, setUp };
      break;
    }
  }
  const reason = early !== null ? 'an earlier case of the rule ended it' : parked.length === 0 ? null : state.defer ? await state.defer() : await state.settle!();
  const labels = labelsOf(predicate);
  const counterexample = (value: T, exchanges: Exchange[]) => ({
    input: readable(value, labels).replaceAll(context.prefix, '{prefix}'), seed: context.options.seed, path: null, requests: exchanges.map(curlLine), exchanges,
  });
  let failure: Violation | null = early?.error instanceof Violation ? new Violation(early.error.message, counterexample(early.value, early.setUp)) : null;
  let problem: unknown = early !== null && failure === null ? early.error : null;
  let skip: Skip | null = null;
  let judged = 0;
  for (const { value, done, release, setUp } of parked) {
    context.client.takeHistory();
    release(reason);
    const error = await done;
    const observed = context.client.takeHistory();
    if (error instanceof Violation) failure ??= new Violation(error.message, counterexample(value, [...setUp, ...observed]));
    else if (error instanceof Skip) skip ??= error;
    else if (error instanceof TransientError) context.transientCost.dropped++;
    else if (error !== null) problem ??= error;
    else judged++;
  }
  if (failure) throw failure;
  if (problem === null && skip === null && judged === 0 && context.transientCost.dropped > 0) {
    throw new TransientError(`all ${context.transientCost.dropped} generated cases met a transient fault and were dropped: nothing left to judge the rule by`);
  }
  if (problem !== null) throw problem;
  if (skip) throw skip;
}

/**
 * Waits until the target's worker has delivered what the run scheduled: a direct message of
 * member's to itself, scheduled for the latest time the run's deliveries were due, shows that
 * the worker has run past it. Resolves with null when it arrived, else with why deliveries
 * could not be checked.
 */
async function settle(context: Context): Promise<string | null> {
  const state = context.deliveryState;
  const latest = state.latestDue;
  if (latest === null) return null;
  if (state.settled && state.settled.upTo >= latest) return state.settled.outcome;
  const outcome = await sentinelArrives(context, latest).catch((error: Error) => `the wait for the run's deliveries could not be made: ${error.message}`);
  state.settled = { upTo: latest, outcome };
  return outcome;
}

async function sentinelArrives(context: Context, latest: number): Promise<string | null> {
  const { waitSeconds } = context.deliveryState;
  const me = context.probe.users.member.id;
  const token = context.token('wait');
  const now = await targetNow(context);
  // Two seconds on at least: `now` is an estimate, good to a second.
  const at = Math.max(latest, now + 2);
  context.noteMessage();
  const body = succeeded(await context.call('member', 'POST', '/scheduled_messages', { type: 'private', to: [me], content: `${token} the run's deliveries are due`, scheduled_delivery_timestamp: at }), 'POST /scheduled_messages (a message that shows when the worker has run)');
  const id: number = body.scheduled_message_id;
  const poll = Math.min(5000, Math.max(250, waitSeconds * 50));
  const deadline = Date.now() + (at - now + waitSeconds) * 1000;
  await sleep((at - now) * 1000);
  for (;;) {
    // Never another profile user's message with the same text; a bot's may be the worker's (who sends is scheduled.delivery's to judge).
    const others = [context.probe.users.other.id, context.probe.users.admin.id];
    const arrived = (await readConversation(context, 'member', { dm: [me] }, 20)).find((message) => !others.includes(message.sender_id) && String(message.content).includes(token));
    if (arrived) {
      context.noteMessage(arrived.id);
      return null;
    }
    if (Date.now() >= deadline) break;
    await sleep(poll);
  }
  await context.cleanup.request(`delete scheduled message ${id}`, () => context.call('member', 'DELETE', `/scheduled_messages/${id}`));
  return `the target delivered no scheduled message within ${waitSeconds} s of its time (--delivery-wait ${waitSeconds}): its delivery worker is slower, or does not run, so the run's deliveries were not checked`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
