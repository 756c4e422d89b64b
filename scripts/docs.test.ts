import { existsSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ambiguitiesMarkdown, coverageMarkdown, rulesJson, rulesMarkdown, zulipDifferencesMarkdown } from './docs.js';
import { RULES, STATEMENTS } from '../conformance/rules.js';
import { specStatement } from '../conformance/spec.js';

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

test.run();
