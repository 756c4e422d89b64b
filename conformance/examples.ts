// A rule shown at work on the reference, one case on both sides: the rule's check runs against
// the reference with the rule's seeded fault, random cases first so that the failure shrinks to
// its smallest case (a boundary where only a boundary shows it); the case it shrank to is replayed
// (same seed, same path) against the reference as it is. Each side is that case's exchanges, from
// the set-up through the request the rule is about to the observation its verdict turns on,
// after the set-up of the check it needs. --explain prints them; the annotated spec records them.

import type { Credentials, Role } from './run/client.js';
import { sideOf, type RuleExamples, type Side } from './report/sides.js';
import type { Rule } from './rules.js';
import type { RuleResult } from './run/harness.js';
import { runSuite } from './suite.js';

export { exampleLevel, type FaultPlace, type RuleExamples, type Side } from './report/sides.js';

/** A reference to run one rule against, with the seeded faults named, and a way to stop it. */
export interface ServedReference {
  readonly url: string;
  readonly credentials: Readonly<Record<Role, Credentials>>;
  close(): Promise<void> | void;
}

export async function recordExamples(rule: Rule, fault: string | null, serve: (faults: string[]) => Promise<ServedReference>, eventWaitMs = 300): Promise<RuleExamples> {
  const runOnce = async (faults: string[], replayPath: string | null, randomOnly: boolean, runs = 10): Promise<RuleResult | undefined> => {
    const reference = await serve(faults);
    try {
      const report = await runSuite({
        target: reference.url, credentials: reference.credentials, embedded: true, seed: 1, runs, only: rule.id, replayPath, randomOnly,
        decisions: true, rate: 0, timeoutMs: 15_000, eventWaitMs, expectations: null, createUsers: true, keepExchanges: true,
      });
      return report.rules.find((result) => result.id === rule.id);
    } finally {
      await reference.close();
    }
  };
  // Random cases first, so that the failure shrinks; a boundary where only a boundary shows the fault.
  let failing = fault ? await runOnce([rule.id], null, true, 30) : undefined;
  if (fault && failing?.status !== 'fail') failing = await runOnce([rule.id], null, false);
  const path = failing?.status === 'fail' ? failing.counterexample?.path ?? null : null;
  // The case alone, on a reference as fresh as the passing side's: what the cases before it left does not show.
  if (path !== null) {
    const alone = await runOnce([rule.id], path, false);
    if (alone?.status === 'fail' && alone.counterexample) failing = alone;
  }
  const failed = failing?.status === 'fail' ? failing.counterexample : null;
  let passing = await runOnce([], path, false);
  // A replay against the reference as it is passes; one that did not met the machine's load (a
  // time that was no longer ahead, an event that came late) and is tried again, twice.
  for (let attempt = 0; path !== null && passing?.status !== 'pass' && attempt < 2; attempt++) passing = await runOnce([], path, false);
  // A replay that does not pass (a sequence of commands replays only as far as it can) gives way to the first case of a plain run.
  if (passing?.status !== 'pass') passing = await runOnce([], '0', false);
  const passingSide = (): Side | null => {
    if (passing?.status !== 'pass') return null;
    if (passing.replayed) return sideOf(passing.replayed.prelude, passing.replayed.exchanges);
    // A check with no property: its exchanges are the case.
    return sideOf([], passing.exchanges ?? []);
  };
  return {
    input: failed?.input ?? null,
    passing: passingSide(),
    failing: failed && fault ? { ...sideOf(failed.prelude ?? [], failed.exchanges), message: failing!.message, fault } : null,
  };
}
