// npm run derived -- [--seeds N] [--smoke] [--faults PATTERN] [--jobs N] [--json FILE] [--list] [--write]
//                    [--again FILE]
//
// The model's own power, measured with faults nobody wrote for it (reference/faults/derived.ts):
// each generic operator at each rule function of the spec whose result it fits, the functions of
// open points and of the Zulip endpoints outside the spec left out (their class is the mutation
// table's, scripts/mutation-classes.ts). Each derived fault is run against the organization model
// alone (`--only organization.model`) at seeds 1 to N; one it misses at some seed is run again
// against the whole suite, so that every miss says what does catch it, or that nothing does and
// why (scripts/derived-reasons.json). With --write the table goes to docs/derived-faults.md;
// --again FILE writes it again from the findings a run kept with --json (a reason added, no run).
// Exit 1 when a miss has no reason.

import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { DERIVED_PREFIX, derivedFault, derivedFaultNames, OPERATORS, RESULT_KINDS, type ResultKind } from '../reference/faults/derived.js';
import { MAX_FEATURE_LEVEL } from '../reference/model/levels.js';
import { targetProfile } from '../reference/http/boot.js';
import { startReference } from '../reference/http/server.js';
import { CHANNEL_RULES } from '../reference/support/channels.js';
import { DEFAULTS_RULES } from '../reference/operations/defaults.js';
import { DRAFT_RULES } from '../reference/operations/drafts.js';
import { EMOJI_RULES } from '../reference/operations/emoji.js';
import { FIELD_RULES } from '../reference/operations/fields.js';
import { FLAG_RULES } from '../reference/operations/flags.js';
import { HTTP_RULES } from '../reference/http/handler.js';
import { MESSAGE_RULES } from '../reference/model/messaging.js';
import { REMINDER_RULES } from '../reference/operations/reminders.js';
import { SCHEDULED_RULES } from '../reference/operations/scheduled.js';
import { SETTINGS_RULES } from '../reference/operations/settings.js';
import { TYPING_RULES } from '../reference/operations/typing.js';
import { USER_RULES } from '../reference/support/users.js';
import type { SpecRules } from '../reference/model/model.js';
import { DEFAULT_RUNS } from '../conformance/run/harness.js';
import { RULES } from '../conformance/rules.js';
import { runSuite } from '../conformance/suite.js';
import { classOf } from './mutation-classes.js';
import { inProcesses, serveTasks } from './workers.js';

/** Where each rule function is written: its module's area (the mutation table's name where it has one). */
const MODULES: ReadonlyArray<readonly [string, object]> = [
  ['general (http/handler.ts)', HTTP_RULES], ['users (support/users.ts)', USER_RULES], ['settings (operations/settings.ts)', SETTINGS_RULES], ['defaults', DEFAULTS_RULES],
  ['drafts', DRAFT_RULES], ['scheduled', SCHEDULED_RULES], ['messages (model/messaging.ts)', MESSAGE_RULES], ['channels (support/channels.ts)', CHANNEL_RULES],
  ['flags', FLAG_RULES], ['fields', FIELD_RULES], ['reminders', REMINDER_RULES], ['emoji', EMOJI_RULES], ['typing', TYPING_RULES],
];

export function moduleOf(name: string): string {
  return MODULES.find(([, table]) => name in table)?.[0] ?? 'unknown';
}

/** The rule functions whose faults count: all but those the mutation table files as an open point or outside the spec. */
export function specFunctions(): Array<keyof SpecRules> {
  return (Object.keys(RESULT_KINDS) as Array<keyof SpecRules>).filter((name) => {
    const area = moduleOf(name).split(' ')[0]!;
    const found = classOf(area, name);
    return found === undefined || found === 'spec';
  });
}

