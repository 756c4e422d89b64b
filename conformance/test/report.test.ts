// Counterexamples a person reads: labelled, elided, without JavaScript's internals.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { leftTogether } from '../report/merge.js';
import { Cleanup } from '../run/cleanup.js';
import { labelsOf, readable, type RuleResult } from '../run/harness.js';
import { consoleSummary } from '../report/console.js';
import { exitCode, summarize, type Report } from '../report/json.js';
import { junit } from '../report/junit.js';

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

const rule = (id: string, status: RuleResult['status'], extra: Partial<RuleResult> = {}): RuleResult => ({
  id: id as never, severity: 'must', section: 's', title: 't', spec: null, status, message: `${status} of ${id}`, counterexample: null, duration_ms: 1, requests: 1, ...extra,
});

function report(rules: RuleResult[]): Report {
  return {
    target: 'http://t', feature_level: 415, zulip_version: 'x', seed: 1, runs: 1, decisions: false, run_prefix: 'tcc00000000', config: {}, rules,
    summary: summarize(rules), cleanup: { problems: [], swept: [] }, requests: 1, transients: 0, smoke: false, duration_ms: 1, interrupted: false,
    started_at: '2026-11-24T00:00:00.000Z', suite_version: '0.1.0', reference: null, shard: null, lease: null,
  };
}

test('an expected failure counts as xfail, apart from fail, in the summary, the exit code, the console and JUnit', () => {
  const r = report([rule('a.one', 'pass'), rule('a.two', 'fail', { expected: true }), rule('b.three', 'fail', { severity: 'decision' })]);
  assert.equal(r.summary, { pass: 1, fail: 1, skip: 0, error: 0, xfail: 1 });
  assert.is(exitCode(r), 1);
  assert.is(exitCode(report([rule('a.one', 'pass'), rule('a.two', 'fail', { expected: true })])), 0);
  assert.is(exitCode(report([rule('a.one', 'pass'), rule('a.two', 'error')])), 3);
  assert.match(consoleSummary(r), /^a +1 +0 +0 +0 +1$/m);
  const xml = junit(r);
  assert.match(xml, /<skipped message="expected failure \(xfail\): fail of a\.two"/);
  assert.match(xml, /<failure type="decision" message="decision \(Zulip&apos;s choice\): fail of b\.three"/);
  assert.match(xml, /<property name="seed" value="1"\/>/);
  // Each failing testcase carries the command that replays it.
  assert.match(xml, /<testcase classname="b" name="b\.three"[^>]*>\s*<properties><property name="replay_command" value="[^"]*--only b\.three[^"]*"\/><\/properties>/);
  assert.match(xml, /timestamp="2026-11-24T00:00:00.000Z"/);
});

test('what the API can only deactivate is counted once in the cleanup section, not as a problem', () => {
  const cleanup = new Cleanup();
  for (let index = 0; index < 3; index++) cleanup.leftBehind('custom emoji, deactivated');
  const r = { ...report([rule('a.one', 'pass')]), cleanup: { problems: cleanup.problems, swept: [], left: cleanup.left() } };
  assert.equal(r.cleanup.left, ['3 custom emoji, deactivated']);
  assert.match(consoleSummary(r), /left on the target \(the API cannot delete them\): 3 custom emoji, deactivated$/m);
  assert.not.match(consoleSummary(r), /cleanup problems/);
  assert.is(exitCode(r), 0);
  // A problem whose text carries an error page's line breaks is one line.
  const paged = { ...r, cleanup: { ...r.cleanup, problems: ['delete draft 7: 502 <html>\n<body>Bad Gateway</body>\n</html>\n'] } };
  assert.match(consoleSummary(paged), /^  delete draft 7: 502 <html> <body>Bad Gateway<\/body> <\/html>\n\ntarget /m);
  // Against the embedded reference, which ends with the run, nothing is left anywhere.
  const embedded = { ...r, reference: { feature_level: 415, dialect: 'zulip' } } as typeof r;
  assert.not.match(consoleSummary(embedded), /left on the target/);
});

test('a server failing everything is said in one line', () => {
  const all = report(Array.from({ length: 6 }, (_, index) => rule(`a.r${index}`, 'fail')));
  assert.match(consoleSummary(all), /every rule that ran failed or ended in error \(6\): the server may be failing every request; the first said: fail of a\.r0/);
  assert.not.match(consoleSummary(report([rule('a.one', 'pass'), ...all.rules])), /every rule that ran/);
});

test('a merged report says what the shards left as one run would: the counts of a kind added up, each shard\'s prefix named', () => {
  const left = leftTogether([
    '3 custom emoji, deactivated (named with tcc0000000a; GET /realm/emoji lists them with deactivated: true)',
    '2 messages, sent or delivered by the run (each carries tcc0000000a)',
    '5 custom emoji, deactivated (named with tcc0000000b; GET /realm/emoji lists them with deactivated: true)',
    '1 messages, sent or delivered by the run (each carries tcc0000000b)',
  ]);
  assert.equal(left, [
    '8 custom emoji, deactivated (named with tcc0000000a or tcc0000000b; GET /realm/emoji lists them with deactivated: true)',
    '3 messages, sent or delivered by the run (each carries tcc0000000a or tcc0000000b)',
  ]);
});

test.run();
