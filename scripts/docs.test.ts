import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ambiguitiesMarkdown, coverageMarkdown, rulesJson, rulesMarkdown, zulipDifferencesMarkdown } from './docs.js';
import { RULES, STATEMENTS } from '../conformance/rules.js';
import { PINNED, slug, specStatement } from '../conformance/spec.js';
import { annotatedHtml, asExchange, asSide, normalised, organization, recordRule, type AnnotatedData } from './annotated.js';
import { idsUsed, parting, rolesOf } from '../conformance/report/sides.js';
import { FAULTS } from '../reference/faults/faults.js';

test('docs/rules.md, docs/rules.json and docs/ambiguities.md are up to date with the catalog (npm run docs)', () => {
  const docs = new URL('../../docs/', import.meta.url);
  assert.fixture(readFileSync(new URL('rules.json', docs), 'utf8'), rulesJson());
  assert.fixture(readFileSync(new URL('rules.md', docs), 'utf8'), rulesMarkdown());
  assert.fixture(readFileSync(new URL('ambiguities.md', docs), 'utf8'), ambiguitiesMarkdown());
  assert.fixture(readFileSync(new URL('coverage.md', docs), 'utf8'), coverageMarkdown());
  assert.fixture(readFileSync(new URL('zulip-differences.md', docs), 'utf8'), zulipDifferencesMarkdown());
});

test('every rule of the catalog checks at least one statement of the spec (docs/coverage.md)', () => {
  const covered = new Set(STATEMENTS.flatMap((statement) => statement.rules));
  assert.equal(RULES.map((rule) => rule.id).filter((id) => !covered.has(id)), []);
});

