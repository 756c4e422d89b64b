// The mutation scores in docs/mutation.md stay true without running Stryker: the classes of the
// table are those the code gives, the verdicts recorded by `npm run mutation` are those of the
// modules as built now (an area without any is named not measured, here and in the docs, never
// scored by verdicts of other code), and every equivalent mutant listed is one Stryker still
// makes, in spec code or an open point, that no rule caught. A score under the goal is published
// as under it: the test holds the docs to the verdicts, not the verdicts to the goal.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RULES } from '../conformance/rules.js';
import { ROUTES } from '../reference/http/server.js';
import { CLASSES, classProblems, type AreaClasses, type Structure } from './mutation-classes.js';
import { SPEC_RULES } from '../reference/http/rules.js';
import { instrumented } from './mutant-check.js';
import { DIALECTS, LISTED_FILE, RUNNER, SEEDS, TOP_LEVEL, caughtIn, listedIn, planOf, reportName, resumedStatus, runKey, runsOf } from './mutant-run.js';
import { TABLE_LEVELS } from '../conformance/checks/settings.js';
import { AREAS, MODULES, MUST_GOAL, builtModule, caught, caughtByMust, classAt, readGaps, classChanges, isCurrent, markdownOfRecord, placeName, readEquivalents, readVerdicts, relocated, sameClasses, samePlace, scoresOfRecord, type Equivalent, type Place, type Verdict } from './mutation.js';


/** The mutants Stryker makes of an area's built module, by place. */
async function mutantsOf(area: string): Promise<readonly Place[]> {
  return (await instrumented(builtModule(area), readFileSync(builtModule(area), 'utf8'))).mutants;
}

const severities = new Map(RULES.map((rule) => [rule.id as string, rule.severity]));

/** What the table is checked against: the built module, the routes its exports serve, the catalog. */
async function structureOf(area: string): Promise<Structure> {
  const exports: Record<string, unknown> = await import(`../reference/${MODULES[area as keyof typeof MODULES]}.js`);
  const routes = new Map<string, string[]>();
  for (const route of ROUTES) {
    for (const [method, handler] of Object.entries(route.methods)) {
      const name = Object.keys(exports).find((key) => exports[key] === handler);
      if (name) routes.set(name, [...(routes.get(name) ?? []), `${method} ${route.path}`]);
    }
  }
  return { source: readFileSync(builtModule(area), 'utf8'), routes, severities };
}

const recorded = readVerdicts();
const equivalents = readEquivalents();
const gaps = readGaps();
const currentOf = (area: string) => recorded.find((entry) => entry.area === area && isCurrent(entry));

test('every module of the reference that holds a rule function of the spec is an area\'s, mutated in its run', async () => {
  const specFunctions = new Set<unknown>(Object.values(SPEC_RULES));
  const holding: string[] = [];
  for (const folder of ['model', 'operations', 'support', 'http', 'dialects']) {
    for (const file of readdirSync(`dist/reference/${folder}`).filter((name) => name.endsWith('.js'))) {
      const exports: Record<string, unknown> = await import(`../reference/${folder}/${file}`);
      const source = readFileSync(`dist/reference/${folder}/${file}`, 'utf8');
      // A module holds a rule function where it declares one of the functions SPEC_RULES is made of (and exports its table).
      const declared = (item: unknown) => typeof item === 'function' && specFunctions.has(item) && new RegExp(`^(export )?function ${item.name}\\b`, 'm').test(source);
      const holds = Object.values(exports).some((value) => value !== null && typeof value === 'object' && Object.values(value).some(declared));
      if (holds) holding.push(`${folder}/${file.replace(/\.js$/, '')}`);
    }
  }
  assert.ok(holding.length >= 13, `${holding.length} modules hold rule functions`);
  assert.equal(holding.filter((module) => !(Object.values(MODULES) as string[]).includes(module)), [], 'modules of spec code in no area');
});

for (const area of AREAS) {
  test(`${area}: each declaration's class is the one its code gives (rules its comment names, the route it serves, what it uses)`, async () => {
    assert.equal(classProblems(area, CLASSES[area]!, await structureOf(area)), []);
  });
}

