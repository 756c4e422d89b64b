// npm run mutation -- AREA [AREA …] [--runs N] [--concurrency N] [--rescore | --collect | --resume]
//   --rescore: score the recorded verdicts again (after a change of the list of equivalent
//   mutants) without running Stryker; --collect: record the areas' verdicts from their last
//   Stryker run (reports/) without running it again; --resume: run again a run that was stopped
//   (a killed process, a machine that went away), keeping every run of a mutant it finished, when
//   the module, the suite, the runner and --runs are the same.
//
// Mutation testing of the reference with StrykerJS: the built module of an area (MODULES: an
// operation's, or one the operations share) is mutated, and the suite is the test (scripts/mutant-run.ts): the
// area's rules, the general ones and the organization's model, at three seeds at level 415 and at
// seed 1 at the edge levels of the area's must rules (the settings tables', besides, at each level
// where the tables change), against the reference in Zulip's dialect and in the alternate one, both
// with the decisions. Each run writes its JSON report, so the verdict of every mutant names the
// rules that caught it.
//
// The class of a mutant is where it stands, decided by the code before any run
// (scripts/mutation-classes.ts): in spec code, in an open point, or outside the spec. The must-only
// score is the share of spec code's mutants a must rule caught; the score with decisions, the
// share of spec code's and open points' mutants any rule caught. The verdicts only count.
//
// Equivalent mutants, which no check can see because the program does the same, are listed one by
// one in scripts/mutation-equivalent.json, each by its place (line, column, mutator, replacement)
// in the built module, with the line it stands on and its reason; scripts/mutation.test.ts fails
// when an entry matches no mutant, when a rule caught it, or when it stands outside the spec.
// Mutants in the alternate dialect's words for an error (`.otherwise(…)`), which no check reads,
// are counted apart. A measurement, not part of npm test: an area takes many minutes.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CLASSES, classIn, classOf, declarationAt, declarationsOf, partsOf, RULE_ID, type AreaClasses, type MutantClass } from './mutation-classes.js';
import { ruleById } from '../conformance/rules.js';
import { CLASSES_FILE, LISTED_FILE, RUNNER, SEEDS, STAMP_FILE, stampOf, TOP_LEVEL, countedIn, edgeLevels, failedRules, planOf, reportName, runKey } from './mutant-run.js';

/**
 * Each area and its module of the reference: the operations' modules, and the modules of spec code
 * they share (the settings tables, messages and their flags, users, channels, the HTTP layer).
 * scripts/mutation.test.ts fails when a module that holds a rule function of the spec is in none.
 */
export const MODULES = {
  defaults: 'operations/defaults', drafts: 'operations/drafts', emoji: 'operations/emoji', fields: 'operations/fields', flags: 'operations/flags', reminders: 'operations/reminders',
  scheduled: 'operations/scheduled', typing: 'operations/typing', settings: 'operations/settings', messages: 'model/messaging', addresses: 'model/addresses', users: 'support/users', channels: 'support/channels',
  general: 'http/handler',
} as const;
export type Area = keyof typeof MODULES;
export const AREAS = Object.keys(MODULES) as Area[];
/** The built module an area's mutants are made of. */
export const builtModule = (area: string) => `dist/reference/${MODULES[area as Area]}.js`;
export const EQUIVALENTS_FILE = 'scripts/mutation-equivalent.json';
/** Survivors of spec code no must rule catches, each with why: the gaps the page explains (they still count against the score). */
export const GAPS_FILE = 'scripts/mutation-gaps.json';
export const VERDICTS_FILE = 'scripts/mutation-verdicts.json';

export interface Place {
  readonly line: number;
  readonly column: number;
  /** Where the mutated code ends, `line:column`: two mutants may start at one place (an if's condition and its left operand). */
  readonly end: string;
  readonly mutator: string;
  readonly replacement: string;
}

export interface Equivalent extends Place {
  readonly area: string;
  /** The mutated line, trimmed, as it stands in the built module. */
  readonly code: string;
  readonly why: string;
}

/** What one mutant did to the suite: the rules that caught it, by severity. */
export interface Verdict extends Place {
  /** Stryker's status: Killed, Survived, Timeout, RuntimeError, … */
  readonly status: string;
  readonly must: string[];
  readonly decision: string[];
}

