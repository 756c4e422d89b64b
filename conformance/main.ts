#!/usr/bin/env node
// npm run conformance -- [--target URL] [--profile FILE] [--seed N] [--runs N] [--only PATTERN]
//                        [--json FILE] [--junit FILE] [--decisions] [--expect FILE] [--replay PATH]
//                        [--rate N] [--timeout MS] [--reference-level N] [--reference-dialect NAME]
// Exit 0: every rule passed or skipped; 1: a rule failed; 3: none failed but one ended in error
// (the verdict is incomplete); 2: the run could not be made.

import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { appendTo, Cleanup, pendingIn, type JournalState } from './run/cleanup.js';
import { putBackNow } from './run/put-back.js';
import { Client, isLoopback, ROLES, type Credentials, type Role } from './run/client.js';
import { ProbeFailure, probeTarget } from './run/probe.js';
import { DEFAULT_RUNS } from './run/harness.js';
import { PREFIX_FORM, sweep } from './run/sweep.js';
import { explanation, findRule } from './report/explain.js';
import { exampleLevel, recordExamples } from './examples.js';
import { ambiguityEntries, differencesText, differentialExitCode, runDifferential } from './differential.js';
import { html } from './report/html.js';
import { consoleSummary, shellWord, withReplays } from './report/console.js';
import { counted, exitCode, type Report } from './report/json.js';
import { MergeError, mergeReports } from './report/merge.js';
import { releaseEveryClaim } from './run/lease.js';
import { putBackPersonalFlags } from './run/personal-flags.js';
import { parseShard, pipelineSeed } from './run/shard.js';
import { junit } from './report/junit.js';
import { ruleMatcher, runSuite, SUITE_VERSION, type Expectations } from './suite.js';
import { closest, RULES, type Rule } from './rules.js';
import { ANNOTATED_BESIDE, ANNOTATED_SPEC } from './spec.js';

class UsageError extends Error {}

/** The process that started this one, as it was when it started (endWithParent). */
const STARTED_BY = process.ppid;

/** A progress line and colour only on a terminal, and never colour when NO_COLOR is set. */
const terminal = process.stdout.isTTY === true;
const colour = terminal && !process.env.NO_COLOR;
const COLOURS: Record<string, number> = { pass: 32, fail: 31, xfail: 33, skip: 33, error: 35, flaky: 36 };
const paint = (status: string, text: string) => (colour && COLOURS[status] ? `\x1b[${COLOURS[status]}m${text}\x1b[0m` : text);

const HELP = `Usage: npm run conformance -- [options]

  --target URL         the server to check (default: start the embedded reference)
  --profile FILE       the target profile: base_url and the admin, member, other users
  --seed N             fast-check seed; replays the same cases against the same state
  --runs N             random cases per property, besides its boundary cases (default 15)
  --only PATTERN       only rules whose ID contains PATTERN, or matches it with * globs;
                       several, separated by commas ('drafts.*,general.*')
  --json FILE          write the JSON report
  --junit FILE         write a JUnit XML report
  --html FILE          write a self-contained HTML report
  --decisions          also check decisions: Zulip's behaviour where the spec is silent
  --smoke              every applicable must rule in at most 1,200 requests (each property's
                       boundary cases, or one run unless --runs says otherwise): a CI smoke test
                       of a staging server
  --shuffle            run the rules in an order drawn from the seed: no verdict may change
  --retries N          run a rule that ended in error again, up to N times, same seed; a pass
                       then is marked flaky (default 0)
  --explain RULE       print the rule, the spec's words, its levels, severity and reasons, and a
                       request that passes and one that fails (from the reference without and with
                       the rule's seeded fault), and exit
  --sweep-only         remove what earlier runs left (anything named with the suite's prefix
                       form, tcc and eight hex digits) and every claim of the server's lease, say
                       what, and exit
  --shard I/N          run the I-th of N parts of the selected rules (a deterministic split
                       balanced by cost, the same for every shard given the same options); N
                       shards may run at once against one server
  --merge-reports FILE…
                       with --json/--junit/--html: one report from the JSON reports of the shards
                       of one run, and exit with that run's code
  --lease-wait S       how long a run waits for the server's lease, which the rules of shared
                       state (organization defaults, profile fields, the profile users' settings)
                       take in turn with other runs, before they end in error (default 600)
  --lease-ttl S        how long a claim on the lease lives unless renewed: a run killed while
                       holding it blocks others at most this long (default 60)
  --journal FILE       where the run writes what it changes, as it goes, for --undo (default:
                       next to --json/--junit/--html, else in the temporary directory; none for
                       the embedded reference)
  --undo FILE          put back what the run that wrote the journal FILE changed and left
                       (settings, defaults, channels, reminders), sweep what it created, say what,
                       and exit; against the journal's target unless --target says otherwise
  --expect FILE        an expectations file: failures it lists do not fail the run
  --replay PATH        with --seed and --only: replay the counterexample path of a failure
  --rate N             at most N requests per second (default 20 for a remote --target, none
                       for loopback targets and the embedded reference; 0: no bound)
  --quiet              print only failures, errors and the summary (for CI logs)
  --verbose            print every skipped decision on a line of its own
  --list-rules         print the catalog (ID, severity, levels, title) and exit; with --json
                       FILE (or -), as JSON
  --version            print the suite's version and exit
  --timeout MS         per-request timeout (default 15000)
  --event-wait MS      how long to wait for an event before deciding it did not come
                       (default 2000 for --target, 300 for the embedded reference)
  --emoji-limit-mib N  MAX_EMOJI_FILE_SIZE_MIB of a target that does not report it (default 5)
  --delivery-wait S    against a target without the reference clock: schedule each delivery
                       (scheduled messages, reminders) S seconds ahead and check them all after
                       one shared wait, while the other rules run (default 90; 0: none)
  --deliveries         in a smoke run, check deliveries on real time too (it costs the wait)
  --create-users       allow checks that create users (POST /users); users cannot be deleted,
                       so this is off against a --target (on for the embedded reference)
  --reference-level N  feature level of the embedded reference
  --reference-dialect NAME
                       dialect of the embedded reference: zulip (default), alternate (every
                       open point decided unlike Zulip) or random (each open point drawn)
  --reference-dialect-seed N
                       the random dialect's seed (default: the run's seed)
  --compare URL        a differential run: the same cases, same seed, against the target and
                       a second server (or \`reference\`: the embedded reference beside it), each
                       in its own run; every difference is named by the catalog: must (a rule
                       one side breaks), decision (an open point they decide differently),
                       level, or unclassified (no rule covers it). Decisions are included
  --compare-profile FILE
                       the second server's profile (default: the same credentials)
  --compare-dialect NAME, --compare-level N
                       of --compare reference: its dialect (zulip) and feature level (the
                       target's)
  --ambiguities FILE   with --compare: write the unclassified differences as entries for
                       docs/ambiguities.md

Exit codes: 0 every rule passed or was skipped (expected failures included); 1 a rule failed;
3 no rule failed but one ended in error, so the verdict is incomplete; 2 the run could not be
made (bad usage, target unreachable, credentials refused); 130 interrupted by Ctrl-C (once: after
cleaning up; twice: at once, and --undo JOURNAL puts back what it left).

Environment: TEAMCHAT_TARGET, TEAMCHAT_{ADMIN,MEMBER,OTHER}_{EMAIL,API_KEY} override the profile.`;

