// Verdicts a CI can trust: each false failure and false pass found in the suite, as a test that
// fails without its fix. Servers no one here wrote are made from the reference, by a proxy that
// changes what passes, or by a seeded fault.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { targetProfile } from '../../reference/http/boot.js';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/http/server.js';
import { aboutDrafts } from '../checks/world.js';
import { sameName } from '../checks/uploads.js';
import type { Report } from '../report/json.js';
import { checkTarget } from '../api.js';
import { runSuite } from '../suite.js';
import { proxy, reply, type Proxy } from './helpers.js';
import { linksToMessage } from '../checks/world.js';

/** The suite against the reference, or against a proxy in front of it. */
async function check(reference: RunningReference, only: string, options: { via?: Proxy; seed?: number; runs?: number; decisions?: boolean; deliveryWait?: number } = {}): Promise<Report> {
  const profile = targetProfile(reference.fixture, reference.url);
  return runSuite({
    target: options.via?.url ?? reference.url, credentials: profile.users, embedded: true, seed: options.seed ?? 11, runs: options.runs ?? 10, only,
    replayPath: null, decisions: options.decisions ?? false, rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
    ...(options.deliveryWait === undefined ? {} : { deliveryWait: options.deliveryWait }),
  });
}

const statusOf = (report: Report, id: string) => report.rules.find((rule) => rule.id === id);

async function withReference<T>(options: ReferenceOptions, run: (reference: RunningReference) => Promise<T>): Promise<T> {
  const reference = await startReference({ port: 0, ...options });
  try {
    return await run(reference);
  } finally {
    await reference.close();
  }
}

test('--runs raises every property: each rule\'s random cases grow with it; only a property whose boundaries are every case takes none', async () => {
  const taken = async (runs: number) => withReference({}, async (reference) => {
    const report = await runSuite({
      target: reference.url, credentials: targetProfile(reference.fixture, reference.url).users, embedded: true, seed: 5, runs, only: null, replayPath: null,
      decisions: true, rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
    });
    return new Map(report.rules.filter((rule) => rule.cases).map((rule) => [rule.id as string, rule.cases!]));
  });
  const [one, two] = [await taken(1), await taken(2)];
  assert.ok(one.size > 60, `${one.size} rules ran properties`);
  const flat = [...one].filter(([, cases]) => cases.random === 0).map(([id]) => id).sort();
  // Every case of these is one of their boundaries: the kinds of typing by op, each op, each wildcard, each casing and neighbour of an alert word.
  assert.equal(flat, ['flags.alert-word-matching', 'flags.silent-mentions', 'flags.wildcard-mention-flags', 'typing.only-to-receivers', 'typing.reaches-receivers']);
  for (const [id, cases] of one) if (cases.random > 0) assert.is(two.get(id)?.random, cases.random * 2, id);
});

test('checkTarget has the CLI\'s defaults: no rate bound for a target on this machine', async () => {
  await withReference({}, async (reference) => {
    const report = await checkTarget({ target: reference.url, users: targetProfile(reference.fixture, reference.url).users, only: 'drafts.create-returns-ids-in-order', runs: 2, seed: 1 });
    assert.is(report.config.rate, 0);
    assert.is(report.rules[0]!.status, 'pass');
  });
});

// ---- False failures -------------------------------------------------------------------------

test('a message is linked by its ID as a whole segment of a link, never by a host, a port or a slug', () => {
  const zulip = 'You requested a reminder.\n\n@_**Other|5** [said](http://127.0.0.1:40127/#narrow/channel/12-reminders/topic/x/near/130) in #**reminders>x**:';
  assert.ok(linksToMessage(zulip, 130));
  assert.not.ok(linksToMessage(zulip, 127), 'the host 127.0.0.1 is not message 127');
  assert.not.ok(linksToMessage(zulip, 40127), 'the port is not a message');
  assert.not.ok(linksToMessage(zulip, 12), 'the channel slug 12-reminders is not message 12');
  assert.not.ok(linksToMessage('Reminder: message 130 at 127.0.0.1', 130), 'an ID outside a link is not a link');
  assert.ok(linksToMessage('<a href="/#narrow/dm/5,6-group/near/127">said</a>', 127));
  assert.not.ok(linksToMessage('<a href="/#narrow/dm/5,6-group/near/127">said</a>', 5), 'a user of the conversation is not the message');
  assert.ok(linksToMessage('see https://chat.example.com/messages/127?x=1', 127));
});

