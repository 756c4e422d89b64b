// Many runs, one server: runs at once against one reference give the verdicts each gives alone
// (all pass: the self-test shows that alone), shards merged equal a whole run, a killed run's
// lease lapses, and another client's change is named, never blamed on the server.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { targetProfile } from '../../reference/http/boot.js';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/http/server.js';
import { RULES } from '../rules.js';
import { CHECKS } from '../checks/index.js';
import { mergeReports } from '../report/merge.js';
import type { Report } from '../report/json.js';
import { Client } from '../run/client.js';
import { Cleanup } from '../run/cleanup.js';
import { claimContent, claimsIn, holderOf, Lease, releaseEveryClaim } from '../run/lease.js';
import { skippedByDesign } from '../run/harness.js';
import { shardOf } from '../run/shard.js';
import { runSuite, type SuiteOptions } from '../suite.js';
import { proxy, reply } from './helpers.js';

const notPassing = (report: Report) => report.rules.filter((rule) => rule.status !== 'pass' && !skippedByDesign(rule)).map((rule) => `${rule.id}: ${rule.status} ${rule.message.slice(0, 400)}`);

/** A run as a CI job makes it: against a --target, not an embedded reference, so it takes the lease. */
function runAgainst(reference: RunningReference, seed: number, extra: Partial<SuiteOptions> = {}, url = reference.url): Promise<Report> {
  return runSuite({
    target: url, credentials: targetProfile(reference.fixture, reference.url).users, embedded: false, seed, runs: 2, only: null, replayPath: null,
    decisions: false, rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true, ...extra,
  });
}

/** What a run must leave as it found it: defaults, fields, the users' settings and drafts, scheduled messages, live channels. */
function sharedState(reference: RunningReference): string {
  const { realm } = reference;
  const found = [...realm.users.values()].filter((user) => reference.fixture.users.some((fixed) => fixed.email === user.email));
  return JSON.stringify({
    defaults: realm.userSettingsDefaults,
    settings: found.map((user) => [user.email, user.settings]),
    fields: [...realm.profileFields.values()],
    drafts: found.map((user) => [...user.drafts.values()]),
    scheduled: [...realm.scheduledMessages.values()].filter((scheduled) => !scheduled.delivered),
    channels: [...realm.channels.values()].filter((channel) => !channel.isArchived).map((channel) => channel.name),
  });
}

async function withReference<T>(options: ReferenceOptions, run: (reference: RunningReference) => Promise<T>): Promise<T> {
  const reference = await startReference({ port: 0, maxEmojiFileSizeMib: 1, ...options });
  try {
    return await run(reference);
  } finally {
    await reference.close();
  }
}

for (const dialect of ['zulip', 'alternate'] as const) {
  test(`two runs at once against one server, ${dialect} dialect: every rule as alone, nothing left behind, the lease taken in turn`, async () => {
    await withReference({ dialect }, async (reference) => {
      const before = sharedState(reference);
      const decisions = dialect === 'zulip';
      const [a, b] = await Promise.all([runAgainst(reference, 101, { decisions }), runAgainst(reference, 202, { decisions })]);
      assert.equal(notPassing(a), []);
      assert.equal(notPassing(b), []);
      assert.equal([...a.cleanup.problems, ...b.cleanup.problems], []);
      assert.is(sharedState(reference), before);
      // The rules of shared state ran in turn: the two runs held the lease at times that do not overlap.
      const held = [a, b].map((report) => report.lease?.held).map((span) => [Date.parse(span!.from), Date.parse(span!.until!)] as const).sort((x, y) => x[0] - y[0]);
      assert.ok(held.every(([from, until]) => from <= until) && held[0]![1] <= held[1]![0], JSON.stringify([a.lease, b.lease]));
    });
  });
}

test('three shards at once, merged, are one whole run: every rule once, as a whole run judges it', async () => {
  await withReference({}, async (reference) => {
    const shards = await Promise.all([1, 2, 3].map((index) => runAgainst(reference, 7, { shard: { index, total: 3 } })));
    const merged = mergeReports(shards, ['1.json', '2.json', '3.json']);
    assert.equal(merged.rules.map((rule) => rule.id), RULES.map((rule) => rule.id));
    assert.equal(notPassing(merged), []);
    assert.equal(merged.merged_from!.map((shard) => shard.index), [1, 2, 3]);
    assert.is(merged.requests, shards.reduce((sum, shard) => sum + shard.requests, 0));
    assert.is(merged.summary.pass + merged.summary.skip, RULES.length);
  });
});

