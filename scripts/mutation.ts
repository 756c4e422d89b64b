// npm run mutation -- AREA [AREA …] [--runs N] [--concurrency N] [--rescore | --collect]
//   --rescore: score the recorded verdicts again (after a change of the list of equivalent
//   mutants) without running Stryker; --collect: record the areas' verdicts from their last
//   Stryker run (reports/) without running it again.
//
// Mutation testing of the reference with StrykerJS: the built module of an area
// (dist/reference/AREA.js) is mutated, and the suite's checks of that area are the test: a
// mutant is killed when the suite, run against the reference in Zulip's dialect with the
// decisions and in the alternate dialect, does not exit 0. Each run writes its JSON report, so
// the verdicts of every mutant say which rules caught it: a mutant caught by a must rule counts
// for the must-only score, one caught only by decisions for the score with decisions.
//
// Two lists keep the scores honest, both in scripts/mutation-equivalent.json, one entry per
// mutant, found by its place (line, column, mutator, replacement) in the built module:
// - `equivalent`: no check can see the mutant (the spec and the decisions alike); left out of
//   both scores;
// - `open point`: the mutant changes only what the spec leaves open; left out of the must-only
//   score, which measures spec code, and counted in the score with decisions;
// - `outside the spec`: it changes only a Zulip endpoint the suite uses to set up or observe,
//   which neither the spec nor a decision speaks of; left out of both.
// scripts/mutation.test.ts keeps the list true against the recorded verdicts
// (scripts/mutation-verdicts.json): an entry that matches no mutant, or a mutant now caught (an
// `open point` by a must rule), fails it, and so does a verdict recorded for another build of
// the module. Mutants in the alternate dialect's words for an error (`.otherwise(…)`), which no
// check reads, are counted apart. A measurement, not part of npm test: an area takes minutes.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export const AREAS = ['defaults', 'drafts', 'emoji', 'fields', 'flags', 'reminders', 'scheduled', 'typing'] as const;
export const EQUIVALENTS_FILE = 'scripts/mutation-equivalent.json';
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
  readonly kind: 'equivalent' | 'open point' | 'outside the spec';
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
  readonly verdicts: Verdict[];
}

export interface AreaScore {
  readonly area: string;
  readonly mutants: number;
  readonly machinery: number;
  readonly equivalent: number;
  readonly openPoint: number;
  readonly outside: number;
  /** Spec code: caught by a must rule, and not. */
  readonly mustKilled: number;
  readonly mustSurvived: Array<Place & { code: string }>;
  /** Everything but equivalents: caught by any rule, and not. */
  readonly killed: number;
  readonly survived: Array<Place & { code: string }>;
  readonly mustScore: number;
  readonly score: number;
}

export const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
export const samePlace = (a: Place, b: Place) => a.line === b.line && a.column === b.column && a.end === b.end && a.mutator === b.mutator && a.replacement === b.replacement;
export const placeName = (p: Place) => `${p.line}:${p.column}-${p.end} ${p.mutator} → ${JSON.stringify(p.replacement)}`;

/** A mutant in the alternate dialect's words for an error (the arguments of `.otherwise(…)`), which no check reads. */
export const isMachinery = (line: string, column: number) => {
  const at = line.indexOf('.otherwise(');
  return at >= 0 && column > at;
};

/** A status that is a detection without a report: the suite hung or could not start. */
const CAUGHT_WITHOUT_REPORT = new Set(['Timeout', 'RuntimeError', 'CompileError']);
export const caughtByMust = (verdict: Verdict) => verdict.must.length > 0 || CAUGHT_WITHOUT_REPORT.has(verdict.status);
export const caught = (verdict: Verdict) => caughtByMust(verdict) || verdict.decision.length > 0;

const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.floor((1000 * part) / whole) / 10);

/** The two scores of one area from its verdicts and the list. */
export function scoreArea(area: string, source: string, verdicts: readonly Verdict[], equivalents: readonly Equivalent[]): AreaScore {
  const lines = source.split('\n');
  let machinery = 0;
  let equivalent = 0;
  let openPoint = 0;
  let outside = 0;
  let mustKilled = 0;
  let killed = 0;
  const mustSurvived: AreaScore['mustSurvived'] = [];
  const survived: AreaScore['survived'] = [];
  for (const verdict of verdicts) {
    const line = lines[verdict.line - 1] ?? '';
    const place = { line: verdict.line, column: verdict.column, end: verdict.end, mutator: verdict.mutator, replacement: verdict.replacement, code: line.trim() };
    if (isMachinery(line, verdict.column)) {
      machinery++;
      continue;
    }
    const entry = equivalents.find((candidate) => candidate.area === area && samePlace(candidate, verdict));
    if (entry?.kind === 'equivalent') {
      equivalent++;
      continue;
    }
    if (entry?.kind === 'outside the spec') {
      outside++;
      continue;
    }
    if (caught(verdict)) killed++;
    else survived.push(place);
    if (entry?.kind === 'open point') {
      openPoint++;
      continue;
    }
    if (caughtByMust(verdict)) mustKilled++;
    else mustSurvived.push(place);
  }
  return {
    area, mutants: verdicts.length, machinery, equivalent, openPoint, outside, mustKilled, mustSurvived, killed, survived,
    mustScore: percent(mustKilled, mustKilled + mustSurvived.length), score: percent(killed, killed + survived.length),
  };
}

