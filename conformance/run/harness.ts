// Checks and their outcomes. A check tests one rule. It passes when it returns, fails when it
// throws a Violation (the server broke the rule), skips when it throws a Skip, and anything
// else it throws (a network problem, a bug of ours) is an error, never the server's failure.

import fc from 'fast-check';
import { ruleAppliesAt, ruleById, type Rule, type RuleId } from '../rules.js';
import { Client, HarnessError, ServerError, TransientError, curlLine, type Caller, type Exchange, type Response } from './client.js';
import type { Cleanup } from './cleanup.js';
import { putBackNow, type PutBack } from './put-back.js';
import type { Probe } from './probe.js';
import { mismatch, type Shape } from './shape.js';
import { putBackPersonalFlags, type PersonalFlags } from './personal-flags.js';
import type { Witness } from './witness.js';
import { specAnchor } from '../spec.js';

export type Status = 'pass' | 'fail' | 'skip' | 'error';

export interface Counterexample {
  /** The shrunk input, as fast-check prints it. */
  readonly input: string | null;
  readonly seed: number;
  readonly path: string | null;
  readonly requests: string[];
  readonly exchanges: Exchange[];
  /** The command that runs the rule again with this case (the JSON report carries it). */
  readonly replay?: string;
  /** The other rule whose check sent the request that shows it, which a replay runs too. */
  readonly alongside?: string;
  /** Where exchanges are kept (the annotated spec): what the check did before the property's cases. */
  readonly prelude?: Exchange[];
}

export interface RuleResult {
  readonly id: RuleId;
  readonly severity: Rule['severity'];
  readonly section: string;
  readonly title: string;
  /** Where in docs/spec.md the rule comes from. */
  readonly spec: string | null;
  status: Status;
  message: string;
  counterexample: Counterexample | null;
  duration_ms: number;
  /** HTTP requests the check made. */
  requests: number;
  /** The cases its properties took: every run's boundary cases, and the random ones (--runs). */
  cases?: { boundary: number; random: number };
  expected?: boolean;
  /** Why a skipped rule was not run: outside the target's levels, a decision not asked for, or the check's own reason. */
  skipped?: 'level' | 'decision' | 'capability' | 'configuration' | 'check';
  /** Passed only when rerun (--retries). */
  flaky?: boolean;
  /** Ended in error because the server answered 5xx. */
  serverError?: boolean;
  /** The last exchanges of the check, when asked for. */
  exchanges?: Exchange[];
  /** Generated cases left unjudged because a transient fault hid their outcome (others were drawn instead). */
  dropped?: number;
  /** Times a model-based sequence read its model again from the server after a transient fault. */
  resynced?: number;
  /** Ended in error because a transient fault (a reset, a gateway's answer, a timeout) hid what a request did: the check, one case, is run again. */
  transient?: boolean;
  /** Times the whole check was run again after a transient fault hid a request's outcome (never a verdict of the server's). */
  rerunAfterTransient?: number;
  /** In a differential run: a decision run only because it governs where the two servers' exchanges differ (not in the selection). */
  consulted?: boolean;
  /** Requests of the check that met a transient fault (each retried, or its case dropped). */
  faultsMet?: number;
  /** Other requests of the check's cases that a transient fault made unknowable (dropped cases, models read again). */
  lost?: number;
  /** Changes to the shared state that another client made while the check ran, which turned its failure into an error. */
  interference?: string[];
  /** Changes to settings the check wrote, at values it did not send: the server's, or another client's; the rule is run again. */
  unclear?: string[];
  /** Where exchanges are kept and a path replayed: the case the path names, and what the check did before it. */
  replayed?: { readonly prelude: Exchange[]; readonly exchanges: Exchange[] };
}

export class Violation extends Error {
  constructor(
    message: string,
    readonly counterexample: Counterexample | null = null,
  ) {
    super(message);
  }
}

export class Skip extends Error {}

/** The target's configuration leaves nothing for the rule to observe (as emoji.upload-access where every user may upload). */
export class NotConfigured extends Skip {}

/**
 * A read the target does not answer, through an endpoint outside the spec (GET /messages on a
 * server that keeps only what a user received): the observation is missing, and the rule skips
 * with the reason where it has nothing else to judge by. Never the server's failure.
 */
export class Unobservable extends Skip {}

/**
 * What a check needs of the target. `deliveries`: scheduled messages and reminders can be seen
 * delivered (by the reference clock, or on real time); `reference-clock`: time can be moved with
 * the worker down, so that a delivery is late.
 */
export type Capability = 'events' | 'deliveries' | 'reference-clock' | 'channel' | 'create-users' | 'reminder-listing' | 'reminder-deletion';

