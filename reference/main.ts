#!/usr/bin/env node
// npm start -- [--host H] [--port P] [--feature-level N] [--fixture FILE] [--profile-out FILE]
//              [--dialect zulip|alternate|random] [--dialect-seed N] [--max-emoji-file-size-mib N]
//              [--hide-clock]

import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { DIALECTS, type Dialect } from './dialects/dialect.js';
import { faultsFromEnvironment } from './faults/faults.js';
import { readFixture, targetProfile } from './http/boot.js';
import { MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from './model/levels.js';
import { startReference } from './http/server.js';
import { closest } from '../conformance/rules.js';

const HELP = `Usage: npm start -- [options]   (installed: teamchat-reference [options])

  --host H                     interface to bind (default 127.0.0.1)
  --port P                     port; 0 picks a free one (default 9991)
  --feature-level N            behave as a server at feature level N (${MIN_FEATURE_LEVEL}–${MAX_FEATURE_LEVEL}; default ${MAX_FEATURE_LEVEL})
  --fixture FILE               the organization to boot with (default fixtures/organization.json)
  --profile-out FILE           write the target profile of the booted fixture
  --dialect NAME               zulip (Zulip's choices where the spec is silent; default), alternate
                               (every such choice made otherwise) or random (each drawn by --dialect-seed)
  --dialect-seed N             the random dialect's seed (default 0)
  --max-emoji-file-size-mib N  MAX_EMOJI_FILE_SIZE_MIB (default 5)
  --hide-clock                 behave as a real server: no reference clock (POST /reference/clock
                               and server_settings.reference_clock are gone); deliveries happen on
                               real time, the worker runs every second
  --help, --version

Seeded faults for the suite's self-test: TEAMCHAT_FAULTS=rule.id,rule.id
Once listening it prints one line with its base URL; SIGINT and SIGTERM end it with exit code 0.
`;

/** A misuse, or a port that cannot be had: one line that says it, and exit 2. */
function fail(message: string): never {
  process.stderr.write(`reference: ${message}; see --help\n`);
  process.exit(2);
}

const OPTIONS = ['host', 'port', 'feature-level', 'fixture', 'profile-out', 'dialect', 'dialect-seed', 'max-emoji-file-size-mib', 'hide-clock', 'help', 'version'];

function integerOption(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) fail(`--${name} takes a whole number from ${min} to ${max}`);
  return Number(value);
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'feature-level': { type: 'string' },
        fixture: { type: 'string' },
        'profile-out': { type: 'string' },
        dialect: { type: 'string' },
        'dialect-seed': { type: 'string' },
        'max-emoji-file-size-mib': { type: 'string' },
        'hide-clock': { type: 'boolean' },
        help: { type: 'boolean' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    const unknown = /Unknown option '--?([^']+)'/.exec((error as Error).message)?.[1];
    const option = unknown ? closest(unknown, OPTIONS) : null;
    fail(`${(error as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '')}${option ? ` (did you mean --${option}?)` : ''}`);
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (values.version) {
    process.stdout.write(`teamchat-reference ${JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version}\n`);
    process.exit(0);
  }
  const featureLevel = integerOption(values['feature-level'], 'feature-level', MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL, MAX_FEATURE_LEVEL);
  const port = integerOption(values.port, 'port', 9991, 0, 65535);
  const maxEmojiFileSizeMib = integerOption(values['max-emoji-file-size-mib'], 'max-emoji-file-size-mib', 5, 0, 100);
  const dialect = (values.dialect ?? 'zulip') as Dialect;
  if (!DIALECTS.includes(dialect)) fail(`--dialect takes ${DIALECTS.join(', ')}`);
  const dialectSeed = integerOption(values['dialect-seed'], 'dialect-seed', 0, 0, 2 ** 32 - 1);
  let faults;
  let fixture;
  try {
    faults = faultsFromEnvironment();
    fixture = values.fixture ? readFixture(values.fixture) : readFixture();
  } catch (error) {
    fail((error as Error).message);
  }
  const reference = await startReference({ host: values.host ?? '127.0.0.1', port, featureLevel, fixture, faults, dialect, dialectSeed, maxEmojiFileSizeMib, hideClock: values['hide-clock'] ?? false }).catch((error: Error) =>
    fail((error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${port} is taken (another server listens there): give another with --port, or --port 0 for a free one` : `cannot listen: ${error.message}`),
  );
  if (values['profile-out']) writeFileSync(values['profile-out'], JSON.stringify(targetProfile(fixture, reference.url), null, 2) + '\n');
  const clockNote = values['hide-clock'] ? ', clock hidden' : '';
  const faultNote = faults.size > 0 ? `, faults: ${[...faults].join(', ')}` : '';
  const dialectNote = dialect === 'zulip' ? '' : dialect === 'random' ? `, random dialect of seed ${dialectSeed}` : `, ${dialect} dialect`;
  process.stdout.write(`teamchat reference server listening on ${reference.url} (feature level ${featureLevel}${dialectNote}${clockNote}${faultNote})\n`);
  // Once, however many ways it is asked for; and ended within two seconds even if a client holds a connection open.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 2000);
    void reference.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Started by npm (npx, npm start) a shell stands between npm and this process: killing npm kills
  // that shell and leaves this process behind, its port bound. Started so, or by the suite, the
  // server ends with its parent.
  // The parent is the one it had when it started: read once the server listens, a parent killed
  // as soon as the URL was printed (on a loaded machine) would be missed, and the server outlive it.
  if (process.env.npm_command !== undefined || process.env.TEAMCHAT_STOP_WITH_PARENT === '1') {
    setInterval(() => {
      if (process.ppid !== PARENT) void stop();
    }, 200).unref();
  }
}

/**
 * TEAMCHAT_STALL_EXIT_MS (the mutation runner's): a server whose event loop has not turned for that
 * long is stuck in a loop of its own (a mutant's), and ends at once, by a thread that still runs,
 * rather than leave the suite to wait out its time.
 */
function exitOnStall(ms: number): void {
  const beats = new Int32Array(new SharedArrayBuffer(4));
  setInterval(() => Atomics.add(beats, 0, 1), 1000).unref();
  const watcher = new Worker(
    `const { workerData: { beats, ms, pid } } = require('node:worker_threads');
    let last = -1, since = Date.now();
    setInterval(() => {
      const now = Atomics.load(beats, 0);
      if (now !== last) { last = now; since = Date.now(); return; }
      if (Date.now() - since < ms) return;
      // Straight to the descriptor: a worker's process.stderr goes through the main thread, which is stuck.
      require('node:fs').writeSync(2, 'teamchat reference: the event loop has not turned for ' + ms + ' ms; ending\\n');
      process.kill(pid, 'SIGKILL');
    }, 1000);`,
    { eval: true, workerData: { beats, ms, pid: process.pid } },
  );
  watcher.unref();
}

const PARENT = process.ppid;
const STALL_EXIT_MS = Number(process.env.TEAMCHAT_STALL_EXIT_MS ?? 0);
if (STALL_EXIT_MS > 0) exitOnStall(STALL_EXIT_MS);
void main();