test('a declaration of spec code moved into the open points or outside the spec fails the check, as does one left out', async () => {
  const structure = await structureOf('scheduled');
  const classes = CLASSES.scheduled!;
  const without = (name: string): AreaClasses => ({ ...classes, spec: classes.spec.filter((other) => other !== name) });
  // A rule function the spec states, filed as an open point of some decision.
  const asOpen = { ...without('dueScheduledMessages'), open: { ...classes.open, dueScheduledMessages: ['scheduled.delivery' as const] } };
  assert.match(classProblems('scheduled', asOpen, structure).join('\n'), /dueScheduledMessages says it keeps scheduled.deleted-never-sent, scheduled.sent-at-its-time, a must rule: it is spec code, not open/);
  // The handler of a spec operation, filed as outside the spec.
  const asOutside = { ...without('editScheduledMessage'), outside: { ...classes.outside, editScheduledMessage: 'PATCH /scheduled_messages/{id}' } };
  assert.match(classProblems('scheduled', asOutside, structure).join('\n'), /editScheduledMessage serves PATCH \/api\/v1\/scheduled_messages\/\{scheduled_message_id:int\}, a spec operation: it is spec code, not outside/);
  // A helper of spec code without a rule in its comment, filed as an open point: its comment names no decision.
  const helper = { ...without('checkEditedTopic'), open: { ...classes.open, checkEditedTopic: ['scheduled.topic-normalized' as const] } };
  assert.match(classProblems('scheduled', helper, structure).join('\n'), /checkEditedTopic is an open point of scheduled.topic-normalized, and its comment names no decision/);
  // A helper of spec code filed as outside the spec: spec code uses it.
  const used = { ...without('findScheduledMessage'), outside: { ...classes.outside, findScheduledMessage: 'PATCH /scheduled_messages/{id}' } };
  assert.match(classProblems('scheduled', used, structure).join('\n'), /uses findScheduledMessage, which is classed outside the spec/);
  assert.match(classProblems('scheduled', without('parseTo'), structure).join('\n'), /parseTo is in no class/);
});

test('a line that only calls a function is the callee\'s; any other line is its declaration\'s', () => {
  const source = readFileSync('dist/reference/operations/scheduled.js', 'utf8');
  const lines = source.split('\n');
  const at = classAt('scheduled', source);
  const place = (text: string): Place => {
    const line = lines.findIndex((candidate) => candidate.trim() === text) + 1;
    assert.ok(line > 0, `no line ${text}`);
    return { line, column: lines[line - 1]!.indexOf(text) + 1, end: `${line}:${lines[line - 1]!.length}`, mutator: 'test', replacement: '' };
  };
  assert.is(at(place('checkNewTimeInFuture(realm, timestamp);')).kind, 'open');
  assert.is(at(place('realm.rules.checkFailedMessageGetsTimestamp(scheduled, timestamp);')).kind, 'spec');
  assert.is(at(place("if (scheduled.delivered)")).kind, 'open');
  assert.is(at(place('scheduled ??= lookUp();')).kind, 'spec');
});

test('the class table of each area is the one its recorded run scored by: a class moved since fails until the area is run again', () => {
  for (const entry of recorded.filter(isCurrent)) {
    assert.ok(entry.classes, `${entry.area}: its verdicts record no class table: npm run mutation -- ${entry.area}`);
    assert.ok(sameClasses(entry.classes, CLASSES[entry.area]), `${entry.area}: scripts/mutation-classes.ts classes it otherwise than its run did (${classChanges(entry.classes, CLASSES[entry.area]!, readFileSync(builtModule(entry.area), 'utf8')).map((change) => `${change.name} ${change.from} → ${change.to}`).join(', ')}): npm run mutation -- ${entry.area}, and the page shows the move`);
  }
  // A move is seen: the scheduled table with dueScheduledMessages filed as an open point.
  const scheduled = recorded.find((entry) => entry.area === 'scheduled' && isCurrent(entry));
  if (scheduled) {
    const moved = { ...CLASSES.scheduled!, spec: CLASSES.scheduled!.spec.filter((name) => name !== 'dueScheduledMessages'), open: { ...CLASSES.scheduled!.open, dueScheduledMessages: ['scheduled.delivery' as const] } };
    assert.not.ok(sameClasses(scheduled.classes, moved));
    const changes = classChanges(scheduled.classes, moved, readFileSync(builtModule('scheduled'), 'utf8'));
    assert.equal(changes.map((change) => [change.name, change.from, change.to]), [['dueScheduledMessages', 'spec', 'open']]);
    assert.ok(changes[0]!.rules.some((rule) => rule.startsWith('scheduled.sent-at-its-time: ')), JSON.stringify(changes[0]));
  }
});

