// node dist/scripts/mutant-run.js AREA RUNS DIR: the test of one mutant in `npm run mutation`.
//
// The suite's checks of the area, the general rules, which every operation keeps (envelope,
// authentication, ignored parameters), and the organization's model, against the reference Stryker
// mutated, run by run as the runner's plan says (`planOf`): at level 415 at seeds 1, 2 and 3, then
// at each edge level of the area's must rules at seed 1 (and the settings tables' rules at each
// level where the tables change), each in Zulip's dialect and in the alternate one, both with the
// decisions. Each run writes its JSON report to DIR as MUTANT.sSEED.DIALECT.lLEVEL.json (MUTANT:
// Stryker's active mutant, `none` for the unmutated reference, whose reports are the baseline), so
// that the verdict names every rule that caught it. A spec mutant's runs stop at the first must
// rule that fails, an open point's at the first rule, and a mutant outside the spec runs once
// (`runsOf`): more runs would not change its score; an equivalent or gap the lists explain makes
// level 415's runs at seed 1 alone, which tell whether the list is still true. A decision the
// alternate dialect decides otherwise fails in its baseline too: a rule catches a mutant only where
// it fails and passed in the baseline's same run. Exits 0 when no rule caught the mutant.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../conformance/rules.js';
import { TABLE_LEVELS } from '../conformance/checks/settings.js';

export const SEEDS = [1, 2, 3] as const;
export const DIALECTS = ['zulip', 'alternate'] as const;
/** The level every runner runs first: the reference's own. */
export const TOP_LEVEL = 415;

/**
 * Which runs a mutant's test makes, by version. The version is recorded with each area's verdicts
 * (a re-check runs the record's plan): 1, level 415 alone, the alternate dialect without the
 * decisions; 2, the edge levels too, and both dialects with the decisions; 3, the organization's
 * model in every area's selection, and the settings tables' rules at each level where the tables
 * change; 4, an open point's mutant at level 415 alone (`runsOf`).
 */
export const RUNNER = 4;

export interface Run {
  readonly seed: number;
  readonly dialect: (typeof DIALECTS)[number];
  readonly level: number;
  readonly decisions: boolean;
  /** The rules the run checks (`--only`): the area's selection, or the tables' rules alone. */
  readonly rules: string;
  /** A run of the settings tables' rules alone, at a level where the tables change. */
  readonly tables?: true;
}

/**
 * The module of the settings tables is run, besides, at each level where the spec's tables change
 * (a setting comes or goes, or an enumeration gains a value), by the rules whose statements the
 * tables are: a comparison of levels is seen only at its level. In Zulip's dialect alone: the
 * dialects share the tables (they differ only in events and in the ranges of the integers without
 * an enumeration, which these rules do not read), and a survivor's runs are many already.
 */
const TABLES_AREA = 'settings';
const TABLE_RULES = 'defaults.values-stored,defaults.settings-at-their-levels,defaults.enum-values,defaults.string-values,defaults.value-types';

/**
 * The HTTP layer reads the multipart body of the spec's one operation that has one, the emoji's
 * upload: its files, their count and size, and the whole body's bound around the largest file. The
 * emoji's rules are the ones that send such bodies at their edges (exactly one file part, a file
 * of exactly the limit and one byte more), so they run against the HTTP layer's mutants too.
 */
const MULTIPART_RULES = 'emoji.*';

/**
 * The selection of an area's runs: its rules and the general ones. A module the operations share
 * is checked by the rules its code keeps: the settings tables by the defaults' and the drafts'
 * (synchronization switched off deletes the drafts), users by the defaults' (new users) and the
 * drafts' (own data is told to the user's other clients) and the general ones (administrators),
 * messages and channels by the flags', a message's addresses by the scheduled messages', the HTTP
 * layer by the general ones and the emoji's (MULTIPART_RULES). From runner 3 the
 * organization's model is in every selection, the HTTP layer's included (it uploads emoji, the one
 * multipart body, and sends every operation's form): its actors issue every
 * operation of the spec, change their settings and the defaults, send mentions and alert words,
 * and leave and join a channel, and after each step it reads every actor's drafts, scheduled
 * messages, settings and flags, so that a mutant is caught wherever a must rule can see it.
 */
const SHARED: Readonly<Record<string, string>> = { settings: 'defaults.*,drafts.*', users: 'defaults.*,drafts.*', messages: 'flags.*', addresses: 'scheduled.*', channels: 'flags.*' };
export function areaSelection(area: string, version: number = RUNNER): string {
  const own = area === 'general' ? `general.*,${MULTIPART_RULES}` : `${SHARED[area] ?? `${area}.*`},general.*`;
  return version >= 3 ? `${own},organization.*` : own;
}

/** The prefixes of an area's own rules: its selection without the general ones and the model (but for the HTTP layer's, whose own they are). */
export const ownRules = (area: string): string[] => (area === 'general' ? 'general.*' : SHARED[area] ?? `${area}.*`).split(',').map((pattern) => pattern.replace(/\*$/, ''));
export const isOwnRule = (area: string, id: string) => ownRules(area).some((prefix) => id.startsWith(prefix));