function checkExpectations(expectations: Expectations, file: string): void {
  if (typeof expectations.expected_failures !== 'object' || expectations.expected_failures === null) throw new UsageError(`${file} has no expected_failures object`);
  for (const [id, entry] of Object.entries(expectations.expected_failures)) {
    if (typeof entry === 'string') continue;
    const levels = entry?.levels;
    const fine = typeof entry?.why === 'string' && (levels === undefined || (Array.isArray(levels) && levels.length >= 1 && levels.length <= 2 && levels.every((level) => Number.isInteger(level))));
    if (!fine) throw new UsageError(`${file}: the entry of ${id} is neither a text nor {"why": text, "levels": [from, to]}`);
  }
}

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number`);
  return Number(value);
}

interface Profile {
  base_url?: string;
  users?: Partial<Record<Role, Partial<Credentials>>>;
}

function readJson<T>(path: string, what: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

/** The profile file, then the environment over it. */
function credentialsFrom(profile: Profile): Record<Role, Credentials> {
  const credentials = {} as Record<Role, Credentials>;
  for (const role of ROLES) {
    const name = role.toUpperCase();
    // A variable set empty (a CI input left out) is not set.
    const email = process.env[`TEAMCHAT_${name}_EMAIL`] || profile.users?.[role]?.email;
    const api_key = process.env[`TEAMCHAT_${name}_API_KEY`] || profile.users?.[role]?.api_key;
    if (!email || !api_key) throw new UsageError(`no credentials for '${role}': give a --profile or TEAMCHAT_${name}_EMAIL and TEAMCHAT_${name}_API_KEY`);
    credentials[role] = { email, api_key };
  }
  return credentials;
}

interface EmbeddedReference {
  readonly url: string;
  readonly profile: Profile;
  readonly child: ChildProcess;
  /** What the reference's listening line says it is. */
  readonly featureLevel: number;
}

async function startEmbeddedReference(level: number | undefined, dialect: string | undefined, env: Record<string, string> = {}, dialectSeed?: number): Promise<EmbeddedReference> {
  const directory = mkdtempSync(join(tmpdir(), 'teamchat-'));
  const profilePath = join(directory, 'profile.json');
  const args = [new URL('../reference/main.js', import.meta.url).pathname, '--port', '0', '--profile-out', profilePath];
  if (level !== undefined) args.push('--feature-level', String(level));
  if (dialect !== undefined) args.push('--dialect', dialect);
  if (dialectSeed !== undefined) args.push('--dialect-seed', String(dialectSeed));
  // It ends with this process, even one killed outright.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TEAMCHAT_STOP_WITH_PARENT: '1', ...env } });
  const [url, featureLevel] = await new Promise<[string, number]>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/[^\s)]+) \(feature level (\d+)/.exec(output);
      if (match) resolve([match[1]!, Number(match[2])]);
    });
    child.once('exit', (code) => reject(new Error(`the embedded reference exited with ${code}: ${output}`)));
  });
  const profile = readJson<Profile>(profilePath, 'profile');
  rmSync(directory, { recursive: true, force: true });
  return { url, profile, child, featureLevel };
}

/**
 * The embedded reference stopped while the run still needed it (it crashed, or ended itself stuck
 * in a loop: TEAMCHAT_STALL_EXIT_MS): every later answer would be the harness's, so the run ends
 * at once, without a verdict or a report (exit 3). Stopped cleanly as asked (Ctrl-C reaches it
 * too), the run ends as interrupted (130), at once: what it made went with the reference, and a
 * check finished against a server that is gone would only wait out its retries. Nothing of this
 * when this process stopped it.
 */
function endWithEmbeddedReference(child: ChildProcess): void {
  child.once('exit', (code, signal) => {
    if (child.killed) return;
    if (code === 0 && signal === null) {
      process.stderr.write('teamchat-conformance: the embedded reference stopped as asked; the run ends (what it made went with it)\n');
      process.exit(130);
    }
    process.stderr.write(`teamchat-conformance: the embedded reference stopped during the run (${signal ?? `exit code ${code}`}): the run ends without a verdict\n`);
    process.exit(3);
  });
}

/** One line for a misuse of the options, with the option meant where one is close. */
function parseArguments<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const unknown = /Unknown option '(--?[^']+)'/.exec((error as Error).message)?.[1];
    const meant = unknown ? closest(unknown.replace(/^-+/, ''), Object.keys(config.options ?? {})) : null;
    const first = (error as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '');
    throw new UsageError(`${first}${meant ? ` (did you mean --${meant}?)` : ''}; see --help`);
  }
}

/** The target as a URL the suite can send to: http or https, with a host. */
function targetUrl(target: string, option = '--target'): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`${option} takes an http or https URL such as http://127.0.0.1:9991${option === '--compare' ? ', or reference' : ''}; ${JSON.stringify(target)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${option} takes an http or https URL such as http://127.0.0.1:9991; ${JSON.stringify(target)} is ${url.protocol.slice(0, -1)}`);
  return target;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArguments({
    allowPositionals: true,
    options: {
      target: { type: 'string' }, profile: { type: 'string' }, seed: { type: 'string' }, runs: { type: 'string' },
      only: { type: 'string' }, json: { type: 'string' }, junit: { type: 'string' }, html: { type: 'string' }, decisions: { type: 'boolean' },
      smoke: { type: 'boolean' }, shuffle: { type: 'boolean' }, retries: { type: 'string' }, 'sweep-only': { type: 'boolean' }, explain: { type: 'string' }, journal: { type: 'string' }, undo: { type: 'string' },
      expect: { type: 'string' }, replay: { type: 'string' }, rate: { type: 'string' }, timeout: { type: 'string' }, 'event-wait': { type: 'string' },
      'reference-level': { type: 'string' }, 'reference-dialect': { type: 'string' }, 'reference-dialect-seed': { type: 'string' }, 'create-users': { type: 'boolean' }, 'emoji-limit-mib': { type: 'string' }, 'delivery-wait': { type: 'string' }, deliveries: { type: 'boolean' }, quiet: { type: 'boolean' }, help: { type: 'boolean' },
      verbose: { type: 'boolean' }, version: { type: 'boolean' }, 'list-rules': { type: 'boolean' },
      shard: { type: 'string' }, 'merge-reports': { type: 'string' }, 'lease-wait': { type: 'string' }, 'lease-ttl': { type: 'string' },
      compare: { type: 'string' }, 'compare-profile': { type: 'string' }, 'compare-dialect': { type: 'string' }, 'compare-level': { type: 'string' }, ambiguities: { type: 'string' },
    },
  });
  if (positionals.length > 0 && values['merge-reports'] === undefined) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (options start with --; see --help)`);
  if (values['merge-reports'] !== undefined) return merge([values['merge-reports'], ...positionals], values);
  if (values.help) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  if (values.version) {
    process.stdout.write(`teamchat-conformance ${SUITE_VERSION}\n`);
    return 0;
  }
  if (values['list-rules']) return listRules(values.json);
  if (values.explain !== undefined) return explain(values.explain);
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (typeof shard === 'string') throw new UsageError(shard);
  const leaseWait = wholeNumber(values['lease-wait'], 'lease-wait');
  const leaseTtl = wholeNumber(values['lease-ttl'], 'lease-ttl');
  if (leaseTtl !== undefined && leaseTtl < 3) throw new UsageError('--lease-ttl takes at least 3 (seconds): a claim is renewed three times in its life');
  // The shards of one run draw the same cases: in a CI pipeline its ID gives them one seed.
  const pipeline = shard && values.seed === undefined ? pipelineSeed(process.env) : null;
  if (shard && values.seed === undefined && pipeline === null) throw new UsageError(`--shard ${shard.index}/${shard.total} needs the seed every shard of the run shares: give each the same --seed N (in GitHub Actions, GitLab CI, Buildkite, CircleCI, Azure Pipelines and Jenkins the pipeline's ID gives it)`);
  const seed = wholeNumber(values.seed, 'seed') ?? pipeline?.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runs = wholeNumber(values.runs, 'runs') ?? (values.smoke ? 1 : DEFAULT_RUNS);
  if (runs < 1) throw new UsageError('--runs takes at least 1');
  const expectations = values.expect ? readJson<Expectations>(values.expect, 'expectations file') : null;
  if (expectations) checkExpectations(expectations, values.expect!);
  const profile: Profile = values.profile ? readJson<Profile>(values.profile, 'profile') : {};
  if (values.undo !== undefined) return undo(values.undo, values.target ?? (process.env.TEAMCHAT_TARGET || profile.base_url), profile, wholeNumber(values.rate, 'rate'));
  let target = values.target ?? (process.env.TEAMCHAT_TARGET || profile.base_url);
  let embedded: EmbeddedReference | null = null;
  const dialect = values['reference-dialect'] ?? 'zulip';
  if (!['zulip', 'alternate', 'random'].includes(dialect)) throw new UsageError('--reference-dialect takes zulip, alternate or random');
  const referenceLevel = wholeNumber(values['reference-level'], 'reference-level');
  // The reference serves the levels the catalog knows: from 1 to the newest a rule names.
  const newest = Math.max(...RULES.flatMap((rule) => [rule.since, ('before' in rule ? rule.before : undefined) ?? 0]));
  if (referenceLevel !== undefined && (referenceLevel < 1 || referenceLevel > newest)) throw new UsageError(`--reference-level takes a feature level from 1 to ${newest}`);
  if (values.replay !== undefined) {
    // A path names a case of one property: of one rule, drawn from one seed.
    const matching = values.only === undefined ? [] : RULES.filter((rule) => ruleMatcher(values.only!)(rule.id));
    if (values.seed === undefined || matching.length !== 1) throw new UsageError(`--replay ${values.replay} replays one rule's case: give the --seed and an --only that selects that one rule, as the report's replay line does${matching.length > 1 ? ` (--only ${values.only} selects ${matching.length})` : ''}`);
  }
  if (values.only !== undefined && !RULES.some((rule) => ruleMatcher(values.only!)(rule.id))) {
    const meant = closest(values.only, RULES.map((rule) => rule.id));
    throw new UsageError(`--only ${values.only} matches no rule of the catalog${meant ? ` (did you mean ${meant}?)` : ''}; --list-rules lists them`);
  }
  if (target !== undefined) target = targetUrl(target);
  if (values.compare === undefined) {
    for (const name of ['compare-profile', 'compare-dialect', 'compare-level', 'ambiguities'] as const) if (values[name] !== undefined) throw new UsageError(`--${name} goes with --compare URL (or --compare reference)`);
  } else {
    if (values.compare !== 'reference') targetUrl(values.compare, '--compare');
    if (values.compare !== 'reference' && (values['compare-dialect'] !== undefined || values['compare-level'] !== undefined)) throw new UsageError('--compare-dialect and --compare-level are the embedded reference\'s: --compare reference');
    if (values['compare-dialect'] !== undefined && !['zulip', 'alternate', 'random'].includes(values['compare-dialect'])) throw new UsageError('--compare-dialect takes zulip, alternate or random');
    const compareLevel = wholeNumber(values['compare-level'], 'compare-level');
    if (compareLevel !== undefined && (compareLevel < 1 || compareLevel > newest)) throw new UsageError(`--compare-level takes a feature level from 1 to ${newest}`);
    if (values['sweep-only'] || values.replay !== undefined || values.shuffle) throw new UsageError('--compare runs the same cases against two servers: it does not go with --sweep-only, --replay or --shuffle');
  }
  // Every file the run will write is checked before its first request: a folder that does not
  // exist yet is made, one that cannot be written is said in one line, and nothing is sent.
  for (const option of ['json', 'junit', 'html', 'journal', 'ambiguities'] as const) if (values[option] !== undefined && !(option === 'json' && values[option] === '-')) writable(values[option]!, `--${option}`);
  const dialectSeed = dialect === 'random' ? wholeNumber(values['reference-dialect-seed'], 'reference-dialect-seed') ?? seed : undefined;
  if (!target) {
    embedded = await startEmbeddedReference(referenceLevel, dialect, {}, dialectSeed);
    endWithEmbeddedReference(embedded.child);
    target = embedded.url;
    Object.assign(profile, embedded.profile);
  }
  const credentials = credentialsFrom(profile);
  // A bound protects a shared server; one on this machine is checked at full speed.
  const rate = wholeNumber(values.rate, 'rate') ?? (embedded || isLoopback(target) ? 0 : 20);
  const timeoutMs = wholeNumber(values.timeout, 'timeout') ?? 15_000;
  if (values['sweep-only']) {
    try {
      return await sweepOnly(target, credentials, rate, timeoutMs);
    } finally {
      embedded?.child.kill('SIGTERM');
    }
  }
  if (values.compare !== undefined) {
    try {
      return await compareRun({ values, target, credentials, profile, embedded, dialect, dialectSeed, seed, runs, rate, timeoutMs, expectations, shard, lease: { ttl: leaseTtl, wait: leaseWait } });
    } finally {
      embedded?.child.kill('SIGTERM');
    }
  }
  const reportFile = values.json ?? values.junit ?? values.html;
  const journal = values.journal ?? (embedded ? undefined : reportFile ? `${reportFile}.journal.jsonl` : join(tmpdir(), `teamchat-conformance-${Date.now()}.journal.jsonl`));
  // Said once the target answered: a run that cannot start says so in one line, and nothing else.
  const undoCommand = journal && [invokedAs(), '--undo', shellWord(journal), ...(values.profile ? ['--profile', shellWord(values.profile)] : []), ...(values.target ? ['--target', shellWord(values.target)] : [])].join(' ');
  const checked = embedded ? ` (the embedded reference at feature level ${embedded.featureLevel}, ${dialect} dialect${dialectSeed !== undefined ? ` of seed ${dialectSeed}` : ''})` : '';
  const started = () => {
    process.stdout.write(`teamchat-conformance: checking ${target}${checked} with seed ${seed}${pipeline ? ` (from ${pipeline.from}, which every shard of it shares)` : ''}, ${values.smoke ? 'each property\'s boundary cases (a smoke run)' : `${counted(runs, 'random case')} per property besides its boundary cases`}\n`);
    if (journal) process.stdout.write(`teamchat-conformance: what this run changes is journaled in ${journal} as it goes; if the run is killed, this puts it back${values.profile ? '' : ' (with the same TEAMCHAT_* variables set)'}: ${undoCommand}\n`);
  };
  let interrupted = false;
  // Ctrl-C, or a CI job cancelled (SIGTERM): the run cleans up before it ends.
  const interrupt = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write('\ninterrupted: finishing the current check, then cleaning up (Ctrl-C again to stop at once)\n');
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  endWithParent(interrupt);
  // Off a terminal, a line at least every five seconds while one rule runs long.
  let current: { id: string; index: number; total: number; since: number } | null = null;
  let skippedDecisions = 0;
  const tick = Number(process.env.TEAMCHAT_PROGRESS_MS ?? 5000);
  let progress = () => 0;
  const ticker = setInterval(() => {
    if (terminal || values.quiet || current === null || Date.now() - current.since < tick) return;
    process.stdout.write(`  …     ${current.id} [${current.index + 1}/${current.total}] still running after ${Math.round((Date.now() - current.since) / 1000)} s, ${counted(progress(), 'request')} so far\n`);
  }, tick);
  ticker.unref();
  try {
    const report = await runSuite({
      target, credentials, embedded: embedded !== null, seed, runs, only: values.only ?? null,
      replayPath: values.replay ?? null, decisions: values.decisions ?? false,
      rate,
      timeoutMs,
      eventWaitMs: wholeNumber(values['event-wait'], 'event-wait') ?? (embedded ? 300 : 2000),
      expectations,
      createUsers: values['create-users'] ?? embedded !== null,
      smoke: values.smoke ?? false,
      shuffle: values.shuffle ?? false,
      emojiLimitMib: wholeNumber(values['emoji-limit-mib'], 'emoji-limit-mib'),
      retries: wholeNumber(values.retries, 'retries') ?? 0,
      deliveryWait: wholeNumber(values['delivery-wait'], 'delivery-wait'),
      deliveries: values.deliveries ?? false,
      shard,
      lease: { ttl: leaseTtl, wait: leaseWait },
      onWait: (text) => {
        if (!values.quiet) process.stdout.write(`${terminal ? '\r\x1b[2K' : ''}  …     ${text}\n`);
      },
      interrupted: () => interrupted,
      command: invokedAs(),
      journal,
      onProbed: started,
      profilePath: values.profile,
      // The embedded reference's seeded faults (TEAMCHAT_FAULTS, which it inherits) are part of what was checked: its replay line sets them again.
      reference: embedded ? { feature_level: embedded.featureLevel, dialect, ...(dialectSeed !== undefined ? { dialect_seed: dialectSeed } : {}), ...(process.env.TEAMCHAT_FAULTS ? { faults: process.env.TEAMCHAT_FAULTS } : {}) } : null,
      requestCount: (count) => (progress = count),
      onStart: (id, index, total) => {
        current = { id, index, total, since: Date.now() };
        if (terminal) process.stdout.write(`\r\x1b[2K  [${index + 1}/${total}] ${id} …`);
      },
      onResult: (result) => {
        current = null;
        if (terminal) process.stdout.write('\r\x1b[2K');
        if (values.quiet && result.status !== 'fail' && result.status !== 'error') return;
        if (result.skipped === 'decision' && !values.verbose) {
          skippedDecisions++;
          return;
        }
        const mark = result.status === 'fail' && result.expected ? 'xfail' : result.flaky ? 'flaky' : result.status;
        const transient = [result.dropped ? `${counted(result.dropped, 'case')} dropped after transient faults` : '', result.resynced ? `model read again ${counted(result.resynced, 'time')}` : ''].filter(Boolean).map((text) => `, ${text}`).join('');
        process.stdout.write(`  ${paint(mark, mark.padEnd(5))} ${result.id}${result.status === 'skip' ? `: ${result.message}` : ''} (${result.duration_ms} ms, ${counted(result.requests, 'request')}${transient})\n`);
      },
    });
    clearInterval(ticker);
    if (skippedDecisions > 0) process.stdout.write(`  skip  ${skippedDecisions} decisions (Zulip's choices where the spec is silent): run with --decisions to check them, --verbose to list them\n`);
    if (values.json) writeFileSync(values.json, JSON.stringify(withReplays(report), null, 2) + '\n');
    if (values.junit) writeFileSync(values.junit, junit(report));
    if (values.html) writeHtml(values.html, report);
    process.stdout.write(consoleSummary(report).replace(/^rules: .*$/m, (line) => line.replace(/(\d+) (pass|fail|skip|error)/g, (words, _count, status: string) => paint(status, words))) + '\n');
    if (report.rules.length === 0) {
      // A shard may get none of a small selection: the other shards run it, and the merge takes this report too.
      if (shard) {
        process.stdout.write(`shard ${shard.index}/${shard.total} has none of the ${values.only ? `rules --only ${values.only} selects` : 'selected rules'}: nothing to run here (the other shards run them)\n`);
        return 0;
      }
      process.stderr.write(`no rule matches --only ${values.only}\n`);
      return 2;
    }
    if (interrupted) return 130;
    const code = exitCode(report);
    if (code === 3) process.stderr.write(`teamchat-conformance: ${report.summary.error} rule(s) ended in error: the verdict is incomplete (exit 3)\n`);
    return code;
  } finally {
    embedded?.child.kill('SIGTERM');
    // A journal the run put in the temporary folder itself, with nothing left to put back, is of no use.
    if (journal !== undefined && values.journal === undefined && reportFile === undefined && existsSync(journal) && pendingIn(journal).pending.length === 0) rmSync(journal);
  }
}