/** How the run sees deliveries (deliveries.ts): by moving the reference clock, on real time, or not at all. */
export interface DeliveryState {
  readonly mode: 'clock' | 'real-time' | null;
  /** On real time: how far ahead deliveries are scheduled, and how long the worker then has. */
  readonly waitSeconds: number;
  /** The latest time a delivery of the run is due, on real time. */
  latestDue: number | null;
  /** Set while a case of a delivery property sets up: makes it wait for its turn after the shared wait. */
  park: (() => Promise<void>) | null;
  /** Set while a check runs: steps the check aside until its turn after the shared wait; resolves with why deliveries could not be seen, or null. */
  defer: (() => Promise<string | null>) | null;
  /** Waits until what is due has been delivered (set once the run schedules a delivery). */
  settle: (() => Promise<string | null>) | null;
  settled: { readonly upTo: number; readonly outcome: string | null } | null;
}

/**
 * State that every run against the target shares, beyond what a run creates under its prefix: a
 * check that changes or reads it runs only while the run holds the server's lease (lease.ts).
 */
export type Shared = 'organization defaults' | 'profile fields' | 'profile users\' settings' | 'typing among the profile users';

export interface Check {
  readonly rule: RuleId;
  readonly needs: readonly Capability[];
  /** What of the shared state the check changes or reads; none: it runs at once, without the lease. */
  readonly shares: readonly Shared[];
  /**
   * In a smoke run, the check is begun only where the budget keeps room for every other must rule
   * not yet begun as well: whenever the lease lets it run, it never takes another rule's place.
   */
  readonly yieldsInSmoke?: boolean;
  /**
   * In a smoke run, the rules whose boundary cases this check's smoke form holds: where both are in
   * the run, theirs is this check's verdict, and their own checks run only where it did not pass.
   */
  readonly holdsInSmoke?: (context: Context) => readonly RuleId[];
  /** The rules a failure of this check proves broken (each a prediction came from alone): in a smoke run they fail with it. */
  readonly namedBy?: (message: string) => readonly string[];
  run(context: Context): Promise<void>;
}

export function check(rule: RuleId, run: (context: Context) => Promise<void>, needs: readonly Capability[] = [], shares: readonly Shared[] = []): Check {
  if (!ruleById(rule)) throw new Error(`check for unknown rule ${rule}`);
  return { rule, needs, shares, run };
}

/** The checks, each marked as changing or reading this shared state too. */
export function sharing(shares: readonly Shared[], checks: readonly Check[]): Check[] {
  return checks.map((each) => ({ ...each, shares: [...new Set([...each.shares, ...shares])] }));
}

export interface RunOptions {
  readonly seed: number;
  readonly runs: number;
  readonly replayPath: string | null;
  /** Also check decisions: what Zulip does where the spec is silent. */
  readonly decisions: boolean;
  /** How long to wait for an event before deciding it did not come. */
  readonly eventWaitMs: number;
  /** A smoke run: every rule, with as few requests as still check it. */
  readonly smoke?: boolean;
  /** Keep each rule's last exchanges in its result, passing or not (--explain shows them). */
  readonly keepExchanges?: boolean;
  /**
   * What a check would send at once goes one request after another, in the order of its
   * sequences: two runs compared step by step (--compare) then make their objects in one order,
   * and number and list them alike. Linearizability is checked in every other run.
   */
  readonly oneAtATime?: boolean;
  /** The random cases alone, without the properties' boundaries: a failure then shrinks to its smallest case (the annotated spec's examples). */
  readonly randomOnly?: boolean;
  /** Against a target without the reference clock: deliveries are scheduled this many seconds ahead (--delivery-wait). */
  readonly deliveryWait?: number;
}

/** Seconds ahead a delivery is scheduled on real time: Zulip's worker sends what is due within about a minute. */
export const DEFAULT_DELIVERY_WAIT = 90;

/** Random cases per property when --runs is not given, besides each property's boundaries. */
export const DEFAULT_RUNS = 15;

export class Context {
  private readonly memos = new Map<string, Promise<unknown>>();
  readonly deliveryState: DeliveryState;
  /** Watches the shared state while the run holds the lease, so that another client's change is named (witness.ts). */
  witness: Witness | null = null;

  constructor(
    readonly client: Client,
    readonly probe: Probe,
    readonly options: RunOptions,
    readonly prefix: string,
    readonly cleanup: Cleanup,
  ) {
    const mode = !probe.missing['reference-clock'] ? 'clock' : !probe.missing.deliveries ? 'real-time' : null;
    this.deliveryState = { mode, waitSeconds: options.deliveryWait ?? DEFAULT_DELIVERY_WAIT, latestDue: null, park: null, defer: null, settle: null, settled: null };
  }