export interface AreaVerdicts {
  readonly area: string;
  /** sha256 of the built module the mutants were made of. */
  readonly module: string;
  readonly runs: number;
  /** The version of the per-mutant runner whose plan made the verdicts (scripts/mutant-run.ts: RUNNER); absent, 1. */
  readonly runner?: number;
  /**
   * The class table the run scored by (scripts/mutation-classes.ts as it stood): the test fails
   * when the table differs from it, until the area is run again, so that no class moves silently
   * once the verdicts are known.
   */
  readonly classes?: AreaClasses;
  /** What the run found moved since the previous run's table: each declaration, and the rules its comment named then. */
  readonly classChanges?: readonly ClassChange[];
  /**
   * The rules that failed against the unmutated reference, by run (`s1.alternate.l415`): the
   * alternate dialect's decisions. A re-check subtracts them as the run did (runner 2).
   */
  readonly baseline?: Readonly<Record<string, readonly string[]>>;
  readonly verdicts: Verdict[];
}

/** A declaration whose class differs from the previous run's. */
export interface ClassChange {
  readonly name: string;
  readonly from: MutantClass | 'none';
  readonly to: MutantClass | 'none';
  /** The rules the declaration's comment names (its spec code's, or its open point's decisions), with their titles: the spec's words for its class. */
  readonly rules: readonly string[];
}

/** Each declaration whose class the table now gives otherwise than the previous run's, with the rules its comment names. */
export function classChanges(previous: AreaClasses | undefined, now: AreaClasses, source: string): ClassChange[] {
  if (!previous) return [];
  const names = new Set([...previous.spec, ...Object.keys(previous.open), ...Object.keys(previous.outside), ...now.spec, ...Object.keys(now.open), ...Object.keys(now.outside)]);
  const parts = partsOf(source);
  const classed = (classes: AreaClasses, name: string) => classIn(classes, name) ?? 'none';
  return [...names].filter((name) => classed(previous, name) !== classed(now, name)).sort().map((name) => ({
    name, from: classed(previous, name), to: classed(now, name),
    rules: [...new Set(parts.get(name)?.comment.match(RULE_ID) ?? [])].filter((id) => ruleById(id as never)).map((id) => `${id}: ${ruleById(id as never)!.title}`),
  }));
}

/** Whether the class table of an area is the one its recorded run scored by (the same declarations in the same classes, with the same reasons). */
export const sameClasses = (a: AreaClasses | undefined, b: AreaClasses | undefined) => JSON.stringify(normalisedClasses(a)) === JSON.stringify(normalisedClasses(b));
const normalisedClasses = (classes: AreaClasses | undefined) => classes && {
  spec: [...classes.spec].sort(),
  open: Object.fromEntries(Object.entries(classes.open).sort(([a], [b]) => a.localeCompare(b)).map(([name, decisions]) => [name, [...decisions].sort()])),
  outside: Object.fromEntries(Object.entries(classes.outside).sort(([a], [b]) => a.localeCompare(b))),
};

export interface AreaScore {
  readonly area: string;
  readonly mutants: number;
  readonly machinery: number;
  readonly equivalent: number;
  /** Mutants of open points, and of code outside the spec. */
  readonly open: number;
  readonly outside: number;
  /** Spec code: caught by a must rule, and not. */
  readonly mustKilled: number;
  readonly mustSurvived: Array<Place & { code: string; where: string }>;
  /** Spec code and open points: caught by any rule, and not. */
  readonly killed: number;
  readonly survived: Array<Place & { code: string; where: string }>;
  readonly mustScore: number;
  readonly score: number;
  /** The version of the per-mutant runner the verdicts were made by. */
  readonly runner?: number;
}

export const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** The built suite's hash: every file of dist/conformance, by path and content. */
export function suiteHash(root = 'dist/conformance'): string {
  const hash = createHash('sha256');
  for (const name of (readdirSync(root, { recursive: true }) as string[]).sort()) {
    const path = join(root, name);
    if (statSync(path).isFile()) hash.update(`${name}\0`).update(readFileSync(path));
  }
  return hash.digest('hex');
}
export const samePlace = (a: Place, b: Place) => a.line === b.line && a.column === b.column && a.end === b.end && a.mutator === b.mutator && a.replacement === b.replacement;
export const placeName = (p: Place) => `${p.line}:${p.column}-${p.end} ${p.mutator} → ${JSON.stringify(p.replacement)}`;