test('the verdicts recorded are those of the modules as built now; an area without any is named not measured', () => {
  for (const entry of recorded) assert.ok(isCurrent(entry), `reference/${MODULES[entry.area as keyof typeof MODULES]}.ts changed since its mutation run: npm run mutation -- ${entry.area}`);
  assert.is(new Set(recorded.map((entry) => entry.area)).size, recorded.length, 'an area recorded twice');
  const docs = readFileSync('docs/mutation.md', 'utf8');
  for (const area of AREAS.filter((name) => !currentOf(name))) {
    process.stdout.write(`\n  SKIPPED: the mutation verdicts of ${area}: none recorded for reference/${MODULES[area]}.ts as built now (npm run mutation -- ${area}); docs/mutation.md names it not measured\n`);
    assert.match(docs, new RegExp(`^\\| ${area} \\| \\| not measured`, 'm'), `docs/mutation.md does not name ${area} not measured`);
  }
});

/**
 * An area's entries of a list by place (the equivalents, the gaps), each held to the mutant it
 * names: one Stryker makes, listed once, on the line it quotes, with a reason; `also` judges each
 * with its class and its recorded verdict (none without verdicts of the module as built now).
 */
async function eachListed(area: string, list: readonly Equivalent[], also: (entry: Equivalent, where: string, kind: string, verdict: Verdict | undefined) => void): Promise<void> {
  const mutants = await mutantsOf(area);
  // Without verdicts of this module, the list is still held to the mutants and the code; only whether a rule caught one is unknown.
  const verdicts = currentOf(area)?.verdicts;
  if (verdicts) assert.is(verdicts.length, mutants.length, `${area}: the recorded verdicts are for ${verdicts.length} mutants, Stryker makes ${mutants.length}`);
  const source = readFileSync(builtModule(area), 'utf8');
  const lines = source.split('\n');
  const located = classAt(area, source);
  // Every mutant stands in a declaration the table classes.
  for (const mutant of mutants) located(mutant);
  const listed = list.filter((entry) => entry.area === area);
  for (const entry of listed) {
    const where = `${area} ${placeName(entry)}`;
    assert.is(mutants.filter((mutant) => samePlace(mutant, entry)).length, 1, `${where}: no such mutant any more (or more than one)`);
    assert.is(listed.filter((other) => samePlace(other, entry)).length, 1, `${where}: listed twice`);
    assert.is(lines[entry.line - 1]?.trim(), entry.code, `${where}: the line is no longer the one the list quotes`);
    assert.ok(entry.why.length > 20, `${where}: say why`);
    also(entry, where, located(entry).kind, verdicts?.find((candidate) => samePlace(candidate, entry)));
  }
}

for (const area of AREAS) {
  test(`${area}: each equivalent mutant listed is one Stryker makes, on the line the list quotes, in spec code or an open point, and no rule caught it`, () =>
    eachListed(area, equivalents, (_entry, where, kind, verdict) => {
      assert.is.not(kind, 'outside', `${where}: outside the spec, where nothing is scored, an equivalent need not be listed`);
      if (verdict) assert.not.ok(caught(verdict), `${where} is listed as equivalent, and ${[...verdict.must, ...verdict.decision].join(', ') || verdict.status} caught it`);
    }));

  test(`${area}: each gap explained is a survivor of spec code that no must rule caught, on the line it quotes, and no equivalent`, () =>
    eachListed(area, gaps, (entry, where, kind, verdict) => {
      assert.is(kind, 'spec', `${where}: a gap is spec code's (an open point's survivor is the decision's)`);
      assert.not.ok(equivalents.some((other) => other.area === area && samePlace(other, entry)), `${where}: listed as equivalent too`);
      if (verdict) assert.not.ok(caughtByMust(verdict), `${where} is explained as a gap, and ${verdict.must.join(', ')} caught it`);
    }));
}