test('--explain quotes the statement a rule is about: its parameter\'s row, its field\'s row, its error\'s row, its sentence', () => {
  // Each rule, and words that only the right statement holds.
  const about: Array<[string, RegExp]> = [
    ['flags.op-add-or-remove', /^\| op \| string \| `add` or `remove` \|$/m],
    ['flags.required-parameters', /^\| messages \|[\s\S]*^\| op \|[\s\S]*^\| flag \|/m],
    ['fields.field-type-values', /^\| field_type \| integer \| 1 Short text;/m],
    ['scheduled.to-required-on-type-change', /^\| to \|.*required when `type` is being changed \|$/m],
    ['scheduled.delete-missing-error', /^\| Delete scheduled message \| no scheduled message has the given ID \|/m],
    ['scheduled.own-messages-only', /act on the authenticated user's own data/],
    ['defaults.new-users-get-defaults', /The change affects only users created afterwards/],
    ['defaults.string-values', /^\| emojiset \|[\s\S]*^\| notification_sound \|/m],
    ['drafts.channel-draft-needs-one-channel', /a channel draft does not have exactly one channel ID/],
    ['emoji.size-limit', /MAX_EMOJI_FILE_SIZE_MIB/],
  ];
  for (const [id, words] of about) {
    const rule = RULES.find((candidate) => candidate.id === id)!;
    const quoted = specStatement(rule)!.lines.join('\n');
    assert.match(quoted, words, `${id} quotes:\n${quoted}`);
  }
  // And every rule, must and decision, quotes lines of the spec's own, named in spec.ts (PINNED), never a heading.
  for (const rule of RULES) {
    const quoted = specStatement(rule);
    assert.ok(PINNED[rule.id], `${rule.id}: spec.ts names no statement for it`);
    assert.ok(quoted && quoted.lines.length > 0 && quoted.lines.every((line) => !/^#/.test(line)), `${rule.id}: its statement is not in the spec: ${JSON.stringify(PINNED[rule.id])}`);
  }
});

test('the annotated spec shows each rule\'s card once, beside the first line its statement quotes, and docs/coverage.md quotes the same lines', () => {
  const page = readFileSync(new URL('annotated.html', docs), 'utf8');
  const coverage = readFileSync(new URL('coverage.md', docs), 'utf8');
  const spec = readFileSync(new URL('spec.md', docs), 'utf8').split('\n');
  for (const rule of RULES) {
    assert.is(page.split(`id="rule-${rule.id}"`).length - 1, 1, `${rule.id}: its card stands ${page.split(`id="rule-${rule.id}"`).length - 1} times on the page`);
    // The first line the rule quotes, by its place in the spec, and the anchor the page gives that line.
    const at = Math.min(...PINNED[rule.id]!.map((text) => spec.findIndex((line) => !line.startsWith('#') && line.includes(text))));
    let heading = at;
    while (!/^#{1,4} /.test(spec[heading]!)) heading--;
    const card = page.indexOf(`id="rule-${rule.id}"`);
    const row = page.slice(page.lastIndexOf('<div class="row', card), card);
    assert.ok(row.includes(`id="${slug(spec[heading]!)}.${at + 1}"`), `${rule.id}: its card does not stand beside ${JSON.stringify(spec[at]!.slice(0, 80))}`);
    for (const line of specStatement(rule)!.lines.filter((text) => !/^\|[- |]+\|$/.test(text) && !/^\| *(Field|Parameter|Operation|Flag|Limit|State|Setting) *\|/.test(text))) {
      assert.ok(coverage.includes(line.replace(/^- /, '').replace(/`/g, "'")), `${rule.id}: docs/coverage.md does not quote ${JSON.stringify(line.slice(0, 80))}`);
    }
  }
});



test('docs/spec.md, which --explain quotes, is the spec of shared/ where that is beside the clone', () => {
  const shared = new URL('../../../shared/spec/team-chat-api.md', import.meta.url);
  if (!existsSync(shared)) return;
  assert.fixture(readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8'), readFileSync(shared, 'utf8'));
});

const docs = new URL('../../docs/', import.meta.url);
const recorded = JSON.parse(readFileSync(new URL('annotated.json', docs), 'utf8')) as AnnotatedData;

test('docs/annotated.html is the page of the recorded exchanges (npm run docs), with every rule, each with its case on both sides where it has a seeded fault', () => {
  assert.fixture(readFileSync(new URL('annotated.html', docs), 'utf8'), annotatedHtml(recorded));
  assert.equal(Object.keys(recorded.rules), RULES.map((rule) => rule.id));
  for (const rule of RULES) {
    const entry = recorded.rules[rule.id]!;
    assert.ok(entry.passing && entry.passing.steps.length > 0, `${rule.id}: no passing case recorded`);
    if (FAULTS[rule.id]) assert.ok(entry.failing && entry.failing.steps.length > 0, `${rule.id}: its seeded fault showed no failing case`);
    assert.ok(entry.support.some((cell) => cell.status === 'pass'), `${rule.id}: the reference passes it nowhere`);
  }
});

test('each must rule\'s two sides differ in a request, a status or a field of an answer, not only in IDs, times or the run\'s prefix; the request the rule is about is among the steps', () => {
  for (const rule of RULES.filter((candidate) => candidate.severity === 'must')) {
    const entry = recorded.rules[rule.id]!;
    if (!entry.failing || !entry.passing) continue;
    const { at } = parting(asSide(entry.passing), asSide(entry.failing));
    assert.ok(at !== null, `${rule.id}: the passing and the failing case are alike but for IDs, times and the prefix`);
    assert.ok(rolesOf(rule, asSide(entry.passing).steps).includes('request') || rule.id.startsWith('general.'), `${rule.id}: no step is a request of the rule's operation`);
  }
});

test('every ID an example uses was made or listed earlier in it, is one of the organization\'s from the start, or is made up to name nothing (1,000,000,000 and above)', () => {
  const { ids: organizationIds } = organization();
  for (const rule of RULES) {
    const entry = recorded.rules[rule.id]!;
    for (const [name, side] of [['passing', entry.passing], ['failing', entry.failing]] as const) {
      if (!side) continue;
      const known = new Set(organizationIds);
      for (const exchange of [...side.prelude, ...side.steps]) {
        for (const id of idsUsed(asExchange(exchange))) {
          assert.ok(known.has(id) || Number(id) >= 1_000_000_000, `${rule.id} (${name}): ${exchange.method} ${exchange.path} uses ID ${id}, which no earlier exchange of the example made or listed`);
        }
        for (const given of JSON.stringify(exchange.body ?? '').match(/(?<![\w.])\d+(?![\w.])/g) ?? []) known.add(given);
      }
    }
  }
});

// Three rules drawn anew each run (the seed is printed): recorded again, they must give what
// docs/annotated.json holds, times and the run's prefix aside, so that the page shows the
// reference as it is, and rebuilt docs differ only where the reference changed.
const drawSeed = Number(process.env.TEAMCHAT_DOCS_SEED ?? Math.floor(Math.random() * 2 ** 31));
/**
 * How far a step moves the reference clock depends on the second the run reads it at (a case is due
 * at ten seconds into a minute or later, deliveries.ts), which is the machine's time gone by: a
 * time, set aside like the others.
 */
const clockStepsAside = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.length === 2 && value[0] === 'advance_seconds' ? ['advance_seconds', '<seconds>'] : value.map(clockStepsAside);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, clockStepsAside(entry)]));
  return value;
};
const drawn = [0, 1, 2].map((index) => RULES[(drawSeed + index * 7919) % RULES.length]!.id);
test(`the recorded exchanges and support are the reference's as it is now: ${drawn.join(', ')} (TEAMCHAT_DOCS_SEED=${drawSeed})`, async () => {
  for (const id of drawn) {
    const again = await recordRule(id);
    assert.equal(clockStepsAside(normalised(again)), clockStepsAside(normalised(recorded.rules[id])), `${id} records otherwise now: npm run docs`);
  }
});

test('npm run docs -- --with REPORT --reuse puts a report\'s column beside the reference; a report it cannot read is one line and exit 2', () => {
  const directory = mkdtempSync(join(tmpdir(), 'teamchat-docs-'));
  const report = { target: 'http://staging.example', feature_level: 300, rules: [{ id: 'drafts.channel-draft-needs-one-channel', status: 'fail', message: 'accepted two channels' }] };
  writeFileSync(join(directory, 'staging.json'), JSON.stringify(report));
  const script = new URL('docs.js', import.meta.url).pathname;
  const out = join(directory, 'page.html');
  const made = spawnSync(process.execPath, [script, '--reuse', '--with', join(directory, 'staging.json'), '--out', out], { encoding: 'utf8' });
  assert.is(made.status, 0, made.stderr);
  const page = readFileSync(out, 'utf8');
  assert.match(page, /http:\/\/staging\.example \(staging\.json\)<br><small>level 300<\/small>/);
  assert.match(page, /<td class="fail" title="accepted two channels">fail<\/td>/);
  const broken = spawnSync(process.execPath, [script, '--reuse', '--with', join(directory, 'missing.json'), '--out', out], { encoding: 'utf8' });
  assert.is(broken.status, 2);
  assert.match(broken.stderr, /^teamchat docs: --with .*missing\.json: cannot read a JSON report there/);
  assert.is(broken.stderr.trim().split('\n').length, 1);
});

test.run();