/** The feature level a server says it has (GET /api/v1/server_settings), for the reference that stands beside it. */
async function levelOf(target: string): Promise<number> {
  const answer = await fetch(new URL('/api/v1/server_settings', target));
  const body = (await answer.json()) as { zulip_feature_level?: number };
  return body.zulip_feature_level ?? 1;
}

interface CompareArguments {
  readonly values: { compare?: string; 'compare-profile'?: string; 'compare-dialect'?: string; 'compare-level'?: string; ambiguities?: string; json?: string; junit?: string; html?: string; only?: string; smoke?: boolean; quiet?: boolean; 'event-wait'?: string; 'create-users'?: boolean; 'emoji-limit-mib'?: string; retries?: string; 'delivery-wait'?: string; deliveries?: boolean; profile?: string };
  readonly target: string;
  readonly credentials: Record<Role, Credentials>;
  readonly profile: Profile;
  readonly embedded: EmbeddedReference | null;
  readonly dialect: string;
  readonly dialectSeed: number | undefined;
  readonly seed: number;
  readonly runs: number;
  readonly rate: number;
  readonly timeoutMs: number;
  readonly expectations: Expectations | null;
  readonly shard: Exclude<ReturnType<typeof parseShard>, string> | undefined;
  readonly lease: { ttl?: number; wait?: number };
}