/** A mutant in the alternate dialect's words for an error (the arguments of `.otherwise(…)`), which no check reads. */
export const isMachinery = (line: string, column: number) => {
  const at = line.indexOf('.otherwise(');
  return at >= 0 && column > at;
};

/** A status that is a detection without a report: the suite hung or could not start. */
const CAUGHT_WITHOUT_REPORT = new Set(['Timeout', 'RuntimeError', 'CompileError']);
/**
 * A detection without a report: the suite hung or could not start, or the runner found no report
 * of a run (the reference crashed as it started, or hung past the run's time), which it counts as
 * caught: against a server that answers nothing, every rule ends in error, and an error is never a
 * pass. A mutant the runner counts killed for a rule always names it.
 */
export const caughtWithoutReport = (verdict: Verdict) =>
  CAUGHT_WITHOUT_REPORT.has(verdict.status) || (verdict.status === 'Killed' && verdict.must.length === 0 && verdict.decision.length === 0);
export const caughtByMust = (verdict: Verdict) => verdict.must.length > 0 || caughtWithoutReport(verdict);
export const caught = (verdict: Verdict) => caughtByMust(verdict) || verdict.decision.length > 0;

const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.floor((1000 * part) / whole) / 10);

/** A statement that only calls a function, its result unused: `f(…);`, `realm.rules.f(…);`, `realm.dialect.f(…);`. */
const CALL_STATEMENT = /^((?:realm|request\.realm)\.(?:rules|dialect)\.[A-Za-z_$][\w$]*|[A-Za-z_$][\w$]*)\(.*\);$/;

/**
 * Where a mutant stands: the class of the declaration it is in, except on a line that is one call
 * statement, whose result nothing uses: that line is the callee's (a dialect's decision is an open
 * point), for all it can change is what the callee does.
 */
export function classAt(area: string, source: string): (place: Place) => { readonly kind: MutantClass; readonly where: string } {
  const lines = source.split('\n');
  const declarations = declarationsOf(source);
  return (place) => {
    const name = declarationAt(declarations, place.line);
    const own = name === undefined ? undefined : classOf(area, name);
    if (own === undefined) throw new Error(`${area}:${place.line}: the mutant stands in ${name ?? 'no declaration'}, which scripts/mutation-classes.ts does not class`);
    const call = CALL_STATEMENT.exec(lines[place.line - 1]!.trim());
    if (call && place.end.startsWith(`${place.line}:`)) {
      const callee = call[1]!;
      if (/\.dialect\./.test(callee)) return { kind: 'open', where: `${name} (a call of the dialect's ${callee.replace(/^.*\./, '')})` };
      const calleeClass = classOf(area, callee.replace(/^.*\./, ''));
      if (calleeClass !== undefined && calleeClass !== own) return { kind: calleeClass, where: `${name} (a call of ${callee.replace(/^.*\./, '')})` };
    }
    return { kind: own, where: name! };
  };
}

/** The two scores of one area from its verdicts and the list of equivalent mutants. */
export function scoreArea(area: string, source: string, verdicts: readonly Verdict[], equivalents: readonly Equivalent[]): AreaScore {
  const lines = source.split('\n');
  const located = classAt(area, source);
  let machinery = 0;
  let equivalent = 0;
  let open = 0;
  let outside = 0;
  let mustKilled = 0;
  let killed = 0;
  const mustSurvived: AreaScore['mustSurvived'] = [];
  const survived: AreaScore['survived'] = [];
  for (const verdict of verdicts) {
    const line = lines[verdict.line - 1] ?? '';
    const { kind, where } = located(verdict);
    const place = { line: verdict.line, column: verdict.column, end: verdict.end, mutator: verdict.mutator, replacement: verdict.replacement, code: line.trim(), where };
    if (isMachinery(line, verdict.column)) {
      machinery++;
      continue;
    }
    if (kind === 'outside') {
      outside++;
      continue;
    }
    if (equivalents.some((candidate) => candidate.area === area && samePlace(candidate, verdict))) {
      equivalent++;
      continue;
    }
    if (caught(verdict)) killed++;
    else survived.push(place);
    if (kind === 'open') {
      open++;
      continue;
    }
    if (caughtByMust(verdict)) mustKilled++;
    else mustSurvived.push(place);
  }
  return {
    area, mutants: verdicts.length, machinery, equivalent, open, outside, mustKilled, mustSurvived, killed, survived,
    mustScore: percent(mustKilled, mustKilled + mustSurvived.length), score: percent(killed, killed + survived.length),
  };
}

