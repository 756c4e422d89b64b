// A passing and a failing exchange of a rule, taken from the reference: the rule's check runs
// against the reference with the rule's seeded fault, and the case that shows the failure,
// shrunk, is replayed (same seed, same path) against the reference as it is, so that both sides
// show one input. --explain prints them; the annotated spec (npm run docs) records them.

import type { Credentials, Exchange, Role } from './run/client.js';
import { operationsOf, thatMatters } from './report/explain.js';
import type { Rule } from './rules.js';
import { runSuite } from './suite.js';

/** A reference to run one rule against, with the seeded faults named, and a way to stop it. */
export interface ServedReference {
  readonly url: string;
  readonly credentials: Readonly<Record<Role, Credentials>>;
  close(): Promise<void> | void;
}

export interface RuleExamples {
  /** The case, as fast-check prints it, that the failing side shrank to. */
  readonly input: string | null;
  readonly passing: Exchange[];
  readonly failing: { readonly message: string; readonly exchanges: Exchange[]; readonly fault: string } | null;
}

/** What a request sends, apart from the run's prefix. */
const sent = (exchange: Exchange) => `${exchange.method} ${new URL(exchange.url).pathname} ${JSON.stringify(exchange.form).replace(/tcc[0-9a-f]{8}/g, '')}`;
const distinct = (exchanges: readonly Exchange[]) => exchanges.filter((exchange, index) => exchanges.findIndex((other) => sent(other) === sent(exchange)) === index);

/** Where a rule's fault shows, when not everywhere: a level, a dialect. */
export interface FaultPlace {
  readonly level?: number;
  readonly dialect?: string;
}

/** The level a rule is shown at: its fault's, else the last it applies at, else the reference's own. */
export const exampleLevel = (rule: Rule, fault: FaultPlace = {}): number | undefined => fault.level ?? (rule.before !== undefined ? rule.before - 1 : undefined);

export async function recordExamples(rule: Rule, fault: string | null, serve: (faults: string[]) => Promise<ServedReference>, eventWaitMs = 300): Promise<RuleExamples> {
  const runOnce = async (faults: string[], replayPath: string | null) => {
    const reference = await serve(faults);
    try {
      const report = await runSuite({
        target: reference.url, credentials: reference.credentials, embedded: true, seed: 1, runs: 10, only: rule.id, replayPath,
        decisions: true, rate: 0, timeoutMs: 15_000, eventWaitMs, expectations: null, createUsers: true, keepExchanges: true,
      });
      return report.rules.find((result) => result.id === rule.id);
    } finally {
      await reference.close();
    }
  };
  const failing = fault ? await runOnce([rule.id], null) : undefined;
  const path = failing?.status === 'fail' ? failing.counterexample?.path ?? null : null;
  let passing = await runOnce([], path);
  // A replay against the reference as it is passes; one that did not met the machine's load (a
  // time that was no longer ahead, an event that came late) and is tried again, twice.
  for (let attempt = 0; path !== null && passing?.status !== 'pass' && attempt < 2; attempt++) passing = await runOnce([], path);
  // A replay that still does not pass (a sequence of commands replays only as far as it can) gives way to a plain run.
  let replayed = path !== null;
  if (replayed && passing?.status !== 'pass') {
    passing = await runOnce([], null);
    replayed = false;
  }
  const lastOperations = (exchanges: readonly Exchange[]) => {
    const own = operationsOf(rule, exchanges).slice(-2);
    return own.length > 0 ? own : exchanges.slice(-1);
  };
  const shown = failing?.status === 'fail' ? distinct(lastOperations(failing.counterexample?.exchanges ?? [])) : [];
  // The replay runs the same case of each property of the check: the requests the failing side
  // shows are picked out of it by what they send (the run's prefix aside).
  const shownPassing = (): Exchange[] => {
    if (passing?.status !== 'pass') return [];
    const exchanges = passing.exchanges ?? [];
    // Without a failing case to replay, the plainest request of a run.
    if (!replayed) return thatMatters(rule, exchanges);
    const same = shown.map((request) => [...exchanges].reverse().find((candidate) => sent(candidate) === sent(request)));
    return same.every((item) => item !== undefined) ? (same as Exchange[]) : distinct(lastOperations(exchanges));
  };
  return {
    input: failing?.status === 'fail' ? failing.counterexample?.input ?? null : null,
    passing: shownPassing(),
    failing: failing?.status === 'fail' && fault ? { message: failing.message, exchanges: shown, fault } : null,
  };
}
