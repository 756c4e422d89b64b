// Two servers side by side (--compare), checked with what the project has: the reference against
// itself differs in nothing, at several seeds; against the reference in the alternate dialect it
// differs in every open point the two decide differently, each a decision, and in nothing else;
// against itself with one seeded fault, in exactly that rule.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { differencesText, differentialExitCode, runDifferential } from '../differential.js';
import { html } from '../report/html.js';
import { pairSequences } from '../report/compare.js';
import type { Exchange } from '../run/client.js';
import { RULES } from '../rules.js';
import { FAULTS } from '../../reference/faults/faults.js';
import { targetProfile } from '../../reference/http/boot.js';
import { startReference, type ReferenceOptions } from '../../reference/http/server.js';
import type { SuiteOptions } from '../suite.js';

/** Two references, and the options that check each with one seed, smoke-sized so that several fit in a test. */
async function sideBySide<T>(target: ReferenceOptions, compare: ReferenceOptions, seed: number, only: string | null, use: (a: SuiteOptions, b: SuiteOptions) => Promise<T>, embedded = true): Promise<T> {
  const [one, two] = await Promise.all([startReference({ port: 0, ...target }), startReference({ port: 0, ...compare })]);
  const options = (reference: typeof one): SuiteOptions => ({
    target: reference.url, credentials: targetProfile(reference.fixture, reference.url).users, embedded, seed, runs: 1, smoke: true, only,
    replayPath: null, decisions: true, rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
  });
  try {
    return await use(options(one), options(two));
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
}

test('polls of a queue one after another are one wait: how its events fall into polls is no difference; another event, or one in another queue, is', () => {
  const poll = (events: unknown[], queue = 'q1'): Exchange => ({ as: 'member', method: 'GET', url: 'http://a/api/v1/events', form: [['queue_id', queue], ['dont_block', 'true']], status: 200, body: { result: 'success', msg: '', events } });
  const typing = (id: number) => ({ id, type: 'typing', op: 'start' });
  const wrong = (steps: ReturnType<typeof pairSequences>) => steps.flatMap((step) => step.differences);
  const pair = (a: Exchange[], b: Exchange[]) => pairSequences(a, b, new Map(), { oneWait: true });
  // One side got the event in its first poll, the other in its third.
  assert.equal(wrong(pair([poll([typing(0)])], [poll([]), poll([{ id: 0, type: 'heartbeat' }]), poll([typing(0)])])), []);
  // An event one side's wait did not bring is a difference.
  assert.ok(wrong(pair([poll([typing(0)])], [poll([])])).length > 0);
  // Another event where the other side had one is a difference.
  assert.ok(wrong(pair([poll([typing(0)])], [poll([{ id: 0, type: 'subscription', op: 'add' }])])).length > 0);
  // Polls of two queues stay apart.
  assert.ok(wrong(pair([poll([typing(0)], 'q1'), poll([], 'q2')], [poll([], 'q1'), poll([typing(0)], 'q2')])).length > 0);
});

test('the reference against itself: no difference, every rule at seed 1 and the areas of most IDs and times at seeds 2 and 3', async () => {
  for (const [seed, only] of [[1, null], [2, 'flags.*,scheduled.*,general.*'], [3, 'drafts.*,reminders.*,typing.*']] as const) {
    const report = await sideBySide({}, {}, seed, only, (a, b) => runDifferential(a, b));
    assert.equal(report.differences.map((difference) => `${difference.class} ${difference.rule}: ${difference.target} | ${difference.compare}`), [], `seed ${seed}`);
    if (only === null) assert.ok(report.rules.length === RULES.length && report.compare.rules.length === RULES.length);
  }
});

// By URL, as a user compares two servers: each run takes its server's lease (a draft of the
// admin's that names the run) and its witness reads; what names the run is no difference.
test('the reference against itself by URL, leases and witnesses included: no difference at seeds 1 to 3', async () => {
  for (const seed of [1, 2, 3]) {
    const report = await sideBySide({}, {}, seed, 'general.*,drafts.*', (a, b) => runDifferential(a, b), false);
    assert.equal(report.differences.map((difference) => `${difference.class} ${difference.rule}: ${difference.target} | ${difference.compare}`), [], `seed ${seed}`);
  }
});

test('the reference in Zulip\'s dialect against the alternate dialect: every open point they decide differently is a decision difference, and nothing is unclassified', async () => {
  const report = await sideBySide({}, { dialect: 'alternate' }, 1, null, (a, b) => runDifferential(a, b));
  const classes = new Set(report.differences.map((difference) => difference.class));
  assert.not.ok(classes.has('unclassified'), report.differences.filter((difference) => difference.class === 'unclassified').map((difference) => `${difference.rule}: ${difference.target} | ${difference.compare}`).join('\n'));
  assert.not.ok(classes.has('must'), 'the alternate dialect keeps every must rule');
  // The HTML report opens on the differences: their counts by class and each one, before the verdicts of the target alone.
  const page = html(report);
  const opening = page.indexOf('<h2>Differences from');
  assert.ok(opening > 0 && opening < page.indexOf('id="totals"') && opening < page.indexOf('<h2>Failures and errors</h2>'), 'the differences come first');
  assert.match(page.slice(opening, opening + 2000), /\d+ difference\(s\): \d+ must, \d+ decision/);
  // Each decision the alternate dialect decides otherwise (its check fails there) is named, with Zulip's side.
  const decidedOtherwise = report.compare.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.id);
  assert.ok(decidedOtherwise.length > 10, `the alternate dialect decides ${decidedOtherwise.length} open points otherwise`);
  for (const id of decidedOtherwise) {
    const named = report.differences.find((difference) => difference.rule === id);
    assert.ok(named && named.class === 'decision' && named.zulip === 'target', `${id}: ${JSON.stringify(named)}`);
  }
  // And every difference in a check that passes on both sides names the open points that govern it.
  for (const difference of report.differences.filter((each) => each.at !== undefined)) assert.ok(difference.decisions && difference.decisions.length > 0, difference.rule);
});

