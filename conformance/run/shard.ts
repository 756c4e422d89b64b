// --shard I/N: the I-th of N parts of the selected rules, as a CI matrix runs them side by side
// against one server (Playwright's filterForShard). The split is deterministic and balanced by
// each rule's cost (costs.ts). The rules of shared state go together into one part: they take
// turns on the server's lease anyway, so one shard runs them while the others do the rest.

import { RULE_COSTS, SMOKE_COSTS } from './costs.js';
import type { Check } from './harness.js';

export interface Shard {
  /** From 1. */
  readonly index: number;
  readonly total: number;
}

/** `I/N`, as --shard takes it, or why it is not one. */
export function parseShard(text: string): Shard | string {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) return `--shard takes I/N (the I-th of N parts, from 1/N to N/N), not ${JSON.stringify(text)}`;
  const [index, total] = [Number(match[1]), Number(match[2])];
  if (total < 1 || index < 1 || index > total) return `--shard ${text}: I must be from 1 to N, and N at least 1`;
  return { index, total };
}

const MEDIAN_COST = (() => {
  const costs = Object.values(RULE_COSTS).sort((a, b) => a - b);
  return costs[Math.floor(costs.length / 2)] ?? 1;
})();

/** A rule's cost: the requests it made in a default run against the reference (a rule not measured yet costs the median). */
export const costOf = (check: Check) => (RULE_COSTS as Record<string, number>)[check.rule] ?? MEDIAN_COST;

/** The most requests a rule made in the smoke runs measured (a rule not measured yet: the most any did). */
export const smokeCostOf = (check: Check) => (SMOKE_COSTS as Record<string, number>)[check.rule] ?? Math.max(...Object.values(SMOKE_COSTS), 40);

/** The checks of one shard, in the order they were given; every check is in exactly one shard. */
export function shardOf(checks: readonly Check[], shard: Shard): Check[] {
  const shared = checks.filter((check) => check.shares.length > 0);
  const units: Check[][] = [...(shared.length > 0 ? [shared] : []), ...checks.filter((check) => check.shares.length === 0).map((check) => [check])];
  const cost = (unit: readonly Check[]) => unit.reduce((sum, check) => sum + costOf(check), 0);
  // The longest first, each to the shard with the least so far (the lowest index on a tie).
  units.sort((a, b) => cost(b) - cost(a) || (a[0]!.rule < b[0]!.rule ? -1 : 1));
  const loads = Array.from({ length: shard.total }, () => 0);
  const mine = new Set<Check>();
  for (const unit of units) {
    const lightest = loads.indexOf(Math.min(...loads));
    loads[lightest]! += cost(unit);
    if (lightest === shard.index - 1) for (const check of unit) mine.add(check);
  }
  return checks.filter((check) => mine.has(check));
}

/** The CI systems whose pipeline ID every job of one pipeline shares, and what the ID names. */
const PIPELINES: ReadonlyArray<readonly [string, string]> = [
  ['GITHUB_RUN_ID', 'GitHub Actions run'],
  ['CI_PIPELINE_ID', 'GitLab pipeline'],
  ['BUILDKITE_BUILD_ID', 'Buildkite build'],
  ['CIRCLE_WORKFLOW_ID', 'CircleCI workflow'],
  ['BUILD_BUILDID', 'Azure Pipelines build'],
  ['BUILD_TAG', 'Jenkins build'],
];

/**
 * The seed the shards of one CI pipeline share when none is given: drawn from the pipeline's
 * ID, so that every shard, and a shard run again, draws the same cases and the merge takes them
 * for one run. Null outside a pipeline this knows.
 */
export function pipelineSeed(env: Readonly<Record<string, string | undefined>>): { seed: number; from: string } | null {
  for (const [name, what] of PIPELINES) {
    const id = env[name];
    if (!id) continue;
    // FNV-1a over the variable and its value, to the 31 bits a seed takes.
    let hash = 0x811c9dc5;
    for (const byte of Buffer.from(`${name}=${id}`)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
    return { seed: hash & 0x7fffffff, from: `${what} ${id} (${name})` };
  }
  return null;
}
