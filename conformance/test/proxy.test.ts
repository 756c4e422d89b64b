// Safe on staging: between the suite and the reference, a proxy resets connections, answers 502
// and slows answers at a few percent. With --retries the verdict of every rule equals that of the
// direct run, and nothing the run created is left, as the API shows.

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { targetProfile } from '../../reference/http/boot.js';
import { startReference, type RunningReference } from '../../reference/http/server.js';
import type { Dialect } from '../../reference/dialects/dialect.js';
import { PREFIX_FORM } from '../run/sweep.js';
import { runSuite } from '../suite.js';

interface Faults {
  reset: number;
  badGateway: number;
  lostResponse: number;
  slow: number;
}

/** A proxy to `target` that injects faults at the given rates, from a seeded generator; `answer` may answer a request itself. */
async function faultyProxy(target: string, rates: Faults, seed: number, answer?: (method: string, url: string) => number | null): Promise<{ url: string; counts: Record<keyof Faults, number>; close(): Promise<void> }> {
  let state = seed;
  const random = () => ((state = (state * 48271) % 2147483647) / 2147483647);
  const counts = { reset: 0, badGateway: 0, lostResponse: 0, slow: 0 };
  const server: Server = createServer((req, res) => {
    const status = answer?.(req.method!, req.url!);
    if (status) {
      req.resume();
      return void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' }));
    }
    const draw = random();
    let at = rates.reset;
    if (draw < at) {
      counts.reset++;
      return void req.socket.destroy();
    }
    if (draw < (at += rates.badGateway)) {
      counts.badGateway++;
      req.resume();
      return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
    }
    const lose = draw < (at += rates.lostResponse);
    const slow = !lose && draw < at + rates.slow;
    if (lose) counts.lostResponse++;
    if (slow) counts.slow++;
    const forward = () => {
      const upstream = request(target + req.url, { method: req.method, headers: req.headers }, (answer) => {
        // The server did the work; the client never hears of it.
        if (lose) {
          answer.resume();
          return void answer.on('end', () => req.socket.destroy());
        }
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => req.socket.destroy());
      req.pipe(upstream);
    };
    if (slow) setTimeout(forward, 30);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, counts, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

/** Everything named with a suite prefix that the API still shows. */
async function leftovers(reference: RunningReference): Promise<string[]> {
  const left: string[] = [];
  const fixture = reference.fixture;
  for (const role of ['admin', 'member', 'other'] as const) {
    const user = fixture.users.find((candidate) => candidate.email === fixture.profile[role])!;
    const get = async (path: string) => (await fetch(`${reference.url}/api/v1${path}`, { headers: { authorization: 'Basic ' + Buffer.from(`${user.email}:${user.api_key}`).toString('base64') } })).json() as Promise<any>;
    for (const draft of (await get('/drafts')).drafts ?? []) if (PREFIX_FORM.test(draft.content)) left.push(`draft of ${role}: ${draft.content}`);
    for (const scheduled of (await get('/scheduled_messages')).scheduled_messages ?? []) if (PREFIX_FORM.test(scheduled.content)) left.push(`scheduled message of ${role}: ${scheduled.content}`);
    for (const subscription of (await get('/users/me/subscriptions')).subscriptions ?? []) if (PREFIX_FORM.test(subscription.name)) left.push(`channel ${subscription.name} (${role} subscribed)`);
    if (role === 'admin') for (const field of (await get('/realm/profile_fields')).custom_fields ?? []) if (PREFIX_FORM.test(field.name)) left.push(`profile field ${field.name}`);
  }
  return left;
}

async function verdicts(dialect: Dialect, decisions: boolean, through: Faults | null, { retries = 6, runs = 3, seed = 11 } = {}) {
  const reference = await startReference({ port: 0, dialect });
  const proxy = through ? await faultyProxy(reference.url, through, 7) : null;
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    const report = await runSuite({
      target: proxy?.url ?? reference.url, credentials: profile.users, embedded: false, seed, runs, only: null, replayPath: null,
      decisions, rate: 0, timeoutMs: 5_000, eventWaitMs: 300, expectations: null, createUsers: true, retries, backoffMs: 5,
    });
    return { report, counts: proxy?.counts, left: await leftovers(reference) };
  } finally {
    await proxy?.close();
    await reference.close();
  }
}

const FAULTS: Faults = { reset: 0.01, badGateway: 0.01, lostResponse: 0.005, slow: 0.02 };

for (const [dialect, decisions] of [['zulip', false], ['alternate', true]] as const) {
  test(`through a faulty proxy, the verdicts equal the direct run's and nothing is left (${dialect} dialect${decisions ? ', with --decisions' : ''})`, async () => {
    const direct = await verdicts(dialect, decisions, null);
    const faulty = await verdicts(dialect, decisions, FAULTS);
    const counts = faulty.counts!;
    assert.ok(counts.reset > 0 && counts.badGateway > 0 && counts.lostResponse > 0, `the proxy injected faults: ${JSON.stringify(counts)}`);
    assert.ok(faulty.report.transients > 0);
    const statuses = (report: typeof direct.report) => report.rules.map((rule) => `${rule.id}: ${rule.status}`);
    assert.equal(statuses(faulty.report), statuses(direct.report));
    assert.equal(faulty.left, []);
    assert.equal(direct.left, []);
  });
}

// Without --retries, so that only dropping a case and reading a model again keep a rule from error
// (with --retries 2 none differs; before cases were dropped, 16 of 90 did here). A check of one
// request has no other case to draw: when that request's answer is lost, its rule can only be an
// error, which names the request. Alone this run differs in 3 of 96; under the load of npm test
// the order of requests, and so which of them meet a fault, varies.
test('through a proxy that answers 502 to 1 request in 60 and resets 1 in 120, at least 92% of the must verdicts equal the direct run\'s, none pass against fail, each that differs an error naming the request a fault made unknowable', async () => {
  const options = { retries: 0, runs: 5, seed: 4 };
  const direct = await verdicts('zulip', false, null, options);
  const faulty = await verdicts('zulip', false, { reset: 1 / 120, badGateway: 1 / 60, lostResponse: 0, slow: 0 }, options);
  const must = (report: typeof direct.report) => new Map(report.rules.filter((rule) => rule.severity === 'must').map((rule) => [rule.id, rule]));
  const before = must(direct.report);
  const after = must(faulty.report);
  const differing = [...before].filter(([id, rule]) => after.get(id)!.status !== rule.status).map(([id, rule]) => `${id}: ${rule.status} directly, ${after.get(id)!.status} through the proxy (${after.get(id)!.message.slice(0, 200)})`);
  const opposite = differing.filter((line) => /pass directly, fail|fail directly, pass/.test(line));
  const dropped = faulty.report.rules.reduce((sum, rule) => sum + (rule.dropped ?? 0), 0);
  const resynced = faulty.report.rules.reduce((sum, rule) => sum + (rule.resynced ?? 0), 0);
  console.log(`  ${faulty.report.transients} transient faults met in ${faulty.report.requests} requests; ${dropped} cases dropped, ${resynced} models read again; ${differing.length} of ${before.size} must verdicts differ${differing.length ? `:\n    ${differing.join('\n    ')}` : ''}`);
  assert.equal(opposite, []);
  // The request may open the message, or close it where cases it made unknowable were dropped ("…; the last: POST /reminders: …").
  const unexplained = differing.filter((line) => !/error through the proxy \(.*\b(GET|POST|PATCH|DELETE|PUT) \/\S+: .*\)/.test(line));
  assert.equal(unexplained, []);
  assert.ok(differing.length <= before.size * 0.08, `${differing.length} of ${before.size} must verdicts differ`);
  assert.ok(faulty.report.transients > 20, 'the proxy injected faults');
  assert.equal(faulty.left, []);
});

test('a server error fails a rule only when a retry sees it again; once, it makes the rule flaky', async () => {
  const reference = await startReference({ port: 0 });
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    const outcome = async (times: number) => {
      let left = times;
      const proxy = await faultyProxy(reference.url, { reset: 0, badGateway: 0, lostResponse: 0, slow: 0 }, 1, (method, url) => (method === 'POST' && url === '/api/v1/drafts' && left-- > 0 ? 500 : null));
      try {
        const report = await runSuite({
          target: proxy.url, credentials: profile.users, embedded: false, seed: 3, runs: 2, only: 'drafts.create-returns-ids-in-order', replayPath: null,
          decisions: false, rate: 0, timeoutMs: 5_000, eventWaitMs: 300, expectations: null, backoffMs: 5,
        });
        return report.rules[0]!;
      } finally {
        await proxy.close();
      }
    };
    const once = await outcome(1);
    assert.equal([once.status, once.flaky], ['pass', true]);
    const always = await outcome(1000);
    assert.is(always.status, 'fail');
    assert.match(always.message, /server error 500[\s\S]*seen again on a retry/);
    assert.ok(always.counterexample!.requests.some((line) => line.includes('/api/v1/drafts')));
  } finally {
    await reference.close();
  }
});

test('the proxy itself forwards faithfully when it injects nothing', async () => {
  const quiet = await verdicts('zulip', false, { reset: 0, badGateway: 0, lostResponse: 0, slow: 0 });
  assert.is(quiet.report.summary.fail + quiet.report.summary.error, 0);
  assert.is(quiet.report.transients, 0);
});

test.run();
