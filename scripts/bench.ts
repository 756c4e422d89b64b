// npm run bench [-- --only TEXT --rounds N --seconds S --connections N --generator wrk|node]
//
// The reference's speed targets, measured side by side, with proof that the load generator was
// not the bottleneck:
//  - start-up: from spawning the process to its "listening" line (target: under 300 ms);
//  - throughput of every operation of the spec, and of GET /server_settings, against its least
//    server (least.ts): one that does only the work the operation's input asks of any server
//    (decode, parse, keep, answer), or for GET /server_settings sends the reference's own answer
//    as a constant (target: 90% of its rate); the emoji upload against a bare server that parses
//    the same multipart body with busboy (target: 75% of its rate). Beside each, a bare node:http
//    server that reads the body and answers a constant JSON body: what the machine's HTTP path
//    allows. Each operation gets a fresh reference and a fresh least server. Where `taskset` is
//    found and there are two cores or more, the servers run on the first core and the generator
//    on the second, so that they never take turns on one. The servers are measured in
//    rounds, in rotating order; each side's fastest round is the estimate (a shared machine only
//    slows a round down), and the report gives the median of the paired rounds and their range too;
//  - calibration: the bare server against a second one, in the same rounds: what the estimates
//    give for two servers alike;
//  - headroom: the generator runs in a process of its own (wrk, a C generator, where installed;
//    else Node processes with undici), and each measurement reports how busy the server and the
//    generator were (CPU time over the generator's timed run): a server near a whole core with a
//    generator below it is the server's rate, not the generator's. Once per run, the generator with
//    four times the connections and twice the threads against the bare server shows what more load gets;
//  - memory of 100k drafts (target: under 200 MB).
// Loopback only; every loop is bounded in time.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const here = new URL('.', import.meta.url).pathname;
/** Every operation at this share of its least server's rate, or better. */
const TARGET = 0.9;
/** A multipart operation, whose least server is bare + busboy, at this share of its rate. */
const MULTIPART_TARGET = 0.75;

function usage(message: string): never {
  process.stderr.write(`teamchat bench: ${message}; usage: npm run bench -- [--only TEXT] [--rounds N] [--seconds S] [--connections N] [--generator wrk|node]\n`);
  process.exit(2);
}