test('two shards at once against a server that numbers drafts and messages from one range (the alternate dialect): a whole run\'s verdicts at every seed', async () => {
  for (const seed of [1]) {
    await withReference({ dialect: 'alternate' }, async (reference) => {
      const shards = await Promise.all([1, 2].map((index) => runAgainst(reference, seed, { shard: { index, total: 2 } })));
      const merged = mergeReports(shards, ['1.json', '2.json']);
      assert.equal(notPassing(merged), [], `seed ${seed}`);
      assert.equal(merged.rules.map((rule) => rule.id), RULES.map((rule) => rule.id));
    });
  }
});

test('a split into shards is deterministic, covers every check once, and keeps the rules of shared state together', () => {
  for (const total of [1, 2, 3, 5, 200]) {
    const parts = Array.from({ length: total }, (_, at) => shardOf(CHECKS, { index: at + 1, total }));
    assert.equal(parts.flat().map((check) => check.rule).sort(), CHECKS.map((check) => check.rule).sort(), `${total} shards`);
    assert.equal(parts.map((part) => part.map((check) => check.rule)), Array.from({ length: total }, (_, at) => shardOf(CHECKS, { index: at + 1, total }).map((check) => check.rule)));
    assert.is(parts.filter((part) => part.some((check) => check.shares.length > 0)).length, 1, `${total} shards: the rules of shared state in one`);
  }
  // Balanced: with three shards, none has more than half of all the checks.
  const three = [1, 2, 3].map((index) => shardOf(CHECKS, { index, total: 3 }).length);
  assert.ok(Math.max(...three) < CHECKS.length / 2, JSON.stringify(three));
});

test('merging refuses reports of another run, a shard twice, or a shard missing', async () => {
  await withReference({}, async (reference) => {
    const [one, two] = await Promise.all([1, 2].map((index) => runAgainst(reference, 3, { only: 'typing.*', shard: { index, total: 2 } })));
    const other = await runAgainst(reference, 4, { only: 'typing.*', shard: { index: 2, total: 2 } });
    assert.throws(() => mergeReports([one!, other], ['1.json', 'x.json']), /x\.json is of another run than 1\.json: its seed is 4, not 3/);
    assert.throws(() => mergeReports([one!, one!], ['1.json', 'again.json']), /both shard 1\/2/);
    assert.throws(() => mergeReports([one!], ['1.json']), /shards? 2\/2 missing/);
    assert.equal(mergeReports([two!, one!], ['2.json', '1.json']).rules.map((rule) => rule.id), ['typing.only-to-receivers', 'typing.reaches-receivers', 'typing.event-shape']);
  });
});

test('the lease: the earliest live claim holds it, a tie goes to the smaller token, and a claim that is not renewed lapses', () => {
  const claim = (id: number, run: string, since: number) => ({ id, run, ttl: 60, since, timestamp: since });
  const claims = [claim(1, 'tcc-b', 100), claim(2, 'tcc-a', 100), claim(3, 'tcc-c', 99)];
  assert.is(holderOf(claims, () => true)?.run, 'tcc-c');
  assert.is(holderOf(claims, (each) => each.run !== 'tcc-c')?.run, 'tcc-a');
  assert.is(holderOf([], () => true), null);
  const drafts = [{ id: 7, content: claimContent('tcc-x', 30, 1234), timestamp: 2000 }, { id: 8, content: 'tcc-x was here', timestamp: 1 }];
  assert.equal(claimsIn(drafts), [{ id: 7, run: 'tcc-x', ttl: 30, since: 1234, timestamp: 2000 }]);
});

