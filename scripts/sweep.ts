// npm run sweep -- [--seeds N] [--from S] [--dialects zulip,alternate,random] [--levels boundary|all|N,N]
//                  [--runs N] [--only PATTERN] [--smoke] [--together] [--jobs N] [--json FILE]
//
// A seed sweep: the default suite against the reference, once for every seed in every dialect,
// each at one boundary feature level (the levels taken in turn, so that a sweep of a few seeds
// per level meets them all). Every dialect is a conforming server, so a must rule that does not
// pass is a bug of the suite (or of the reference): each is listed with its seed and the command
// that replays it. In Zulip's dialect the decisions are checked too (they are Zulip's choices);
// the random dialect draws its choices from the run's seed. Exit 1 when anything did not pass.

import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { targetProfile } from '../reference/http/boot.js';
import { BOUNDARY_LEVELS } from '../reference/model/levels.js';
import { startReference } from '../reference/http/server.js';
import { skippedByDesign } from '../conformance/run/harness.js';
import { counted } from '../conformance/report/json.js';
import { runSuite } from '../conformance/suite.js';
import { inProcesses, serveTasks } from './workers.js';

type Dialect = 'zulip' | 'alternate' | 'random';

export interface SweepTask {
  readonly seed: number;
  readonly dialect: Dialect;
  readonly level: number;
  readonly runs: number;
  /** The rules run (--only), all when absent. */
  readonly only?: string;
  readonly smoke?: boolean;
  /** Two runs at once against one reference (the seed and the next), each as a --target run with its lease. */
  readonly together?: boolean;
}

export interface SweepFinding {
  readonly task: SweepTask;
  /** Rules that did not pass and were not rightly skipped: `id status message`. */
  readonly problems: string[];
  readonly duration_ms: number;
}

/** The command that runs the task again through the suite's CLI. */
export function replayOf(task: SweepTask, rule?: string): string {
  const parts = ['npm run conformance --', `--reference-level ${task.level}`, `--reference-dialect ${task.dialect}`, `--seed ${task.seed}`, `--runs ${task.runs}`];
  if (task.dialect === 'zulip') parts.push('--decisions');
  if (task.smoke) parts.push('--smoke');
  if (rule ?? task.only) parts.push(`--only '${rule ?? task.only}'`);
  if (task.together) {
    // Two runs at once against one server, each taking its lease as a --target run does.
    const target = `--target http://127.0.0.1:9991 --profile <the reference's profile> --create-users --seed`;
    const rest = parts.slice(4).join(' ');
    return `npm start -- --port 9991 --feature-level ${task.level} --dialect ${task.dialect}${task.dialect === 'random' ? ` --dialect-seed ${task.seed}` : ''} & npm run conformance -- ${target} ${task.seed} ${rest} & npm run conformance -- ${target} ${task.seed + 1} ${rest}`;
  }
  return parts.join(' ');
}

/** One task, in this process: the reference started, the suite run, what did not pass. */
export async function sweepOne(task: SweepTask): Promise<SweepFinding> {
  const started = performance.now();
  const reference = await startReference({ port: 0, featureLevel: task.level, dialect: task.dialect, dialectSeed: task.seed });
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    const run = (seed: number) => runSuite({
      target: reference.url, credentials: profile.users, embedded: !task.together, seed, runs: task.runs, only: task.only ?? null, smoke: task.smoke, replayPath: null,
      decisions: task.dialect === 'zulip', rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
    });
    const reports = task.together ? await Promise.all([run(task.seed), run(task.seed + 1)]) : [await run(task.seed)];
    const problems = reports.flatMap((report, index) => [
      ...report.rules.filter((rule) => rule.status !== 'pass' && !skippedByDesign(rule)).map((rule) => `${rule.id} ${rule.status} (${rule.severity}): ${task.together ? `(the run of seed ${task.seed + index}) ` : ''}${rule.message.slice(0, 300)}`),
      ...report.cleanup.problems.map((problem) => `cleanup: ${problem}`),
    ]);
    return { task, problems, duration_ms: Math.round(performance.now() - started) };
  } finally {
    await reference.close();
  }
}

