// A differential run (--compare): the same rules, the same seed, against the target and a second
// server, each in a run of its own, the target a second time where exchanges differ (to tell noise
// from differences, as Twitter's Diffy does), and every difference named by the catalog
// (report/differences.ts).

import { correspondence, decisionsToConsult, differencesOf, noiseOf, rulesToCheckAgain, type DifferentialReport } from './report/differences.js';
import { inCatalogOrder, type RuleId } from './rules.js';
import type { RuleResult } from './run/harness.js';
import { runSuite, type SuiteOptions } from './suite.js';
import { summarize } from './report/json.js';

export { ambiguityEntries, differencesText, differentialExitCode, type DifferentialReport } from './report/differences.js';

/** Both servers checked with the same seed, the target a second time where exchanges differ, and every difference named. */
export async function runDifferential(target: SuiteOptions, compare: SuiteOptions, onNoise?: (rules: readonly string[]) => void): Promise<DifferentialReport> {
  const differential = { decisions: true, keepExchanges: true, sharedLast: true, oneAtATime: true } as const;
  const [first, other] = await Promise.all([runSuite({ ...target, ...differential }), runSuite({ ...compare, ...differential, onResult: undefined, onStart: undefined, onProbed: undefined, requestCount: undefined })]);
  const again = [...new Set(rulesToCheckAgain(first, other))];
  const noise = new Set<string>();
  let noiseRequests = 0;
  if (again.length > 0 && !target.interrupted?.()) {
    onNoise?.(again);
    const second = await runSuite({ ...target, ...differential, only: again.join(','), onResult: undefined, onStart: undefined, onProbed: undefined, shard: undefined });
    noiseRequests = second.requests;
    const secondById = new Map(second.rules.map((result) => [result.id, result]));
    const firstById = new Map(first.rules.map((result) => [result.id, result]));
    // The IDs of the two runs of the target correspond once, for every rule: learnt once.
    const known = correspondence(first, second);
    for (const id of again) {
      // A comparison of many exchanges yields between rules: Ctrl-C and SIGTERM are answered.
      await new Promise((resolve) => setImmediate(resolve));
      if (target.interrupted?.()) break;
      const one = firstById.get(id as RuleId);
      const two = secondById.get(id as RuleId);
      if (one && two) for (const key of noiseOf(one, two, known)) noise.add(key);
    }
  }
  // The catalog, not the selection, decides a class: a decision that governs where the exchanges
  // differ, left out of the run (--only, --shard, --smoke), is checked on both sides too, and its
  // verdicts join the report as rules consulted.
  const consult = target.interrupted?.() ? [] : decisionsToConsult(first, other, noise);
  if (consult.length > 0) {
    const quiet = { onResult: undefined, onStart: undefined, onProbed: undefined, requestCount: undefined, shard: undefined, only: consult.join(',') };
    const [ours, theirs] = await Promise.all([runSuite({ ...target, ...differential, ...quiet }), runSuite({ ...compare, ...differential, ...quiet })]);
    for (const [into, from] of [[first, ours], [other, theirs]] as const) {
      into.rules.push(...from.rules.map((result) => ({ ...result, consulted: true })));
      into.rules.sort(inCatalogOrder);
      into.requests += from.requests;
      into.summary = summarize(into.rules);
    }
  }
  // A must difference the breaking side's expectations file lists is named as listed, with its entry.
  const listed = (side: SuiteOptions, report: typeof first, rule: string) => {
    if (!report.rules.find((result) => result.id === rule)?.expected) return undefined;
    const entry = side.expectations?.expected_failures[rule];
    return typeof entry === 'string' ? entry : entry?.why;
  };
  const differences = differencesOf(first, other, noise).map((difference) => {
    if (difference.class !== 'must') return difference;
    const expected = difference.side === 'target' ? listed(target, first, difference.rule) : listed(compare, other, difference.rule);
    return expected === undefined ? difference : { ...difference, expected };
  });
  const ignored = differencesOf(first, other).filter((difference) => difference.at !== undefined).length - differences.filter((difference) => difference.at !== undefined).length;
  // The report keeps each difference's exchanges; the rules' whole records were for comparing.
  const bare = (result: RuleResult): RuleResult => {
    const { exchanges: _exchanges, replayed: _replayed, ...rest } = result;
    return rest;
  };
  return {
    ...first,
    rules: first.rules.map(bare),
    compare: {
      target: other.target, feature_level: other.feature_level, zulip_version: other.zulip_version, run_prefix: other.run_prefix, reference: other.reference,
      summary: other.summary, requests: other.requests, rules: other.rules.map((result) => ({ id: result.id, status: result.status, message: result.message })),
    },
    differences,
    noise: { rules_checked_again: again, differences_ignored: Math.max(0, ignored), requests: noiseRequests },
  };
}

