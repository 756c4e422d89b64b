// npm run power -- [--seeds N] [--from S] [--faults PATTERN] [--smoke] [--orders] [--through-target] [--runs N] [--jobs N] [--json FILE]
//
// Power that does not depend on luck: every seeded fault of a must rule (reference/faults/faults.ts,
// the rules' own and the power faults) against the reference, once for every seed, with the
// fault's area run as a default run (or a smoke run) would run it. A fault its own rule does not
// catch at some seed is a blind spot of the suite: each is listed with the seed and the command
// that replays it. With --orders each is also run with the area's rules shuffled and with its rule
// alone: no rule may depend on what an earlier one left. With --through-target each run checks the
// reference as a --target does, taking the server's lease and watching it with the witness, so that
// a fault of shared state must still fail its rule (exit 1), never be excused as another client's
// change. Exit 1 when a fault went uncaught.

import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { FAULTS, POWER_FAULTS, faultNamed, selectionOf } from '../reference/faults/faults.js';
import { targetProfile } from '../reference/http/boot.js';
import { startReference } from '../reference/http/server.js';
import { DEFAULT_RUNS } from '../conformance/run/harness.js';
import { RULES } from '../conformance/rules.js';
import { counted } from '../conformance/report/json.js';
import { runSuite } from '../conformance/suite.js';
import { inProcesses, serveTasks } from './workers.js';

export interface PowerTask {
  readonly fault: string;
  readonly seed: number;
  readonly smoke: boolean;
  readonly runs: number;
  /** The area in the catalog's order, shuffled by the seed, or the fault's rule alone. */
  readonly order: 'catalog' | 'shuffled' | 'alone';
  /** As a --target is checked: with the server's lease and its witness. */
  readonly throughTarget?: boolean;
}

export interface PowerFinding {
  readonly task: PowerTask;
  /** The status of the fault's own rule: fail when caught. */
  readonly status: string;
  readonly requests: number;
}

/** The faults whose rule is a must rule: what the suite exists to catch at every seed. */
export function mustFaults(pattern = ''): string[] {
  const must = new Set(RULES.filter((rule) => rule.severity === 'must').map((rule) => rule.id as string));
  return [...Object.keys(FAULTS), ...Object.keys(POWER_FAULTS)].filter((name) => must.has(faultNamed(name)!.rule) && name.includes(pattern));
}

/** The command that runs the task again: the reference with the fault, and the suite against it. */
export function replayOf(task: PowerTask): string {
  const fault = faultNamed(task.fault)!;
  const level = fault.level === undefined ? '' : ` --feature-level ${fault.level}`;
  const only = selectionOf(fault.rule, fault, task.order === 'alone');
  return `TEAMCHAT_FAULTS=${task.fault} npm start -- --port 9991${level} & npm run conformance -- --target http://127.0.0.1:9991 --profile <the reference's profile> --only '${only}' --seed ${task.seed}${task.smoke ? ' --smoke' : ` --runs ${task.runs}`}${task.order === 'shuffled' ? ' --shuffle' : ''}`;
}

export async function powerOne(task: PowerTask): Promise<PowerFinding> {
  const fault = faultNamed(task.fault)!;
  const reference = await startReference({ port: 0, faults: new Set([task.fault]), featureLevel: fault.level, dialect: fault.dialects?.[0] ?? 'zulip' });
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    const report = await runSuite({
      target: reference.url, credentials: profile.users, embedded: !task.throughTarget, seed: task.seed, runs: task.runs, smoke: task.smoke, shuffle: task.order === 'shuffled',
      only: selectionOf(fault.rule, fault, task.order === 'alone'), replayPath: null, decisions: false, rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
    });
    const own = report.rules.find((rule) => rule.id === fault.rule);
    return { task, status: own?.status ?? 'absent', requests: report.requests };
  } finally {
    await reference.close();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string' }, from: { type: 'string' }, faults: { type: 'string' }, smoke: { type: 'boolean' }, orders: { type: 'boolean' },
      runs: { type: 'string' }, jobs: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean' }, 'through-target': { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write('npm run power -- [--seeds N] [--from S] [--faults PATTERN] [--smoke] [--orders] [--through-target] [--runs N] [--jobs N] [--json FILE]\n');
    return 0;
  }
  const count = Number(values.seeds ?? 50);
  const from = Number(values.from ?? 1);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(from)) {
    process.stderr.write('power: --seeds takes a whole number of at least 1, --from a whole number\n');
    return 2;
  }
  const smoke = values.smoke ?? false;
  const runs = Number(values.runs ?? (smoke ? 1 : DEFAULT_RUNS));
  const faults = mustFaults(values.faults ?? '');
  if (faults.length === 0) {
    process.stderr.write(`power: no fault of a must rule matches ${JSON.stringify(values.faults)}\n`);
    return 2;
  }
  const jobs = Math.max(1, Number(values.jobs ?? availableParallelism()));
  const orders = values.orders ? (['catalog', 'shuffled', 'alone'] as const) : (['catalog'] as const);
  const throughTarget = values['through-target'] ?? false;
  const tasks: PowerTask[] = faults.flatMap((fault) => Array.from({ length: count }, (_, index) => orders.map((order) => ({ fault, seed: from + index, smoke, runs, order, throughTarget }))).flat());
  process.stdout.write(`power: ${counted(faults.length, 'fault')} × seeds ${from}–${from + count - 1}${values.orders ? ' × the area in order, shuffled and the rule alone' : ''}, ${smoke ? 'smoke' : `${counted(runs, 'random case')} per property`}: ${counted(tasks.length, 'run')} in ${counted(jobs, 'process', 'processes')}\n`);
  const started = performance.now();
  const findings: PowerFinding[] = [];
  await inProcesses<PowerTask, PowerFinding>(new URL(import.meta.url).pathname, tasks, jobs, (finding) => void findings.push(finding));
  let blind = 0;
  for (const fault of faults) {
    const mine = findings.filter((finding) => finding.task.fault === fault).sort((a, b) => a.task.seed - b.task.seed || a.task.order.localeCompare(b.task.order));
    const missed = mine.filter((finding) => finding.status !== 'fail');
    if (missed.length > 0) blind++;
    process.stdout.write(`  ${missed.length === 0 ? 'caught' : 'MISSED'} ${mine.length - missed.length}/${mine.length}  ${fault}: ${faultNamed(fault)!.does}\n`);
    for (const finding of missed) process.stdout.write(`       seed ${finding.task.seed}${values.orders ? ` (${finding.task.order})` : ''}: ${finding.status}; replay: ${replayOf(finding.task)}\n`);
  }
  const requests = findings.map((finding) => finding.requests);
  process.stdout.write(`power: ${faults.length - blind} of ${faults.length} faults caught at every seed (${Math.round((performance.now() - started) / 1000)} s; most requests in one run: ${Math.max(...requests)})\n`);
  if (values.json) writeFileSync(values.json, JSON.stringify({ smoke, runs, seeds: { from, count }, findings }, null, 2) + '\n');
  return blind === 0 ? 0 : 1;
}

if (process.argv.includes('--worker')) serveTasks(powerOne, (task: PowerTask, error): PowerFinding => ({ task, status: `harness: ${(error as Error)?.message ?? String(error)}`, requests: 0 }));
else if (process.argv[1] === new URL(import.meta.url).pathname) main().then((code) => process.exit(code), (error) => {
  process.stderr.write(`power: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(2);
});