  private readonly serials = new Map<string, number>();

  /** The next number of a kind of name the run makes: the same run makes the same names, whatever ran before it in the process. */
  serial(kind: string): number {
    const next = this.serials.get(kind) ?? 0;
    this.serials.set(kind, next + 1);
    return next;
  }

  /**
   * A token that no other text of the run contains, to find what one case made by its text: the
   * run's prefix, a kind, a number and a full stop, so that no token is the beginning of another
   * (`…-time3.` is not in `…-time30.`) and no kind's is another's (`…-edited3.`, `…-time3.`).
   */
  token(kind: string): string {
    return `${this.prefix}-${kind}${this.serial(`token ${kind}`)}.`;
  }

  get level(): number {
    return this.probe.featureLevel;
  }

  /** The target's API time minus this machine's, in seconds, as last read (world.ts: serverStamp); null before. */
  timeOffset: number | null = null;

  /** The target's now as last read, moved on by this machine's clock; this machine's time before any reading. */
  approximateNow(): number {
    return Math.floor(Date.now() / 1000 + (this.timeOffset ?? 0));
  }

  /** Of the check that runs: cases dropped, and models read again, after transient faults. */
  transientCost = { dropped: 0, resynced: 0 };

  /**
   * Of the whole run: the requests that went to cases a transient fault made unknowable (dropped
   * cases, models read again, checks run again), beside the faulted requests themselves
   * (client.transients). A smoke run's budget is the run's own requests, not the network's.
   */
  lostToFaults = 0;
  /** Rules a smoke form that holds them could not hold in this run (a step it had to leave out), with the reason: they run their own checks. */
  readonly heldBack = new Map<RuleId, string>();

  /**
   * One case outside a property (its own set-up, requests and observation): where a transient
   * fault hides what a request of it did, the case is dropped and made again from its set-up, as
   * a property draws another, up to DROPPABLE(3) times; then the fault ends the check.
   */
  async oneCase<T>(run: () => Promise<T>): Promise<T> {
    for (let dropped = 0; ; dropped++) {
      const counted = this.caseCount();
      try {
        return await run();
      } catch (error) {
        if (!(error instanceof TransientError) || dropped >= DROPPABLE(3)) throw error;
        counted.lose();
        this.transientCost.dropped++;
      }
    }
  }

  /** Counts from here the requests of a case, then, if a transient fault makes it unknowable, books them as lost. */
  caseCount(): { lose(): void } {
    const [count, faults] = [this.client.count, this.client.transients];
    return { lose: () => void (this.lostToFaults += this.client.count - count - (this.client.transients - faults)) };
  }

  /** Of the check that runs: the cases its properties took, boundaries and random ones. */
  casesTaken = { boundary: 0, random: 0 };

  /** Of the check that runs: the cases its properties ran (with --replay, those its path named). */
  casesRun = 0;

  /** Of the check that runs: its properties begun so far, which names each in a replay path. */
  propertiesRun = 0;

  /** Of the check that runs, where exchanges are kept: the case a replayed path named. */
  replayed: RuleResult['replayed'] = undefined;

  /**
   * The random cases of a property: --runs, so that --runs raises the power of every property;
   * a smoke run, which keeps its budget of requests, takes at most `most`.
   */
  runsSmokeAtMost(most: number): number {
    return this.options.smoke ? Math.min(this.options.runs, most) : this.options.runs;
  }

  /** All the items, or in a smoke run `count` of them (others for another seed). */
  some<T>(items: readonly T[], count = 1): T[] {
    if (!this.options.smoke || items.length <= count) return [...items];
    const start = this.options.seed % items.length;
    return Array.from({ length: count }, (_, index) => items[(start + index) % items.length]!);
  }

  /** The messages the run made (sent, or delivered for it), whose personal flags it puts back at the end. */
  private runMessages: Set<number> | null = null;

