// The suite tests itself: it passes against the reference at every boundary feature level, in
// Zulip's dialect with the decisions and in the alternate dialect without them (so that no
// must check leans on a choice the spec leaves open), and it fails the right rule for every
// seeded fault, in both dialects. Six test files register a part each, so that npm test runs
// them side by side.

import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FAULTS, POWER_FAULTS, selectionOf } from '../../reference/faults/faults.js';
import { readFixture, targetProfile } from '../../reference/http/boot.js';
import { FLAG_BITS } from '../../reference/model/model.js';
import { BOUNDARY_LEVELS, MIN_FEATURE_LEVEL } from '../../reference/model/levels.js';
import { RULES } from '../rules.js';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/http/server.js';
import { CHECKS } from '../checks/index.js';
import { namedByModel } from '../checks/organization.js';
import { skippedByDesign } from '../run/harness.js';
import type { Report } from '../report/json.js';
import { runSuite, type Expectations, type SuiteOptions } from '../suite.js';

async function suiteAgainstReference(options: ReferenceOptions, runs: number, only: string | null = null, suite: Partial<SuiteOptions> = {}, prepare?: (reference: RunningReference) => void): Promise<Report> {
  // A small emoji limit: the size checks upload the limit and a byte more.
  const reference = await startReference({ port: 0, maxEmojiFileSizeMib: 1, ...options });
  prepare?.(reference);
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    return await runSuite({
      target: reference.url, credentials: profile.users, embedded: true, seed: 20261122, runs, only, replayPath: null,
      // The decisions are Zulip's: checked against Zulip's dialect only.
      decisions: options.dialect !== 'alternate', rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
      ...suite,
    });
  } finally {
    await reference.close();
  }
}

const fixture = readFixture();

/** The feature levels of the real Zulip servers the suite has been run against. */
const EXAMINED_LEVELS = [218, 384];

/** A rule that does not apply at the target's level, or a decision not asked for, is skipped; nothing else may be. */
const notPassing = (report: Report) => report.rules.filter((rule) => rule.status !== 'pass' && !skippedByDesign(rule)).map((rule) => `${rule.id}: ${rule.status} ${rule.message}`);


export type SelfTestPart = 'catalog' | 'levels-zulip-low' | 'levels-zulip-high' | 'levels-alternate' | 'faults-zulip' | 'faults-alternate' | 'real-time';

