import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { derivedFault, derivedFaultNames, OPERATORS, RESULT_KINDS } from '../reference/faults/derived.js';
import { faultsFromEnvironment } from '../reference/faults/faults.js';
import { SPEC_RULES } from '../reference/http/rules.js';
import { TestServer } from '../reference/test/test-helpers.js';
import { declaredKinds, specFunctions } from './derived.js';

const root = new URL('../../', import.meta.url).pathname;

test('the derived faults know each rule function\'s result as model.ts declares it, and every function of the table', () => {
  assert.equal({ ...RESULT_KINDS }, declaredKinds(readFileSync(`${root}reference/model/model.ts`, 'utf8')));
  assert.equal(Object.keys(RESULT_KINDS).sort(), Object.keys(SPEC_RULES).sort());
});

test('at least ten operators, each fitting some kind of result, derive a few hundred faults of spec code; open points are left out', () => {
  assert.ok(Object.keys(OPERATORS).length >= 10);
  const names = derivedFaultNames(specFunctions());
  assert.ok(names.length >= 200, `${names.length} derived faults`);
  for (const operator of Object.keys(OPERATORS)) assert.ok(names.some((name) => name.endsWith(`:${operator}`)), `${operator} applies nowhere`);
  // removeDraft serves an open point (drafts.edit-delete-follow-model): no fault of it is derived.
  assert.not.ok(names.some((name) => name.startsWith('derived:removeDraft:')));
  assert.ok(names.includes('derived:storeDraft:skip'));
});

test('a derived name is a fault only where its operator fits the function: others are refused with the list of what is known', () => {
  assert.ok(derivedFault('derived:storeDraft:skip'));
  assert.is(derivedFault('derived:storeDraft:negate'), undefined);
  assert.is(derivedFault('derived:noSuchRule:skip'), undefined);
  assert.equal([...faultsFromEnvironment('derived:changeFlag:negate')], ['derived:changeFlag:negate']);
  assert.throws(() => faultsFromEnvironment('derived:storeDraft:negate'), /unknown fault "derived:storeDraft:negate".*derived:<rule function>:<operator>/);
});

test('a derived fault changes what the server does over HTTP, and only there: a skipped store answers an ID and keeps nothing', async () => {
  const made = async (faults: Set<string>) => {
    const server = await TestServer.start({ faults });
    try {
      const created = await server.call('member', 'POST', '/drafts', { drafts: JSON.stringify([{ type: '', to: [], topic: '', content: 'derived' }]) });
      assert.is(created.status, 200);
      assert.is((created.body as { ids: number[] }).ids.length, 1);
      const listed = await server.call('member', 'GET', '/drafts');
      return (listed.body as { drafts: Array<{ content: string }> }).drafts.filter((draft) => draft.content === 'derived').length;
    } finally {
      await server.close();
    }
  };
  assert.is(await made(new Set()), 1);
  assert.is(await made(new Set(['derived:storeDraft:skip'])), 0);
});

test('docs/derived-faults.md counts every derived fault there is: a new function or operator is measured before it is published', () => {
  const page = readFileSync(`${root}docs/derived-faults.md`, 'utf8');
  const total = /\*\*(\d+) of (\d+) caught/.exec(page);
  assert.ok(total, 'the page has no total');
  assert.is(Number(total![2]), derivedFaultNames(specFunctions()).length);
  const rows = [...page.matchAll(/^\| `([a-z-]+)` \| [^|]+ \| (\d+) \| (\d+) \|/gm)];
  assert.equal(rows.map((row) => row[1]).sort(), Object.keys(OPERATORS).sort());
  assert.is(rows.reduce((sum, row) => sum + Number(row[2]), 0), Number(total![2]));
  assert.not.match(page, /no reason yet/);
});

test.run();