  /**
   * Notes a message the run made. At the end of the run the users of the profile find it as a
   * new message leaves them: read, not starred, not collapsed (the API cannot delete it).
   */
  noteMessage(id?: number): void {
    const what = `messages, sent or delivered by the run, or sent by the server because of it (the API deletes no message: each carries ${this.prefix}, is in a channel of the run's, or came from a bot after message ${this.probe.startMessageId ?? 'the run began'}; the profile users find them read, not starred, not collapsed)`;
    if (this.runMessages === null) {
      this.runMessages = new Set();
      const flags: PersonalFlags = { prefix: this.prefix, startMessageId: this.probe.startMessageId, profile: Object.values(this.probe.users).map((user) => user.id) };
      // Journaled, so that --undo puts them back after a run killed outright. Every message of the
      // run's that the profile users can read is counted there, the server's own notices among them.
      this.cleanup.atEnd('put back the personal flags on the run\'s messages', async () => {
        const found = await putBackPersonalFlags(this.client, flags, this.runMessages!);
        this.cleanup.leftBehind(what, new Set([...this.runMessages!, ...found]).size);
      }, { personalFlags: flags });
    }
    if (id === undefined || this.runMessages.has(id)) return;
    this.runMessages.add(id);
    // Counted as noted until the end of the run reads them all.
    this.cleanup.leftBehind(what, this.runMessages.size);
  }

  /**
   * At the end of the run, puts a change back with this request, compare-and-set (put-back.ts):
   * a setting only where it still holds a value the run sent. The journal keeps it until then.
   */
  putBack(what: string, request: PutBack): void {
    this.cleanup.atEnd(what, async () => this.cleanup.conflict(...await putBackNow(this.client, request, this.cleanup.sent)), request);
  }

  /** Set-up shared by several checks, made once per run; a failed set-up is retried by the next. */
  memo<T>(key: string, make: () => Promise<T>): Promise<T> {
    let made = this.memos.get(key) as Promise<T> | undefined;
    if (!made) {
      made = make();
      made.catch(() => this.memos.delete(key));
      this.memos.set(key, made);
    }
    return made;
  }

  call(as: Caller, method: string, path: string, params?: Parameters<Client['call']>[3], options?: Parameters<Client['call']>[4]): Promise<Response> {
    return this.client.call(as, method, path, params, options);
  }

  /**
   * The cases a property takes, counted for its rule's result: its boundaries, each drawn once
   * from the run's seed, and how many random cases come on top. The boundaries are cases of every
   * run; a smoke run takes them alone where there are some.
   */
  takeCases<T>(runs: number | PropertyCases<T>): { boundaries: ReadonlyArray<fc.Arbitrary<T>>; random: number } {
    const cases = typeof runs === 'number' ? { runs } : runs;
    const boundaries = cases.boundaries ?? [];
    const random = (this.options.smoke && boundaries.length > 0) || cases.exhaustive ? 0 : cases.runs ?? this.options.runs;
    this.casesTaken.boundary += boundaries.length;
    this.casesTaken.random += random;
    return { boundaries, random };
  }

