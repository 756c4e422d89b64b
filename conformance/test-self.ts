// The suite tests itself: it passes against the reference at every boundary feature level, in
// Zulip's dialect with the decisions and in the alternate dialect without them (so that no
// must check leans on a choice the spec leaves open), and it fails the right rule for every
// seeded fault, in both dialects. Four test files register a part each, so that npm test runs
// them side by side.

import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FAULTS } from '../reference/faults.js';
import { readFixture, targetProfile } from '../reference/fixture.js';
import { FLAG_BITS } from '../reference/model.js';
import { BOUNDARY_LEVELS, MIN_FEATURE_LEVEL } from '../reference/levels.js';
import { RULES } from './rules.js';
import { startReference, type ReferenceOptions } from '../reference/server.js';
import { CHECKS } from './checks.js';
import { skippedByDesign } from './harness.js';
import type { Report } from './report.js';
import { runSuite, type Expectations } from './suite.js';

async function suiteAgainstReference(options: ReferenceOptions, runs: number, only: string | null = null): Promise<Report> {
  // A small emoji limit: the size checks upload the limit and a byte more.
  const reference = await startReference({ port: 0, maxEmojiFileSizeMib: 1, ...options });
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    return await runSuite({
      target: reference.url, credentials: profile.users, embedded: true, seed: 20261122, runs, only, replayPath: null,
      // The decisions are Zulip's: checked against Zulip's dialect only.
      decisions: options.dialect !== 'alternate', rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
    });
  } finally {
    await reference.close();
  }
}

const fixture = readFixture();

/** A rule that does not apply at the target's level, or a decision not asked for, is skipped; nothing else may be. */
const notPassing = (report: Report) => report.rules.filter((rule) => rule.status !== 'pass' && !skippedByDesign(rule)).map((rule) => `${rule.id}: ${rule.status} ${rule.message}`);


export type SelfTestPart = 'catalog' | 'levels' | 'faults-zulip' | 'faults-alternate';

/** Registers one part of the self-test with uvu. */
export function selfTests(part: SelfTestPart): void {
  if (part === 'catalog') {
    test('every rule of the catalog has exactly one check, and every check a rule', () => {
      const checked = CHECKS.map((check) => check.rule);
      assert.equal([...checked].sort(), RULES.map((rule) => rule.id).sort());
    });

    test('the expectation files name only rules of the catalog, each with a reason (and levels, if any, that the suite checks)', () => {
      const directory = new URL('../../fixtures/expectations/', import.meta.url);
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
  if (part === 'levels') {
    for (const dialect of ['zulip', 'alternate'] as const) {
      for (const level of BOUNDARY_LEVELS) {
        test(`the suite passes against the reference at feature level ${level}, ${dialect} dialect`, async () => {
          const report = await suiteAgainstReference({ featureLevel: level, dialect }, 3);
          assert.equal(notPassing(report), []);
          assert.is(report.feature_level, level);
          assert.ok(report.summary.pass > 0);
        });
      }
    }


  }
  if (part === 'faults-zulip' || part === 'faults-alternate') {
    const dialect = part === 'faults-zulip' ? 'zulip' : 'alternate';
    // A decision is Zulip's choice, which the alternate dialect does not make: its faults are seeded in Zulip's dialect only.
    const severity = (id: string) => RULES.find((rule) => rule.id === id)!.severity;
    {
      for (const [rule, fault] of Object.entries(FAULTS)) {
        if (dialect === 'alternate' && severity(rule) === 'decision') continue;
        test(`the fault ${rule} (${fault!.does}) fails its rule and only the rules that observe it, ${dialect} dialect`, async () => {
          const area = rule.split('.')[0];
          const report = await suiteAgainstReference({ faults: new Set([rule]), featureLevel: fault!.level, dialect }, 6, `${area}.*`);
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



  }
}