/** Registers one part of the self-test with uvu. */
export function selfTests(part: SelfTestPart): void {
  if (part === 'catalog') {
    test('every rule of the catalog has exactly one check, and every check a rule', () => {
      const checked = CHECKS.map((check) => check.rule);
      assert.equal([...checked].sort(), RULES.map((rule) => rule.id).sort());
    });

    test('the expectation files name only rules of the catalog, each with a reason (and levels, if any, that the suite checks)', () => {
      const directory = new URL('../../../fixtures/expectations/', import.meta.url);
      for (const name of readdirSync(directory)) {
        const { expected_failures } = JSON.parse(readFileSync(new URL(name, directory), 'utf8')) as Expectations;
        for (const [id, entry] of Object.entries(expected_failures)) {
          assert.ok(RULES.some((rule) => rule.id === id), `${name} names ${id}, which is not in the catalog`);
          const reason = typeof entry === 'string' ? entry : entry.why;
          assert.ok(reason.length > 20, `${name}: ${id} needs a reason`);
          if (typeof entry === 'object' && entry.levels) assert.ok(entry.levels.every((level) => level === undefined || level >= MIN_FEATURE_LEVEL), `${name}: ${id} has levels ${entry.levels}`);
        }
      }
    });

    test('every rule has a seeded fault named after it', () => {
      const missing = RULES.map((rule) => rule.id).filter((id) => !(id in FAULTS));
      assert.equal(missing, []);
    });

    test('time is the API\'s: with the reference clock a day ahead of a Date header that keeps the machine\'s time, every must rule passes; drafts stamped with the machine\'s time fail', async () => {
      // The alternate dialect's Date header tells the machine's time, wherever the clock is.
      const ahead = (reference: RunningReference) => reference.realm.clock.advance(86_400);
      const report = await suiteAgainstReference({ dialect: 'alternate' }, 2, null, {}, ahead);
      assert.equal(notPassing(report), []);
      const stamped = await suiteAgainstReference({ dialect: 'alternate', faults: new Set(['drafts.timestamp-filled-when-absent:machine-time']) }, 2, 'drafts.timestamp-filled-when-absent');
      assert.is(stamped.rules[0]!.status, 'fail', stamped.rules[0]!.message);
      assert.match(stamped.rules[0]!.message, /is not the time of creation, which the target's own time puts between/);
    });

    for (const dialect of ['zulip', 'alternate'] as const) {
      test(`a whole run leaves the organization as it found it, ${dialect} dialect`, async () => {
        const reference = await startReference({ port: 0, dialect });
        try {
          const { realm } = reference;
          // The users the run may create cannot be deleted: the users it found are compared.
          const found = [...realm.users.values()];
          const snapshot = () => JSON.stringify({
            defaults: realm.userSettingsDefaults,
            settings: found.map((user) => [user.email, user.settings]),
            fields: [...realm.profileFields.values()],
            drafts: found.map((user) => [...user.drafts.values()]),
            scheduled: [...realm.scheduledMessages.values()].filter((scheduled) => !scheduled.delivered),
            channels: [...realm.channels.values()].filter((channel) => !channel.isArchived).map((channel) => [channel.name, [...channel.subscribers]]),
          });
          const before = snapshot();
          const firstMessage = realm.lastMessageId();
          const profile = targetProfile(reference.fixture, reference.url);
          const report = await runSuite({
            target: reference.url, credentials: profile.users, embedded: true, seed: 5, runs: 3, only: null, replayPath: null,
            decisions: dialect === 'zulip', rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
          });
          assert.equal(report.cleanup.problems, []);
          assert.is(snapshot(), before);
          // The run's messages stay, but the profile's users find them read, not starred, not collapsed.
          const profileUsers = [fixture.profile.admin, fixture.profile.member, fixture.profile.other].map((email) => realm.usersByEmail.get(email)!);
          const runMessages = [...realm.messages.values()].filter((message) => message.id > firstMessage);
          assert.ok(runMessages.length > 0, 'the run sent messages');
          const changed = runMessages.flatMap((message) => profileUsers
            .filter((user) => message.userFlags.has(user.id) && (message.userFlags.get(user.id)! & (FLAG_BITS.starred | FLAG_BITS.collapsed | FLAG_BITS.read)) !== FLAG_BITS.read)
            .map((user) => `${user.email} on message ${message.id}: ${message.userFlags.get(user.id)}`));
          assert.equal(changed, []);
        } finally {
          await reference.close();
        }
      });

    }

  }
  if (part.startsWith('levels-')) {
    const dialect = part === 'levels-alternate' ? 'alternate' : 'zulip';
    // Each behaviour's edges, and the levels of the real Zulip servers the suite was run against
    // (218 and 384: the expectations file's), where a false failure would be seen first. Zulip's
    // dialect, which checks the decisions too, takes them in two files, so that they run at once.
    const levels = [...new Set([...BOUNDARY_LEVELS, ...EXAMINED_LEVELS])].sort((a, b) => a - b);
    const half = Math.ceil(levels.length / 2);
    const mine = part === 'levels-zulip-low' ? levels.slice(0, half) : part === 'levels-zulip-high' ? levels.slice(half) : levels;
    for (const level of mine) {
      test(`the suite passes against the reference at feature level ${level}, ${dialect} dialect, the organization model holding its rules`, async () => {
        // As a smoke run: every rule's boundary cases (random cases at every level are the sweep's),
        // the organization model's smoke form among them, which holds the boundaries of the rules it
        // names: their verdict is its own, and their own checks make no request.
        const report = await suiteAgainstReference({ featureLevel: level, dialect }, 1, null, { smoke: true });
        assert.equal(notPassing(report), []);
        assert.is(report.rules.find((rule) => rule.id === 'organization.model')?.status, 'pass');
        const held = report.rules.filter((rule) => rule.message.startsWith('held by organization.model'));
        assert.ok(held.length > 0, 'no rule held by the organization model');
        assert.ok(held.every((rule) => rule.status === 'pass' && rule.requests === 0), JSON.stringify(held.filter((rule) => rule.requests > 0)));
        // The must rules' budget (Zulip's dialect runs the decisions too, whose requests come on top).
        if (dialect === 'alternate') assert.ok(report.requests <= 1200, `${report.requests} requests in a smoke run`);
        assert.is(report.feature_level, level);
        assert.ok(report.summary.pass > 0);
      });
    }
  }
  if (part === 'faults-zulip') {
    test('a failure of the model proves broken only the rules a prediction came from alone: one that came from several is left to their own checks', () => {
      const message = (tail: string) => `after a step: message 7 lacks starred; another message's flags are wrong (the model's prediction comes from ${tail})`;
      assert.equal(namedByModel(message('flags.add-sets-flag, flags.wildcard-mention-flags, flags.wildcard-mentioned-before-224; broken alone: flags.add-sets-flag')), ['flags.add-sets-flag']);
      assert.equal(namedByModel(message('flags.wildcard-mention-flags, flags.wildcard-mentioned-before-224')), []);
      assert.equal(namedByModel('a failure of another kind'), []);
    });

    test('in a smoke run, a fault the organization model proves fails the rule a prediction came from alone, and the rules it held run their own checks', async () => {
      const report = await suiteAgainstReference({ faults: new Set(['flags.response-lists-only-modified']) }, 1, 'organization.model,flags.*', { smoke: true });
      const byId = new Map(report.rules.map((result) => [result.id as string, result]));
      assert.is(byId.get('organization.model')?.status, 'fail');
      const named = byId.get('flags.response-lists-only-modified')!;
      assert.is(named.status, 'fail', named.message);
      assert.match(named.message, /^organization\.model's smoke steps found it broken: /);
      assert.ok(named.counterexample && named.counterexample.requests.length > 0, 'the model\'s counterexample');
      // Not named by the failure: their own checks ran, and they pass.
      for (const id of ['flags.mention-flags', 'flags.add-sets-flag']) {
        const own = byId.get(id)!;
        assert.is(own.status, 'pass', `${id}: ${own.message}`);
        assert.ok(own.requests > 0 && !own.message.startsWith('held by'), `${id}: ${own.requests} ${own.message}`);
      }
      assert.ok(report.requests <= 1200, `${report.requests} requests`);
    });

    test('in a smoke run, a failure of the model whose predictions each came from several rules fails none of them by itself: each one\'s own check says which is broken', async () => {
      // Add collapsed changes nothing: the model sees the flag missing and the answer leave out what it predicted modified.
      const report = await suiteAgainstReference({ faults: new Set(['flags.add-sets-flag']) }, 1, 'organization.model,flags.*', { smoke: true });
      const byId = new Map(report.rules.map((result) => [result.id as string, result]));
      assert.is(byId.get('organization.model')?.status, 'fail');
      assert.match(byId.get('organization.model')!.message, /prediction comes from .*flags\.response-lists-modified/);
      const broken = byId.get('flags.add-sets-flag')!;
      assert.is(broken.status, 'fail', broken.message);
      assert.not.match(broken.message, /^organization\.model/);
      // The answer listed what the server modified: the rule the model's prediction also came from keeps.
      const innocent = byId.get('flags.response-lists-modified')!;
      assert.is(innocent.status, 'pass', innocent.message);
      assert.ok(innocent.requests > 0, innocent.message);
    });
  }
  if (part === 'faults-zulip' || part === 'faults-alternate') {
    const dialect = part === 'faults-zulip' ? 'zulip' : 'alternate';
    // A decision is Zulip's choice, which the alternate dialect does not make: its faults are seeded in Zulip's dialect only.
    const severity = (id: string) => RULES.find((rule) => rule.id === id)!.severity;
    {
      for (const [rule, fault] of Object.entries(FAULTS)) {
        if (dialect === 'alternate' && severity(rule) === 'decision') continue;
        // A rule that needs a configuration only some dialects have (emoji.upload-access: a user left out of uploading).
        if (fault!.dialects && !fault!.dialects.includes(dialect)) continue;
        test(`the fault ${rule} (${fault!.does}) fails its rule and only the rules that observe it, ${dialect} dialect`, async () => {
          // A smoke run: the boundaries of each rule catch its fault, within the smoke budget.
          const report = await suiteAgainstReference({ faults: new Set([rule]), featureLevel: fault!.level, dialect }, 1, selectionOf(rule, fault!), { smoke: true });
          const byId = new Map(report.rules.map((result) => [result.id, result]));
          assert.is(byId.get(rule as never)?.status, 'fail', `${rule} was not caught: ${JSON.stringify(byId.get(rule as never))}`);
          const allowed = new Set<string>([rule, ...(fault!.alsoCaughtBy ?? [])]);
          const unexpected = report.rules.filter((result) => result.status !== 'pass' && !skippedByDesign(result) && !allowed.has(result.id));
          assert.equal(unexpected.map((result) => `${result.id}: ${result.status} ${result.message}`), []);
          const counterexample = byId.get(rule as never)!.counterexample;
          assert.ok(counterexample && counterexample.requests.length > 0, 'a failure carries the requests that show it');
          const text = JSON.stringify(report);
          for (const user of fixture.users) assert.not.ok(text.includes(user.api_key), 'no API key in the report');
        });
      }
    }
    // The power faults, in a default run with few random cases: the boundaries catch them, the
    // largest batch among them, which a smoke run leaves out.
    if (dialect === 'zulip') {
      for (const [name, fault] of Object.entries(POWER_FAULTS)) {
        test(`the power fault ${name} (${fault.does}) fails its rule and only the rules that observe it, in the catalog's order and shuffled`, async () => {
          for (const shuffle of [false, true]) {
            const report = await suiteAgainstReference({ faults: new Set([name]), featureLevel: fault.level }, 1, selectionOf(fault.rule, fault), { shuffle });
            const allowed = new Set<string>([fault.rule, ...(fault.alsoCaughtBy ?? [])]);
            assert.is(report.rules.find((result) => result.id === fault.rule)?.status, 'fail', `${name} was not caught${shuffle ? ' with the rules shuffled' : ''}`);
            const unexpected = report.rules.filter((result) => result.status !== 'pass' && !skippedByDesign(result) && !allowed.has(result.id));
            assert.equal(unexpected.map((result) => `${result.id}: ${result.status} ${result.message}`), []);
          }
        });
      }
    }
  }
  if (part === 'real-time') {
    // Deliveries on real time: the reference with its clock hidden behaves as a real server,
    // whose worker delivers what comes due. The run schedules them two seconds ahead.
    const deliveryRules = CHECKS.filter((check) => check.needs.includes('deliveries')).map((check) => check.rule);
    const lateRules = CHECKS.filter((check) => check.needs.includes('reference-clock')).map((check) => check.rule);
    const realTime = { deliveryWait: 2 };

    for (const dialect of ['zulip', 'alternate'] as const) {
      test(`on real time every delivery rule passes, and what needs a late delivery says it needs the reference clock, ${dialect} dialect`, async () => {
        let reference!: RunningReference;
        const report = await suiteAgainstReference({ dialect, hideClock: true }, 3, null, realTime, (started) => (reference = started));
        const byId = new Map(report.rules.map((result) => [result.id as string, result]));
        for (const id of deliveryRules) {
          const result = byId.get(id)!;
          if (!skippedByDesign(result)) assert.is(result.status, 'pass', `${id}: ${result.status} ${result.message}`);
        }
        for (const id of lateRules) {
          const result = byId.get(id)!;
          if (!skippedByDesign(result)) assert.match(result.message, /needs the reference clock/, id);
        }
        const others = report.rules.filter((result) => !lateRules.includes(result.id) && result.status !== 'pass' && !skippedByDesign(result));
        assert.equal(others.map((result) => `${result.id}: ${result.status} ${result.message}`), []);
        // Nothing of the run is left to be delivered.
        assert.equal([...reference.realm.scheduledMessages.values()].filter((scheduled) => !scheduled.delivered).map((scheduled) => scheduled.content), []);
        assert.is(reference.realm.reminders.size, 0);
      });
    }

    for (const rule of deliveryRules) {
      const fault = FAULTS[rule]!;
      test(`on real time the fault ${rule} (${fault.does}) fails its rule`, async () => {
        const report = await suiteAgainstReference({ faults: new Set([rule]), featureLevel: fault.level, hideClock: true }, 3, rule, realTime);
        const result = report.rules.find((candidate) => candidate.id === rule)!;
        assert.is(result.status, 'fail', `${rule}: ${result.status} ${result.message}`);
        assert.ok(result.counterexample!.requests.length > 0 && result.counterexample!.input !== null, 'the failure shows the case and its requests');
      });
    }

    test('a target whose worker does not deliver in time: the delivery rules skip, naming the wait, and nothing is left scheduled', async () => {
      let reference!: RunningReference;
      // A wait of a few seconds: under a loaded machine, a reminder asked for one second ahead may reach the target after its time.
      const report = await suiteAgainstReference({ hideClock: true }, 2, 'reminders.*', { deliveryWait: 3 }, (started) => {
        reference = started;
        started.realm.deliveryWorkers.length = 0;
      });
      const delivered = report.rules.find((result) => result.id === 'reminders.delivered-to-self')!;
      assert.is(delivered.status, 'skip', delivered.message);
      assert.match(delivered.message, /no scheduled message within 3 s .*--delivery-wait 3/);
      assert.equal([...reference.realm.scheduledMessages.values()].map((scheduled) => scheduled.content), []);
      assert.is(reference.realm.reminders.size, 0);
    });

    test('a smoke run checks deliveries on real time only with --deliveries, and --delivery-wait 0 checks none', async () => {
      const smoke = await suiteAgainstReference({ hideClock: true }, 1, 'reminders.note-delivered', { smoke: true, deliveryWait: 1 });
      assert.is(smoke.rules[0]!.status, 'skip');
      assert.match(smoke.rules[0]!.message, /only with --deliveries/);
      const asked = await suiteAgainstReference({ hideClock: true }, 1, 'reminders.note-delivered', { smoke: true, deliveries: true, deliveryWait: 2 });
      assert.is(asked.rules[0]!.status, 'pass', asked.rules[0]!.message);
      const none = await suiteAgainstReference({ hideClock: true }, 1, 'reminders.note-delivered', { deliveryWait: 0 });
      assert.match(none.rules[0]!.message, /--delivery-wait 0/);
    });
  }
}
