// node dist/scripts/mutant-run.js AREA RUNS DIR: the test of one mutant in `npm run mutation`.
//
// The suite's checks of the area and the general rules, which every operation keeps (envelope,
// authentication, ignored parameters), against the reference Stryker mutated: at seeds 1, 2 and 3,
// each in Zulip's dialect with the decisions, then in the alternate dialect. Each run writes its
// JSON report to DIR as MUTANT.sSEED.DIALECT.json (MUTANT: Stryker's active mutant, `none` for
// the unmutated reference), so that the verdict names every rule that caught it. It stops at the
// first run a must rule fails: the mutant is caught, and more seeds would not change its class.
// Exits 0 when every run passed.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SEEDS = [1, 2, 3] as const;
export const DIALECTS = ['zulip', 'alternate'] as const;

/** The report of one run of one mutant. */
export const reportName = (dir: string, mutant: string, seed: number, dialect: string) => join(dir, `${mutant}.s${seed}.${dialect}.json`);

/**
 * The selection of an area's runs: its rules and the general ones. A module the operations share
 * is checked by the rules its code keeps: the settings tables by the defaults' and the drafts'
 * (synchronization switched off deletes the drafts), users by the defaults' (new users) and the
 * drafts' (own data is told to the user's other clients), and the
 * general ones (administrators), messages and channels by the flags', the HTTP layer by the
 * general ones.
 */
const SHARED: Readonly<Record<string, string>> = { settings: 'defaults.*,drafts.*', users: 'defaults.*,drafts.*', messages: 'flags.*', channels: 'flags.*' };
export const areaSelection = (area: string) => (area === 'general' ? 'general.*' : `${SHARED[area] ?? `${area}.*`},general.*`);

function main(): number {
  const [area, runs, dir] = process.argv.slice(2);
  if (!area || !runs || !dir) {
    process.stderr.write('usage: node dist/scripts/mutant-run.js AREA RUNS DIR\n');
    return 2;
  }
  const mutant = process.env.__STRYKER_ACTIVE_MUTANT__ || 'none';
  let passed = true;
  for (const seed of SEEDS) {
    for (const dialect of DIALECTS) {
      const json = reportName(dir, mutant, seed, dialect);
      const args = ['dist/conformance/main.js', '--only', areaSelection(area), '--reference-dialect', dialect, ...(dialect === 'zulip' ? ['--decisions'] : []), '--seed', String(seed), '--runs', runs, '--quiet', '--json', json];
      const run = spawnSync(process.execPath, args, { stdio: 'ignore', timeout: 120_000 });
      if (run.status === 0) continue;
      passed = false;
      // No report: the suite could not run against the mutant (it hung or crashed the reference).
      if (!existsSync(json)) return 1;
      const { rules } = JSON.parse(readFileSync(json, 'utf8')) as { rules: Array<{ severity: string; status: string }> };
      if (rules.some((rule) => rule.severity === 'must' && (rule.status === 'fail' || rule.status === 'error'))) return 1;
    }
  }
  return passed ? 0 : 1;
}

if (process.argv[1] === new URL(import.meta.url).pathname) process.exit(main());
