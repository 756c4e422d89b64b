// npm run bench:compare [-- --seed N --runs N --rounds N]
//
// A whole differential run (--compare URL --decisions), timed beside plain runs of each server, as
// a user comparing two servers of their own would run them: two references by URL, Zulip's
// dialect and the alternate, each a process of its own, the suite's CLI a third. Each run gets
// fresh servers. Measured: wall time, the client's CPU (its CPU as a reaped child), each server's
// CPU, requests, and the differences by class. The bound: the differential run in at most three
// times the plain run of the slower server. Rounds rotate the order; each figure's fastest round is
// its estimate (a busy machine only slows a round down), the ratio's median beside it.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const here = new URL('.', import.meta.url).pathname;
const BOUND = 3;

function usage(message: string): never {
  process.stderr.write(`teamchat bench:compare: ${message}; usage: npm run bench:compare -- [--seed N] [--runs N] [--rounds N]\n`);
  process.exit(2);
}

let values: { seed?: string; runs?: string; rounds?: string };
try {
  ({ values } = parseArgs({ options: { seed: { type: 'string' }, runs: { type: 'string' }, rounds: { type: 'string' } } }));
} catch (error) {
  usage((error as Error).message.split('\n')[0]!);
}
const whole = (text: string | undefined, fallback: number, name: string, min: number) => {
  const value = Number(text ?? fallback);
  if (!Number.isInteger(value) || value < min) usage(`--${name} ${text}: give a whole number, at least ${min}`);
  return value;
};
const SEED = whole(values.seed, 11, 'seed', 0);
const RUNS = whole(values.runs, 15, 'runs', 1);
const ROUNDS = whole(values.rounds, 1, 'rounds', 1);

/** CPU seconds of this process's reaped children so far (utime and stime of /proc/self/stat: cutime, cstime). */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** A process's CPU seconds so far (utime, stime). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Server { readonly child: ChildProcess; readonly url: string; readonly profile: string }

async function startServer(folder: string, name: string, dialect: string): Promise<Server> {
  const profile = join(folder, `${name}.json`);
  const child = spawn(process.execPath, [`${here}../reference/main.js`, '--port', '0', '--dialect', dialect, '--profile-out', profile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(text);
      if (found) resolve(found[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the ${dialect} reference ended (exit ${code}) before it listened`)));
  });
  return { child, url, profile };
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const ended = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await ended;
}

interface Measure { readonly wall: number; readonly clientCpu: number; readonly serverCpu: number[]; readonly requests: number; readonly exit: number; readonly report: any }

/** The suite's CLI once, with these arguments and a JSON report: wall time, its CPU, the servers' CPU. */
async function cli(args: string[], servers: Server[], folder: string): Promise<Measure> {
  const json = join(folder, `report-${Date.now()}.json`);
  const before = { children: childrenCpu(), servers: servers.map((server) => cpuOf(server.child.pid!)) };
  const started = performance.now();
  const child = spawn(process.execPath, [`${here}../conformance/main.js`, ...args, '--decisions', '--seed', String(SEED), '--runs', String(RUNS), '--json', json, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exit = await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  const wall = (performance.now() - started) / 1000;
  const report = JSON.parse(readFileSync(json, 'utf8'));
  return {
    wall, exit, report, clientCpu: childrenCpu() - before.children, serverCpu: servers.map((server, index) => cpuOf(server.child.pid!) - before.servers[index]!),
    requests: report.requests + (report.compare?.requests ?? 0) + (report.noise?.requests ?? 0),
  };
}

/** One run with fresh servers: a plain run of one dialect's server, or the differential run of both. */
async function measure(kind: 'zulip' | 'alternate' | 'compare'): Promise<Measure> {
  const folder = mkdtempSync(join(tmpdir(), 'teamchat-compare-bench-'));
  const servers = kind === 'compare' ? await Promise.all([startServer(folder, 'a', 'zulip'), startServer(folder, 'b', 'alternate')]) : [await startServer(folder, 'a', kind)];
  try {
    const [first, second] = servers;
    const args = ['--target', first!.url, '--profile', first!.profile, ...(second ? ['--compare', second.url, '--compare-profile', second.profile] : [])];
    return await cli(args, servers, folder);
  } finally {
    await Promise.all(servers.map(stop));
    rmSync(folder, { recursive: true, force: true });
  }
}

const seconds = (value: number) => `${value.toFixed(1)} s`;
const fastest = (list: Measure[]) => list.reduce((best, each) => (each.wall < best.wall ? each : best));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`bench:compare: seed ${SEED}, --runs ${RUNS}, ${ROUNDS} round(s), ${availableParallelism()} cores, load average ${load}`);
const kinds = ['zulip', 'alternate', 'compare'] as const;
const results: Record<(typeof kinds)[number], Measure[]> = { zulip: [], alternate: [], compare: [] };
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // The order rotates, so that no kind always meets the machine's same moment.
  const order = kinds.map((_, index) => kinds[(index + round) % kinds.length]!);
  const got: Partial<Record<(typeof kinds)[number], Measure>> = {};
  for (const kind of order) {
    const result = await measure(kind);
    got[kind] = result;
    results[kind].push(result);
    const detail = kind === 'compare'
      ? `${result.report.differences.length} differences (${['must', 'decision', 'level', 'unclassified'].map((name) => `${result.report.differences.filter((difference: { class: string }) => difference.class === name).length} ${name}`).join(', ')}), ${result.report.noise.rules_checked_again.length} rules checked again`
      : `${result.report.summary.pass} pass, ${result.report.summary.fail} fail, ${result.report.summary.error} error`;
    console.log(`  round ${round + 1} ${kind.padEnd(9)} ${seconds(result.wall).padStart(8)} wall, client ${seconds(result.clientCpu)} CPU, server(s) ${result.serverCpu.map(seconds).join(' + ')} CPU, ${result.requests} requests, exit ${result.exit}; ${detail}`);
  }
  ratios.push(got.compare!.wall / Math.max(got.zulip!.wall, got.alternate!.wall));
}
const plain = Math.max(fastest(results.zulip).wall, fastest(results.alternate).wall);
const differential = fastest(results.compare);
const ratio = differential.wall / plain;
console.log(`plain runs (fastest of each): zulip ${seconds(fastest(results.zulip).wall)}, alternate ${seconds(fastest(results.alternate).wall)}; the slower: ${seconds(plain)}`);
console.log(`differential run (fastest): ${seconds(differential.wall)}, ${differential.requests} requests, the client's CPU ${seconds(differential.clientCpu)}`);
console.log(`ratio ${ratio.toFixed(2)} (rounds' median ${median(ratios).toFixed(2)}); bound ${BOUND}: ${ratio <= BOUND ? 'kept' : 'NOT kept'}`);
process.exit(ratio <= BOUND && results.compare.every((result) => result.report.differences.every((difference: { class: string }) => difference.class !== 'unclassified')) ? 0 : 1);