test(`docs/mutation.md shows the scores of the recorded verdicts, each area under ${MUST_GOAL}% must only marked so`, () => {
  const docs = readFileSync('docs/mutation.md', 'utf8');
  assert.fixture(docs, markdownOfRecord(), 'docs/mutation.md is stale: npm run mutation -- --rescore');
  for (const score of scoresOfRecord().scores) {
    const row = docs.split('\n').find((line) => line.startsWith(`| ${score.area} | `)) ?? '';
    assert.is(row.includes(`(under ${MUST_GOAL}%)`), score.mustScore < MUST_GOAL, `${score.area}: must only ${score.mustScore}%, and its row says otherwise`);
  }
});

test('the runner runs each area at level 415 first, then at the first and the last level of each of its must rules, both dialects with the decisions; runner 1 as it ran', () => {
  for (const area of AREAS) {
    const plan = planOf(area);
    assert.ok(plan.slice(0, 6).every((run) => run.level === TOP_LEVEL && run.decisions), area);
    assert.ok(plan.every((run) => run.decisions), area);
    const own = area === 'general' ? ['general.'] : area === 'messages' || area === 'channels' ? ['flags.'] : area === 'settings' || area === 'users' ? ['defaults.', 'drafts.'] : [`${area}.`];
    for (const rule of RULES as ReadonlyArray<{ id: string; severity: string; since?: number; before?: number }>) {
      if (rule.severity !== 'must' || !own.some((prefix) => rule.id.startsWith(prefix))) continue;
      for (const level of [rule.since ?? 1, ...(rule.before === undefined ? [] : [rule.before - 1])]) {
        for (const dialect of ['zulip', 'alternate']) assert.ok(plan.some((run) => run.level === level && run.dialect === dialect), `${area}: ${rule.id} at ${level}, ${dialect}`);
      }
    }
  }
  assert.equal(planOf('flags', 1).map((run) => `${run.seed} ${run.dialect} ${run.level} ${run.decisions}`), ['1 zulip 415 true', '1 alternate 415 false', '2 zulip 415 true', '2 alternate 415 false', '3 zulip 415 true', '3 alternate 415 false']);
});

test('runner 3 runs the organization\'s model in every area, the HTTP layer\'s included, and the settings tables\' rules at each level where the tables change (in Zulip\'s dialect: the dialects share the tables); runner 2 as it ran', () => {
  for (const area of AREAS) {
    const plan = planOf(area);
    assert.is(new Set(plan.map(runKey)).size, plan.length, `${area}: two runs of one name`);
    for (const run of plan.filter((one) => !one.tables)) assert.ok(run.rules.split(',').includes('organization.*'), `${area}: ${runKey(run)} runs ${run.rules}`);
    assert.ok(planOf(area, 2).every((run) => !run.rules.includes('organization') && !run.tables), area);
  }
  const tables = planOf('settings').filter((run) => run.tables);
  for (const level of TABLE_LEVELS.filter((one) => one !== TOP_LEVEL)) {
    assert.ok(tables.some((run) => run.level === level && run.dialect === 'zulip' && /defaults\.settings-at-their-levels/.test(run.rules)), `settings: the tables at ${level}`);
  }
  // 227, 383 and 401 are where enumerations gain a value; 364, where dense_mode goes.
  for (const level of [227, 364, 383, 401]) assert.ok(TABLE_LEVELS.includes(level), String(level));
  assert.ok(AREAS.filter((area) => area !== 'settings').every((area) => planOf(area).every((run) => !run.tables)));
});