  /**
   * Runs a fast-check property against the target: each boundary first, as a case of its own
   * (its seed is the run's plus its position), then the random cases. A failure is shrunk (a
   * boundary's within what it fixes), then its smallest input is run once more to record the
   * requests that show it. Its replay path names the boundary it came from (`b2:0:1`) and, past a
   * check's first property, the property (`p1/b2:0:1`, `p1/3:0`).
   */
  async property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs: number | PropertyCases<T> = this.options.runs, labels?: readonly string[]): Promise<void> {
    const { boundaries, random } = this.takeCases(runs);
    const position = this.propertiesRun++;
    const [, named, within] = /^(?:p(\d+)\/)?(.*)$/s.exec(this.options.replayPath ?? '')!;
    // A replay runs the one case its path names, of the one property it names.
    if (this.options.replayPath !== null && Number(named ?? 0) !== position) return;
    const replayPath = this.options.replayPath === null ? null : within!;
    const replay = /^b(\d+):(.*)$/.exec(replayPath ?? '');
    const property = position > 0 ? `p${position}/` : '';
    const prelude = this.options.keepExchanges ? this.client.peekHistory() : undefined;
    for (const [index, boundary] of boundaries.entries()) {
      if (this.options.randomOnly && random > 0) break;
      if (replayPath !== null && Number(replay?.[1]) !== index) continue;
      await this.cases(boundary, predicate, 1, this.options.seed + index, replay?.[2] ?? null, `${property}b${index}:`, labels, prelude);
    }
    if (random > 0 && (replayPath === null || replay === null)) await this.cases(arbitrary, predicate, random, this.options.seed, replayPath, property, labels, prelude);
  }

  private async cases<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, runs: number, seed: number, path: string | null, pathPrefix: string, labels?: readonly string[], prelude?: Exchange[]): Promise<void> {
    // A smoke run keeps its budget of requests: a failure is shown as it was found, not shrunk
    // (its replay line, run without --smoke, shrinks it).
    const parameters: fc.Parameters<[T]> = { seed, numRuns: runs, endOnFailure: this.options.smoke === true };
    if (path !== null) Object.assign(parameters, { path, endOnFailure: true });
    // A harness or network problem, or a server error, ends the property at once: nothing to
    // shrink, no more requests. A transient fault on a request that may have taken effect makes
    // that one case unknowable: it is dropped and another drawn, until as many were dropped as
    // the property runs; then too few remain to judge.
    let problem: unknown = null;
    let dropped = 0;
    // Each case's exchanges are recorded as it runs: the last failing one's show the failure as it happened.
    const failures: Array<{ readonly value: T; readonly violation: Violation; readonly exchanges: Exchange[]; readonly before: Exchange[] }> = [];
    // Where exchanges are kept: what the earlier cases of the property did, which a later one may use (a channel made once).
    const earlier: Exchange[] = [];
    // fast-check, given a path, runs the value it names first, then goes on from there where that
    // value passes (the next runs, or the next shrinks): a replay runs the named value alone.
    let pathRan = false;
    const guarded = async (value: T) => {
      if (problem !== null || (path !== null && pathRan)) return;
      pathRan = true;
      this.casesRun++;
      const counted = this.caseCount();
      const before = prelude === undefined ? [] : [...prelude, ...earlier];
      this.client.startRecording();
      let exchanges: Exchange[] = [];
      try {
        await predicate(value);
      } catch (error) {
        exchanges = this.client.stopRecording();
        if (error instanceof TransientError) {
          counted.lose();
          dropped++;
          this.transientCost.dropped++;
          if (dropped <= DROPPABLE(runs)) fc.pre(false);
          problem = new TransientError(`${dropped} generated cases met a transient fault and were dropped, too many to judge the rule by the others; the last: ${error.message}`);
          throw problem;
        }
        if (!(error instanceof Violation)) problem = error;
        else failures.splice(0, failures.length, { value, violation: error, exchanges, before });
        throw error;
      } finally {
        if (exchanges.length === 0) exchanges = this.client.stopRecording();
        // The case a replayed path names, kept with what came before it.
        if (path !== null && prelude !== undefined) this.replayed = { prelude: before, exchanges };
        if (prelude !== undefined) earlier.push(...exchanges);
      }
    };
    const details = await fc.check(fc.asyncProperty(arbitrary, guarded), parameters);
    if (problem !== null) throw problem;
    if (!details.failed) return;
    const error = details.errorInstance;
    if (!(error instanceof Violation)) throw error instanceof Error ? error : new HarnessError(String(error));
    const value = details.counterexample![0];
    let exchanges: Exchange[];
    let message: string;
    let before = prelude;
    const [lastFailure] = failures;
    if (lastFailure !== undefined && lastFailure.value === value) ({ exchanges, violation: { message }, before } = lastFailure);
    else {
      if (prelude !== undefined) before = [...prelude, ...earlier];
      // A counterexample fast-check gave as a copy: run once more to record the requests that show it.
      this.client.startRecording();
      let replayed: unknown = null;
      try {
        await predicate(value);
      } catch (caught) {
        replayed = caught;
      }
      exchanges = this.client.stopRecording();
      message = replayed instanceof Violation ? replayed.message : error.message;
    }
    throw new Violation(message, {
      // The run prefix differs from run to run; the input is shown without it.
      input: readable(value, labels ?? labelsOf(predicate)).replaceAll(this.prefix, '{prefix}'),
      // The run's seed: a boundary's own is the run's plus its position, which the path names.
      seed: this.options.seed,
      path: details.counterexamplePath === null ? null : `${pathPrefix}${details.counterexamplePath}`,
      requests: exchanges.map(curlLine),
      exchanges,
      ...(before ? { prelude: before } : {}),
    });
  }
}

/**
 * How many cases of a property a transient fault may make unknowable before the rule ends in
 * error: a case dropped is a case drawn again, so a lossy network costs requests, not a verdict;
 * a network that loses nearly everything still ends the rule.
 */
const DROPPABLE = (runs: number) => 10 + 2 * runs;

/** The cases of a property: how many random ones, and the boundaries sent in every run. */
export interface PropertyCases<T> {
  readonly runs?: number;
  /** One arbitrary per boundary case: the boundary fixed, the rest of the case drawn. */
  readonly boundaries?: ReadonlyArray<fc.Arbitrary<T>>;
  /** The boundaries are every case there is: no random case could add one. */
  readonly exhaustive?: boolean;
}

/**
 * Runs a model-based sequence. After a transient fault on a request that may have taken effect,
 * the model cannot know what the server holds: `resync` reads it again from the server, and the
 * sequence goes on (the outcome of that one command is not judged).
 */