test('an event about drafts is told by a draft ID field, not by any number equal to a draft ID', () => {
  const about = aboutDrafts([12], ['tcc00000000 #0 a "quoted" draft'], false);
  assert.ok(about({ id: 3, type: 'drafts', op: 'remove', draft_id: 12 }));
  assert.ok(about({ id: 3, type: 'drafts', op: 'gone', items: [{ id: 12 }] }), 'an ID inside an event whose type names drafts');
  assert.ok(about({ id: 3, type: 'sync', op: 'gone', drafts: [{ id: 12 }] }), 'an ID inside a draft');
  // Another run's message whose ID equals a draft's (a server may number both from one range).
  assert.not.ok(about({ id: 3, type: 'message', message: { id: 12, content: 'tcc11111111 message 1', sender_id: 2 }, flags: [] }), 'a message\'s ID is not a draft\'s');
  assert.not.ok(about({ id: 3, type: 'update_message_flags', op: 'add', flag: 'read', messages: [12], message_details: { 12: { type: 'stream' } } }), 'nor a flagged message\'s');
  assert.not.ok(about({ id: 3, type: 'sync', op: 'gone', items: [{ id: 12 }] }), 'an ID of something unnamed is no draft\'s');
  assert.ok(about({ id: 3, type: 'sync', op: 'gone', draft_ids: [4, 12] }));
  assert.not.ok(about({ id: 12, type: 'realm_user', op: 'update', person: { user_id: 12, timezone: 'UTC+12' } }), 'a user ID is not a draft ID');
  assert.not.ok(about({ id: 12, type: 'user_settings', op: 'update', property: 'enable_drafts_synchronization', value: false }));
  assert.ok(about({ id: 4, type: 'sync', op: 'gone', items: [{ content: 'tcc00000000 #0 a "quoted" draft' }] }), 'a draft told by its whole content');
  assert.not.ok(about({ id: 4, type: 'realm_emoji', op: 'update', realm_emoji: { 1: { name: 'tcc00000000e0' } } }), 'the run\'s prefix in an emoji\'s name is not a draft');
});

test('reminders.note-delivered without the helper the spec does not name (max_reminder_note_length): the longest note taken is found by refusal, and a note cut short is caught', async () => {
  await withReference({ faults: new Set(['reminders.note-delivered:shortened']) }, async (reference) => {
    // A server that does not say its limit.
    const silent = await proxy(reference.url, async (req, res, forward) => {
      const answer = await forward();
      if (req.url?.startsWith('/api/v1/register')) {
        const { max_reminder_note_length: _unsaid, ...body } = JSON.parse(answer.body);
        return reply(res, answer, JSON.stringify(body));
      }
      reply(res, answer);
    });
    try {
      for (const seed of [1, 2]) {
        const rule = statusOf(await check(reference, 'reminders.note-delivered', { via: silent, seed, runs: 1 }), 'reminders.note-delivered');
        assert.is(rule?.status, 'fail', `seed ${seed}: ${rule?.status} ${rule?.message}`);
      }
    } finally {
      await silent.close();
    }
  });
});

test('emoji names are compared as the spec reads them: underscores are spaces before surrounding spaces are dropped', () => {
  assert.is(sameName('_x'), sameName(' x'));
  assert.is(sameName('A_b_'), sameName('a b '));
  assert.is(sameName('Smile'), sameName('smile'));
  assert.is.not(sameName('a-b'), sameName('a b'));
});