test('a run killed while it held the lease blocks the next one only until its claim lapses, and --sweep-only releases every claim', async () => {
  await withReference({}, async (reference) => {
    const users = targetProfile(reference.fixture, reference.url).users;
    const client = new Client(reference.url, users, { rate: 0, timeoutMs: 5000 });
    try {
      // What a killed run leaves: its claim, never renewed again.
      const dead = await client.call('admin', 'POST', '/drafts', { drafts: [{ type: '', to: [], topic: '', content: claimContent('tcc-deadbeef', 3, 1) }] });
      assert.is(dead.body.result, 'success');
      const waits: string[] = [];
      const report = await runAgainst(reference, 5, { only: 'defaults.values-stored', onWait: (text) => waits.push(text) });
      assert.equal(notPassing(report), []);
      assert.equal(report.lease!.waited_for, ['tcc-deadbeef']);
      // The lease was taken once the dead claim lapsed, not given up when the run's wait ran out (no
      // wall-clock margin: on a loaded machine the lapse may come late, never the lease's own limit).
      assert.is(report.lease!.note, null, `the lease was taken: ${report.lease!.note}`);
      // The wait is reported as waited: the dead claim lapsed three seconds after the run first saw it.
      assert.ok(report.lease!.waited_s >= 1, `waited_s ${report.lease!.waited_s}`);
      assert.ok(waits.some((text) => /waiting for the server's lease, held by run tcc-deadbeef/.test(text)), waits.join('\n'));

      // --sweep-only releases every claim, a dead run's too.
      assert.is(await releaseEveryClaim(client), 1);

      // Another run that waits longer than it may: its rules of shared state end in error, never fail.
      const holder = new Lease(client, 'tcc-holding1', new Cleanup(client), { ttl: 30, wait: 30 });
      await holder.claim();
      assert.is(await holder.acquire(), null);
      const blocked = await runAgainst(reference, 6, { only: 'fields.create-returns-id', lease: { wait: 1 } });
      assert.is(blocked.rules[0]!.status, 'error', blocked.rules[0]!.message);
      assert.match(blocked.rules[0]!.message, /another run \(tcc-holding1\) held the server's lease for \d+ s/);
      await holder.release();
      const left = await client.call('admin', 'GET', '/drafts');
      assert.equal(claimsIn(left.body.drafts), [], 'every claim released');
    } finally {
      await client.close();
    }
  });
});

test('another client changing a default during a check: the rule ends in error naming the change, not in fail', async () => {
  await withReference({}, async (reference) => {
    const users = targetProfile(reference.fixture, reference.url).users;
    const person = new Client(reference.url, users, { rate: 0, timeoutMs: 5000 });
    let changed = false;
    // A person who, once the run has changed some defaults, changes another one of their own.
    const server = await proxy(reference.url, async (req, res, forward, body) => {
      const answer = await forward();
      if (!changed && req.method === 'PATCH' && req.url === '/api/v1/realm/user_settings_defaults' && answer.status === 200 && !new URLSearchParams(body).has('starred_message_counts')) {
        changed = true;
        const current = reference.realm.userSettingsDefaults.starred_message_counts;
        await person.call('admin', 'PATCH', '/realm/user_settings_defaults', { starred_message_counts: !current });
      }
      reply(res, answer);
    });
    try {
      const report = await runAgainst(reference, 8, { only: 'defaults.updates-follow-model', runs: 10 }, server.url);
      const [rule] = report.rules;
      assert.ok(changed, 'the person changed a default');
      assert.is(rule!.status, 'error', `${rule!.status}: ${rule!.message}`);
      assert.match(rule!.message, /another client changed the state every client shares .*the organization's default starred_message_counts became (true|false), which this run did not set/);
      assert.ok(rule!.interference!.length > 0);
    } finally {
      await server.close();
      await person.close();
    }
  });
});

test('a server that keeps a value the run did not send fails the rule, through --target with the lease and its witness: never an error', async () => {
  for (const fault of ['defaults.values-stored', 'fields.field-type-values']) {
    await withReference({ faults: new Set([fault]) }, async (reference) => {
      const report = await runAgainst(reference, 4, { only: `${fault.split('.')[0]}.*` });
      const rule = report.rules.find((each) => each.id === fault)!;
      assert.is(rule.status, 'fail', `${fault}: ${rule.status} ${rule.message}`);
      assert.is(rule.interference, undefined);
    });
  }
});

test.run();