/** --compare URL (or reference): both servers, the same seed, every difference named by the catalog. */
async function compareRun(args: CompareArguments): Promise<number> {
  const { values, target, credentials, embedded, seed, runs } = args;
  let other: EmbeddedReference | null = null;
  let compareTarget = values.compare!;
  let compareCredentials = credentials;
  try {
    if (compareTarget === 'reference') {
      // The reference as it is: seeded faults asked for (TEAMCHAT_FAULTS) are the target's alone.
      const level = wholeNumber(values['compare-level'], 'compare-level') ?? embedded?.featureLevel ?? (await levelOf(target));
      const compareDialect = values['compare-dialect'] ?? 'zulip';
      other = await startEmbeddedReference(level, compareDialect, { TEAMCHAT_FAULTS: '' }, compareDialect === 'random' ? seed : undefined);
      compareTarget = other.url;
      compareCredentials = credentialsFrom(other.profile);
    } else if (values['compare-profile'] !== undefined) {
      compareCredentials = credentialsFrom(readJson<Profile>(values['compare-profile'], 'profile'));
    }
    const interruptedFlag = { value: false };
    // Ctrl-C, SIGTERM (a CI job cancelled) or npm's end: the comparison yields to them (differential.ts).
    const interrupt = () => {
      if (interruptedFlag.value) process.exit(130);
      interruptedFlag.value = true;
      process.stderr.write('\ninterrupted: finishing the current checks, then cleaning up (Ctrl-C again to stop at once)\n');
    };
    process.on('SIGINT', interrupt);
    process.on('SIGTERM', interrupt);
    endWithParent(interrupt);
    const side = (url: string, sideCredentials: Record<Role, Credentials>, isEmbedded: boolean, reference: Report['reference']) => ({
      target: url, credentials: sideCredentials, embedded: isEmbedded, seed, runs, only: values.only ?? null, replayPath: null, decisions: true, rate: args.rate, timeoutMs: args.timeoutMs,
      eventWaitMs: wholeNumber(values['event-wait'], 'event-wait') ?? (isEmbedded ? 300 : 2000), expectations: args.expectations,
      createUsers: values['create-users'] ?? isEmbedded, smoke: values.smoke ?? false, emojiLimitMib: wholeNumber(values['emoji-limit-mib'], 'emoji-limit-mib'),
      retries: wholeNumber(values.retries, 'retries') ?? 0, deliveryWait: wholeNumber(values['delivery-wait'], 'delivery-wait'), deliveries: values.deliveries ?? false,
      shard: args.shard, lease: args.lease, interrupted: () => interruptedFlag.value, command: invokedAs(), reference,
    });
    const targetReference = embedded ? { feature_level: embedded.featureLevel, dialect: args.dialect, ...(args.dialectSeed !== undefined ? { dialect_seed: args.dialectSeed } : {}) } : null;
    const compareReference = other ? { feature_level: other.featureLevel, dialect: values['compare-dialect'] ?? 'zulip' } : null;
    process.stdout.write(`teamchat-conformance: comparing ${target}${embedded ? ` (the embedded reference, ${args.dialect} dialect)` : ''} with ${compareTarget}${other ? ` (the embedded reference at feature level ${other.featureLevel}, ${values['compare-dialect'] ?? 'zulip'} dialect)` : ''}, seed ${seed}, decisions included\n`);
    const report = await runDifferential(side(target, credentials, embedded !== null, targetReference), side(compareTarget, compareCredentials, other !== null, compareReference), (rules) => {
      if (!values.quiet) process.stdout.write(`  …     ${counted(rules.length, 'rule')} differ in exchanges: checking the target again to tell noise from differences\n`);
    });
    if (values.json) writeFileSync(values.json, JSON.stringify(withReplays(report), null, 2) + '\n');
    if (values.junit) writeFileSync(values.junit, junit(report));
    if (values.html) writeHtml(values.html, report);
    if (values.ambiguities) writeFileSync(values.ambiguities, ambiguityEntries(report));
    process.stdout.write(`target:  ${report.target} ${summaryLine(report.summary)}\ncompare: ${report.compare.target} ${summaryLine(report.compare.summary)}\n`);
    process.stdout.write(differencesText(report) + '\n');
    if (interruptedFlag.value) return 130;
    return differentialExitCode(report);
  } finally {
    other?.child.kill('SIGTERM');
  }
}