let options: { only?: string; rounds?: string; seconds?: string; connections?: string; generator?: string };
try {
  ({ values: options } = parseArgs({ options: { only: { type: 'string' }, rounds: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' }, generator: { type: 'string' } } }));
} catch (error) {
  usage((error as Error).message.split('\n')[0]!);
}
const whole = (text: string | undefined, fallback: number, name: string, min = 1) => {
  const value = Number(text ?? fallback);
  if (!Number.isFinite(value) || value < min) usage(`--${name} ${text}: give a number, at least ${min}`);
  return value;
};
const ROUNDS = whole(options.rounds ?? process.env.BENCH_ROUNDS, 5, 'rounds');
const SECONDS = whole(options.seconds ?? process.env.BENCH_SECONDS, 2, 'seconds');
const CONNECTIONS = whole(options.connections ?? process.env.BENCH_CONNECTIONS, 16, 'connections');
const ONLY = options.only ?? process.env.BENCH_ONLY ?? '';
const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk', '/opt/homebrew/bin/wrk'].find((path) => existsSync(path));
const GENERATOR = options.generator ?? (WRK ? 'wrk' : 'node');
if (GENERATOR !== 'wrk' && GENERATOR !== 'node') usage(`--generator ${GENERATOR}: wrk or node`);
if (GENERATOR === 'wrk' && !WRK) usage('--generator wrk: no wrk found (apt-get install wrk)');
const scratch = mkdtempSync(join(tmpdir(), 'teamchat-bench-'));
/** Servers on the first core, the generator on the second, where taskset can say so. */
const PINNED = cpus().length >= 2 && spawnSync('taskset', ['--version']).status === 0;
/** A command and its arguments, run on the given core where the machine is pinned (PINNED), or on any when `anywhere`. */
const pinned = (core: number, command: string, args: readonly string[], anywhere = false): [string, string[]] => (PINNED && !anywhere ? ['taskset', ['-c', String(core), command, ...args]] : [command, [...args]]);

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  readonly ms: number;
}

function startProcess(args: string[]): Promise<Running> {
  const started = performance.now();
  // taskset runs node in its own process (exec): the child's pid is the server's.
  const child = spawn(...pinned(0, process.execPath, args), { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => {
      const url = /http:\/\/[\d.:]+/.exec(String(chunk))?.[0];
      if (url) resolve({ child, url, ms: performance.now() - started });
      else reject(new Error(`no URL in ${chunk}`));
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}`)));
  });
}

const stop = (child: ChildProcess) => new Promise((resolve) => {
  if (child.exitCode !== null) return resolve(null);
  child.once('exit', resolve);
  child.kill('SIGTERM');
});

/** CPU seconds a process has used so far (Linux: /proc; elsewhere unknown). */
function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** A request as the generators send it: each connection's i-th request is request(i * CONNECTIONS + connection). */
interface Request {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer | string;
}

interface Measurement {
  readonly perSecond: number;
  readonly failed: number;
  /** Share of one core the server and the generator were busy, over the measurement. */
  readonly serverBusy: number | null;
  readonly generatorBusy: number | null;
}

/** A request whose path or body holds {n} is made anew each time, with a number no other request of the run had (unique names). */
const dynamic = (request: Request) => request.path.includes('{n}') || (typeof request.body === 'string' && request.body.includes('{n}'));

const luaString = (text: Buffer | string) => `"${[...Buffer.from(text)].map((byte) => (byte >= 32 && byte < 127 && byte !== 34 && byte !== 92 ? String.fromCharCode(byte) : `\\${byte}`)).join('')}"`;

/** wrk, one thread per generator core, going round the scenario's requests. */
async function wrkRate(url: string, requests: readonly Request[], seconds: number, connections: number, threads: number, ready: () => void): Promise<Omit<Measurement, 'serverBusy'>> {
  const script = join(scratch, 'requests.lua');
  const headers = (request: Request) => `{${Object.entries(request.headers).map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`).join(', ')}}`;
  const body = (request: Request) => (request.body === undefined ? 'nil' : luaString(request.body));
  const entry = (request: Request) => (dynamic(request)
    ? `{ dynamic = true, method = ${luaString(request.method)}, path = ${luaString(request.path)}, headers = ${headers(request)}, body = ${body(request)} }`
    : `{ formatted = wrk.format(${luaString(request.method)}, ${luaString(request.path)}, ${headers(request)}, ${body(request)}) }`);
  // A long list that differs only in paths (the deletions) is one string, split at start: a Lua function holds at most 65,536 constants.
  const pathsOnly = requests.length > 5000 && requests.every((request) => !dynamic(request) && request.method === requests[0]!.method && headers(request) === headers(requests[0]!) && body(request) === body(requests[0]!));
  writeFileSync(script, [
    // Requests are made in init(), once wrk knows the target: wrk.format adds the Host header, which HTTP/1.1 requires.
    'local requests = {}',
    'function init(args)',
    ...(pathsOnly
      ? [`  local paths = ${luaString(requests.map((request) => request.path).join('\n'))}`, `  for path in string.gmatch(paths, "[^\\n]+") do requests[#requests + 1] = { formatted = wrk.format(${luaString(requests[0]!.method)}, path, ${headers(requests[0]!)}, ${body(requests[0]!)}) } end`]
      : ['  requests = {', ...requests.map((request) => `    ${entry(request)},`), '  }']),
    // The list is made before wrk starts its clock; READY says when, with wrk's CPU time so far.
    '  io.write(string.format("READY %f\\n", os.clock())); io.flush()',
    'end',
    'local i = 0',
    `local n = ${Math.floor(Math.random() * 1e9)}`,
    'local started = false',
    'function setup(thread) thread:set("tid", (setup_count or 0)); setup_count = (setup_count or 0) + 1 end',
    'function request()',
    '  if not started then started = true; n = n + (tid or 0) * 10000000; i = (tid or 0) * 7919 end',
    '  i = i + 1',
    '  local r = requests[(i % #requests) + 1]',
    '  if r.formatted then return r.formatted end',
    '  n = n + 1',
    '  local path = string.gsub(r.path, "{n}", tostring(n))',
    '  local body = r.body and string.gsub(r.body, "{n}", tostring(n))',
    '  return wrk.format(r.method, path, r.headers, body)',
    'end',
    'function done(summary, latency, requests) io.write(string.format("NON2XX %d\\nDONE %f %d\\n", summary.errors.status, os.clock(), summary.duration)) end',
  ].join('\n'));
  const wrkArgs = ['-t', String(threads), '-c', String(connections), '-d', `${Math.max(1, Math.round(seconds))}s`, '-s', script, url];
  // One generator thread on the second core; more (the headroom check) wherever the machine puts them.
  const child = spawn(...pinned(1, WRK!, wrkArgs, threads > 1), { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    const before = output.match(/READY/g)?.length ?? 0;
    output += chunk;
    // Each thread's init says READY; the last comes just before wrk starts its clock.
    if (before < threads && (output.match(/READY/g)?.length ?? 0) >= threads) ready();
  });
  await new Promise((resolve) => child.on('close', resolve));
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  if (!Number.isFinite(perSecond)) throw new Error(`wrk said: ${output}`);
  // wrk's CPU time (os.clock) from its last READY to done(), over its own measured duration.
  const readyClock = Number([...output.matchAll(/READY ([\d.]+)/g)].at(-1)?.[1] ?? NaN);
  const done = /DONE ([\d.]+) (\d+)/.exec(output);
  const generatorBusy = done && Number.isFinite(readyClock) ? (Number(done[1]) - readyClock) / (Number(done[2]) / 1e6) : null;
  return { perSecond, failed: Number(/NON2XX (\d+)/.exec(output)?.[1] ?? 0), generatorBusy };
}

/** Node processes with undici, one per generator core, going round the scenario's requests. */
async function nodeRate(url: string, requests: readonly Request[], seconds: number, connections: number, processes: number, ready: () => void): Promise<Omit<Measurement, 'serverBusy'>> {
  const file = join(scratch, 'requests.json');
  writeFileSync(file, JSON.stringify(requests.map((request) => ({ ...request, dynamic: dynamic(request), textBody: typeof request.body === 'string', body: request.body === undefined ? undefined : Buffer.from(request.body).toString('base64') }))));
  const perProcess = Math.max(1, Math.round(connections / processes));
  let readies = 0;
  const runs = await Promise.all(Array.from({ length: processes }, (_, index) => new Promise<{ done: number; failed: number; cpu: number; wall: number }>((resolve, reject) => {
    const script = `
      import { Pool } from '${here}../../node_modules/undici/index.js';
      import { readFileSync } from 'node:fs';
      const requests = JSON.parse(readFileSync(${JSON.stringify(file)}, 'utf8')).map((request) => ({ ...request, body: request.body === undefined ? undefined : Buffer.from(request.body, 'base64') }));
      let serial = ${Math.floor(Math.random() * 1e9)} + ${index} * 10000000;
      const pool = new Pool(${JSON.stringify(url)}, { connections: ${perProcess}, pipelining: 1 });
      const cpuAtStart = process.cpuUsage();
      console.log('READY');
      const started = performance.now();
      const deadline = started + ${seconds * 1000};
      let done = 0, failed = 0;
      await Promise.all(Array.from({ length: ${perProcess} }, async (_, w) => {
        for (let i = w + ${index * 7919}; performance.now() < deadline; i += ${perProcess}) {
          const template = requests[i % requests.length];
          const n = String(serial++);
          const response = await pool.request(template.dynamic ? { ...template, path: template.path.replaceAll('{n}', n), body: template.textBody ? template.body.toString().replaceAll('{n}', n) : template.body } : template);
          await response.body.dump();
          if (response.statusCode !== 200) failed++;
          done++;
        }
      }));
      const cpu = process.cpuUsage(cpuAtStart);
      console.log(JSON.stringify({ done, failed, cpu: (cpu.user + cpu.system) / 1e6, wall: (performance.now() - started) / 1000 }));
      await pool.close();
    `;
    // One generator process on the second core; more (the headroom check) wherever the machine puts them.
    const child = spawn(...pinned(1, process.execPath, ['--input-type=module', '-e', script], processes > 1), { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let said = false;
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (!said && output.startsWith('READY\n')) {
        said = true;
        if (++readies === processes) ready();
      }
    });
    child.on('close', () => {
      try {
        resolve(JSON.parse(output.replace(/^READY\n/, '')));
      } catch {
        reject(new Error(`a generator process said: ${output}`));
      }
    });
  })));
  const wall = Math.max(...runs.map((run) => run.wall));
  return { perSecond: runs.reduce((sum, run) => sum + run.done, 0) / wall, failed: runs.reduce((sum, run) => sum + run.failed, 0), generatorBusy: runs.reduce((sum, run) => sum + run.cpu, 0) / wall };
}

/** One measurement of a server, with how busy it and the generator were. */
async function measure(server: Running, requests: readonly Request[], seconds = SECONDS, connections = CONNECTIONS, generatorCores = 1): Promise<Measurement> {
  // From the generator's READY: building a long list of requests is not the server's idle time.
  let before = cpuSeconds(server.child.pid!);
  let started = performance.now();
  const ready = () => {
    before = cpuSeconds(server.child.pid!);
    started = performance.now();
  };
  const result = GENERATOR === 'wrk' ? await wrkRate(server.url, requests, seconds, connections, generatorCores, ready) : await nodeRate(server.url, requests, seconds, connections, generatorCores, ready);
  const after = cpuSeconds(server.child.pid!);
  const wall = (performance.now() - started) / 1000;
  return { ...result, serverBusy: before === null || after === null ? null : (after - before) / wall };
}

const auth = (email: string, key: string) => 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percent = (value: number | null) => (value === null || Number.isNaN(value) ? '?' : `${(value * 100).toFixed(0)}%`);

type Side = Running | ((requests: readonly Request[]) => Promise<Measurement>);

/**
 * Rounds of several sides (servers, or other ways of measuring one) in turn, each round in a
 * rotated order, so that drift in the machine's load falls on every side alike; a round's list
 * is made once, for all of them. A round holds each side's measurement at the side's index.
 */
async function pairedRounds(sides: readonly Side[], requests: readonly Request[] | (() => Promise<readonly Request[]>)): Promise<Measurement[][]> {
  const rounds: Measurement[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const list = typeof requests === 'function' ? await requests() : requests;
    const measured: Measurement[] = [];
    for (let turn = 0; turn < sides.length; turn++) {
      const index = (round + turn) % sides.length;
      const side = sides[index]!;
      measured[index] = await (typeof side === 'function' ? side(list) : measure(side, list));
    }
    rounds.push(measured);
  }
  return rounds;
}

interface Ratio {
  /** The fastest round of one side over the fastest of the other (the verdict's estimate). */
  readonly best: number;
  /** The median of the rounds' ratios, and their range. */
  readonly median: number;
  readonly low: number;
  readonly high: number;
  /** Each side's fastest round, requests per second. */
  readonly base: number;
  readonly measured: number;
}

/**
 * How a server's rate compares with a floor's over paired rounds. On a shared machine another
 * tenant only ever slows a round down, so each side's fastest round is the one least disturbed:
 * their ratio is the estimate the verdict uses. The calibration (the bare server against a
 * second bare server) shows what each estimate gives for two servers alike.
 */
function summarize(rounds: readonly Measurement[][], baseSide: number, measuredSide: number): Ratio {
  const ratios = rounds.map((round) => round[measuredSide]!.perSecond / round[baseSide]!.perSecond);
  const base = Math.max(...rounds.map((round) => round[baseSide]!.perSecond));
  const measured = Math.max(...rounds.map((round) => round[measuredSide]!.perSecond));
  return { best: measured / base, median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios), base, measured };
}

const ratioText = (ratio: Ratio) => `${percent(ratio.best)} (pairs' median ${percent(ratio.median)}, ${(ratio.low * 100).toFixed(0)}–${percent(ratio.high)})`;

async function main() {
  const { readFixture } = await import('../reference/http/boot.js');
  const fixture = readFixture();
  const user = (email: string) => fixture.users.find((candidate) => candidate.email === email)!;
  const [member, other, admin] = [user(fixture.profile.member), user(fixture.profile.other), user(fixture.profile.admin)];
  const form = (who: { email: string; api_key: string }) => ({ 'content-type': 'application/x-www-form-urlencoded', authorization: auth(who.email, who.api_key) });

  // Start-up, five times.
  const startups: number[] = [];
  for (let i = 0; i < 5; i++) {
    const { child, ms } = await startProcess([`${here}../reference/main.js`, '--port', '0']);
    startups.push(ms);
    await stop(child);
  }
  startups.sort((a, b) => a - b);

  // The bare server: reads the body, answers a constant JSON body.
  const BARE = ['--input-type=module', '-e', `
    import { createServer } from 'node:http';
    const body = JSON.stringify({ result: 'success', msg: '', ids: [1, 2, 3, 4, 5] }) + '\\n';
    const server = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }); res.end(body); }); });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
  `];
  const bare = await startProcess(BARE);
  // The same, but each multipart body goes through busboy first, as the reference's must: the
  // ceiling of any multipart operation.
  const bareBusboy = await startProcess(['--input-type=module', '-e', `
    import { createServer } from 'node:http';
    import busboy from '${here}../../node_modules/busboy/lib/index.js';
    const body = JSON.stringify({ result: 'success', msg: '' }) + '\\n';
    const server = createServer((req, res) => {
      const parser = busboy({ headers: req.headers });
      parser.on('file', (name, stream) => { const chunks = []; stream.on('data', (chunk) => chunks.push(chunk)); stream.on('end', () => Buffer.concat(chunks)); });
      parser.on('close', () => { res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }); res.end(body); });
      req.pipe(parser);
    });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
  `]);

  const inAMonth = Math.floor(Date.now() / 1000) + 30 * 86400;
  const messageIds: number[] = [];
  const scheduledIds: number[] = [];
  const post = async (pool: Pool, path: string, who: typeof member, body: string) => {
    const response = await pool.request({ method: 'POST', path, headers: form(who), body });
    const json = (await response.body.json()) as Record<string, unknown>;
    if (response.statusCode !== 200) throw new Error(`set-up ${path}: ${response.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const scheduleMany = async (url: string, count: number, from: number) => {
    const pool = new Pool(url, { connections: 8 });
    const ids = await Promise.all(Array.from({ length: count }, async (_, i) => (await post(pool, '/api/v1/scheduled_messages', member, `type=stream&to=1&topic=bench&content=scheduled+${from + i}&scheduled_delivery_timestamp=${inAMonth + from + i}`)).scheduled_message_id as number));
    await pool.close();
    return ids;
  };
  // Each scenario gets a reference of its own, so that what one leaves behind (hundreds of
  // thousands of drafts) does not weigh on the next one's measurement.
  async function startReference() {
    const reference = await startProcess([`${here}../reference/main.js`, '--port', '0']);
    const pool = new Pool(reference.url, { connections: 8 });
    messageIds.length = 0;
    for (let i = 0; i < 100; i++) messageIds.push((await post(pool, '/api/v1/messages', other, `type=stream&to=Verona&topic=bench&content=message+${i}`)).id as number);
    await pool.close();
    scheduledIds.splice(0, scheduledIds.length, ...(await scheduleMany(reference.url, 100, 0)));
    return reference;
  }

  const { png } = await import('../conformance/checks/uploads.js');
  const image = png();
  const emojiBody = Buffer.concat([Buffer.from('--B\r\nContent-Disposition: form-data; name="f"; filename="e.png"\r\nContent-Type: image/png\r\n\r\n'), image, Buffer.from('\r\n--B--\r\n')]);
  const drafts = JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ type: 'stream', to: [1], topic: 'bench', content: `draft ${i}` })));
  const CYCLE = 2000;
  const cycle = (make: (i: number) => Request) => Array.from({ length: CYCLE }, (_, i) => make(i));
  // Requests that name made objects are built once the reference has made them: functions of the ids.
  const scenarios: Array<{ name: string; multipart?: boolean; requests: () => Request[]; consumes?: boolean; constant?: string }> = [
    // Not an operation of the spec, but every run's first request: its least server sends the reference's answer as it is.
    { name: 'GET /server_settings', constant: '/api/v1/server_settings', requests: () => [{ method: 'GET', path: '/api/v1/server_settings', headers: {} }] },
    {
      name: 'PATCH /realm/user_settings_defaults',
      requests: () => cycle((i) => ({ method: 'PATCH', path: '/api/v1/realm/user_settings_defaults', headers: form(admin), body: `color_scheme=${(i % 3) + 1}&enter_sends=${i % 2 ? 'true' : 'false'}&web_home_view=${['inbox', 'recent_topics', 'all_messages'][i % 3]}` })),
    },
    {
      name: 'PATCH /scheduled_messages/{id}',
      requests: () => cycle((i) => ({ method: 'PATCH', path: `/api/v1/scheduled_messages/${scheduledIds[i % scheduledIds.length]}`, headers: form(member), body: `content=edit+${i}&topic=bench+${i % 7}&scheduled_delivery_timestamp=${inAMonth + 1000 + (i % 500)}` })),
    },
    {
      // Each request deletes a scheduled message made for it before the measurement.
      name: 'DELETE /scheduled_messages/{id}', consumes: true,
      requests: () => scheduledIds.map((id) => ({ method: 'DELETE', path: `/api/v1/scheduled_messages/${id}`, headers: { authorization: auth(member.email, member.api_key) } })),
    },
    {
      name: 'POST /realm/profile_fields',
      requests: () => cycle(() => ({ method: 'POST', path: '/api/v1/realm/profile_fields', headers: form(admin), body: 'name=bench+{n}&hint=A+hint&field_type=1' })),
    },
    { name: 'POST /drafts (5 drafts)', requests: () => cycle(() => ({ method: 'POST', path: '/api/v1/drafts', headers: form(member), body: `drafts=${encodeURIComponent(drafts)}` })) },
    {
      name: 'POST /messages/flags (100 messages)',
      requests: () => cycle((i) => ({ method: 'POST', path: '/api/v1/messages/flags', headers: form(member), body: `messages=${encodeURIComponent(JSON.stringify(messageIds))}&op=${i % 2 ? 'remove' : 'add'}&flag=starred` })),
    },
    {
      name: 'POST /reminders',
      requests: () => cycle((i) => ({ method: 'POST', path: '/api/v1/reminders', headers: form(member), body: `message_id=${messageIds[i % messageIds.length]}&scheduled_delivery_timestamp=${inAMonth + i}&note=bench` })),
    },
    {
      name: 'POST /realm/emoji/{name} (small PNG)', multipart: true,
      requests: () => cycle(() => ({ method: 'POST', path: '/api/v1/realm/emoji/bench{n}', headers: { 'content-type': 'multipart/form-data; boundary=B', authorization: auth(member.email, member.api_key) }, body: emojiBody })),
    },
  ];

  // Headroom: the generator against the bare server as the scenarios run it, and with four
  // times the connections on twice the cores (or all of them, if fewer).
  const plain = [{ method: 'POST', path: '/api/v1/drafts', headers: form(member), body: `drafts=${encodeURIComponent(drafts)}` }];
  // In rounds too, alternating, each the fastest of its rounds.
  await measure(bare, plain, 1);
  const headroom = await pairedRounds([bare, (list) => measure(bare, list, SECONDS, CONNECTIONS * 4, Math.min(2, cpus().length))], plain);
  const fastest = (side: number) => headroom.map((round) => round[side]!).reduce((best, one) => (one.perSecond > best.perSecond ? one : best));
  const usual = fastest(0);
  const more = fastest(1);

  // The judge measured: the bare server against a second bare server, in the scenarios' paired
  // rounds. Two servers alike should come out at 100%; how far each estimate strays is the
  // machine's noise, which every ratio below carries as well.
  const twin = await startProcess(BARE);
  await measure(twin, plain, 1);
  const calibration = summarize(await pairedRounds([bare, twin], plain), 0, 1);
  await stop(twin.child);

  const results: Array<{ name: string; floor: string; ratio: Ratio; least: Ratio | null; ofLeast: Ratio | null; ofBare: Ratio | null; failed: number; leastFailed: number; serverBusy: number | null; generatorBusy: number | null; floorBusy: number | null; leastBusy: number | null }> = [];
  for (const scenario of scenarios.filter((entry) => entry.name.includes(ONLY))) {
    const floor = scenario.multipart ? bareBusboy : bare;
    const reference = await startReference();
    // The least server (least.ts) for every operation whose floor does not already parse its body.
    let constant: string[] = [];
    if (scenario.constant) {
      const answer = await (await fetch(reference.url + scenario.constant)).text();
      writeFileSync(join(scratch, 'constant.json'), answer);
      constant = [join(scratch, 'constant.json')];
    }
    const least = scenario.multipart ? null : await startProcess([`${here}least.js`, ...constant]);
    // What a deleting round consumes is made before it, untimed: more than it can delete.
    const requests = async () => {
      if (scenario.consumes) {
        // More than a round can delete (a delete of one already gone would be a fast 400).
        const made = await scheduleMany(reference.url, Math.ceil(SECONDS * 80_000), scheduledIds.length * 7 + 1000);
        scheduledIds.length = 0;
        for (const id of made) scheduledIds.push(id);
      }
      return scenario.requests();
    };
    // An uncounted round: each server compiles the scenario's path first.
    await measure(floor, scenario.requests(), 1);
    if (least) await measure(least, scenario.requests(), 1);
    await measure(reference, await requests(), 1);
    // A multipart operation's floor parses with busboy: the bare server runs beside it, for its figures.
    const servers = least ? [floor, reference, least] : [floor, reference, bare];
    const rounds = await pairedRounds(servers, requests);
    const ratio = summarize(rounds, 0, 1);
    const leastRatio = least ? summarize(rounds, 0, 2) : null;
    const ofLeast = least ? summarize(rounds, 2, 1) : null;
    const ofBare = least ? null : summarize(rounds, 2, 1);
    const busy = (index: number) => median(rounds.map((round) => round[index]?.serverBusy ?? NaN));
    results.push({
      name: scenario.name, floor: scenario.multipart ? 'bare+busboy' : 'bare', ratio, least: leastRatio, ofLeast, ofBare,
      failed: rounds.reduce((sum, round) => sum + round[1]!.failed, 0), leastFailed: rounds.reduce((sum, round) => sum + (round[2]?.failed ?? 0), 0),
      serverBusy: busy(1), floorBusy: busy(0), leastBusy: least ? busy(2) : null,
      generatorBusy: median(rounds.flat().map((measured) => measured.generatorBusy ?? NaN)),
    });
    await stop(reference.child);
    if (least) await stop(least.child);
  }
  await stop(bare.child);
  await stop(bareBusboy.child);

  // 100k drafts in the model, measured in a process of their own.
  const memory = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', `
      const { buildRealm, readFixture } = await import('${here}../reference/http/boot.js');
      const { checkDraft, doCreateDrafts, namesOf } = await import('${here}../reference/operations/drafts.js');
      const realm = buildRealm(readFixture(), 415, new Set());
      const user = realm.usersByEmail.get('hamlet@example.com');
      const names = namesOf('d');
      gc(); const before = process.memoryUsage();
      for (let i = 0; i < 1000; i++) {
        const batch = Array.from({ length: 100 }, (_, j) => checkDraft(realm, user, { type: 'stream', to: [1], topic: 'topic ' + j, content: 'A draft of a typical length, number ' + (i * 100 + j) + '.' }, names));
        doCreateDrafts(realm, user, batch);
      }
      gc(); const after = process.memoryUsage();
      console.log(JSON.stringify({ drafts: user.drafts.size, heapMB: (after.heapUsed - before.heapUsed) / 2 ** 20, rssMB: after.rss / 2 ** 20 }));
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.on('close', () => resolve(out.trim()));
  });
  rmSync(scratch, { recursive: true, force: true });

  // wrk --version prints its version and exits 1.
  const generator = GENERATOR === 'wrk' ? `wrk (${spawnSync(WRK!, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]!.replace(/ Copyright.*/, '')})` : 'Node processes with undici';
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${process.version}; generator: ${generator}, 1 core, ${CONNECTIONS} connections; ${PINNED ? 'servers pinned to core 0, the generator to core 1' : 'not pinned (no taskset, or one core)'}; ${SECONDS} s per measurement, ${ROUNDS} rounds in rotating order, each side's fastest round the estimate`);
  console.log(`start-up to listening: median ${startups[2]!.toFixed(0)} ms (min ${startups[0]!.toFixed(0)}, max ${startups[4]!.toFixed(0)}); target < 300 ms`);
  console.log(`headroom (fastest of ${ROUNDS} rounds each): the bare server at ${usual.perSecond.toFixed(0)} req/s (server busy ${percent(usual.serverBusy)} of a core, generator ${percent(usual.generatorBusy)}); with ${CONNECTIONS * 4} connections on ${Math.min(2, cpus().length)} generator cores ${more.perSecond.toFixed(0)} req/s (${((more.perSecond / usual.perSecond) * 100).toFixed(0)}%): ${more.perSecond < usual.perSecond * 1.1 ? 'more load gets no more, so the server, not the generator, sets the rate' : 'MORE LOAD GETS MORE: the generator may be the bottleneck'}`);
  console.log(`calibration: the bare server against a second bare server: ${ratioText(calibration)}; two servers alike, so what strays from 100% is the machine's noise`);
  let missed = 0;
  for (const result of results) {
    // The verdict: the reference against its least server; a multipart operation, whose floor is
    // bare + busboy, against that. The bare server's figures are beside it: the machine's HTTP path.
    const [verdict, target, against] = result.ofLeast ? [result.ofLeast, TARGET, 'the least server'] : [result.ratio, MULTIPART_TARGET, result.floor];
    const meets = verdict.best >= target;
    if (!meets) missed++;
    const bareFigures = result.least ? `; of bare: reference ${percent(result.ratio.best)}, least server ${percent(result.least.best)} (bare ${result.ratio.base.toFixed(0)} req/s)` : `; of bare: reference ${percent(result.ofBare!.best)} (bare ${result.ofBare!.base.toFixed(0)} req/s)`;
    console.log(`${result.name.padEnd(38)} ${ratioText(verdict)} of ${against}: best rounds reference ${verdict.measured.toFixed(0)} req/s, ${against} ${verdict.base.toFixed(0)} req/s${bareFigures}; busy: reference ${percent(result.serverBusy)}, ${result.floor} ${percent(result.floorBusy)}${result.leastBusy === null ? '' : `, least ${percent(result.leastBusy)}`}, generator ${percent(result.generatorBusy)}; ${meets ? 'meets' : 'MISSES'} ${target * 100}%${result.failed ? `  (${result.failed} non-200)` : ''}${result.leastFailed ? `  (the least server: ${result.leastFailed} non-200, its rate is not a floor)` : ''}`);
  }
  const mem = JSON.parse(memory) as { drafts: number; heapMB: number; rssMB: number };
  console.log(`${mem.drafts} drafts: heap +${mem.heapMB.toFixed(1)} MB, process RSS ${mem.rssMB.toFixed(1)} MB; target < 200 MB`);
  console.log(missed > 0 ? `${missed} operation${missed === 1 ? '' : 's'} under target` : 'every operation meets its target');
}

await main();
