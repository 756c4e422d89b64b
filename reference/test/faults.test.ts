// The shape of the reference: the area modules state the spec's rules and call the dialect at
// the open points; faults and dialect choices live apart (faults.ts, dialects/), each named.

import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RULES, type RuleId } from '../../conformance/rules.js';
import { DECIDED_BY, dialectDecisions, drawnAlternate } from '../dialects/dialect.js';
import type { DialectDecisions } from '../model/model.js';
import { alternate } from '../dialects/alternate.js';
import { zulip } from '../dialects/zulip.js';
import { FAULTS, realmBehaviour } from '../faults/faults.js';
import { buildRealm, readFixture } from '../http/boot.js';
import { SPEC_RULES } from '../http/rules.js';

const source = new URL('../../../reference/', import.meta.url);
/** The rooms where the spec's rules and Zulip's endpoints live, with the HTTP handler: none of them knows a fault or a dialect. */
const AREA_ROOMS = ['model', 'operations', 'support'];

test('no area module holds a fault or a dialect condition', () => {
  const modules = AREA_ROOMS.flatMap((room) => readdirSync(new URL(`${room}/`, source)).filter((file) => file.endsWith('.ts')).map((file) => `${room}/${file}`));
  for (const name of [...modules, 'http/handler.ts']) {
    const text = readFileSync(new URL(name, source), 'utf8');
    assert.not.match(text, /\.fault\(|\.alternate\(|faults\.has\(|dialect ===|'alternate'/, name);
  }
  assert.ok(modules.length >= 17, `${modules.length} modules in the rooms of the rules`);
});

test('every fault replaces named functions that exist, and only those', () => {
  for (const [id, fault] of Object.entries(FAULTS)) {
    const rules = Object.keys(fault!.rules ?? {});
    const decisions = Object.keys(fault!.dialect ?? {});
    assert.ok(rules.length + decisions.length > 0, `${id} replaces nothing`);
    for (const name of rules) assert.ok(name in SPEC_RULES, `${id} replaces the unknown rule function ${name}`);
    for (const name of decisions) assert.ok(name in DECIDED_BY, `${id} replaces the unknown decision ${name}`);
  }
});

test('a fault changes only its own realm: the spec\'s table and the dialects stay as they were', () => {
  const [faulty] = [realmBehaviour(SPEC_RULES, new Set(['drafts.required-fields', 'emoji.name-rules']), 'zulip')];
  assert.is.not(faulty!.rules.checkRequiredDraftKeys, SPEC_RULES.checkRequiredDraftKeys);
  assert.is.not(faulty!.decisions.checkEmojiNameFree, zulip.checkEmojiNameFree);
  const plain = buildRealm(readFixture(), 415, new Set());
  assert.is(plain.rules.checkRequiredDraftKeys, SPEC_RULES.checkRequiredDraftKeys);
  assert.is(plain.dialect.checkEmojiNameFree, zulip.checkEmojiNameFree);
});

test('every member of the dialect belongs to a decision of the catalog, and every decision the alternate dialect takes has members', () => {
  const decisions = new Set(RULES.filter((rule) => rule.severity === 'decision').map((rule) => rule.id as RuleId));
  for (const [member, decision] of Object.entries(DECIDED_BY)) assert.ok(decisions.has(decision), `${member}: ${decision} is not a decision`);
  const decided = new Set(Object.values(DECIDED_BY));
  const withAlternate = RULES.filter((rule) => rule.severity === 'decision' && 'alternate' in rule && rule.alternate).map((rule) => rule.id);
  assert.equal(withAlternate.filter((id) => !decided.has(id as never) && !id.endsWith('error-texts')), []);
  assert.equal(Object.keys(zulip).sort(), Object.keys(DECIDED_BY).sort());
  assert.equal(Object.keys(alternate).sort(), Object.keys(DECIDED_BY).sort());
});

test('the random dialect draws per decision: the members of one decision come from the same dialect', () => {
  for (const seed of [1, 2, 3, 17, 4242]) {
    const drawn = dialectDecisions('random', seed);
    for (const [member, decision] of Object.entries(DECIDED_BY) as Array<[keyof DialectDecisions, string]>) {
      if (member === 'realmSettings') continue;
      assert.is(drawn[member], (drawnAlternate(seed, decision) ? alternate : zulip)[member], `${member} at seed ${seed}`);
    }
  }
});

test.run();
