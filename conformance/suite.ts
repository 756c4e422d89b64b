// One run of the suite against one target: probe, run the selected checks one after another,
// clean up, report.

import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client, curlLine, type Credentials, type Exchange, type Role } from './run/client.js';
import { Cleanup, Journal } from './run/cleanup.js';
import { CHECKS } from './checks/index.js';
import { applicability, Context, runCheck, startCheck, type Check, type DeferredCheck, type RuleResult } from './run/harness.js';
import { probeTarget, type Probe } from './run/probe.js';
import { counted, summarize, type Report } from './report/json.js';
import { inCatalogOrder, ruleById } from './rules.js';
import { isSpecOperation, specAnchor } from './spec.js';
import { envelopeProblem } from './checks/general.js';
import { sweep, sweepProfileFields } from './run/sweep.js';
import { DEFAULT_LEASE_TTL, DEFAULT_LEASE_WAIT, Lease, LeaseError } from './run/lease.js';
import { shardOf, smokeCostOf, type Shard } from './run/shard.js';
import { Witness } from './run/witness.js';

export interface Expectations {
  readonly server?: string;
  /**
   * Rule ID → why this server is known to fail it: a text for every version, or the text and
   * the feature levels of the versions that fail it ([from, to], both included; to may be left out).
   */
  readonly expected_failures: Readonly<Record<string, string | ExpectedFailure>>;
}

export interface ExpectedFailure {
  readonly why: string;
  readonly levels?: readonly [number, number?];
}

/** Whether the expectations list this rule's failure for a target at this feature level. */
export function expectedAt(expectations: Expectations | null | undefined, id: string, level: number): boolean {
  const entry = expectations?.expected_failures[id];
  if (entry === undefined) return false;
  if (typeof entry === 'string' || entry.levels === undefined) return true;
  const [from, to = Infinity] = entry.levels;
  return level >= from && level <= to;
}

export interface SuiteOptions {
  readonly target: string;
  readonly credentials: Readonly<Record<Role, Credentials>>;
  readonly embedded: boolean;
  readonly seed: number;
  readonly runs: number;
  readonly only: string | null;
  readonly replayPath: string | null;
  readonly decisions: boolean;
  /** Requests per second at most; 0 for no bound. */
  readonly rate: number;
  readonly timeoutMs: number;
  readonly eventWaitMs: number;
  readonly expectations: Expectations | null;
  /** Whether the run may create users (POST /users), which cannot be deleted. */
  readonly createUsers?: boolean;
  /** MAX_EMOJI_FILE_SIZE_MIB of a target that does not report it. */
  readonly emojiLimitMib?: number;
  /** Every applicable rule with as few requests as still check it (--smoke). */
  readonly smoke?: boolean;
  /** Runs the rules in an order drawn from the run's seed instead of the catalog's (--shuffle). */
  readonly shuffle?: boolean;
  /** How many times a rule that ended in error is run again, with the same seed. */
  readonly retries?: number;
  /** Keep each rule's last exchanges in its result. */
  readonly keepExchanges?: boolean;
  /**
   * The rules of shared state run after the others, whenever the lease would have let them run
   * sooner: the run's order then owes nothing to timing. Two runs compared step by step (--compare)
   * make their channels and messages in one order, and list them alike.
   */
  readonly sharedLast?: boolean;
  /** What a check would send at once goes one request after another (a differential run: RunOptions.oneAtATime). */
  readonly oneAtATime?: boolean;
  /** The random cases alone, without the properties' boundaries, so that a failure shrinks (the annotated spec's examples). */
  readonly randomOnly?: boolean;
  /** Against a target without the reference clock: deliveries are scheduled this many seconds ahead, and checked after one shared wait (default 90; 0: none). */
  readonly deliveryWait?: number;
  /** In a smoke run, check deliveries on real time too (--deliveries). */
  readonly deliveries?: boolean;
  /** Told when the run waits for its deliveries. */
  readonly onWait?: (text: string) => void;
  /** Before the first retry of an idempotent request, in ms (doubled each time). */
  readonly backoffMs?: number;
  readonly onResult?: (result: RuleResult) => void;
  /** Called as each rule's check starts: its position among the selected rules. */
  readonly onStart?: (id: string, index: number, total: number) => void;
  /** Given, once the run starts, a way to read how many requests it has made. */
  readonly requestCount?: (count: () => number) => void;
  readonly interrupted?: () => boolean;
  /** How the user started the run (`npm run conformance --`, `teamchat-conformance`), for replay lines. */
  readonly command?: string;
  /** The profile file named, for replay lines (never its contents). */
  readonly profilePath?: string;
  /** Called once the target answered the probe: the run has started. */
  readonly onProbed?: () => void;
  /** Where to write the journal of what the run changes (for --undo), if anywhere. */
  readonly journal?: string;
  /** The embedded reference checked, if any: its level and dialect. */
  readonly reference?: Report['reference'];
  /**
   * The server's lease, which the rules of shared state wait for (lease.ts): its ttl and the
   * longest wait, in seconds. Not taken for the embedded reference, which only this run checks.
   */
  readonly lease?: { readonly ttl?: number; readonly wait?: number };
  /** Only the I-th of N parts of the selected rules (--shard I/N). */
  readonly shard?: Shard;
  /** The most requests a smoke run makes (SMOKE_BUDGET; Infinity to measure what rules cost). */
  readonly smokeBudget?: number;
}

