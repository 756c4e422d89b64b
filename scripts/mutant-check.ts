// A recorded mutation verdict run again: the mutant Stryker would make at the recorded place is made
// with Stryker's instrumenter (which reads the active mutant from __STRYKER_ACTIVE_MUTANT__, as
// under Stryker), in a copy of the built project, and the per-mutant runner (scripts/mutant-run.ts)
// runs the area's rules against it. The verdict must be the record's: caught by a must rule, or
// not, and where caught, by one of the rules the record names. npm test runs a sample drawn from
// the date (scripts/mutant-check.test.ts); `node dist/scripts/mutant-check.js AREA [N]` runs N of
// one area.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { CLASSES_FILE, failedRules, isOwnRule, planOf, reportName, runKey, runsOf, STOPPED } from './mutant-run.js';
import { AREAS, MODULES, builtModule, caughtByMust, classAt, isCurrent, readVerdicts, samePlace, type Area, type Place, type Verdict } from './mutation.js';

const noop = () => {};
const quiet = { debug: noop, info: noop, warn: noop, error: noop, trace: noop, fatal: noop, isDebugEnabled: () => false, isTraceEnabled: () => false, isInfoEnabled: () => false, isWarnEnabled: () => false, isErrorEnabled: () => false, isFatalEnabled: () => false };

/** The statuses a re-run can tell again: a run that hung or could not start is not one. */
const TOLD = new Set(['Killed', 'Survived']);

export interface Recheck {
  readonly area: string;
  readonly verdict: Verdict;
  /** The must rules that failed in the re-run, in the run that stopped it (none: it survived). */
  readonly must: readonly string[];
  /** Why the re-run's verdict is not the record's, or null. */
  readonly differs: string | null;
}

/** Mutants drawn from the recorded verdicts of the areas as built now, by a seed: one caught by a must rule and one not, per area asked. */
export function drawMutants(seed: number, areas: readonly string[], perArea = 1): Array<{ area: string; verdict: Verdict }> {
  const drawn: Array<{ area: string; verdict: Verdict }> = [];
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0);
  for (const entry of readVerdicts().filter((one) => isCurrent(one) && areas.includes(one.area))) {
    // What the scores rest on: a mutant outside the spec counts in none, and runs once.
    const located = classAt(entry.area, readFileSync(builtModule(entry.area), 'utf8'));
    for (const caught of [true, false]) {
      // A catch re-checked is one the area's own rules made: a mutant only the general rules caught
      // broke the server whole (it hangs, it answers nothing), which any run sees, and whose runs
      // wait out their timeouts (two minutes of npm test).
      const pool = entry.verdicts.filter((verdict) => TOLD.has(verdict.status) && caughtByMust(verdict) === caught && located(verdict).kind !== 'outside' && (!caught || verdict.must.some((id) => isOwnRule(entry.area, id))));
      for (let index = 0; index < perArea && pool.length > 0; index++) drawn.push({ area: entry.area, verdict: pool.splice(next() % pool.length, 1)[0]! });
    }
  }
  return drawn;
}

/**
 * What the re-run saw when the mutant crashed or hung the reference, which ended the run without a
 * report: a detection that names no rule. It agrees with any must rule's catch in the record (a
 * record made before the suite ended such runs named the rules that then failed with the server).
 */
export const REFERENCE_STOPPED = 'the reference stopped (the mutant crashed or hung it: no report)';

/** Why the must rules a re-run saw fail make another verdict than the record's, or null. */
export function differsFrom(verdict: Verdict, must: readonly string[]): string | null {
  const caught = must.length > 0;
  if (caught !== caughtByMust(verdict)) return caught ? `recorded as not caught by a must rule; now ${[...new Set(must)].join(', ')} catch it` : `recorded as caught by ${verdict.must.join(', ')}; now no must rule catches it`;
  return caught && !must.some((id) => id === REFERENCE_STOPPED || verdict.must.includes(id)) ? `recorded as caught by ${verdict.must.join(', ')}; now by ${[...new Set(must)].join(', ')}` : null;
}

/**
 * What Stryker makes of a built module: its mutants by place (counted from 1, as its reports count),
 * and the module with every one of them in it, switched on by __STRYKER_ACTIVE_MUTANT__. Only the
 * instrumenter's logger is given: Stryker's plugin machinery is not needed for it.
 */