const summaryLine = (summary: Report['summary']) => `${summary.pass} pass, ${summary.fail} fail, ${summary.skip} skip, ${summary.error} error`;

/** --merge-reports FILE…: one report from the shards' JSON reports, written as asked, and that run's exit code. */
function merge(files: string[], values: { json?: string; junit?: string; html?: string; quiet?: boolean }): number {
  const outputs = [values.json, values.junit, values.html].filter((file) => file !== undefined);
  if (outputs.length === 0) throw new UsageError('--merge-reports writes the merged report: give --json, --junit or --html (or several)');
  for (const [option, file] of [['--json', values.json], ['--junit', values.junit], ['--html', values.html]] as const) if (file !== undefined) writable(file, option);
  const reports = files.map((file) => readJson<Report>(file, 'shard report'));
  let report: Report;
  try {
    report = mergeReports(reports, files);
  } catch (error) {
    if (error instanceof MergeError) throw new UsageError(error.message);
    throw error;
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(withReplays(report), null, 2) + '\n');
  if (values.junit) writeFileSync(values.junit, junit(report));
  if (values.html) writeHtml(values.html, report);
  process.stdout.write(`teamchat-conformance: merged ${files.length} shard reports of one run (seed ${report.seed}) into ${outputs.join(', ')}\n`);
  process.stdout.write(consoleSummary(report) + '\n');
  const code = exitCode(report);
  if (code === 3) process.stderr.write(`teamchat-conformance: ${report.summary.error} rule(s) ended in error: the verdict is incomplete (exit 3)\n`);
  return code;
}

