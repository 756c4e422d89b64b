// Counterexamples a person reads: labelled, elided, without JavaScript's internals.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { labelsOf, readable } from './harness.js';

test('a counterexample reads as a labelled record, long strings cut with their length, no undefined', () => {
  assert.is(readable([' ', 'x', 1], ['topic', 'content', 'position']), '{ topic: " ", content: "x", position: 1 }');
  assert.is(readable('x'.repeat(4321)), `"${'x'.repeat(24)}"… (4321 characters)`);
  assert.is(readable({ to: [7], topic: undefined, content: 'a' }), '{ to: [7], content: "a" }');
  assert.is(readable([undefined, null]), '[(absent), null]');
  assert.is(readable(Buffer.alloc(5)), '(5 bytes)');
  assert.is(readable(() => 1), '(a function)');
});

test('a model-based sequence reads as the story of its commands, without fast-check\'s replay path', () => {
  const commands = { *[Symbol.iterator]() { yield { toString: () => 'create a draft' }; yield { toString: () => 'delete the first draft' }; }, toString: () => 'x /*replayPath="AAFG:K"*/' };
  assert.is(readable(commands), 'create a draft; delete the first draft');
});

test('labels come from the property\'s own parameter names', () => {
  assert.equal(labelsOf(async ([kind, topic]: [string, string]) => void [kind, topic]), ['kind', 'topic']);
  assert.equal(labelsOf(async ([setting, value, [other, otherValue]]: [string, number, [string, number]]) => void [setting, value, other, otherValue]), ['setting', 'value', '[other, otherValue]']);
  assert.equal(labelsOf(async (direct: boolean) => void direct), ['direct']);
  assert.is(labelsOf(async ({ drafts }: { drafts: unknown }) => void drafts), undefined);
  assert.is(readable(true, ['direct']), '{ direct: true }');
  assert.is(readable([' ', ' ', 'x', 1], ['before', 'after', 'body', 'over']), '{ before: " ", after: " ", body: "x", over: 1 }');
});

test.run();