test('a survivor the lists explain makes level 415\'s runs at seed 1 alone, both dialects, as the daily re-check does; a mutant not listed, its whole plan', () => {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-listed-'));
  try {
    assert.equal([...listedIn(dir)], [], 'no list written: every mutant makes its whole plan');
    writeFileSync(join(dir, LISTED_FILE), JSON.stringify(['12']));
    assert.ok(listedIn(dir).has('12'));
    assert.not.ok(listedIn(dir).has('13'));
    for (const area of AREAS) {
      const listed = runsOf(area, RUNNER, { listed: true });
      assert.equal(listed.map(runKey), ['s1.zulip.l415', 's1.alternate.l415'], area);
      assert.equal(listed, runsOf(area, RUNNER, { survivorRecheck: true }), area);
      assert.is(runsOf(area, RUNNER).length, planOf(area).length, area);
      assert.is(runsOf(area, RUNNER, { kind: 'outside', listed: true }).length, 1, `${area}: outside the spec, once`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('from runner 4 an open point\'s mutant makes level 415\'s runs alone, every seed in both dialects; spec code its whole plan; runner 3 as it ran', () => {
  for (const area of AREAS) {
    const open = runsOf(area, 4, { kind: 'open' });
    assert.equal(open.map(runKey), SEEDS.flatMap((seed) => DIALECTS.map((dialect) => `s${seed}.${dialect}.l${TOP_LEVEL}`)), area);
    assert.ok(open.every((run) => run.decisions), `${area}: with the decisions, which are what can catch an open point`);
    assert.equal(runsOf(area, 4), planOf(area, 4), `${area}: spec code, the whole plan`);
    assert.equal(runsOf(area, 3, { kind: 'open' }), planOf(area, 3), `${area}: runner 3 ran an open point's whole plan`);
  }
});

test('--relocate moves a listed entry to the one mutant of its code where lines above it changed; one whose code is gone, or is there twice alike, stays', () => {
  const source = ['// a line more', 'function a() {', '  return x === 1;', '}', 'const b = y === 1 || y === 1;', ''].join('\n');
  const entry = (line: number, column: number, end: string, code: string): Equivalent => ({ area: 'flags', line, column, end, mutator: 'ConditionalExpression', replacement: 'true', code, why: 'w' });
  const mutants: Place[] = [
    { line: 3, column: 10, end: '3:17', mutator: 'ConditionalExpression', replacement: 'true' },
    { line: 5, column: 11, end: '5:18', mutator: 'ConditionalExpression', replacement: 'true' },
    { line: 5, column: 22, end: '5:29', mutator: 'ConditionalExpression', replacement: 'true' },
  ];
  const moved = entry(2, 10, '2:17', 'return x === 1;');
  const twice = entry(4, 11, '4:18', 'const b = y === 1 || y === 1;');
  const gone = entry(9, 3, '9:8', 'return z;');
  const here = entry(5, 22, '5:29', 'const b = y === 1 || y === 1;');
  const other = { ...moved, area: 'drafts' };
  const done = relocated('flags', [moved, twice, gone, here, other], source, mutants);
  assert.equal(done.entries.map((one) => `${one.line}:${one.column}-${one.end}`), ['3:10-3:17', '5:11-5:18', '9:3-9:8', '5:22-5:29', '2:10-2:17']);
  assert.is(done.moved.length, 2);
  assert.equal(done.lost.length, 1);
  assert.match(done.lost[0]!, /no mutant of that code/);
  // Alike at the same columns twice: it stays.
  const alike = relocated('flags', [entry(4, 1, '4:3', 'x;')], 'x;\nx;\ny;\n', [{ line: 1, column: 1, end: '1:3', mutator: 'ConditionalExpression', replacement: 'true' }, { line: 2, column: 1, end: '2:3', mutator: 'ConditionalExpression', replacement: 'true' }]);
  assert.equal(alike.entries[0], entry(4, 1, '4:3', 'x;'));
  assert.match(alike.lost[0]!, /2 mutants of that code/);
});

test('a rule catches a mutant only where it passed against the unmutated reference in the same run: the alternate dialect decides open points otherwise', () => {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-mutant-'));
  try {
    const run = planOf('flags').find((one) => one.dialect === 'alternate')!;
    const report = (rules: Array<[string, string, string]>) => JSON.stringify({ rules: rules.map(([id, severity, status]) => ({ id, severity, status })) });
    writeFileSync(reportName(dir, 'none', run), report([['flags.error-texts', 'decision', 'fail'], ['flags.event-shape', 'decision', 'pass'], ['flags.add-sets-flag', 'must', 'pass']]));
    writeFileSync(reportName(dir, '7', run), report([['flags.error-texts', 'decision', 'fail'], ['flags.event-shape', 'decision', 'fail'], ['flags.add-sets-flag', 'must', 'error']]));
    assert.equal(caughtIn(dir, '7', run).map((rule) => rule.id), ['flags.event-shape', 'flags.add-sets-flag']);
    // The baseline itself: every rule that failed.
    assert.equal(caughtIn(dir, 'none', run).map((rule) => rule.id), ['flags.error-texts']);
    // Another run of the plan has no report: nothing caught there.
    assert.equal(caughtIn(dir, '7', planOf('flags')[0]!), []);
    // A run stopped at its time names no rule: what failed is what the stop cut short.
    writeFileSync(reportName(dir, '8', run), JSON.stringify({ interrupted: true, rules: [{ id: 'flags.add-sets-flag', severity: 'must', status: 'error' }] }));
    assert.equal(caughtIn(dir, '8', run), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a resumed run takes each run its stopped run finished from the report, and makes again one the stop cut off', () => {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-mutant-'));
  try {
    const report = (status: string, extra = {}) => JSON.stringify({ ...extra, rules: [{ id: 'typing.only-to-receivers', severity: 'must', status }] });
    for (const run of planOf('typing')) writeFileSync(reportName(dir, 'none', run), report('pass'));
    writeFileSync(reportName(dir, '4', planOf('typing')[0]!), report('fail'));
    const resumed = (mutant: string) => spawnSync(process.execPath, ['dist/scripts/mutant-run.js', 'typing', '1', dir], { env: { ...process.env, TEAMCHAT_MUTANT_RESUME: '1', __STRYKER_ACTIVE_MUTANT__: mutant }, encoding: 'utf8', timeout: 60_000 });
    // Every run of the unmutated reference is there, passed: none is made again (no report is rewritten).
    const written = planOf('typing').map((run) => statSync(reportName(dir, 'none', run)).mtimeMs);
    assert.is(resumed('none').status, 0);
    assert.equal(planOf('typing').map((run) => statSync(reportName(dir, 'none', run)).mtimeMs), written);
    // A mutant a must rule caught in its first run is caught, from that run's report alone.
    assert.is(resumed('4').status, 1);
    assert.equal(readdirSync(dir).filter((name) => name.startsWith('4.')), [reportName(dir, '4', planOf('typing')[0]!).slice(dir.length + 1)]);
    // A report the stop cut short, and none at all, are runs to make again; without --resume every run is.
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, report('error', { interrupted: true }));
    assert.is(resumedStatus(cut, true), null);
    assert.is(resumedStatus(join(dir, 'absent.json'), true), null);
    assert.is(resumedStatus(reportName(dir, '4', planOf('typing')[0]!), false), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--resume goes on only from a stopped run of the same module, and with no other mode: else one line and exit 2, before Stryker', () => {
  const misuse = spawnSync(process.execPath, ['dist/scripts/mutation.js', 'typing', '--resume', '--collect'], { encoding: 'utf8', timeout: 60_000 });
  assert.is(misuse.status, 2);
  assert.match(misuse.stderr, /^teamchat mutation: --resume runs Stryker again; it goes with neither --collect, --rescore nor --relocate\n$/);
  const dir = join('reports', 'mutants', 'typing');
  const stamp = join(dir, 'stamp.json');
  const kept = existsSync(stamp) ? readFileSync(stamp, 'utf8') : null;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(stamp, JSON.stringify({ module: 'another', suite: 'another', runner: RUNNER, runs: 10 }));
    const other = spawnSync(process.execPath, ['dist/scripts/mutation.js', 'typing', '--resume'], { encoding: 'utf8', timeout: 60_000 });
    assert.is(other.status, 2);
    assert.match(other.stderr, /^teamchat mutation: nothing of typing to resume: its reports are of another module, suite, runner or --runs \(run it without --resume\)\n$/);
  } finally {
    if (kept === null) rmSync(stamp, { force: true });
    else writeFileSync(stamp, kept);
  }
});

test.run();
