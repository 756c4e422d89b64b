import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ambiguitiesMarkdown, coverageMarkdown, rulesJson, rulesMarkdown, zulipDifferencesMarkdown } from './docs.js';
import { RULES, STATEMENTS } from '../conformance/rules.js';
import { specStatement } from '../conformance/spec.js';
import { annotatedHtml, normalised, recordRule, type AnnotatedData } from './annotated.js';
import { FAULTS } from '../reference/faults.js';

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
  // And every must rule quotes a line of the spec's own, not just a heading.
  for (const rule of RULES.filter((candidate) => candidate.severity === 'must')) {
    const quoted = specStatement(rule);
    assert.ok(quoted && quoted.lines.some((line) => !/^#/.test(line)), `${rule.id} quotes no statement`);
  }
});

test('docs/spec.md, which --explain quotes, is the spec of shared/ where that is beside the clone', () => {
  const shared = new URL('../../../shared/spec/team-chat-api.md', import.meta.url);
  if (!existsSync(shared)) return;
  assert.fixture(readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8'), readFileSync(shared, 'utf8'));
});

const docs = new URL('../../docs/', import.meta.url);
const recorded = JSON.parse(readFileSync(new URL('annotated.json', docs), 'utf8')) as AnnotatedData;

test('docs/annotated.html is the page of the recorded exchanges (npm run docs), with every rule, each with a passing and a failing exchange where it has a seeded fault', () => {
  assert.fixture(readFileSync(new URL('annotated.html', docs), 'utf8'), annotatedHtml(recorded));
  assert.equal(Object.keys(recorded.rules), RULES.map((rule) => rule.id));
  for (const rule of RULES) {
    const entry = recorded.rules[rule.id]!;
    assert.ok(entry.passing.length > 0, `${rule.id}: no passing exchange recorded`);
    if (FAULTS[rule.id]) assert.ok(entry.failing && entry.failing.exchanges.length > 0, `${rule.id}: its seeded fault showed no failing exchange`);
    assert.ok(entry.support.some((cell) => cell.status === 'pass'), `${rule.id}: the reference passes it nowhere`);
  }
});

// Three rules drawn anew each run (the seed is printed): recorded again, they must give what
// docs/annotated.json holds, times and the run's prefix aside, so that the page shows the
// reference as it is, and rebuilt docs differ only where the reference changed.
const drawSeed = Number(process.env.TEAMCHAT_DOCS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const drawn = [0, 1, 2].map((index) => RULES[(drawSeed + index * 7919) % RULES.length]!.id);
test(`the recorded exchanges and support are the reference's as it is now: ${drawn.join(', ')} (TEAMCHAT_DOCS_SEED=${drawSeed})`, async () => {
  for (const id of drawn) {
    const again = await recordRule(id);
    assert.equal(normalised(again), normalised(recorded.rules[id]), `${id} records otherwise now: npm run docs`);
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