/** The tasks of a sweep: every seed in every dialect, the levels in turn. */
export function sweepTasks(seeds: readonly number[], dialects: readonly Dialect[], levels: readonly number[], runs: number, only?: string, smoke?: boolean, together?: boolean): SweepTask[] {
  return seeds.flatMap((seed, index) => dialects.map((dialect, turn) => ({ seed, dialect, level: levels[(index * dialects.length + turn) % levels.length]!, runs, ...(only ? { only } : {}), ...(smoke ? { smoke } : {}), ...(together ? { together } : {}) })));
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string' }, from: { type: 'string' }, dialects: { type: 'string' }, levels: { type: 'string' },
      runs: { type: 'string' }, only: { type: 'string' }, smoke: { type: 'boolean' }, together: { type: 'boolean' }, jobs: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write('npm run sweep -- [--seeds N] [--from S] [--dialects zulip,alternate,random] [--levels boundary|all|N,N] [--runs N] [--only PATTERN] [--smoke] [--together] [--jobs N] [--json FILE]\n');
    return 0;
  }
  const count = Number(values.seeds ?? 10);
  const from = values.from !== undefined ? Number(values.from) : Math.floor(Math.random() * 2 ** 31);
  const seeds = Array.from({ length: count }, (_, index) => (from + index * 7919) % 2 ** 31);
  const dialects = (values.dialects ?? 'zulip,alternate,random').split(',') as Dialect[];
  const levels = !values.levels || values.levels === 'boundary' ? BOUNDARY_LEVELS : values.levels.split(',').map(Number);
  // As the CLI: a smoke run takes one random case per property unless --runs says otherwise.
  const runs = Number(values.runs ?? (values.smoke ? 1 : 15));
  const jobs = Math.max(1, Number(values.jobs ?? availableParallelism()));
  const tasks = sweepTasks(seeds, dialects, levels, runs, values.only, values.smoke, values.together);
  process.stdout.write(`sweep: ${counted(seeds.length, 'seed')} from ${from} × ${dialects.join(', ')}, at ${counted(levels.length, 'level')} in turn, ${values.smoke ? 'smoke runs' : `${counted(runs, 'random case')} per property`}${values.only ? `, only ${values.only}` : ''}${values.together ? ', two runs at once against each reference' : ''}: ${counted(tasks.length, 'run')} in ${counted(jobs, 'process', 'processes')}\n`);
  const started = performance.now();
  const findings: SweepFinding[] = [];
  await inProcesses<SweepTask, SweepFinding>(new URL(import.meta.url).pathname, tasks, jobs, (finding) => {
    findings.push(finding);
    const mark = finding.problems.length === 0 ? 'ok  ' : 'FAIL';
    process.stdout.write(`  ${mark} seed ${finding.task.seed} ${finding.task.dialect} level ${finding.task.level} (${finding.duration_ms} ms)${finding.problems.map((problem) => `\n       ${problem}`).join('')}\n`);
  });
  const failing = findings.filter((finding) => finding.problems.length > 0);
  const must = failing.filter((finding) => finding.problems.some((problem) => problem.includes('(must)') || problem.startsWith('harness') || problem.startsWith('cleanup')));
  process.stdout.write(`\n${counted(findings.length, 'run')} in ${((performance.now() - started) / 1000).toFixed(0)} s: ${findings.length - failing.length} clean, ${must.length} with a must rule (or the harness, or cleanup) not passing, ${failing.length - must.length} with only decisions not passing\n`);
  for (const finding of failing) {
    for (const problem of finding.problems) process.stdout.write(`  ${problem.split(':')[0]}\n    replay: ${replayOf(finding.task, problem.split(' ')[0])}\n`);
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ from, seeds: seeds.length, dialects, levels, runs, findings }, null, 2) + '\n');
  return failing.length > 0 ? 1 : 0;
}

if (process.argv.includes('--worker')) serveTasks(sweepOne, (task: SweepTask, error): SweepFinding => ({ task, problems: [`harness: ${(error as Error)?.stack ?? String(error)}`], duration_ms: 0 }));
else if (process.argv[1] === new URL(import.meta.url).pathname) main().then((code) => process.exit(code), (error) => {
  process.stderr.write(`sweep: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(2);
});