export async function modelRun<M extends object>(context: Context, model: M, commands: Iterable<fc.AsyncCommand<M, Context>>, resync: (model: M) => Promise<void>): Promise<void> {
  const guarded = [...commands].map((command): fc.AsyncCommand<M, Context> => ({
    check: (state) => command.check(state),
    run: async (state, real) => {
      const counted = context.caseCount();
      try {
        await command.run(state, real);
      } catch (error) {
        if (!(error instanceof TransientError)) throw error;
        context.transientCost.resynced++;
        await resync(state);
        counted.lose();
      }
    },
    toString: () => String(command),
  }));
  await fc.asyncModelRun(() => ({ model, real: context }), guarded);
}

// ---- Counterexamples a person reads ------------------------------------------------------------

const LONG = 60;

/**
 * A generated value as a person reads it: JSON-like, a tuple with labels as a record, long
 * strings cut with their length, no `undefined`, bytes as their count, a model-based sequence
 * as the story its commands tell (without fast-check's replay path).
 */
export function readable(value: unknown, labels?: readonly string[]): string {
  if (labels && Array.isArray(value) && value.length === labels.length && labels.length > 1) {
    return `{ ${labels.map((label, index) => `${label}: ${readable(value[index])}`).join(', ')} }`;
  }
  if (labels?.length === 1 && !/^[[{]/.test(labels[0]!)) return `{ ${labels[0]}: ${readable(value)} }`;
  if (value === undefined) return '(absent)';
  if (typeof value === 'string') {
    const length = [...value].length;
    return length > LONG ? `${JSON.stringify([...value].slice(0, 24).join(''))}… (${length} characters)` : JSON.stringify(value);
  }
  if (typeof value === 'function') return `(a function${value.name ? ` ${value.name}` : ''})`;
  if (value === null || typeof value !== 'object') return String(value);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `(${value.length} bytes)`;
  if (Array.isArray(value)) return `[${value.map((item) => readable(item)).join(', ')}]`;
  if (typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function') {
    // fast-check's commands: each says what it did.
    return [...(value as Iterable<unknown>)].map((command) => String(command)).join('; ');
  }
  if (typeof value.toString === 'function' && value.toString !== Object.prototype.toString) return String(value);
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return `{ ${entries.map(([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${readable(item)}`).join(', ')} }`;
}

/**
 * The names a property gives its input, read from its parameter: `async ([kind, topic]) =>`
 * labels a tuple kind and topic, `async (direct) =>` a value direct. A nested pattern is its own
 * label; an object pattern needs none (the object has its keys).
 */
export function labelsOf(predicate: (value: never) => unknown): string[] | undefined {
  const source = predicate.toString();
  const open = source.indexOf('(');
  if (open < 0) return undefined;
  let depth = 0;
  let close = open;
  for (; close < source.length; close++) {
    if ('([{'.includes(source[close]!)) depth++;
    if (')]}'.includes(source[close]!) && --depth === 0) break;
  }
  const parameter = source.slice(open + 1, close).trim();
  if (/^[A-Za-z_$][\w$]*$/.test(parameter)) return [parameter];
  if (!parameter.startsWith('[') || !parameter.endsWith(']')) return undefined;
  const parts: string[] = [];
  let part = '';
  depth = 0;
  for (const character of parameter.slice(1, -1)) {
    if ('([{'.includes(character)) depth++;
    if (')]}'.includes(character)) depth--;
    if (character === ',' && depth === 0) {
      parts.push(part.trim());
      part = '';
    } else {
      part += character;
    }
  }
  parts.push(part.trim());
  return parts.map((name) => name.replace(/\s*=.*$/s, '').replace(/^\.\.\./, '').replace(/\s+/g, ' ') || '_');
}

// ---- Assertions on responses -------------------------------------------------------------

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Violation(message);
}

const describe = (response: Response) => `${response.status} ${response.body ? JSON.stringify(response.body) : JSON.stringify(response.text.slice(0, 200))}`;

/** A 5xx: not yet a verdict (see ServerError). */
export function noServerError(response: Response, what: string): void {
  if (response.status >= 500) throw new ServerError(`${what}: server error ${describe(response)}`);
}

/** A JSON success response; returns its body, which must have `shape` where one is given. */
export function succeeded(response: Response, what: string, shape?: Shape): any {
  noServerError(response, what);
  expect(response.status >= 200 && response.status < 300 && response.body?.result === 'success', `${what}: expected success, got ${describe(response)}`);
  if (shape !== undefined) shaped(response.body, shape, what);
  return response.body;
}

/** The value, which must have the shape: a malformed answer is the server's failure. */
export function shaped<T = any>(value: unknown, shape: Shape, what: string): T {
  const wrong = mismatch(value, shape);
  expect(wrong === null, `${what}: a malformed answer: ${wrong}`);
  return value as T;
}

/** A JSON error response with a 4xx status; returns its body. */
export function refused(response: Response, what: string): any {
  noServerError(response, what);
  expect(response.body?.result === 'error' && response.status >= 400, `${what}: expected a JSON error, got ${describe(response)}`);
  expect(typeof response.body.msg === 'string', `${what}: error without msg: ${describe(response)}`);
  return response.body;
}

/** An error response with exactly this status, code and text (a decision's Zulip behaviour). */
/** Zulip's texts said "stream" until it renamed streams to channels (level 255); decisions follow the target's level. */
export function inZulipWords(level: number, text: string): string {
  return level >= 255 ? text : text.replace(/channel/g, 'stream').replace(/Channel/g, 'Stream');
}

/**
 * An error response with exactly this status, code and text (a decision's Zulip behaviour). Where
 * Zulip's releases worded it differently, `msg` lists each released text, and any of them holds.
 */
export function refusedExactly(response: Response, what: string, msg: string | readonly string[], status = 400, code = 'BAD_REQUEST'): any {
  const body = refused(response, what);
  const texts = typeof msg === 'string' ? [msg] : msg;
  expect(response.status === status, `${what}: expected HTTP ${status}, got ${describe(response)}`);
  expect(body.code === code, `${what}: expected code ${code}, got ${describe(response)}`);
  expect(texts.includes(body.msg), `${what}: expected msg ${texts.map((text) => JSON.stringify(text)).join(' or ')}, got ${describe(response)}`);
  return body;
}

// ---- Running checks ---------------------------------------------------------------------------

export function applicability(rule: Rule, check: Check, probe: Probe, options: RunOptions): { reason: string; kind: NonNullable<RuleResult['skipped']> } | null {
  if (!ruleAppliesAt(rule, probe.featureLevel)) {
    const reason = rule.before !== undefined && probe.featureLevel >= rule.before
      ? `describes servers below feature level ${rule.before}; the target is at ${probe.featureLevel}`
      : `starts at feature level ${rule.since}; the target is at ${probe.featureLevel}`;
    return { reason, kind: 'level' };
  }
  if (rule.severity === 'decision' && !options.decisions) {
    return { reason: 'a decision where the spec is silent (Zulip\'s behaviour); run with --decisions to check it', kind: 'decision' };
  }
  for (const capability of check.needs) {
    const missing = probe.missing[capability];
    if (missing) return { reason: missing, kind: 'capability' };
  }
  return null;
}

/**
 * A skip that is right against any server that offers every capability: the rule is outside
 * the target's levels, or a decision that was not asked for. Any other skip against the
 * reference is a problem of the suite (its self-test and sweeps use this).
 */
export const skippedByDesign = (result: RuleResult) => result.status === 'skip' && (result.skipped === 'level' || result.skipped === 'decision' || result.skipped === 'configuration');

/** A check that stepped aside to wait for deliveries; `finish` lets it go on once they are due (with why they cannot be seen, or null). */
export interface DeferredCheck {
  readonly rule: RuleId;
  finish(reason: string | null): Promise<RuleResult>;
}

/** Runs a check to its end; one that waits for deliveries waits here. */
export async function runCheck(check: Check, context: Context): Promise<RuleResult> {
  const started = await startCheck(check, context);
  if (!('finish' in started)) return started;
  return started.finish(await context.deliveryState.settle!());
}

/**
 * Runs a check until it ends, or until it steps aside to wait for deliveries on real time: then
 * the runner goes on with other rules and finishes it later.
 */
export async function startCheck(check: Check, context: Context): Promise<RuleResult | DeferredCheck> {
  const rule = ruleById(check.rule)!;
  const result: RuleResult = {
    id: check.rule, severity: rule.severity, section: rule.section, title: rule.title, spec: specAnchor(rule),
    status: 'pass', message: '', counterexample: null, duration_ms: 0, requests: 0,
  };
  let started = performance.now();
  let requestsBefore = context.client.count;
  let faultsBefore = context.client.transients;
  let lostBefore = context.lostToFaults;
  context.client.takeHistory();
  context.witness?.forget();
  context.transientCost = { dropped: 0, resynced: 0 };
  context.casesTaken = { boundary: 0, random: 0 };
  context.casesRun = 0;
  context.propertiesRun = 0;
  context.replayed = undefined;
  const skip = applicability(rule, check, context.probe, context.options);
  if (skip) {
    result.status = 'skip';
    result.message = skip.reason;
    result.skipped = skip.kind;
    return result;
  }
  const state = context.deliveryState;
  let stepsAside!: () => void;
  const asides = new Promise<void>((resolve) => (stepsAside = resolve));
  let goOn!: (reason: string | null) => void;
  const turn = new Promise<string | null>((resolve) => (goOn = resolve));
  state.defer = () => {
    state.defer = null;
    stepsAside();
    return turn;
  };
  const ran = check.run(context).then(() => null, (error: unknown) => ({ error }));
  const aside = await Promise.race([ran.then(() => false), asides.then(() => true)]);
  state.defer = null;
  const conclude = async (outcome: { error: unknown } | null) => {
    concludeCheck(result, outcome, context);
    // A replay whose path names no case of the rule's properties checked nothing: no pass.
    if (result.status === 'pass' && context.options.replayPath !== null && context.casesTaken.boundary + context.casesTaken.random > 0 && context.casesRun === 0) {
      result.status = 'skip';
      result.skipped = 'check';
      result.message = `--replay ${context.options.replayPath} names no case of this rule's properties at this seed: nothing was checked`;
    }
    if (result.status === 'fail' && check.shares.length > 0 && context.witness) {
      const { foreign, unclear } = await context.witness.othersChanges(check.shares);
      if (foreign.length > 0) {
        result.status = 'error';
        result.interference = foreign;
        result.message = `another client changed the state every client shares while this run held the server's lease: ${foreign.join('; ')}. The check's failure may be that change's, not the server's: ${result.message}`;
      } else if (unclear.length > 0) {
        // The server's answer to the run's own request, or another client's change at that moment:
        // not excused, but run again; a failure seen again is the server's (suite.ts).
        result.status = 'error';
        result.unclear = unclear;
        result.message = `${result.message} (while ${unclear.join('; ')}: the rule is run again to tell)`;
      }
    }
    if (context.transientCost.dropped > 0) result.dropped = context.transientCost.dropped;
    if (context.transientCost.resynced > 0) result.resynced = context.transientCost.resynced;
    if (context.casesTaken.boundary + context.casesTaken.random > 0) result.cases = { ...context.casesTaken };
    result.duration_ms += Math.round(performance.now() - started);
    result.requests += context.client.count - requestsBefore;
    result.faultsMet = (result.faultsMet ?? 0) + context.client.transients - faultsBefore;
    if (result.faultsMet === 0) delete result.faultsMet;
    result.lost = (result.lost ?? 0) + context.lostToFaults - lostBefore;
    if (result.lost === 0) delete result.lost;
    if (context.options.keepExchanges) result.exchanges = context.client.takeHistory();
    if (context.replayed) result.replayed = context.replayed;
    return result;
  };
  if (!aside) return conclude(await ran);
  result.duration_ms = Math.round(performance.now() - started);
  result.requests = context.client.count - requestsBefore;
  result.faultsMet = context.client.transients - faultsBefore;
  result.lost = context.lostToFaults - lostBefore;
  const cost = context.transientCost;
  const cases = context.casesTaken;
  return {
    rule: check.rule,
    finish: async (reason) => {
      started = performance.now();
      requestsBefore = context.client.count;
      faultsBefore = context.client.transients;
      lostBefore = context.lostToFaults;
      context.transientCost = cost;
      context.casesTaken = cases;
      goOn(reason);
      return conclude(await ran);
    },
  };
}

function concludeCheck(result: RuleResult, outcome: { error: unknown } | null, context: Context): void {
  context.client.stopRecording();
  if (outcome === null) return;
  const { error } = outcome;
  if (error instanceof Violation) {
    result.status = 'fail';
    // JavaScript's word for a missing value is not the reader's.
    result.message = error.message.replace(/\bundefined\b/g, '(absent)');
    const recent = context.client.takeHistory();
    result.counterexample = error.counterexample ?? { input: null, seed: context.options.seed, path: null, requests: recent.map(curlLine), exchanges: recent };
  } else if (error instanceof Skip) {
    result.status = 'skip';
    result.message = error.message;
    result.skipped = error instanceof NotConfigured ? 'configuration' : 'check';
  } else {
    result.status = 'error';
    result.serverError = error instanceof ServerError;
    if (error instanceof TransientError) result.transient = true;
    if (result.serverError) {
      const recent = context.client.takeHistory();
      result.counterexample = { input: null, seed: context.options.seed, path: null, requests: recent.map(curlLine), exchanges: recent };
    }
    result.message = error instanceof HarnessError ? error.message : `harness error: ${(error as Error)?.stack ?? String(error)}`;
  }
}