/** The suite's version, from its package.json. */
export const SUITE_VERSION: string = (() => {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
  } catch {
    return 'unknown';
  }
})();

/** `--only`: a glob with * over rule IDs, or else a part of an ID; several, separated by commas, select what any of them does. */
export function ruleMatcher(pattern: string | null): (id: string) => boolean {
  if (!pattern) return () => true;
  const each = pattern.split(',').map((part) => part.trim()).filter(Boolean).map((part): ((id: string) => boolean) => {
    if (!part.includes('*')) return (id) => id.includes(part);
    const source = part.split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
    const regex = new RegExp(`^${source}$`);
    return (id) => regex.test(id);
  });
  return (id) => each.some((matches) => matches(id));
}

export function runPrefix(): string {
  return `tcc${randomBytes(4).toString('hex')}`;
}

export async function runSuite(options: SuiteOptions): Promise<Report> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const client = new Client(options.target, options.credentials, { rate: options.rate, timeoutMs: options.timeoutMs, backoffMs: options.backoffMs, history: options.keepExchanges ? 10_000 : 16 });
  const prefix = runPrefix();
  const cleanup = new Cleanup(client, options.journal ? new Journal(options.journal, prefix, options.target) : null);
  client.onSend = (as, method, path, form) => cleanup.seeSend(as, method, path, form);
  // The lease and its witness use a client of their own: their requests stay out of the checks' records.
  const coordination = options.embedded ? null : new Client(options.target, options.credentials, { rate: options.rate, timeoutMs: options.timeoutMs, backoffMs: options.backoffMs, history: 0 });
  const requests = () => client.count + (coordination?.count ?? 0);
  // What transient faults cost (requests that met one, cases and checks run again after one) is
  // the network's, not the run's: a smoke run's budget counts the rest.
  let runContext: Context | null = null;
  const spent = () => requests() - client.transients - (runContext?.lostToFaults ?? 0);
  options.requestCount?.(requests);
  let lease: Lease | null = null;
  let leaseNote: string | null = options.embedded ? 'not taken: the embedded reference is this run\'s alone' : null;
  const results: RuleResult[] = [];
  let probe: Probe | null = null;
  let swept: string[] = [];
  try {
    probe = await probeTarget(client, { createUsers: options.createUsers ?? false, emojiLimitMib: options.emojiLimitMib, deliveryWait: options.deliveryWait, smoke: options.smoke, deliveries: options.deliveries });
    options.onProbed?.();
    const context = new Context(client, probe, options, prefix, cleanup);
    runContext = context;
    const matches = ruleMatcher(options.only);
    const matching = options.shard ? shardOf(CHECKS.filter((check) => matches(check.rule)), options.shard) : CHECKS.filter((check) => matches(check.rule));
    // No rule may depend on what an earlier one left: --shuffle shows it, with the run's seed.
    const selected = options.shuffle ? fc.sample(fc.shuffledSubarray(matching, { minLength: matching.length, maxLength: matching.length }), { seed: options.seed, numRuns: 1 })[0]! : matching;
    // On real time the checks of deliveries go first: their wait runs while the others do.
    const realTime = context.deliveryState.mode === 'real-time';
    const order = realTime ? [...selected].sort((a, b) => Number(b.needs.includes('deliveries')) - Number(a.needs.includes('deliveries'))) : selected;
    const position = new Map(selected.map((check, index) => [check.rule, index]));
    // "Every JSON response has result and msg": every answer to a spec operation the run gets, in
    // whichever rule's check, is held to it; general.envelope's verdict waits for the last.
    let running: string | null = null;
    let broken: { readonly exchange: Exchange; readonly problem: string; readonly rule: string | null } | null = null;
    client.onAnswer = (exchange, response) => {
      if (broken !== null || response.body === null || !isSpecOperation(exchange.method, exchange.url)) return;
      const problem = envelopeProblem(response.body);
      if (problem !== null) broken = { exchange, problem, rule: running };
    };
    let envelope: RuleResult | null = null;
    const conclude = async (check: Check, first: RuleResult) => {
      let result = first;
      // A transient fault costs a case, never a verdict: where a check met one on a request that
      // may have taken effect outside any property's cases (the check is then its own one case),
      // the check is run again from the start, with names of its own, as another case would be
      // drawn. Neither flaky nor a retry: the network hid an outcome, the server showed nothing.
      let attemptRequests = result.requests;
      for (let again = 1; result.status === 'error' && result.transient && again <= TRANSIENT_RERUNS && !options.interrupted?.(); again++) {
        if (options.smoke && overBudget(check, spent(), cleanup.pendingCost, budget) !== null) {
          result.message = `${result.message} (not run again: the smoke run's budget has no room for it)`;
          break;
        }
        // This attempt's own requests (the earlier attempts' are booked already), less what its faults and dropped cases booked.
        context.lostToFaults += attemptRequests - (result.faultsMet ?? 0) - (result.lost ?? 0);
        const rerun = await runCheck(check, context);
        attemptRequests = rerun.requests;
        rerun.requests += result.requests;
        rerun.rerunAfterTransient = again;
        if (result.dropped || rerun.dropped) rerun.dropped = (result.dropped ?? 0) + (rerun.dropped ?? 0);
        result = rerun;
      }
      // A rule that could not be checked is tried again; one that passes then is flaky, never a
      // plain pass. A server error is always tried once more, and fails the rule if seen again.
      // So is a failure the witness could not tell from another client's change: seen again, it is the server's.
      for (let retry = 0; result.status === 'error' && (retry < (options.retries ?? 0) || (retry === 0 && (result.serverError || result.unclear))) && !options.interrupted?.(); retry++) {
        if (options.smoke && overBudget(check, spent(), cleanup.pendingCost, budget) !== null) {
          result.message = `${result.message} (not run again: the smoke run's budget has no room for it)`;
          break;
        }
        const again = await runCheck(check, context);
        again.requests += result.requests;
        if (again.status === 'pass') again.flaky = true;
        if ((result.serverError && again.serverError) || (result.unclear && again.unclear)) {
          again.status = 'fail';
          again.message = `${again.message} (seen again on a retry)`;
        }
        result = again;
      }
      if (check.rule === 'general.envelope') {
        envelope = result;
        return;
      }
      record(result);
    };
    const record = (result: RuleResult) => {
      if (result.status === 'fail' && expectedAt(options.expectations, result.id, probe!.featureLevel)) result.expected = true;
      results.push(result);
      options.onResult?.(result);
    };
    const waiting: Array<{ check: Check; deferred: DeferredCheck }> = [];
    // The budget is the must rules': decisions asked for (--decisions) come on top, each with what it costs.
    const decided = selected.filter((check) => ruleById(check.rule)!.severity === 'decision' && applicability(ruleById(check.rule)!, check, probe!, options) === null);
    const budget = (options.smokeBudget ?? SMOKE_BUDGET) + decided.reduce((sum, check) => sum + smokeCostOf(check), 0);
    const begun = new Set<string>();
    // In a smoke run, a check that holds other rules' boundary cases (the organization model) gives
    // them its verdict: their own checks run only where it did not pass, to say what it found.
    const applicable = (check: Check) => applicability(ruleById(check.rule)!, check, probe!, options) === null;
    const holder = options.smoke ? order.find((check) => check.holdsInSmoke !== undefined && applicable(check)) : undefined;
    const held = new Set<string>(holder ? order.filter((check) => holder.holdsInSmoke!(context).includes(check.rule) && ruleById(check.rule)!.severity === 'must' && applicable(check)).map((check) => check.rule) : []);
    let holderResult: RuleResult | null = null;
    const pendingHeld: Check[] = [];
    const settleHeld = async (check: Check) => {
      const verdict = holderResult!;
      // general.envelope's verdict waits for the run's last answer, as its own check's does.
      const give = (result: RuleResult) => (check.rule === 'general.envelope' ? void (envelope = result) : record(result));
      if (verdict.status === 'pass' && !context.heldBack.has(check.rule)) {
        give(resultWithoutRequests(check, 'pass', `held by ${holder!.rule}'s smoke steps, which hold this rule's boundary cases (${holder!.rule} passed; its own check runs without --smoke, or where the model does not pass)`, null));
        return;
      }
      // A failure a prediction from this rule alone proves is this rule's; one of a prediction
      // that came from several is left to each one's own check, which says which it is.
      if (verdict.status === 'fail' && (holder!.namedBy?.(verdict.message) ?? []).includes(check.rule)) {
        give(resultWithoutRequests(check, 'fail', `${holder!.rule}'s smoke steps found it broken: ${verdict.message}`, verdict.counterexample));
        return;
      }
      await begin(check);
    };
    const flushHeld = async () => {
      while (pendingHeld.length > 0 && !options.interrupted?.()) await settleHeld(pendingHeld.shift()!);
    };
    const run = async (check: Check) => {
      if (held.has(check.rule)) {
        if (holderResult === null) pendingHeld.push(check);
        else await settleHeld(check);
        return;
      }
      await begin(check);
      if (check === holder) {
        holderResult = results.find((result) => result.id === check.rule) ?? null;
        await flushHeld();
      }
    };
    const begin = async (check: Check) => {
      running = check.rule;
      options.onStart?.(check.rule, position.get(check.rule)!, order.length);
      // A smoke run keeps its budget, clean-up included: a rule that would pass it is not begun.
      begun.add(check.rule);
      // A check that yields keeps room for every must rule not begun yet: the order the lease gives does not decide which run.
      const reserved = check.yieldsInSmoke ? order.filter((other) => !begun.has(other.rule) && !held.has(other.rule) && !other.yieldsInSmoke && ruleById(other.rule)!.severity === 'must' && applicable(other)).reduce((sum, other) => sum + smokeCostOf(other), 0) : 0;
      const over = options.smoke ? overBudget(check, spent(), cleanup.pendingCost, budget, reserved) : null;
      if (over !== null && applicable(check)) {
        const result = notChecked(check, over);
        results.push(result);
        options.onResult?.(result);
        return;
      }
      const started = await startCheck(check, context);
      if ('finish' in started) waiting.push({ check, deferred: started });
      else await conclude(check, started);
    };
    // The rules of shared state wait for the server's lease; the others run meanwhile. Once the
    // lease is held, every rule of shared state left runs, and the lease is released at once.
    // A rule that skips (outside the target's levels, a decision not asked for) needs no lease.
    // The reference clock is shared too: a run that moves it delivers what other runs scheduled.
    const clock = context.deliveryState.mode === 'clock';
    const sharesState = (check: Check) => check.shares.length > 0 || (clock && (check.needs.includes('deliveries') || check.needs.includes('reference-clock')));
    const shared = order.filter((check) => sharesState(check) && applicability(ruleById(check.rule)!, check, probe!, options) === null);
    const needsLease = new Set(shared);
    if (coordination && shared.length > 0) {
      lease = new Lease(coordination, prefix.replace(/^tcc/, 'tcc-'), cleanup, { ttl: options.lease?.ttl ?? DEFAULT_LEASE_TTL, wait: options.lease?.wait ?? DEFAULT_LEASE_WAIT, onWait: options.onWait, interrupted: options.interrupted });
      try {
        await lease.claim();
      } catch (error) {
        if (!(error instanceof LeaseError)) throw error;
        leaseNote = `could not be taken (${error.message}): the rules of shared state ran without it`;
        options.onWait?.(`the server's lease ${leaseNote}`);
        await lease.release();
        lease = null;
      }
    }
    let sharedDone = !lease;
    const runShared = async () => {
      sharedDone = true;
      const witness = new Witness(coordination!, prefix, !options.smoke);
      client.onExchange = (exchange) => witness.see(exchange);
      const sending = client.onSend;
      client.onSend = (as, method, path, form) => {
        sending?.(as, method, path, form);
        witness.sending(as, method, path, form);
      };
      await witness.start();
      context.witness = witness;
      try {
        for (const check of shared) {
          if (options.interrupted?.()) break;
          await run(check);
        }
      } finally {
        context.witness = null;
        client.onExchange = null;
        client.onSend = sending;
        await witness.stop();
        // What the run changed of the shared state is put back, and its profile fields removed,
        // while it still holds the lease: the next run in line finds the server as this one did.
        await cleanup.runNow((request) => SHARED_PATHS.test(request.path));
        await sweepProfileFields(client, cleanup, (text) => text.includes(prefix));
        await lease!.release();
      }
    };
    try {
      for (const check of order) {
        if (options.interrupted?.()) break;
        // With a lease, the rules of shared state run as one block when it is held.
        if (!(needsLease.has(check) && lease)) await run(check);
        if (!sharedDone && !options.sharedLast && lease!.mayHoldNow() && (await lease!.tryHold())) await runShared();
      }
      if (!sharedDone && !options.interrupted?.()) {
        const reason = await lease!.acquire();
        if (reason === null) await runShared();
        else {
          sharedDone = true;
          await lease!.release();
          // An interrupted run reports only what it checked, as it does for the rules it never reached.
          for (const check of options.interrupted?.() ? [] : shared) {
            // Not retried: a retry would run it without the lease.
            const result = leaseError(check, reason);
            results.push(result);
            options.onResult?.(result);
          }
        }
      }
      // The holder never ran (its lease not taken, or not begun): the rules it would have held run their own checks.
      if (holder && holderResult === null && !options.interrupted?.()) {
        holderResult = results.find((result) => result.id === holder.rule) ?? notChecked(holder, 'not run');
        await flushHeld();
      }
    } finally {
      await lease?.release();
      // The checks that wait for deliveries go on, also after an interrupt: what they made is put away.
      if (waiting.length > 0 && !options.interrupted?.()) options.onWait?.(`waiting for the run's deliveries (${counted(waiting.length, 'rule')}; up to ${context.deliveryState.waitSeconds} s after the last is due)`);
      // Something else the run made due within its wait (reminders a target cannot delete) is waited for too.
      const due = waiting.length > 0 || context.deliveryState.latestDue !== null;
      const reason = !due ? null : options.interrupted?.() ? 'the run was interrupted before its deliveries were due' : await context.deliveryState.settle!();
      for (const { check, deferred } of waiting) await conclude(check, await deferred.finish(reason));
      if (envelope !== null) record(withEnvelopeSeen(envelope, broken, options.seed));
    }
    results.sort(inCatalogOrder);
  } finally {
    await cleanup.runAll();
    // A target that could not be probed has nothing of the run's.
    if (probe !== null) swept = await sweep(client, cleanup, (text) => text.includes(prefix));
    await client.close();
    await coordination?.close();
  }
  return {
    target: options.target,
    feature_level: probe.featureLevel,
    zulip_version: probe.zulipVersion,
    seed: options.seed,
    runs: options.runs,
    decisions: options.decisions,
    run_prefix: prefix,
    config: {
      command: options.command ?? 'npm run conformance --',
      target: options.target,
      profile: options.profilePath ?? null,
      embedded: options.embedded,
      seed: options.seed,
      runs: options.runs,
      decisions: options.decisions,
      smoke: options.smoke ?? false,
      retries: options.retries ?? 0,
      users: Object.fromEntries(Object.entries(options.credentials).map(([role, c]) => [role, { email: c.email, api_key: '(redacted)' }])),
      only: options.only,
      rate: options.rate,
      timeout_ms: options.timeoutMs,
      event_wait_ms: options.eventWaitMs,
      expectations: options.expectations?.server ?? null,
      create_users: options.createUsers ?? false,
      emoji_limit: probe?.emojiLimit ?? null,
      emoji_limit_option: options.emojiLimitMib ?? null,
      journal: options.journal ?? null,
      delivery_wait: options.deliveryWait ?? null,
      deliveries: options.deliveries ?? false,
      shard: options.shard ? `${options.shard.index}/${options.shard.total}` : null,
    },
    shard: options.shard ?? null,
    lease: lease === null && leaseNote === null ? null : {
      note: leaseNote,
      waited_s: lease?.waited.seconds ?? 0,
      waited_for: lease?.waited.for ?? [],
      held: lease?.heldFrom ? { from: new Date(lease.heldFrom).toISOString(), until: lease.heldUntil ? new Date(lease.heldUntil).toISOString() : null } : null,
    },
    rules: results,
    summary: summarize(results),
    cleanup: { problems: cleanup.problems, swept, left: cleanup.left(), conflicts: cleanup.conflicts },
    requests: requests(),
    transients: client.transients,
    smoke: options.smoke ?? false,
    duration_ms: Math.round(performance.now() - started),
    interrupted: options.interrupted?.() ?? false,
    started_at: startedAt,
    suite_version: SUITE_VERSION,
    reference: options.reference ?? null,
  };
}