/** The kinds of result as SpecRules declares them in model.ts: what RESULT_KINDS must equal. */
export function declaredKinds(source: string): Record<string, ResultKind> {
  const block = /export interface SpecRules \{([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
  const kinds: Record<string, ResultKind> = {};
  for (const line of block.split('\n')) {
    const match = /^\s+(\w+): \(.*\) => (.*);$/.exec(line);
    if (!match) continue;
    const type = match[2]!.trim();
    kinds[match[1]!] = type === 'void' ? 'void'
      : type === 'boolean' || type === 'boolean | undefined' ? 'boolean'
      : type === 'number' ? 'number'
      : type === 'string' ? 'string'
      : type.endsWith('[]') || type.startsWith('Array<') ? 'list'
      : type.endsWith('| undefined') ? 'optional'
      : /^(Readonly<)?Record<|^\{/.test(type) || type === 'DraftFields' ? 'record'
      : 'value';
  }
  return kinds;
}

interface Task {
  readonly fault: string;
  readonly seed: number;
  readonly smoke: boolean;
  /** The model alone, or every must rule (to say what catches a miss). */
  readonly only: string;
  /** The reference's feature level; the newest when absent. */
  readonly level?: number;
}

/**
 * The levels where a behaviour of one level range ends: below each must rule's `since` and its
 * `before`. A fault of a function that matters only there (what a level reads, what it refuses)
 * shows only there: a miss at the newest level is looked for at each of them.
 */
export function edgeLevels(): number[] {
  const levels = new Set<number>();
  for (const rule of RULES) {
    if (rule.severity !== 'must') continue;
    const before = (rule as { readonly before?: number }).before;
    if (before !== undefined) levels.add(before - 1);
    if (rule.since > 1) levels.add(rule.since - 1);
  }
  return [...levels].sort((a, b) => b - a);
}

interface Finding {
  readonly task: Task;
  /** The model's status, or the rules that failed in a whole run. */
  readonly status: string;
  readonly failed: readonly string[];
  /** The first error the fault threw outside a request, where it did. */
  readonly crashed?: string;
}

const MODEL = 'organization.model';

/** An error the fault threw outside any request (a delivery worker's timer): the reference lives on without that work, as a server whose worker died would. */
let crashed: string | null = null;

async function runOne(task: Task): Promise<Finding> {
  crashed = null;
  const reference = await startReference({ port: 0, faults: new Set([task.fault]), featureLevel: task.level });
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    const report = await runSuite({
      target: reference.url, credentials: profile.users, embedded: true, seed: task.seed, runs: DEFAULT_RUNS, smoke: task.smoke, only: task.only === '*' ? null : task.only, replayPath: null,
      decisions: false, rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
    });
    const must = new Set(RULES.filter((rule) => rule.severity === 'must').map((rule) => rule.id as string));
    const failed = report.rules.filter((rule) => must.has(rule.id) && (rule.status === 'fail' || rule.status === 'error')).map((rule) => `${rule.id} (${rule.status})`);
    return { task, status: report.rules.find((rule) => rule.id === MODEL)?.status ?? 'absent', failed, ...(crashed === null ? {} : { crashed }) };
  } finally {
    await reference.close();
  }
}

type Reasons = Record<string, string>;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { seeds: { type: 'string' }, smoke: { type: 'boolean' }, faults: { type: 'string' }, jobs: { type: 'string' }, json: { type: 'string' }, again: { type: 'string' }, list: { type: 'boolean' }, write: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    process.stdout.write('npm run derived -- [--seeds N] [--smoke] [--faults PATTERN] [--jobs N] [--json FILE] [--list] [--write] [--again FILE]\n');
    return 0;
  }
  const seeds = Number(values.seeds ?? 3);
  if (!Number.isInteger(seeds) || seeds < 1) {
    process.stderr.write('derived: --seeds takes a whole number of at least 1\n');
    return 2;
  }
  const faults = derivedFaultNames(specFunctions()).filter((name) => name.includes(values.faults ?? ''));
  if (values.list) {
    for (const name of faults) process.stdout.write(`${name}\t${derivedFault(name)!.does}\n`);
    return 0;
  }
  if (faults.length === 0) {
    process.stderr.write(`derived: no derived fault matches ${JSON.stringify(values.faults)}\n`);
    return 2;
  }
  const smoke = values.smoke ?? false;
  const jobs = Math.max(1, Number(values.jobs ?? availableParallelism()));
  const script = new URL(import.meta.url).pathname;
  // The findings of an earlier run, where asked: each phase takes its own from them instead of running.
  const kept: { first: Finding[]; atEdges: Finding[]; whole: Finding[]; seconds?: number; jobs?: number } | null = values.again ? JSON.parse(readFileSync(values.again, 'utf8')) : null;
  const phase = async (name: 'first' | 'atEdges' | 'whole', tasks: Task[], into: Finding[]) => {
    if (kept) {
      const wanted = new Set(tasks.map((task) => JSON.stringify([task.fault, task.seed, task.only, task.level ?? null])));
      into.push(...kept[name].filter((finding) => wanted.has(JSON.stringify([finding.task.fault, finding.task.seed, finding.task.only, finding.task.level ?? null]))));
      return;
    }
    await inProcesses<Task, Finding>(script, tasks, jobs, (finding) => void into.push(finding));
  };
  const started = performance.now();
  process.stdout.write(`derived: ${faults.length} faults × seeds 1–${seeds}${smoke ? ' (smoke)' : ''}, the organization model alone, in ${jobs} processes\n`);
  const first: Finding[] = [];
  await phase('first', faults.flatMap((fault) => Array.from({ length: seeds }, (_, index) => ({ fault, seed: index + 1, smoke, only: MODEL }))), first);
  const missedAtNewest = faults.filter((fault) => first.some((finding) => finding.task.fault === fault && finding.status !== 'fail'));
  // A miss at the newest level is looked for at each edge level (seed 1), then at every seed where seed 1 caught it.
  const edges = edgeLevels();
  process.stdout.write(`derived: ${faults.length - missedAtNewest.length} caught at the newest level at every seed; the ${missedAtNewest.length} others at the edge levels ${edges.join(', ')}\n`);
  const atEdges: Finding[] = [];
  await phase('atEdges', missedAtNewest.flatMap((fault) => edges.map((level) => ({ fault, seed: 1, smoke, only: MODEL, level }))), atEdges);
  const edgeOf = new Map<string, number>();
  for (const fault of missedAtNewest) {
    const level = edges.find((candidate) => atEdges.some((finding) => finding.task.fault === fault && finding.task.level === candidate && finding.status === 'fail'));
    if (level !== undefined) edgeOf.set(fault, level);
  }
  const later: Finding[] = [];
  await phase('atEdges', [...edgeOf].flatMap(([fault, level]) => Array.from({ length: seeds - 1 }, (_, index) => ({ fault, seed: index + 2, smoke, only: MODEL, level }))), later);
  for (const finding of later) if (!atEdges.includes(finding)) atEdges.push(finding);
  const caughtAt = new Map<string, number>();
  for (const [fault, level] of edgeOf) {
    if (atEdges.filter((finding) => finding.task.fault === fault && finding.task.level === level).every((finding) => finding.status === 'fail')) caughtAt.set(fault, level);
  }
  const missed = missedAtNewest.filter((fault) => !caughtAt.has(fault));
  process.stdout.write(`derived: ${caughtAt.size} more caught at an edge level at every seed; the ${missed.length} others against every rule at seed 1\n`);
  const whole: Finding[] = [];
  await phase('whole', missed.map((fault) => ({ fault, seed: 1, smoke, only: '*', level: edgeOf.get(fault) })), whole);
  const reasons: Reasons = JSON.parse(readFileSync('scripts/derived-reasons.json', 'utf8'));
  const lines: string[] = [];
  let unexplained = 0;
  const byOperator = new Map<string, { all: number; caught: number }>();
  for (const fault of faults) {
    const operator = fault.split(':')[2]!;
    const tally = byOperator.get(operator) ?? { all: 0, caught: 0 };
    tally.all++;
    if (!missed.includes(fault)) tally.caught++;
    byOperator.set(operator, tally);
  }
  for (const fault of missed) {
    const mine = first.filter((finding) => finding.task.fault === fault).sort((a, b) => a.task.seed - b.task.seed);
    const thrown = mine.find((finding) => finding.crashed)?.crashed;
    const seen = mine.map((finding) => `${finding.task.seed}: ${finding.status}`).join(', ') + (thrown ? ` (the fault throws outside any request: ${thrown.replace(/\|/g, '/')})` : '');
    const elsewhere = whole.find((finding) => finding.task.fault === fault)?.failed.filter((rule) => !rule.startsWith(MODEL)) ?? [];
    const reason = reasons[fault] ?? (elsewhere.length > 0 ? `outside what the model issues or observes; caught by ${elsewhere.join(', ')}` : undefined);
    if (reason === undefined) unexplained++;
    lines.push(`| \`${fault}\` | ${derivedFault(fault)!.does} | ${moduleOf(fault.split(':')[1]!)} | ${seen} | ${reason ?? '**no rule catches it; no reason yet**'} |`);
  }
  const total = faults.length - missed.length;
  const table = [
    '# Derived faults: the organization model\'s own power',
    '',
    `Generated by \`npm run derived -- --seeds ${seeds}${smoke ? ' --smoke' : ''} --write\` (${kept ? (kept.seconds === undefined ? 'written again from kept findings' : `${kept.seconds} s, ${kept.jobs ?? jobs} processes, on a loaded two-core machine`) : `${Math.round((performance.now() - started) / 1000)} s, ${jobs} processes`}). Each generic operator of`,
    '`reference/faults/derived.ts` is applied at every rule function of the spec whose result it fits (open points and the',
    'Zulip endpoints outside the spec left out, as the mutation table files them); each derived fault is run against the',
    `organization model alone (\`--only ${MODEL}\`), every per-rule property switched off, at seeds 1 to ${seeds}, at the newest level`,
    `(${MAX_FEATURE_LEVEL}); a fault missed there is looked for at each level where a must rule's range ends (${edges.join(', ')}), since a`,
    'function of one level range shows only there. A fault counts as caught when the model fails at every seed at one level.',
    '',
    `Caught at the newest level: ${faults.length - missedAtNewest.length}; at an edge level: ${caughtAt.size} (${[...caughtAt].map(([fault, level]) => `\`${fault.slice(DERIVED_PREFIX.length)}\` at ${level}`).join(', ') || 'none'}).`,
    '',
    `**${total} of ${faults.length} caught (${Math.round((100 * total) / faults.length)} %).**`,
    '',
    '| operator | what the function then does | derived | caught | share |',
    '| --- | --- | ---: | ---: | ---: |',
    ...[...byOperator].map(([operator, tally]) => `| \`${operator}\` | ${OPERATORS[operator]!.does} | ${tally.all} | ${tally.caught} | ${Math.round((100 * tally.caught) / tally.all)} % |`),
    '',
    '## Every miss, with its reason',
    '',
    'A miss the rest of the suite catches names the rules that do; the model does not yet issue that operation or observe',
    'that path. A miss no rule catches carries the reason read against the spec (`scripts/derived-reasons.json`).',
    '',
    '| fault | what it does | module | model at each seed | reason |',
    '| --- | --- | --- | --- | --- |',
    ...lines,
    '',
  ].join('\n');
  if (values.json) writeFileSync(values.json, JSON.stringify({ seeds, smoke, seconds: Math.round((performance.now() - started) / 1000), jobs, first, atEdges, whole }, null, 2) + '\n');
  if (values.write) writeFileSync('docs/derived-faults.md', table);
  else process.stdout.write(table);
  process.stdout.write(`derived: ${total} of ${faults.length} caught by the model alone; ${missed.length} missed, ${unexplained} of them without a reason\n`);
  return unexplained === 0 ? 0 : 1;
}

if (process.argv.includes('--worker')) {
  process.on('uncaughtException', (error) => void (crashed ??= String((error as Error)?.message ?? error)));
  serveTasks(runOne, (task: Task, error): Finding => ({ task, status: `harness: ${(error as Error)?.message ?? String(error)}`, failed: [] }));
} else if (process.argv[1] === new URL(import.meta.url).pathname) main().then((code) => process.exit(code), (error) => {
  process.stderr.write(`derived: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(2);
});
