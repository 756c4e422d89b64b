// Two servers side by side (--compare), checked with what the project has: the reference against
// itself differs in nothing, at several seeds; against the reference in the alternate dialect it
// differs in every open point the two decide differently, each a decision, and in nothing else;
// against itself with one seeded fault, in exactly that rule.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { differencesText, differentialExitCode, runDifferential, type DifferentialReport } from '../differential.js';
import { html } from '../report/html.js';
import fc from 'fast-check';
import { commonPairs, comparisonWork, pairSequences } from '../report/compare.js';
import type { Exchange } from '../run/client.js';
import { RULES } from '../rules.js';
import { FAULTS } from '../../reference/faults/faults.js';
import { targetProfile } from '../../reference/http/boot.js';
import { startReference, type ReferenceOptions } from '../../reference/http/server.js';
import type { SuiteOptions } from '../suite.js';

/**
 * Two references, and the options that check each with one seed: smoke-sized so that several fit
 * in a test, or a whole default run (`whole`), each by URL as a user's servers are.
 */
async function sideBySide<T>(target: ReferenceOptions, compare: ReferenceOptions, seed: number, only: string | null, use: (a: SuiteOptions, b: SuiteOptions) => Promise<T>, embedded = true, whole = false): Promise<T> {
  const [one, two] = await Promise.all([startReference({ port: 0, ...target }), startReference({ port: 0, ...compare })]);
  const options = (reference: typeof one): SuiteOptions => ({
    target: reference.url, credentials: targetProfile(reference.fixture, reference.url).users, embedded: embedded && !whole, seed, runs: whole ? 15 : 1, smoke: !whole, only,
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

test('two runs\' steps are paired as a longest common subsequence of their requests, in order, like with like', () => {
  const lcs = (a: string[], b: string[]) => {
    const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    return lengths[0]![0]!;
  };
  const keys = fc.array(fc.constantFrom('GET /drafts', 'POST /drafts', 'DELETE /drafts/{id}', 'GET /events'), { maxLength: 40 });
  fc.assert(fc.property(keys, keys, (a, b) => {
    const pairs = commonPairs(a, b);
    assert.is(pairs.length, lcs(a, b));
    pairs.forEach(([x, y], index) => {
      assert.is(a[x], b[y]);
      if (index > 0) assert.ok(x > pairs[index - 1]![0] && y > pairs[index - 1]![1]);
    });
  }), { seed: 1, numRuns: 300 });
  // Two runs of one seed that part in a step or two pair in proportion to their length.
  const long = Array.from({ length: 20_000 }, (_, index) => `GET /r/${index % 7}`);
  const other = [...long.slice(0, 9_000), 'POST /x', ...long.slice(9_000, 15_000), ...long.slice(15_001)];
  assert.is(commonPairs(long, other).length, long.length - 1);
});

test('an ID is read as an ID however large: a scheduled message numbered in the range of Unix times is not a time', () => {
  const remove = (id: number, status: number): Exchange => ({ as: 'member', method: 'DELETE', url: `http://a/api/v1/scheduled_messages/${id}`, form: [], status, body: status === 200 ? { result: 'success', msg: '' } : { result: 'error', msg: 'no', code: 'BAD_REQUEST' } });
  const create = (id: number): Exchange => ({ as: 'member', method: 'POST', url: 'http://a/api/v1/scheduled_messages', form: [['type', 'direct'], ['to', '[2]'], ['content', 'x']], status: 200, body: { result: 'success', msg: '', scheduled_message_id: id } });
  const missing = 1_987_654_321;
  // The same story on both sides: one made, deleted, deleted again, and an ID never made deleted.
  const steps = pairSequences([create(7), remove(7, 200), remove(7, 400), remove(missing, 400)], [create(1_597_759_619), remove(1_597_759_619, 200), remove(1_597_759_619, 400), remove(missing, 400)]);
  assert.equal(steps.map((step) => step.differences), [[], [], [], []]);
  // Deleting another ID than the one made is a difference, though both are in the range of times.
  const wrong = pairSequences([create(1_600_000_001), remove(1_600_000_001, 200)], [create(1_700_000_001), remove(1_700_000_002, 200)]);
  assert.ok(wrong[1]!.differences.some((difference) => difference.at === 'request'), JSON.stringify(wrong));
  // A direct message's `to` names users: user 2 is user 2, whatever channel 2 of the other side stands for.
  const channelAnswer = (id: number): Exchange => ({ as: 'member', method: 'GET', url: 'http://a/api/v1/users/me/subscriptions', form: [], status: 200, body: { result: 'success', msg: '', subscriptions: [{ stream_id: id, name: 'general' }] } });
  assert.equal(pairSequences([channelAnswer(2), create(5)], [channelAnswer(20), create(6)]).map((step) => step.differences), [[], []]);
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

// A whole default run of both, by URL, as a user's first try: it ends, everything is classified,
// and the comparison's work is in proportion to the exchanges (each counted, not timed).
let whole: Promise<DifferentialReport & { work: typeof comparisonWork }> | null = null;
const wholeRun = () => (whole ??= (async () => {
  const before = { ...comparisonWork };
  const report = await sideBySide({}, { dialect: 'alternate' }, 1, null, (a, b) => runDifferential(a, b), false, true);
  return { ...report, work: { compared: comparisonWork.compared - before.compared, aligned: comparisonWork.aligned - before.aligned, alignmentSteps: comparisonWork.alignmentSteps - before.alignmentSteps } };
})());

test('a whole default run by URL, Zulip\'s dialect against the alternate: every open point they decide differently is a decision difference, nothing is unclassified, and comparing costs in proportion to the exchanges', async () => {
  const report = await wholeRun();
  assert.is(report.runs, 15);
  assert.not.ok(report.smoke);
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
  // The work of comparing: every exchange of both runs (the target's second run included) compared
  // a few times over (twice to learn the IDs, once for the fields), and aligned once, in steps of the same order.
  const exchanges = report.requests + report.compare.requests + (report.noise.requests ?? 0);
  assert.ok(exchanges > 20_000, `${exchanges} exchanges: a whole run of each`);
  assert.ok(report.work.compared <= 3 * exchanges, `${report.work.compared} exchanges compared, for ${exchanges}`);
  assert.ok(report.work.aligned + report.work.alignmentSteps <= 4 * exchanges, `${report.work.aligned} aligned in ${report.work.alignmentSteps} steps, for ${exchanges}`);
});

test('a difference\'s class is the catalog\'s, whatever the selection: with --only drafts.* the refusals general.error-statuses governs are decisions, as in a whole run', async () => {
  const all = await wholeRun();
  const part = await sideBySide({}, { dialect: 'alternate' }, 1, 'drafts.*', (a, b) => runDifferential(a, b), false, true);
  assert.equal(part.differences.filter((difference) => difference.class === 'unclassified').map((difference) => `${difference.rule}: ${difference.target}`), []);
  // The class of each rule's difference where both runs show one. Whether a rule's exchanges differ
  // at all may follow from the run's history (the alternate dialect's draft IDs, and so the order
  // of a listing, depend on how many drafts were made before); its class may not.
  const classes = (report: DifferentialReport) => new Map(report.differences.filter((difference) => difference.rule?.startsWith('drafts.')).map((difference) => [difference.rule, difference.class]));
  const [ofPart, ofWhole] = [classes(part), classes(all)];
  const both = [...ofPart.keys()].filter((rule) => ofWhole.has(rule));
  assert.ok(both.length >= 10, `${both.length} drafts rules differ in both runs`);
  assert.equal(both.map((rule) => `${rule} ${ofPart.get(rule)}`), both.map((rule) => `${rule} ${ofWhole.get(rule)}`));
  // The decisions consulted are in the report, marked so.
  assert.ok(part.rules.some((rule) => rule.id === 'general.error-statuses' && rule.consulted), 'general.error-statuses was consulted');
});

test('a must difference the expectations file lists is named as listed, with its entry, and fails nothing', async () => {
  const rule = 'flags.wildcard-mention-flags';
  const why = 'this server is known to leave channel wildcard mentions unflagged';
  const report = await sideBySide({ faults: new Set([rule]) }, {}, 2, 'flags.wildcard-mention-flags', (a, b) => runDifferential({ ...a, expectations: { expected_failures: { [rule]: why } } }, b));
  assert.equal(report.differences.map((difference) => [difference.class, difference.rule, difference.side, difference.expected]), [['must', rule, 'target', why]]);
  assert.is(differentialExitCode(report), 0);
  assert.match(differencesText(report), /flags\.wildcard-mention-flags: broken by the target, as its expectations file lists: this server is known/);
});

test('the reference against itself with one seeded fault: exactly that rule, a must rule the target breaks', async () => {
  // A fault that changes only what its rule sends: channel wildcard mentions, which no other flags rule writes.
  const rule = 'flags.wildcard-mention-flags';
  assert.ok(FAULTS[rule] && (FAULTS[rule]!.alsoCaughtBy ?? []).length === 0);
  const report = await sideBySide({ faults: new Set([rule]) }, {}, 2, 'flags.*', (a, b) => runDifferential(a, b));
  assert.equal(report.differences.map((difference) => [difference.class, difference.rule, difference.side]), [['must', rule, 'target']]);
  const [difference] = report.differences;
  assert.ok(difference!.exchanges.target.length > 0 && difference!.exchanges.compare.length > 0, 'both servers\' exchanges');
});

test.run();