/** A smoke run's requests, at most (CONTRACT: --smoke). */
export const SMOKE_BUDGET = 1200;

/** How many times a check is run again after transient faults hid a request's outcome: at a tenth of requests lost, a check of 40 unretried requests gets through at least once in ten tries. */
const TRANSIENT_RERUNS = 10;

/**
 * What the end of a run costs, at most: the steps left to put back or remove, the sweep's
 * listings (what three users have of scheduled messages, drafts, reminders and subscriptions, the
 * emoji and the profile fields), the witness's queues and the lease's release.
 */
const cleanupCost = (pending: number) => pending + 14 + 3 + 2;

/**
 * Why a rule would take a smoke run past its budget, or null: the requests made so far, what the
 * clean-up will take, and the most the rule took in smoke runs against the reference (costs.ts).
 */
function overBudget(check: Check, spent: number, pending: number, budget: number, reserved = 0): string | null {
  const need = smokeCostOf(check);
  const left = budget - spent - reserved - cleanupCost(pending);
  if (need <= left) return null;
  return `not checked: a smoke run makes at most ${budget} requests, clean-up included, and ${spent} were made; this rule takes up to ${need}${reserved > 0 ? `, the must rules not begun yet up to ${reserved} (it yields to them)` : ''} and the clean-up ${cleanupCost(pending)} (run without --smoke to check it)`;
}