test('scheduled.to-matches-type passes a server that takes a list of one channel ID as that channel', async () => {
  await withReference({}, async (reference) => {
    // For a channel message (the new type, or else the existing one), `to=[N]` becomes `to=N`.
    const lenient = await proxy(reference.url, async (req, res, forward, body) => {
      const edit = /^\/api\/v1\/scheduled_messages\/(\d+)$/.exec(req.url ?? '');
      const form = new URLSearchParams(body);
      const one = /^\[(\d+)\]$/.exec(form.get('to') ?? '');
      if (req.method === 'PATCH' && edit && one) {
        const existing = reference.realm.scheduledMessages.get(Number(edit[1]) as never);
        const type = form.get('type') ?? (existing?.recipient.type === 'stream' ? 'stream' : 'direct');
        if (type === 'stream' || type === 'channel') form.set('to', one[1]!);
      }
      const answer = await forward(req.method === 'PATCH' ? form.toString() : undefined);
      reply(res, answer);
    });
    try {
      for (const seed of [1, 2, 3, 4]) {
        const report = await check(reference, 'scheduled.to-matches-type', { via: lenient, seed });
        assert.is(statusOf(report, 'scheduled.to-matches-type')?.status, 'pass', JSON.stringify(statusOf(report, 'scheduled.to-matches-type')));
      }
    } finally {
      await lenient.close();
    }
  });
});

test('emoji.name-characters: an empty name answered as an unknown path (HTML 404) keeps the rule', async () => {
  await withReference({}, async (reference) => {
    const html404 = await proxy(reference.url, async (req, res, forward) => {
      if (req.method === 'POST' && req.url === '/api/v1/realm/emoji/') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
      const answer = await forward();
      reply(res, answer);
    });
    try {
      const report = await check(reference, 'emoji.name-characters', { via: html404 });
      assert.is(statusOf(report, 'emoji.name-characters')?.status, 'pass', JSON.stringify(statusOf(report, 'emoji.name-characters')));
    } finally {
      await html404.close();
    }
  });
});

// ---- False passes ---------------------------------------------------------------------------

test('emoji.name-case-ignored fails a server that refuses another case of a name (it cannot be "the same emoji" if it is refused alone)', async () => {
  await withReference({}, async (reference) => {
    const lowerOnly = await proxy(reference.url, async (req, res, forward) => {
      const name = /^\/api\/v1\/realm\/emoji\/(.+)$/.exec(req.url ?? '')?.[1];
      if (req.method === 'POST' && name && /[A-Z]/.test(decodeURIComponent(name))) {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'error', msg: 'Emoji names must be lower case.', code: 'BAD_REQUEST' }));
      }
      const answer = await forward();
      reply(res, answer);
    });
    try {
      const report = await check(reference, 'emoji.name-case-ignored', { via: lowerOnly });
      assert.is(statusOf(report, 'emoji.name-case-ignored')?.status, 'fail');
      const direct = await check(reference, 'emoji.name-case-ignored');
      assert.is(statusOf(direct, 'emoji.name-case-ignored')?.status, 'pass');
    } finally {
      await lowerOnly.close();
    }
  });
});

test('a server that writes the keys of its objects in another order passes the rules that compare objects (structures, not serializations)', async () => {
  await withReference({}, async (reference) => {
    const reversed = (value: unknown): unknown => Array.isArray(value) ? value.map(reversed)
      : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversed(item)])) : value;
    // Every JSON answer with its keys in the reverse order, the envelope's too.
    const server = await proxy(reference.url, async (_req, res, forward) => {
      const answer = await forward();
      let body = answer.body;
      try {
        body = JSON.stringify(reversed(JSON.parse(answer.body)));
      } catch {
        // Not JSON: as it was.
      }
      reply(res, answer, body);
    });
    try {
      const report = await check(reference, 'event-shape', { via: server, decisions: true, runs: 3 });
      assert.ok(report.rules.length >= 4, report.rules.map((rule) => rule.id).join());
      assert.equal(report.rules.filter((rule) => rule.status !== 'pass' && rule.status !== 'skip').map((rule) => `${rule.id}: ${rule.message.slice(0, 300)}`), []);
    } finally {
      await server.close();
    }
  });
});