function markdown(scores: readonly AreaScore[], runs: number): string {
  const lines = [
    '# Mutation scores of the reference',
    '',
    'Generated by `npm run mutation -- AREA`: StrykerJS mutates the built module of an area, and the suite\'s checks of that',
    `area (\`--only 'AREA.*'\`, ${runs} random cases per property besides its boundaries, Zulip's dialect with the decisions, then the`,
    'alternate dialect) are the test. Each mutant\'s verdict records which rules caught it (`scripts/mutation-verdicts.json`).',
    '',
    '- **must only**: mutants of spec code caught by a must rule, out of the mutants of spec code. Spec code is every mutant but',
    '  the equivalent ones, those that change only an open point of the spec, and those that change only a Zulip endpoint the',
    '  suite uses to set up or observe (outside the spec).',
    '- **with decisions**: mutants caught by any rule, out of spec code and the open points.',
    '',
    'Equivalent mutants, open points and mutants outside the spec are listed one by one, each by its place in the built module and with its reason, in',
    '`scripts/mutation-equivalent.json`; `scripts/mutation.test.ts` fails when an entry matches no mutant, when a listed mutant',
    'is now caught (an open point or one outside the spec by a must rule), or when the verdicts were recorded for another build',
    'of the module.',
    'Mutants in the alternate dialect\'s words for an error (`.otherwise(…)`), which no check reads, are counted apart.',
    '',
    '| area | mutants | alternate\'s words | equivalent | outside the spec | open point | must only | with decisions |',
    '|---|---|---|---|---|---|---|---|',
    ...scores.map((score) => `| ${score.area} | ${score.mutants} | ${score.machinery} | ${score.equivalent} | ${score.outside} | ${score.openPoint} | ${score.mustKilled} of ${score.mustKilled + score.mustSurvived.length}: **${score.mustScore}%** | ${score.killed} of ${score.killed + score.survived.length}: ${score.score}% |`),
    '',
  ];
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 120);
  for (const score of scores) {
    if (score.mustSurvived.length === 0 && score.survived.length === 0) continue;
    lines.push(`## Mutants of ${score.area} no rule of its kind caught`, '', '| line | mutator | replacement | code | caught by a decision |', '|---|---|---|---|---|');
    const seen = new Set<string>();
    for (const survivor of [...score.mustSurvived, ...score.survived]) {
      const key = placeName(survivor);
      if (seen.has(key)) continue;
      seen.add(key);
      const byDecision = !score.survived.some((other) => samePlace(other, survivor));
      lines.push(`| ${survivor.line}:${survivor.column} | ${survivor.mutator} | \`${cell(survivor.replacement)}\` | \`${cell(survivor.code)}\` | ${byDecision ? 'yes' : 'no'} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

interface RuleVerdict { readonly id: string; readonly severity: string; readonly status: string }

/** The rules that did not pass in one run's JSON report (none when the run wrote none). */
function failedRules(file: string): RuleVerdict[] {
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8')) as { rules: RuleVerdict[] };
  return report.rules.filter((rule) => rule.status === 'fail' || rule.status === 'error');
}

interface StrykerMutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number }; readonly end: { readonly line: number; readonly column: number } };
}

export const readEquivalents = (): Equivalent[] => JSON.parse(readFileSync(EQUIVALENTS_FILE, 'utf8'));
export const readVerdicts = (): AreaVerdicts[] => (existsSync(VERDICTS_FILE) ? JSON.parse(readFileSync(VERDICTS_FILE, 'utf8')) : []);

/** Scores of every area with recorded verdicts, from the files as they stand. */
export function scoresOfRecord(): { scores: AreaScore[]; runs: number } {
  const equivalents = readEquivalents();
  const recorded = readVerdicts();
  const scores = recorded.map((entry) => scoreArea(entry.area, readFileSync(`dist/reference/${entry.area}.js`, 'utf8'), entry.verdicts, equivalents));
  return { scores, runs: recorded[0]?.runs ?? 10 };
}

export const markdownOfRecord = () => {
  const { scores, runs } = scoresOfRecord();
  return markdown(scores, runs);
};

function main(): number {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string' }, concurrency: { type: 'string' }, rescore: { type: 'boolean' }, collect: { type: 'boolean' } } });
  const areas = positionals;
  for (const area of areas) {
    if (!(AREAS as readonly string[]).includes(area)) {
      process.stderr.write(`teamchat mutation: no area ${area}: name one of ${AREAS.join(', ')}\n`);
      return 2;
    }
  }
  const runs = Number(values.runs ?? 10);
  const recorded = new Map(readVerdicts().map((entry) => [entry.area, entry]));
  mkdirSync('reports', { recursive: true });
  for (const area of values.rescore ? [] : areas) {
    const module = `dist/reference/${area}.js`;
    const verdictsDir = join(process.cwd(), 'reports', 'mutants', area);
    if (!values.collect) {
      rmSync(verdictsDir, { recursive: true, force: true });
      mkdirSync(verdictsDir, { recursive: true });
    }
    // Each mutant's runs write their reports under its ID (Stryker names the active mutant in the
    // environment); both dialects run whatever the first says, so the verdict names every rule.
    const suite = (dialect: string, decisions: boolean) =>
      `node dist/conformance/main.js --only '${area}.*' --reference-dialect ${dialect}${decisions ? ' --decisions' : ''} --seed 1 --runs ${runs} --quiet --json "${verdictsDir}/$\{__STRYKER_ACTIVE_MUTANT__:-none}.${dialect}.json" >/dev/null 2>&1`;
    const command = `${suite('zulip', true)}; zulip=$?; ${suite('alternate', false)}; alternate=$?; test $zulip -eq 0 -a $alternate -eq 0`;
    const config = {
      $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
      testRunner: 'command',
      commandRunner: { command },
      mutate: [module],
      coverageAnalysis: 'off',
      concurrency: Number(values.concurrency ?? 2),
      timeoutMS: 60_000,
      reporters: ['json', 'clear-text'],
      jsonReporter: { fileName: `reports/mutation-${area}.json` },
      tempDirName: '.stryker-tmp',
      // The mutated module is built JavaScript: Stryker need not rewrite a tsconfig (and cannot
      // read TypeScript 7's, which has no JavaScript API).
      tsconfigFile: 'reports/no-tsconfig.json',
      cleanTempDir: true,
    };
    if (!values.collect) {
      writeFileSync('reports/stryker.config.json', JSON.stringify(config, null, 2));
      process.stdout.write(`mutation: ${module}, test: ${command}\n`);
      const stryker = spawnSync(process.execPath, ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', 'reports/stryker.config.json'], { stdio: 'inherit' });
      if (stryker.status !== 0) throw new Error(`stryker exited with ${stryker.status}`);
    }
    const report = JSON.parse(readFileSync(`reports/mutation-${area}.json`, 'utf8'));
    const file = Object.keys(report.files).find((name) => name.endsWith(`reference/${area}.js`))!;
    const source: string = report.files[file].source;
    const verdicts = (report.files[file].mutants as StrykerMutant[]).filter((mutant) => mutant.status !== 'Ignored').map((mutant): Verdict => {
      const rules = [...failedRules(join(verdictsDir, `${mutant.id}.zulip.json`)), ...failedRules(join(verdictsDir, `${mutant.id}.alternate.json`))];
      const ids = (severity: string) => [...new Set(rules.filter((rule) => rule.severity === severity).map((rule) => rule.id))].sort();
      return {
        line: mutant.location.start.line, column: mutant.location.start.column, end: `${mutant.location.end.line}:${mutant.location.end.column}`, mutator: mutant.mutatorName, replacement: mutant.replacement ?? '',
        status: mutant.status, must: ids('must'), decision: ids('decision'),
      };
    });
    const clean = [...failedRules(join(verdictsDir, 'none.zulip.json')), ...failedRules(join(verdictsDir, 'none.alternate.json'))];
    if (clean.length > 0) throw new Error(`the unmutated reference failed ${clean.map((rule) => rule.id).join(', ')}: no verdict is worth anything`);
    recorded.set(area, { area, module: hashOf(source), runs, verdicts });
  }
  const all = [...recorded.values()].sort((a, b) => a.area.localeCompare(b.area));
  // One mutant a line, so that a change of verdicts reads as a diff of those mutants.
  const text = all.map((entry) => `  {"area": ${JSON.stringify(entry.area)}, "module": ${JSON.stringify(entry.module)}, "runs": ${entry.runs}, "verdicts": [\n${entry.verdicts.map((verdict) => `    ${JSON.stringify(verdict)}`).join(',\n')}\n  ]}`).join(',\n');
  writeFileSync(VERDICTS_FILE, `[\n${text}\n]\n`);
  const { scores } = scoresOfRecord();
  for (const score of scores.filter((entry) => areas.length === 0 || areas.includes(entry.area))) {
    process.stdout.write(`${score.area}: must only ${score.mustScore}% (${score.mustSurvived.length} of spec code not caught by a must rule), with decisions ${score.score}% (${score.survived.length} not caught)\n`);
  }
  writeFileSync('docs/mutation.md', markdownOfRecord());
  return 0;
}

if (process.argv[1] === new URL(import.meta.url).pathname) process.exit(main());