/** The goal of each area's must-only score (issue 51: at least 95% in every area): reported against, never reached by listing survivors. */
export const MUST_GOAL = 95;

/** Where an area's mutants ran, by the runner that made its verdicts. */
const runsOf = (area: string, runner: number) => {
  if (runner < 2) return `${TOP_LEVEL}; alternate without decisions (runner 1)`;
  const tables = [...new Set(planOf(area, runner).filter((run) => run.tables).map((run) => run.level))];
  return [TOP_LEVEL, ...edgeLevels(area)].join(', ') + (tables.length > 0 ? `; the tables' rules at ${tables.join(', ')}` : '') + (runner < 3 ? '; without the model (runner 2)' : runner >= 4 ? `; open points at ${TOP_LEVEL} alone` : '');
};

function markdown(scores: readonly AreaScore[], runs: number, unmeasured: readonly string[], moved: ReadonlyArray<readonly [string, readonly ClassChange[]]> = []): string {
  const lines = [
    '# Mutation scores of the reference',
    '',
    'Generated by `npm run mutation -- AREA`: StrykerJS mutates the built module of an area, and the suite is the test: the',
    `area's rules, the general ones and the organization's model (\`--only 'AREA.*,general.*,organization.*'\`; for a module the`,
    `operations share, the rules its code keeps, \`scripts/mutant-run.ts\`), ${runs} random cases per property besides its boundaries, at`,
    `level ${TOP_LEVEL} at seeds ${SEEDS.join(', ')}, then at seed ${SEEDS[0]} at each edge level of the area's must rules (each one's first level and the`,
    'last before it ends; for the settings tables, besides, their five rules in Zulip\'s dialect at each level where the tables change), each in',
    'Zulip\'s dialect and in the alternate one, both with the decisions, until a must rule fails. A',
    'decision the alternate dialect decides otherwise fails against the unmutated reference too: a rule catches a mutant',
    'only where it passed in that run against the unmutated reference. Each mutant\'s verdict records which rules caught',
    `it (\`scripts/mutation-verdicts.json\`). An area measured by the first runner (runner 1) ran at level ${TOP_LEVEL} alone, the`,
    'alternate dialect without the decisions; one measured by runner 2, without the model and the tables\' levels; from runner 4',
    `an open point's mutant runs at level ${TOP_LEVEL} alone (its verdict, which only the score with decisions counts, is then a lower`,
    'bound); the column "runs" says which.',
    '',
    'The class of a mutant is where it stands, fixed by the code before any run (`scripts/mutation-classes.ts`, which',
    '`scripts/mutation.test.ts` holds to the code): **spec code** is the code of the rules the spec states and of the',
    'spec\'s operations; an **open point** is code that serves only decisions (each named in its comment); code **outside',
    'the spec** serves only the Zulip endpoints the suite uses to set up and observe. A line that only calls a function is',
    'the callee\'s (a call of the dialect, an open point\'s).',
    '',
    '- **must only**: mutants of spec code caught by a must rule, out of the mutants of spec code.',
    '- **with decisions**: mutants of spec code and open points caught by any rule, out of both.',
    '',
    'Equivalent mutants (the program does the same) are listed one by one, each by its place in the built module and with',
    'its reason, in `scripts/mutation-equivalent.json`; the test fails when an entry matches no mutant, when a rule caught',
    'it, or when it stands outside the spec. Mutants in the alternate dialect\'s words for an error (`.otherwise(…)`), which',
    'no check reads, are counted apart. A survivor of spec code that is no equivalent is a gap: it counts against the score,',
    'and where it is understood, `scripts/mutation-gaps.json` says why (a tolerance the spec leaves the server, what no',
    'client can observe, or a rule still to be written), shown beside it below; the test holds each entry to a survivor.',
    '',
    `The goal is ${MUST_GOAL}% must only in every area; an area under it says so.`,
    '',
    '| area | runs | mutants | alternate\'s words | outside the spec | equivalent | open point | must only | with decisions |',
    '|---|---|---|---|---|---|---|---|---|',
    ...scores.map((score) => `| ${score.area} | ${runsOf(score.area, score.runner ?? 1)} | ${score.mutants} | ${score.machinery} | ${score.outside} | ${score.equivalent} | ${score.open} | ${score.mustKilled} of ${score.mustKilled + score.mustSurvived.length}: **${score.mustScore}%**${score.mustScore < MUST_GOAL ? ` (under ${MUST_GOAL}%)` : ''} | ${score.killed} of ${score.killed + score.survived.length}: ${score.score}% |`),
    ...unmeasured.map((area) => `| ${area} | | not measured: no verdicts for the module as built now (\`npm run mutation -- ${area}\`) | | | | | | |`),
    '',
    '## Classes moved since the previous run',
    '',
    'Each run records the class table it scored by; `scripts/mutation.test.ts` fails when the table differs from it until the',
    'area is run again, and the run lists here what moved since the verdicts the repository held, with the rules the declaration\'s',
    'comment names.',
    '',
    ...(moved.length === 0 ? ['None.', ''] : moved.flatMap(([area, changes]) => [
      `- **${area}**: ${changes.map((change) => `\`${change.name}\` ${change.from} → ${change.to}${change.rules.length > 0 ? ` (${change.rules.join('; ')})` : ' (its comment names no rule)'}`).join('; ')}`,
    ]).concat([''])),
  ];
  const gaps = readGaps();
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 120);
  for (const score of scores) {
    if (score.mustSurvived.length === 0 && score.survived.length === 0) continue;
    lines.push(`## Mutants of ${score.area} no rule of their kind caught`, '', '| line | in | mutator | replacement | code | class | caught by a decision | why, for a gap of spec code |', '|---|---|---|---|---|---|---|---|');
    const seen = new Set<string>();
    for (const survivor of [...score.mustSurvived, ...score.survived]) {
      const key = placeName(survivor);
      if (seen.has(key)) continue;
      seen.add(key);
      const spec = score.mustSurvived.some((other) => samePlace(other, survivor));
      const byDecision = !score.survived.some((other) => samePlace(other, survivor));
      const gap = spec ? gaps.find((entry) => entry.area === score.area && samePlace(entry, survivor)) : undefined;
      lines.push(`| ${survivor.line}:${survivor.column} | ${cell(survivor.where)} | ${survivor.mutator} | \`${cell(survivor.replacement)}\` | \`${cell(survivor.code)}\` | ${spec ? 'spec' : 'open point'} | ${byDecision ? 'yes' : 'no'} | ${spec ? (gap ? gap.why.replace(/\|/g, '\\|').replace(/\n/g, ' ') : 'not explained yet') : ''} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

interface StrykerMutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number }; readonly end: { readonly line: number; readonly column: number } };
}

export const readEquivalents = (): Equivalent[] => JSON.parse(readFileSync(EQUIVALENTS_FILE, 'utf8'));
export const readGaps = (): Equivalent[] => (existsSync(GAPS_FILE) ? JSON.parse(readFileSync(GAPS_FILE, 'utf8')) : []);
/** A list of equivalents or gaps as the files hold it: one entry an object, two spaces in. */
export const listText = (entries: readonly Equivalent[]) => `[\n${entries.map((entry) => `  ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n  ')}`).join(',\n')}\n]\n`;

/**
 * Entries of an area's lists whose place the module no longer has, moved to the one mutant of
 * the module as built with the same mutator, replacement and code (the line, trimmed; where that
 * code is there more than once, at the same columns): a change
 * above them shifts their lines, and an entry off its place makes its mutant's whole plan and
 * fails the lists' test until the area's run. An entry with no such mutant, or more than one, stays.
 */
export function relocated(area: string, entries: readonly Equivalent[], source: string, mutants: ReadonlyArray<Place>): { entries: Equivalent[]; moved: string[]; lost: string[] } {
  const lines = source.split('\n');
  // Where the same code is there more than once: the columns, and how many lines the mutant spans.
  const span = (place: Place) => `${place.column} ${Number(place.end.split(':')[0]) - place.line} ${place.end.split(':')[1]}`;
  const moved: string[] = [];
  const lost: string[] = [];
  const result = entries.map((entry) => {
    if (entry.area !== area || mutants.some((mutant) => samePlace(mutant, entry))) return entry;
    const same = mutants.filter((mutant) => mutant.mutator === entry.mutator && mutant.replacement === entry.replacement && (lines[mutant.line - 1] ?? '').trim() === entry.code);
    const found = same.length > 1 ? same.filter((mutant) => span(mutant) === span(entry)) : same;
    if (found.length !== 1) {
      lost.push(`${placeName(entry)}: ${found.length === 0 ? 'no mutant of that code any more' : `${found.length} mutants of that code`}`);
      return entry;
    }
    const [to] = found as [Place];
    moved.push(`${placeName(entry)} → ${to.line}:${to.column}-${to.end}`);
    return { ...entry, line: to.line, column: to.column, end: to.end };
  });
  return { entries: result, moved, lost };
}
/**
 * The area's newest record in the repository's history (none outside a git checkout): the last
 * commit's, or, where the file has dropped the record of a module changed since its run (no one's
 * verdicts), the commits' before it, so that what moved since that run is shown.
 */
function previousRecord(area: string): AreaVerdicts | undefined {
  const commits = spawnSync('git', ['log', '--format=%H', '-n', '100', '--', VERDICTS_FILE], { encoding: 'utf8' }).stdout?.split('\n').filter(Boolean) ?? [];
  for (const commit of commits) {
    const shown = spawnSync('git', ['show', `${commit}:${VERDICTS_FILE}`], { encoding: 'utf8' });
    try {
      const found = (JSON.parse(shown.stdout) as AreaVerdicts[]).find((entry) => entry.area === area);
      if (found) return found;
    } catch {
      // A commit whose file does not parse is passed over.
    }
  }
  return undefined;
}

export const readVerdicts = (): AreaVerdicts[] => (existsSync(VERDICTS_FILE) ? JSON.parse(readFileSync(VERDICTS_FILE, 'utf8')) : []);

/** Whether verdicts were recorded for the area's module as built now. */
export const isCurrent = (entry: AreaVerdicts) => hashOf(readFileSync(builtModule(entry.area), 'utf8')) === entry.module;

/** Scores of every area whose verdicts were recorded for its module as built now, and the areas without, from the files as they stand. */
export function scoresOfRecord(): { scores: AreaScore[]; runs: number; unmeasured: string[] } {
  const equivalents = readEquivalents();
  const recorded = readVerdicts().filter(isCurrent);
  const scores = recorded.map((entry) => ({ ...scoreArea(entry.area, readFileSync(builtModule(entry.area), 'utf8'), entry.verdicts, equivalents), runner: entry.runner ?? 1 }));
  return { scores, runs: recorded[0]?.runs ?? 10, unmeasured: AREAS.filter((area) => !recorded.some((entry) => entry.area === area)) };
}

export const markdownOfRecord = () => {
  const { scores, runs, unmeasured } = scoresOfRecord();
  const moved = readVerdicts().filter(isCurrent).filter((entry) => (entry.classChanges ?? []).length > 0).map((entry) => [entry.area, entry.classChanges!] as const);
  return markdown(scores, runs, unmeasured, moved);
};

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string' }, concurrency: { type: 'string' }, rescore: { type: 'boolean' }, collect: { type: 'boolean' }, relocate: { type: 'boolean' }, resume: { type: 'boolean' } } });
  const areas = positionals;
  for (const area of areas) {
    if (!(AREAS as readonly string[]).includes(area)) {
      process.stderr.write(`teamchat mutation: no area ${area}: name one of ${AREAS.join(', ')}\n`);
      return 2;
    }
  }
  if (values.resume && (values.collect || values.rescore || values.relocate)) {
    process.stderr.write('teamchat mutation: --resume runs Stryker again; it goes with neither --collect, --rescore nor --relocate\n');
    return 2;
  }
  if (values.relocate) {
    if (areas.length === 0) {
      process.stderr.write('teamchat mutation: --relocate needs the areas whose lists to move\n');
      return 2;
    }
    const { instrumented } = await import('./mutant-check.js');
    for (const [file, read] of [[EQUIVALENTS_FILE, readEquivalents], [GAPS_FILE, readGaps]] as const) {
      let entries = read();
      for (const area of areas) {
        const source = readFileSync(builtModule(area), 'utf8');
        const done = relocated(area, entries, source, (await instrumented(builtModule(area), source)).mutants);
        entries = done.entries;
        for (const line of done.moved) process.stdout.write(`${file}: ${area} ${line}\n`);
        for (const line of done.lost) process.stdout.write(`${file}: ${area} ${line}: stays\n`);
      }
      writeFileSync(file, listText(entries));
    }
    return 0;
  }
  const runs = Number(values.runs ?? 10);
  // Verdicts of a module that has changed since are no one's: they are dropped, and the area is named unmeasured.
  const recorded = new Map(readVerdicts().filter(isCurrent).map((entry) => [entry.area, entry]));
  mkdirSync('reports', { recursive: true });
  for (const area of values.rescore ? [] : areas) {
    const module = builtModule(area);
    const verdictsDir = join(process.cwd(), 'reports', 'mutants', area);
    if (!values.collect) {
      const stamp = stampOf(hashOf(readFileSync(module, 'utf8')), suiteHash(), runs);
      const stampFile = join(verdictsDir, STAMP_FILE);
      if (!values.resume) rmSync(verdictsDir, { recursive: true, force: true });
      else if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
        process.stderr.write(`teamchat mutation: nothing of ${area} to resume: ${existsSync(stampFile) ? 'its reports are of another module, suite, runner or --runs' : 'no stopped run left its reports'} (run it without --resume)\n`);
        return 2;
      }
      mkdirSync(verdictsDir, { recursive: true });
      writeFileSync(stampFile, stamp);
      process.env.TEAMCHAT_MUTANT_RESUME = values.resume ? '1' : '';
    }
    // Each mutant's runs write their reports under its ID (Stryker names the active mutant in the
    // environment), so that the verdict names every rule that caught it.
    const command = `node dist/scripts/mutant-run.js ${area} ${runs} "${verdictsDir}"`;
    const config = {
      $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
      testRunner: 'command',
      commandRunner: { command },
      mutate: [module],
      coverageAnalysis: 'off',
      concurrency: Number(values.concurrency ?? 2),
      timeoutMS: 180_000,
      // The initial run is the unmutated reference's whole plan, one run after another (16 for
      // flags, 37 for the settings tables): a minute a run, where Stryker's default is five
      // minutes for all of them, which a loaded machine overran with flags' sixteen.
      dryRunTimeoutMinutes: Math.max(5, planOf(area).length),
      reporters: ['json', 'clear-text'],
      jsonReporter: { fileName: `reports/mutation-${area}.json` },
      tempDirName: '.stryker-tmp',
      // The mutated module is built JavaScript: Stryker need not rewrite a tsconfig (and cannot
      // read TypeScript 7's, which has no JavaScript API).
      tsconfigFile: 'reports/no-tsconfig.json',
      cleanTempDir: true,
    };
    if (!values.collect) {
      // Each mutant's class, by the ID Stryker gives it (its instrumenter's, made the same way here):
      // the runner ends an open point's runs at its first catch.
      const { instrumented } = await import('./mutant-check.js');
      const built = readFileSync(module, 'utf8');
      const classOfPlace = classAt(area, built);
      const { mutants } = await instrumented(module, built);
      writeFileSync(join(verdictsDir, CLASSES_FILE), JSON.stringify(Object.fromEntries(mutants.map((mutant) => [mutant.id, classOfPlace(mutant).kind]))));
      // The survivors the lists explain make level 415's runs at seed 1 alone (`runsOf`).
      const listed = [...readEquivalents(), ...readGaps()].filter((entry) => entry.area === area);
      writeFileSync(join(verdictsDir, LISTED_FILE), JSON.stringify(mutants.filter((mutant) => listed.some((entry) => samePlace(entry, mutant))).map((mutant) => mutant.id)));
      writeFileSync('reports/stryker.config.json', JSON.stringify(config, null, 2));
      process.stdout.write(`mutation: ${module}, test: ${command}\n`);
      const stryker = spawnSync(process.execPath, ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', 'reports/stryker.config.json'], { stdio: 'inherit' });
      if (stryker.status !== 0) throw new Error(`stryker exited with ${stryker.status}`);
    }
    const report = JSON.parse(readFileSync(`reports/mutation-${area}.json`, 'utf8'));
    const file = Object.keys(report.files).find((name) => name.endsWith(module.slice('dist/'.length)))!;
    const source: string = report.files[file].source;
    const rulesOf = (mutant: string) => planOf(area).flatMap((run) => countedIn(verdictsDir, mutant, run));
    const verdicts = (report.files[file].mutants as StrykerMutant[]).filter((mutant) => mutant.status !== 'Ignored').map((mutant): Verdict => {
      const rules = rulesOf(mutant.id);
      const ids = (severity: string) => [...new Set(rules.filter((rule) => rule.severity === severity).map((rule) => rule.id))].sort();
      return {
        line: mutant.location.start.line, column: mutant.location.start.column, end: `${mutant.location.end.line}:${mutant.location.end.column}`, mutator: mutant.mutatorName, replacement: mutant.replacement ?? '',
        status: mutant.status, must: ids('must'), decision: ids('decision'),
      };
    });
    const clean = rulesOf('none');
    if (clean.length > 0) throw new Error(`the unmutated reference failed ${clean.map((rule) => rule.id).join(', ')}: no verdict is worth anything`);
    if (!planOf(area).every((run) => existsSync(reportName(verdictsDir, 'none', run)))) throw new Error('the unmutated reference was not checked: no verdict is worth anything');
    // The previous run is the one the repository holds (an area run twice before a commit would
    // otherwise hide what moved between its last commit and the first of those runs).
    const previous = previousRecord(area) ?? recorded.get(area) ?? readVerdicts().find((entry) => entry.area === area);
    const classes = CLASSES[area]!;
    // What moved since the previous run is kept with the record, and shown on the page.
    // Verdicts collected again from the same run keep what that run found moved.
    const changes = previous?.module === hashOf(source) && previous.runner === RUNNER ? previous.classChanges ?? [] : classChanges(previous?.classes, classes, source);
    const baseline = Object.fromEntries(planOf(area).map((run) => [runKey(run), failedRules(reportName(verdictsDir, 'none', run)).map((rule) => rule.id).sort()]));
    recorded.set(area, { area, module: hashOf(source), runs, runner: RUNNER, classes, classChanges: changes, baseline, verdicts });
  }
  const all = [...recorded.values()].sort((a, b) => a.area.localeCompare(b.area));
  // One mutant a line, so that a change of verdicts reads as a diff of those mutants.
  const text = all.map((entry) => `  {"area": ${JSON.stringify(entry.area)}, "module": ${JSON.stringify(entry.module)}, "runs": ${entry.runs},${entry.runner === undefined ? '' : ` "runner": ${entry.runner},`}\n   "classes": ${JSON.stringify(entry.classes)},\n   "classChanges": ${JSON.stringify(entry.classChanges ?? [])},${entry.baseline === undefined ? '' : `\n   "baseline": ${JSON.stringify(entry.baseline)},`} "verdicts": [\n${entry.verdicts.map((verdict) => `    ${JSON.stringify(verdict)}`).join(',\n')}\n  ]}`).join(',\n');
  writeFileSync(VERDICTS_FILE, `[\n${text}\n]\n`);
  const { scores } = scoresOfRecord();
  for (const score of scores.filter((entry) => areas.length === 0 || areas.includes(entry.area))) {
    process.stdout.write(`${score.area}: must only ${score.mustScore}% (${score.mustSurvived.length} of spec code not caught by a must rule), with decisions ${score.score}% (${score.survived.length} not caught)\n`);
  }
  writeFileSync('docs/mutation.md', markdownOfRecord());
  return 0;
}

// Not awaited at the top: main imports mutant-check.js, which imports this module, whose evaluation must end first.
if (process.argv[1] === new URL(import.meta.url).pathname) void main().then((code) => process.exit(code));