/**
 * The edge levels of an area: each must rule of its own (the general ones only for the HTTP layer)
 * at its first level and at the last before it ends, but level 415.
 */
export function edgeLevels(area: string): number[] {
  const levels = new Set<number>();
  for (const rule of RULES as ReadonlyArray<{ id: string; severity: string; since?: number; before?: number }>) {
    if (rule.severity !== 'must' || !isOwnRule(area, rule.id)) continue;
    levels.add(rule.since ?? 1);
    if (rule.before !== undefined) levels.add(rule.before - 1);
  }
  levels.delete(TOP_LEVEL);
  return [...levels].sort((a, b) => a - b);
}

/** The runs of a mutant's test under the runner `version`, in their order. */
export function planOf(area: string, version: number = RUNNER): Run[] {
  const rules = areaSelection(area, version);
  const top = SEEDS.flatMap((seed) => DIALECTS.map((dialect) => ({ seed, dialect, level: TOP_LEVEL, decisions: version >= 2 || dialect === 'zulip', rules })));
  if (version < 2) return top;
  const edges = edgeLevels(area).flatMap((level) => DIALECTS.map((dialect) => ({ seed: SEEDS[0], dialect, level, decisions: true, rules })));
  if (version < 3 || area !== TABLES_AREA) return [...top, ...edges];
  return [...top, ...edges, ...TABLE_LEVELS.filter((level) => level !== TOP_LEVEL).map((level) => ({ seed: SEEDS[0], dialect: DIALECTS[0], level, decisions: true, rules: TABLE_RULES, tables: true as const }))];
}

/** A run's name in a record: `s1.alternate.l415`, and `.tables` for a run of the tables' rules alone. */
export const runKey = (run: Run) => `s${run.seed}.${run.dialect}.l${run.level}${run.tables ? '.tables' : ''}`;

/** The report of one run of one mutant (runner 1 wrote no level in the name: its runs were all at 415). */
export const reportName = (dir: string, mutant: string, run: Run, version: number = RUNNER) =>
  join(dir, version < 2 ? `${mutant}.s${run.seed}.${run.dialect}.json` : `${mutant}.${runKey(run)}.json`);

export interface RuleVerdict {
  readonly id: string;
  readonly severity: string;
  readonly status: string;
}

