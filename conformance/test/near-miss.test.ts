// Identity, never resemblance: the run finds what it made by a token no other text contains, with
// its sender and conversation checked. Between the suite and a reference, a proxy plants
// near-miss texts beside everything the run sends or schedules, as other clients of a busy server
// would: the same text from another user in another conversation, and in the same conversation
// the run's tokens continued (`…-time3.` becomes `…-time30x`, the form of an older token that
// was the beginning of another). The verdicts must be those of the run without them.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { targetProfile } from '../../reference/http/boot.js';
import { startReference } from '../../reference/http/server.js';
import type { Dialect } from '../../reference/dialects/dialect.js';
import { runSuite } from '../suite.js';
import { proxy, reply } from './helpers.js';

type Users = ReturnType<typeof targetProfile>['users'];

/** The profile user a request's Basic credentials name, or null. */
function callerOf(authorization: string | undefined, users: Users): keyof Users | null {
  const decoded = Buffer.from(String(authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
  const role = (Object.keys(users) as Array<keyof Users>).find((name) => decoded === `${users[name].email}:${users[name].api_key}`);
  return role ?? null;
}

/** A run's token continued: the full stop after its number becomes more digits and a letter. */
const continued = (text: string) => text.replace(/(tcc[0-9a-f]{8}-[a-z-]+\d+)\./g, '$10x');

async function plantingProxy(target: string, users: Users, ids: Record<keyof Users, number>, planted: { count: number }) {
  const send = async (as: keyof Users, fields: Record<string, string>) => {
    const response = await fetch(`${target}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${users[as].email}:${users[as].api_key}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    if ((await response.json() as { result?: string }).result === 'success') planted.count++;
  };
  return proxy(target, async (req, res, forward, body) => {
    const answer = await forward();
    const path = (req.url ?? '').replace(/\?.*$/, '');
    const sender = callerOf(req.headers.authorization, users);
    if (req.method === 'POST' && ['/api/v1/messages', '/api/v1/scheduled_messages'].includes(path) && sender !== null && answer.status === 200) {
      const form = Object.fromEntries(new URLSearchParams(body));
      const content = form.content ?? '';
      const conversation: Record<string, string> = form.type === 'stream' || form.type === 'channel' ? { type: 'stream', to: form.to!, topic: form.topic ?? '' } : { type: 'private', to: form.to! };
      // In the same conversation, by the same sender: the run's tokens continued.
      if (/tcc[0-9a-f]{8}-/.test(content)) await send(sender, { ...conversation, content: `${continued(content)} (near miss)` });
      // The same text, from another user, to the sender directly: another conversation the sender sees.
      const planter = sender === 'other' ? 'admin' : 'other';
      if (content.trim() !== '') await send(planter, { type: 'private', to: JSON.stringify([ids[sender]]), content });
    }
    reply(res, answer);
  });
}

/**
 * One run against a fresh reference, with near misses planted or not. A plain run also counts the
 * messages the server holds after it beyond what it held before (no other client here).
 */
async function verdicts(dialect: Dialect, plant: boolean, seed: number, smoke: boolean) {
  const reference = await startReference({ port: 0, dialect });
  const users = targetProfile(reference.fixture, reference.url).users;
  const planted = { count: 0 };
  const ids = Object.fromEntries((Object.keys(users) as Array<keyof Users>).map((role) => [role, reference.realm.usersByEmail.get(users[role].email.toLowerCase())!.id])) as unknown as Record<keyof Users, number>;
  const planting = plant ? await plantingProxy(reference.url, users, ids, planted) : null;
  const held = () => [...reference.realm.messages.values()].length;
  const before = held();
  try {
    const report = await runSuite({
      target: planting?.url ?? reference.url, credentials: users, embedded: false, seed, runs: smoke ? 1 : 2, only: null, replayPath: null,
      decisions: true, rate: 0, timeoutMs: 5_000, eventWaitMs: 300, expectations: null, createUsers: true, smoke,
    });
    return { report, planted: planted.count, kept: held() - before };
  } finally {
    await planting?.close();
    await reference.close();
  }
}

// A default run in Zulip's dialect, a smoke run in the alternate one (whose cases are each rule's
// boundaries, where the run's texts are most alike).
for (const [dialect, seed, smoke] of [['zulip', 1, false], ['alternate', 2, true]] as const) {
  let plainRun: ReturnType<typeof verdicts> | null = null;
  const plain = () => (plainRun ??= verdicts(dialect, false, seed, smoke));
  const label = `${dialect} dialect${smoke ? ', --smoke' : ''}, --decisions, seed ${seed}`;

  test(`beside near-miss texts of other clients (equal texts, tokens continued) every verdict is the plain run's (${label})`, async () => {
    const alone = await plain();
    const planted = await verdicts(dialect, true, seed, smoke);
    console.log(`  ${planted.planted} near-miss messages planted beside the run's ${planted.report.requests} requests`);
    assert.ok(planted.planted > 50, `the proxy planted near misses: ${planted.planted}`);
    // The verdicts; where they differ, with the planted run's message (a failure's names message IDs, which the plants move).
    const plainStatus = new Map(alone.report.rules.map((rule) => [rule.id, rule.status]));
    const differing = planted.report.rules.filter((rule) => plainStatus.get(rule.id) !== rule.status).map((rule) => `${rule.id}: ${plainStatus.get(rule.id)} alone, ${rule.status} beside near misses (${rule.message.slice(0, 400)})`);
    assert.equal(differing, []);
    assert.equal(planted.report.rules.map((rule) => rule.id), alone.report.rules.map((rule) => rule.id));
  });

  // Every message the run causes is named: the report's count is what the server itself holds
  // beyond what it held when the run began, deliveries, reminders and the server's notices of
  // failed messages among them.
  test(`the report names as many messages as the run made the server keep (${label})`, async () => {
    const { report, kept } = await plain();
    const line = (report.cleanup.left ?? []).find((text) => / messages, sent or delivered by the run/.test(text));
    const named = Number(/^(\d+) /.exec(line ?? '')?.[1] ?? 0);
    assert.ok(kept > 0, 'the run made the server keep messages');
    assert.is(named, kept, `the report: ${line}`);
  });
}

test.run();