/** general.envelope's verdict with what the run saw of the envelope in every other rule's answers. */
function withEnvelopeSeen(result: RuleResult, broken: { readonly exchange: Exchange; readonly problem: string; readonly rule: string | null } | null, seed: number): RuleResult {
  if (broken === null || result.status !== 'pass') return result;
  const { exchange, problem, rule } = broken;
  const path = new URL(exchange.url).pathname.replace(/^.*?\/api\/v1(?=\/)/, '');
  return {
    ...result, status: 'fail',
    message: `${exchange.method} ${path} answered ${exchange.status} and ${problem}${rule && rule !== result.id ? ` (a request of ${rule}'s check)` : ''}`,
    counterexample: { input: null, seed, path: null, requests: [curlLine(exchange)], exchanges: [exchange], ...(rule && rule !== result.id ? { alongside: rule } : {}) },
  };
}

/** A rule's result that no request of its own made: its verdict and message given. */
function resultWithoutRequests(check: Check, status: RuleResult['status'], message: string, counterexample: RuleResult['counterexample'] = null): RuleResult {
  const rule = ruleById(check.rule)!;
  return { id: check.rule, severity: rule.severity, section: rule.section, title: rule.title, spec: specAnchor(rule), status, message, counterexample, duration_ms: 0, requests: 0 };
}

/** A rule the run did not begin: a skip with the reason, never a pass. */
const notChecked = (check: Check, reason: string): RuleResult => ({ ...resultWithoutRequests(check, 'skip', reason), skipped: 'check' });

/** The paths of the state every run shares: what puts it back runs before the lease is released. */
const SHARED_PATHS = /^\/(realm\/user_settings_defaults|settings|realm\/profile_fields)(\/|$)/;

/** A rule of shared state that never got the lease: an error of the run, never the server's failure. */
const leaseError = (check: Check, reason: string): RuleResult => resultWithoutRequests(check, 'error', `not checked: ${reason}`);