/** The HTML report, with the annotated spec beside it: its links to each rule's place work wherever the folder is opened (a CI artifact too). */
function writeHtml(file: string, report: Report): void {
  writeFileSync(file, html(report));
  copyFileSync(ANNOTATED_SPEC, join(dirname(file), ANNOTATED_BESIDE));
}

/** --list-rules: the catalog as text, or as JSON to a file (- for stdout). */
function listRules(json: string | undefined): number {
  const rules = (RULES as readonly Rule[]).map((rule) => ({ id: rule.id, severity: rule.severity, since: rule.since, ...(rule.before !== undefined ? { before: rule.before } : {}), section: rule.section, title: rule.title }));
  if (json !== undefined) {
    const text = JSON.stringify(rules, null, 2) + '\n';
    if (json === '-') process.stdout.write(text);
    else writeFileSync(json, text);
    return 0;
  }
  for (const rule of rules) {
    const levels = rule.before !== undefined ? `${rule.since}–${rule.before - 1}` : `${rule.since}+`;
    process.stdout.write(`${rule.id.padEnd(52)} ${rule.severity.padEnd(8)} ${levels.padEnd(8)} ${rule.title}\n`);
  }
  process.stdout.write(`${rules.length} rules: ${rules.filter((rule) => rule.severity === 'must').length} must, ${rules.filter((rule) => rule.severity === 'decision').length} decisions\n`);
  return 0;
}