export async function instrumented(name: string, content: string): Promise<{ readonly content: string; readonly mutants: ReadonlyArray<Place & { readonly id: string }> }> {
  const result = await new Instrumenter(quiet as never).instrument([{ name, content, mutate: true }], { ignorers: [], plugins: null, excludedMutations: [] } as never);
  return {
    content: result.files[0]!.content,
    // The instrumenter counts lines and columns from 0.
    mutants: result.mutants.map((mutant) => ({ id: mutant.id, line: mutant.location.start.line + 1, column: mutant.location.start.column + 1, end: `${mutant.location.end.line + 1}:${mutant.location.end.column + 1}`, mutator: mutant.mutatorName, replacement: mutant.replacement ?? '' })),
  };
}

/** Runs one recorded mutant again, in a copy of the built project under `root`, removed afterwards. */
export async function recheck(area: string, verdict: Verdict, runs: number, root = process.cwd(), runner = 1, baseline: Readonly<Record<string, readonly string[]>> = {}): Promise<Recheck> {
  const module = builtModule(area);
  const made = await instrumented(module, readFileSync(join(root, module), 'utf8'));
  const mutant = made.mutants.find((one) => samePlace(one, verdict));
  if (!mutant) return { area, verdict, must: [], differs: 'Stryker makes no such mutant of the module as built now' };
  // The copy sits inside the project, so that its modules find the project's node_modules.
  const copy = mkdtempSync(join(resolve(root), '.mutant-check-'));
  try {
    cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
    for (const name of ['fixtures', 'docs', 'package.json']) if (existsSync(join(root, name))) symlinkSync(resolve(root, name), join(copy, name));
    writeFileSync(join(copy, module), made.content);
    const reports = join(copy, 'reports');
    // The mutant's class, as the run gave it: an open point's runs end at its first catch.
    mkdirSync(reports, { recursive: true });
    writeFileSync(join(reports, CLASSES_FILE), JSON.stringify({ [mutant.id]: classAt(area, readFileSync(join(root, module), 'utf8'))(mutant).kind }));
    // And what failed against the unmutated reference in each run, as the record keeps it: the
    // runner subtracts it, as it did (the alternate dialect's decisions).
    for (const run of planOf(area, runner)) {
      const failed = baseline[runKey(run)] ?? [];
      writeFileSync(reportName(reports, 'none', run, runner), JSON.stringify({ rules: failed.map((id) => ({ id, severity: 'decision', status: 'fail' })) }));
    }
    // The record's runner makes the runs it made; only must rules decide the verdict compared.
    const survivorRecheck = !caughtByMust(verdict);
    const { status } = spawnSync(process.execPath, [join(copy, 'dist/scripts/mutant-run.js'), area, String(runs), reports], { cwd: copy, stdio: 'ignore', env: { ...process.env, __STRYKER_ACTIVE_MUTANT__: mutant.id, TEAMCHAT_MUTANT_RUNNER: String(runner), ...(survivorRecheck ? { TEAMCHAT_MUTANT_TOP_ONLY: '1' } : {}) } });
    const named = runsOf(area, runner, { survivorRecheck }).flatMap((run) => failedRules(reportName(reports, mutant.id, run, runner)).filter((rule) => rule.severity === 'must').map((rule) => rule.id));
    // A run the mutant crashed or hung ends without a report: caught, by no rule it can name.
    const must = status === STOPPED ? [...named, REFERENCE_STOPPED] : named;
    return { area, verdict, must: [...new Set(must)], differs: differsFrom(verdict, must) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const [area, count] = process.argv.slice(2);
  if (!area || !(AREAS as readonly string[]).includes(area)) {
    process.stderr.write(`usage: node dist/scripts/mutant-check.js AREA [N]: AREA one of ${AREAS.join(', ')}\n`);
    return 2;
  }
  const entry = readVerdicts().find((one) => one.area === area && isCurrent(one));
  if (!entry) {
    process.stderr.write(`teamchat mutant-check: no verdicts recorded for reference/${MODULES[area as Area]}.ts as built now\n`);
    return 2;
  }
  let differing = 0;
  for (const { verdict } of drawMutants(Number(process.env.TEAMCHAT_MUTANT_SEED ?? Date.now()), [area], Number(count ?? 2))) {
    const found = await recheck(area, verdict, entry.runs, process.cwd(), entry.runner ?? 1, entry.baseline);
    if (found.differs) differing++;
    process.stdout.write(`${area} ${verdict.line}:${verdict.column} ${verdict.mutator} → ${JSON.stringify(verdict.replacement)}: ${found.differs ?? 'as recorded'}\n`);
  }
  return differing > 0 ? 1 : 0;
}

if (process.argv[1] === new URL(import.meta.url).pathname) process.exit(await main());