/** As Zulip 11.0-dev at level 384: GET /reminders is 405, DELETE /reminders/{id} is Django's HTML 404. */
function remindersOf384(reference: RunningReference): Promise<Proxy> {
  return proxy(reference.url, async (req, res, forward) => {
    if (req.method === 'GET' && /^\/api\/v1\/reminders(\?|$)/.test(req.url ?? '')) {
      res.writeHead(405, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' }));
      return;
    }
    if (req.method === 'DELETE' && /^\/api\/v1\/reminders\//.test(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1><p>The requested resource was not found on this server.</p>');
      return;
    }
    reply(res, await forward());
  });
}

test('a target that creates reminders but neither lists nor deletes them (Zulip at 384): no must rule fails for it, and the reminders left are named', async () => {
  await withReference({ featureLevel: 384 }, async (reference) => {
    const server = await remindersOf384(reference);
    try {
      const musts = await check(reference, 'general.*', { via: server, runs: 2 });
      const reminders = await check(reference, 'reminders.*', { via: server, runs: 2, decisions: true });
      const notPassing = [...musts.rules, ...reminders.rules].filter((rule) => rule.severity === 'must' && rule.status !== 'pass' && rule.status !== 'skip');
      assert.equal(notPassing.map((rule) => `${rule.id}: ${rule.status} ${rule.message.slice(0, 300)}`), []);
      assert.is(statusOf(reminders, 'reminders.create-returns-id')?.status, 'pass');
      // The listing is Zulip's from level 399; the parameters' decision still holds without a DELETE to try.
      assert.is(statusOf(reminders, 'reminders.listing-shape')?.status, 'skip');
      assert.is(statusOf(reminders, 'reminders.parameters')?.status, 'pass', statusOf(reminders, 'reminders.parameters')?.message);
      assert.equal([...musts.cleanup.problems, ...reminders.cleanup.problems], []);
      assert.ok(reminders.cleanup.left!.some((what) => /reminders of member's, scheduled \(the target deletes no reminders/.test(what)), JSON.stringify(reminders.cleanup.left));
    } finally {
      await server.close();
    }
  });
});

test('on real time, reminders a target cannot delete are made due within the run and delivered before it ends: nothing stays pending', async () => {
  await withReference({ featureLevel: 384, hideClock: true }, async (reference) => {
    const server = await remindersOf384(reference);
    try {
      const report = await check(reference, 'reminders.create-returns-id', { via: server, runs: 2, deliveryWait: 2 });
      assert.is(statusOf(report, 'reminders.create-returns-id')?.status, 'pass', statusOf(report, 'reminders.create-returns-id')?.message);
      assert.equal(report.cleanup.problems, []);
      assert.ok(!(report.cleanup.left ?? []).some((what) => /reminders/.test(what)), JSON.stringify(report.cleanup.left));
      // Made with a time within the wait, and delivered: the reference keeps no pending reminder.
      assert.equal([...reference.realm.reminders.values()].filter((reminder) => !reminder.failed).map((reminder) => reminder.deliveryTimestamp), []);
    } finally {
      await server.close();
    }
  });
});

test('cleanup looks at its answers: a delete the server answers with an error page is a cleanup problem, never silence', async () => {
  await withReference({}, async (reference) => {
    const server = await proxy(reference.url, async (req, res, forward) => {
      if (req.method === 'DELETE' && /^\/api\/v1\/realm\/profile_fields\//.test(req.url ?? '')) {
        res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Server Error (500)</h1>');
        return;
      }
      reply(res, await forward());
    });
    try {
      const report = await check(reference, 'fields.create-returns-id', { via: server, runs: 2 });
      assert.ok(report.cleanup.problems.some((problem) => /^delete profile field \d+: 500 <h1>Server Error/.test(problem)), report.cleanup.problems.join('\n'));
    } finally {
      await server.close();
    }
  });
});

test('a malformed answer fails the rule that reads it, saying what was malformed, rather than ending it in error', async () => {
  await withReference({}, async (reference) => {
    // GET /drafts lists every draft with `to: null`.
    const nulls = await proxy(reference.url, async (req, res, forward) => {
      const answer = await forward();
      let body = answer.body;
      if (req.method === 'GET' && req.url?.startsWith('/api/v1/drafts')) {
        const parsed = JSON.parse(body);
        for (const draft of parsed.drafts ?? []) draft.to = null;
        body = JSON.stringify(parsed);
      }
      reply(res, answer, body);
    });
    try {
      const report = await check(reference, 'drafts.created-drafts-read-back', { via: nulls, runs: 3 });
      const rule = statusOf(report, 'drafts.created-drafts-read-back');
      assert.is(rule?.status, 'fail', JSON.stringify(rule));
      assert.match(rule!.message, /GET \/drafts: a malformed answer: drafts\[0\]\.to is null, not a list of integers/);
    } finally {
      await nulls.close();
    }
  });
});

test('the synchronization rules are checked, not skipped, when member has drafts of its own: with a user who has none', async () => {
  for (const faulty of [false, true]) {
    const faults = new Set(faulty ? ['drafts.sync-off-deletes-drafts' as const] : []);
    await withReference({ faults }, async (reference) => {
      const member = reference.fixture.users.find((user) => user.email === reference.fixture.profile.member)!;
      const draft = { type: '', to: [], topic: '', content: 'a draft of member\'s own' };
      const created = await fetch(`${reference.url}/api/v1/drafts`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${member.email}:${member.api_key}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ drafts: JSON.stringify([draft]) }).toString(),
      });
      assert.is(created.status, 200);
      const report = await check(reference, 'drafts.sync-off');
      assert.is(statusOf(report, 'drafts.sync-off-deletes-drafts')?.status, faulty ? 'fail' : 'pass', JSON.stringify(report.rules));
      assert.is(statusOf(report, 'drafts.sync-off-sends-no-event')?.status, 'pass');
      const kept = [...reference.realm.usersByEmail.get(member.email)!.drafts.values()];
      assert.equal(kept.map((kept) => kept.content), [draft.content], 'member\'s own draft is untouched');
    });
  }
});

// ---- Determinism ---------------------------------------------------------------------------

test('the same seed against the same fresh reference gives the same verdicts and the same counterexample, run after run', async () => {
  const faults = new Set(['emoji.name-alphabet', 'drafts.channel-draft-needs-one-channel', 'fields.select-options'] as const);
  const runs: Array<{ verdicts: string[]; examples: string[] }> = [];
  for (let round = 0; round < 2; round++) {
    await withReference({ faults }, async (reference) => {
      const report = await check(reference, '*', { seed: 4242, runs: 8 });
      const port = new URL(reference.url).port;
      // The run prefix, the port and the event queues' IDs (the server draws them at random) differ from run to run; nothing else may.
      const plain = (text: string) => text.replaceAll(report.run_prefix, '{prefix}').replaceAll(port, '{port}').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{queue}');
      runs.push({
        verdicts: report.rules.map((rule) => `${rule.id} ${rule.status}`),
        examples: report.rules.filter((rule) => rule.counterexample).map((rule) => plain(JSON.stringify([rule.message, rule.counterexample!.input, rule.counterexample!.requests]))),
      });
    });
  }
  assert.ok(runs[0]!.examples.length >= 3, 'the seeded faults were caught');
  assert.equal(runs[1], runs[0]);
});

test.run();