/** How the user started the suite, as a replay line should start: the npm script, the installed bin, or node. */
function invokedAs(): string {
  if (process.env.npm_lifecycle_event === 'conformance') return 'npm run conformance --';
  const script = process.argv[1] ?? '';
  if (/teamchat-conformance$/.test(script) || script.includes('/node_modules/')) return 'npx teamchat-conformance';
  return `node ${relative(process.cwd(), script) || script}`;
}

/** --explain RULE: the rule and its spec text, then the reference run without and with the rule's fault. */
async function explain(id: string): Promise<number> {
  const rule = findRule(id);
  if (typeof rule === 'string') throw new UsageError(rule);
  const faults = JSON.parse(readFileSync(new URL('../../docs/rules.json', import.meta.url), 'utf8')) as Array<{ id: string; fault: string | null; fault_level?: number; fault_dialect?: string }>;
  const entry = faults.find((candidate) => candidate.id === rule.id);
  const place = { level: entry?.fault_level, dialect: entry?.fault_dialect };
  const examples = await recordExamples(rule, entry?.fault ?? null, async (names) => {
    const embedded = await startEmbeddedReference(exampleLevel(rule, place), place.dialect, names.length > 0 ? { TEAMCHAT_FAULTS: names.join(',') } : {});
    return { url: embedded.url, credentials: credentialsFrom(embedded.profile), close: () => void embedded.child.kill('SIGTERM') };
  });
  process.stdout.write(explanation(rule, examples) + '\n');
  return 0;
}

/**
 * --undo FILE: puts back what the journal's run left, the last change first, compare-and-set
 * (put-back.ts), sweeps its prefix, and says what. Each step put back is marked done in the
 * journal, and a journal with nothing left is marked undone: run again, it changes nothing.
 */