test('a difference\'s class is the catalog\'s, whatever the selection: with --only drafts.* the refusals general.error-statuses governs are decisions, as in a whole run', async () => {
  const whole = await sideBySide({}, { dialect: 'alternate' }, 1, null, (a, b) => runDifferential(a, b));
  const part = await sideBySide({}, { dialect: 'alternate' }, 1, 'drafts.*', (a, b) => runDifferential(a, b));
  assert.equal(part.differences.filter((difference) => difference.class === 'unclassified').map((difference) => `${difference.rule}: ${difference.target}`), []);
  // The class of each rule's difference (the decisions named may differ where a run of fewer rules sends other exchanges).
  const classes = (report: typeof whole) => report.differences.filter((difference) => difference.rule?.startsWith('drafts.')).map((difference) => `${difference.rule} ${difference.class}`).sort();
  assert.equal(classes(part), classes(whole));
  // The decisions consulted are in the report, marked so.
  assert.ok(part.rules.some((rule) => rule.id === 'general.error-statuses' && rule.consulted), 'general.error-statuses was consulted');
});

test('a must difference the expectations file lists is named as listed, with its entry, and fails nothing', async () => {
  const rule = 'flags.mention-flags';
  const why = 'this server is known to leave mentions unflagged';
  const report = await sideBySide({ faults: new Set([rule]) }, {}, 2, 'flags.mention-flags', (a, b) => runDifferential({ ...a, expectations: { expected_failures: { [rule]: why } } }, b));
  assert.equal(report.differences.map((difference) => [difference.class, difference.rule, difference.side, difference.expected]), [['must', rule, 'target', why]]);
  assert.is(differentialExitCode(report), 0);
  assert.match(differencesText(report), /flags\.mention-flags: broken by the target, as its expectations file lists: this server is known/);
});

test('the reference against itself with one seeded fault: exactly that rule, a must rule the target breaks', async () => {
  const rule = 'flags.mention-flags';
  assert.ok(FAULTS[rule] && (FAULTS[rule]!.alsoCaughtBy ?? []).length === 0);
  const report = await sideBySide({ faults: new Set([rule]) }, {}, 2, 'flags.*', (a, b) => runDifferential(a, b));
  assert.equal(report.differences.map((difference) => [difference.class, difference.rule, difference.side]), [['must', rule, 'target']]);
  const [difference] = report.differences;
  assert.ok(difference!.exchanges.target.length > 0 && difference!.exchanges.compare.length > 0, 'both servers\' exchanges');
});

test.run();
