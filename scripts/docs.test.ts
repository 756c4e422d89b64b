import { existsSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ambiguitiesMarkdown, coverageMarkdown, rulesJson, rulesMarkdown, zulipDifferencesMarkdown } from './docs.js';
import { RULES, STATEMENTS } from '../conformance/rules.js';

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

test('docs/spec.md, which --explain quotes, is the spec of shared/ where that is beside the clone', () => {
  const shared = new URL('../../../shared/spec/team-chat-api.md', import.meta.url);
  if (!existsSync(shared)) return;
  assert.fixture(readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8'), readFileSync(shared, 'utf8'));
});

test.run();