async function undo(file: string, given: string | undefined, profile: Profile, rate: number | undefined): Promise<number> {
  let journal: JournalState;
  try {
    journal = pendingIn(file);
  } catch (error) {
    throw new UsageError(`cannot read the journal ${file}: ${(error as Error).message}`);
  }
  if (journal.undone !== null) {
    process.stdout.write(`teamchat-conformance: the journal of run ${journal.run} was undone at ${journal.undone}: nothing is left to put back, and nothing was changed\n`);
    return 0;
  }
  const target = given ?? journal.target;
  const client = new Client(target, credentialsFrom(profile), { rate: rate ?? (isLoopback(target) ? 0 : 20), timeoutMs: 15_000 });
  const cleanup = new Cleanup(client);
  try {
    await probeTarget(client, { createUsers: false });
    process.stdout.write(`teamchat-conformance: undoing run ${journal.run} on ${target}${journal.finished ? ' (it finished: only what it could not put back is left)' : ' (it did not finish)'}\n`);
    for (const { step, what, request } of journal.pending) {
      const before = cleanup.problems.length;
      let conflicts: string[] = [];
      await cleanup.now(what, async () => {
        if ('personalFlags' in request) await putBackPersonalFlags(client, request.personalFlags);
        else conflicts = await putBackNow(client, request, journal.sent);
      });
      const failed = cleanup.problems.length > before;
      if (!failed) appendTo(file, { done: step });
      cleanup.conflict(...conflicts);
      process.stdout.write(`  ${failed ? 'failed' : conflicts.length > 0 ? 'left as someone else changed it' : 'done'}: ${what}\n`);
      for (const conflict of conflicts) process.stdout.write(`    ${conflict}\n`);
    }
    const removed = await sweep(client, cleanup, (text) => text.includes(journal.run));
    for (const what of removed) process.stdout.write(`  removed ${what}\n`);
    for (const problem of cleanup.problems) process.stdout.write(`  problem: ${problem}\n`);
    if (cleanup.problems.length === 0) appendTo(file, { undone: new Date().toISOString() });
    process.stdout.write(`${counted(journal.pending.length - cleanup.problems.length, 'change')} put back or found put back, ${counted(cleanup.conflicts.length, 'conflict')} left as someone else made it, ${counted(removed.length, 'object')} removed, ${counted(cleanup.problems.length, 'problem')}${cleanup.problems.length === 0 ? '; the journal is marked undone, so running this again changes nothing' : ''}\n`);
    return cleanup.problems.length > 0 ? 1 : 0;
  } finally {
    await client.close();
  }
}

/**
 * Started by npm (npm run conformance, npx), the suite ends when npm does, however npm ended
 * (SIGKILL included, which npm cannot pass on): its parent changes, and the run is interrupted as
 * by Ctrl-C, cleaning up before it ends. A second change of nothing: interrupted already.
 */
function endWithParent(interrupt: () => void): void {
  // Output whose reader has gone with the parent (a closed pipe) is dropped: the run still cleans up.
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') === 0) stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  if (process.env.npm_command === undefined && process.env.TEAMCHAT_STOP_WITH_PARENT !== '1') return;
  const parent = STARTED_BY;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.stderr.write('\nthe process that started this run has ended\n');
    interrupt();
  }, 250);
  watch.unref();
}

/** Makes the folder of a file the run will write, and checks that the file can be written there; a usage error names the option and why. */
function writable(file: string, option: string): void {
  try {
    mkdirSync(dirname(file) || '.', { recursive: true });
    if (existsSync(file) && statSync(file).isDirectory()) throw new Error('it is a folder');
    accessSync(existsSync(file) ? file : dirname(file) || '.', constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied' : (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'a part of its path is a file, not a folder' : (error as Error).message;
    throw new UsageError(`${option} ${file}: cannot be written (${reason}); nothing was sent`);
  }
}

/** --sweep-only: removes what earlier runs left, by the suite's prefix form, and says what. */
async function sweepOnly(target: string, credentials: Record<Role, Credentials>, rate: number, timeoutMs: number): Promise<number> {
  const client = new Client(target, credentials, { rate, timeoutMs });
  const cleanup = new Cleanup(client);
  try {
    await probeTarget(client, { createUsers: false });
    process.stdout.write(`teamchat-conformance: sweeping ${target} of everything named like ${PREFIX_FORM.source}\n`);
    const removed = await sweep(client, cleanup, (text) => PREFIX_FORM.test(text));
    const claims = await releaseEveryClaim(client);
    if (claims > 0) removed.push(`${claims} claim${claims === 1 ? '' : 's'} of the server's lease (drafts of the admin's)`);
    for (const what of removed) process.stdout.write(`  removed ${what}\n`);
    for (const problem of cleanup.problems) process.stdout.write(`  problem: ${problem}\n`);
    process.stdout.write(`${removed.length} removed, ${cleanup.problems.length} problems\n`);
    return 0;
  } finally {
    await client.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ProbeFailure) {
      // One line, whatever line breaks an answer or a network error put in the message.
      process.stderr.write(`teamchat-conformance: ${(error as Error).message.trim().replace(/\s*\n\s*/g, ' ')}\n`);
    } else {
      process.stderr.write(`teamchat-conformance: ${(error as Error)?.stack ?? String(error)}\n`);
    }
    process.exit(2);
  },
);