/** A run's report, where it wrote one; none where the run was stopped at its time (RUN_TIMEOUT_MS): what failed then is what the stop cut short. */
function finishedReport(file: string): { rules: RuleVerdict[] } | null {
  if (!existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { rules: RuleVerdict[]; interrupted?: boolean };
  return report.interrupted ? null : report;
}

/** The rules that failed (or ended in error) in a run's report; none where there is no finished report. */
export function failedRules(file: string): RuleVerdict[] {
  return finishedReport(file)?.rules.filter((rule) => rule.status === 'fail' || rule.status === 'error') ?? [];
}

/**
 * How long one run may take before it is taken for a hang: ten times what a run takes on an idle
 * two-core machine, so that a loaded machine does not pass a slow run off as a mutant's hang.
 */
const RUN_TIMEOUT_MS = 300_000;

/**
 * A mutant that loops forever stops the reference's event loop: after this long without a turn the
 * reference ends itself (TEAMCHAT_STALL_EXIT_MS), and the suite with it, without a report, in a
 * minute rather than the run's five. No request of the reference takes a second on a loaded machine.
 */
const STALL_EXIT_MS = 60_000;

/**
 * The rules that caught a mutant in one run: those that failed in its report and not in the
 * baseline's report of the same run (the unmutated reference's, where the directory holds it).
 */
export function caughtIn(dir: string, mutant: string, run: Run, version: number = RUNNER): RuleVerdict[] {
  const baseline = mutant === 'none' ? [] : failedRules(reportName(dir, 'none', run, version));
  return failedRules(reportName(dir, mutant, run, version)).filter((rule) => !baseline.some((clean) => clean.id === rule.id));
}

/**
 * What a run counts against its server: of a mutant, the rules that caught it; of the unmutated
 * reference, what it must keep and did not, every must rule and in Zulip's dialect every decision
 * (the alternate decides otherwise, and its failures there are the mutants' baseline).
 */
export const countedIn = (dir: string, mutant: string, run: Run, version: number = RUNNER): RuleVerdict[] =>
  caughtIn(dir, mutant, run, version).filter((rule) => mutant !== 'none' || rule.severity === 'must' || run.dialect === 'zulip');

/**
 * The runs a mutant makes of its runner's plan: a mutant outside the spec, which no score counts,
 * runs once (its verdict is kept for the record); a re-check of a survivor takes level 415's runs
 * at the first seed, in both dialects (no must rule may catch it there either, and all its runs
 * would cost npm test a minute or two). So does a survivor the lists already explain, an
 * equivalent or a gap of the module as it is (`listed`): its score is that of a survivor whatever
 * more runs would find (an equivalent counts in no score; a gap counts as not caught), and those
 * two runs tell whether the list is still true; the whole plan would make it run 16 to 37 times.
 * From runner 4 an open point's mutant makes level 415's runs alone (every seed, both dialects):
 * it counts only in the score with decisions, of which its verdict is then a lower bound (a
 * decision or must rule that would catch it only at an edge level does not), and the must-only
 * score, the goal, is that of the whole plan still. Its survivors made the whole plan before,
 * most of a run's time in an area with many edge levels (scheduled: 20 runs each).
 */
export function runsOf(area: string, version: number, { kind = 'spec', survivorRecheck = false, listed = false }: { kind?: string; survivorRecheck?: boolean; listed?: boolean } = {}): Run[] {
  const plan = planOf(area, version);
  if (version >= 2 && kind === 'outside') return plan.slice(0, 1);
  if (survivorRecheck || listed) return plan.filter((run) => run.level === TOP_LEVEL && run.seed === SEEDS[0]);
  return version >= 4 && kind === 'open' ? plan.filter((run) => run.level === TOP_LEVEL) : plan;
}

/** The class of each mutant of the run, by Stryker's ID (written by `npm run mutation` before Stryker starts): none, every mutant is spec code. */
export const CLASSES_FILE = 'classes.json';
export function classesIn(dir: string): Readonly<Record<string, string>> {
  const file = join(dir, CLASSES_FILE);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** The mutants the lists explain (equivalents and gaps whose place the module still has), by Stryker's ID, written by `npm run mutation` beside the classes: none, every mutant makes its whole plan. */
export const LISTED_FILE = 'listed.json';
export function listedIn(dir: string): ReadonlySet<string> {
  const file = join(dir, LISTED_FILE);
  return new Set(existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as string[]) : []);
}

/**
 * What a mutation run's reports are of (`npm run mutation -- AREA --resume` goes on only from the
 * same): the hashes of the built module and of the built suite, the runner and the random cases per
 * property.
 */
export const STAMP_FILE = 'stamp.json';
export const stampOf = (moduleHash: string, suiteHash: string, runs: number, version: number = RUNNER) => JSON.stringify({ module: moduleHash, suite: suiteHash, runner: version, runs });

/**
 * A resumed run (TEAMCHAT_MUTANT_RESUME=1, which `--resume` sets) takes a run's finished report
 * where the directory holds one, as the stopped run left it, rather than making the run again: a
 * run exits 0 exactly when its report names no rule that failed or ended in error. A report of a
 * run stopped at its time, or cut off by the stop, is no finished one: that run is made again.
 */
export function resumedStatus(json: string, resume = process.env.TEAMCHAT_MUTANT_RESUME === '1'): number | null {
  if (!resume || !finishedReport(json)) return null;
  return failedRules(json).length > 0 ? 1 : 0;
}

/** The runner's exit when a run left no finished report: the mutant crashed or hung the reference. */
export const STOPPED = 3;

function main(): number {
  const [area, runs, dir] = process.argv.slice(2);
  if (!area || !runs || !dir) {
    process.stderr.write('usage: node dist/scripts/mutant-run.js AREA RUNS DIR\n');
    return 2;
  }
  const mutant = process.env.__STRYKER_ACTIVE_MUTANT__ || 'none';
  const version = Number(process.env.TEAMCHAT_MUTANT_RUNNER ?? RUNNER);
  // A mutant of an open point or of code outside the spec is scored by whether any rule caught it:
  // its first catch ends its runs, as a must rule's ends a spec mutant's.
  const kind = version >= 2 ? classesIn(dir)[mutant] ?? 'spec' : 'spec';
  let caught = false;
  for (const run of runsOf(area, version, { kind, survivorRecheck: Boolean(process.env.TEAMCHAT_MUTANT_TOP_ONLY), listed: version >= 3 && listedIn(dir).has(mutant) })) {
    const json = reportName(dir, mutant, run, version);
    const args = ['dist/conformance/main.js', '--only', run.rules, '--reference-dialect', run.dialect, '--reference-level', String(run.level), ...(run.decisions ? ['--decisions'] : []), '--seed', String(run.seed), '--runs', runs, '--quiet', '--json', json];
    const status = resumedStatus(json) ?? spawnSync(process.execPath, args, { stdio: 'ignore', timeout: RUN_TIMEOUT_MS, env: { ...process.env, TEAMCHAT_STALL_EXIT_MS: String(STALL_EXIT_MS) } }).status;
    if (status === 0) continue;
    // No report, or one of a run stopped at its time: the suite could not run against the mutant
    // (it hung or crashed the reference, which then ended the run). A detection that names no rule
    // (STOPPED: any exit but 0 is a kill to Stryker; the re-check tells it from a rule's catch).
    if (!finishedReport(json)) return STOPPED;
    const rules = countedIn(dir, mutant, run, version);
    if (rules.length > 0) caught = true;
    if (rules.some((rule) => rule.severity === 'must') || (kind !== 'spec' && rules.length > 0)) return 1;
  }
  return caught ? 1 : 0;
}

if (process.argv[1] === new URL(import.meta.url).pathname) process.exit(main());
