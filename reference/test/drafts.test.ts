import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkDraft, doCreateDrafts, namesOf } from '../operations/drafts.js';
import { buildRealm, readFixture } from '../http/boot.js';
import { JsonError } from '../model/params.js';
import { TestServer } from './test-helpers.js';

const realm = buildRealm(readFixture(), 415, new Set());
const hamlet = realm.usersByEmail.get('hamlet@example.com')!;
const othello = realm.usersByEmail.get('othello@example.com')!;
const verona = [...realm.channels.values()].find((channel) => channel.name === 'Verona')!;
const venice = [...realm.channels.values()].find((channel) => channel.name === 'Venice')!;

function refusal(value: unknown): string {
  try {
    checkDraft(realm, hamlet, value, namesOf('drafts[0]'));
  } catch (error) {
    if (error instanceof JsonError) return error.msg;
    throw error;
  }
  return 'accepted';
}

const draft = (fields: Record<string, unknown>) => ({ type: 'stream', to: [verona.id], topic: 'topic', content: 'content', ...fields });

test('a channel draft needs exactly one channel ID', () => {
  assert.is(refusal(draft({ to: [] })), 'Must specify exactly 1 channel ID for channel messages');
  assert.is(refusal(draft({ to: [verona.id, verona.id] })), 'Must specify exactly 1 channel ID for channel messages');
  assert.is(refusal(draft({})), 'accepted');
});

test('NUL bytes are refused in content and in a channel topic, not in an ignored topic', () => {
  assert.is(refusal(draft({ content: 'a\0b' })), 'Message must not contain null bytes');
  assert.is(refusal(draft({ topic: 'a\0b' })), 'Topic must not contain null bytes');
  assert.is(refusal(draft({ type: 'private', to: [othello.id], topic: 'a\0b' })), 'accepted');
});

test('types, fields and keys are checked in Zulip\'s order and words', () => {
  assert.is(refusal(draft({ type: 'channel' })), 'Invalid drafts[0]["type"]');
  assert.is(refusal({ type: '', to: [], content: 'x' }), 'drafts[0]["topic"] field is missing');
  assert.is(refusal(draft({ id: 4 })), 'Argument "id" at drafts[0] is unexpected');
  assert.is(refusal(draft({ content: ' \n ' })), 'drafts[0]["content"] cannot be blank');
  assert.is(refusal(draft({ timestamp: -1 })), 'Timestamp must not be negative.');
  assert.is(refusal(draft({ to: [99999999] })), 'Invalid channel ID');
  assert.is(refusal(draft({ to: [venice.id] })), 'Invalid channel ID');
  assert.is(refusal(draft({ type: 'private', to: [99999999] })), 'Invalid user ID 99999999');
});

test('stored forms: audience, topic, content, timestamp', () => {
  const direct = checkDraft(realm, hamlet, { type: 'private', to: [othello.id, hamlet.id, othello.id], topic: 't', content: '  x  ' }, namesOf('d'));
  assert.equal(direct.to, [othello.id]);
  assert.is(direct.topic, '');
  assert.is(direct.content, 'x');
  const self = checkDraft(realm, hamlet, { type: 'private', to: [hamlet.id], topic: '', content: 'x' }, namesOf('d'));
  assert.equal(self.to, [hamlet.id]);
  const nobody = checkDraft(realm, hamlet, { type: 'private', to: [], topic: 't', content: 'x', timestamp: 12.9 }, namesOf('d'));
  assert.equal([nobody.type, nobody.to, nobody.topic, nobody.timestamp], ['', [], '', 12.9]);
  const long = checkDraft(realm, hamlet, draft({ topic: '話'.repeat(61), content: 'y'.repeat(10_001) }), namesOf('d'));
  assert.is(long.topic, '話'.repeat(57) + '...');
  assert.is(long.content.length, 10_000);
  assert.ok(long.content.endsWith('\n[message truncated]'));
});

test('the model keeps drafts per user', () => {
  const [created] = doCreateDrafts(realm, hamlet, [checkDraft(realm, hamlet, draft({}), namesOf('d'))]);
  assert.ok(hamlet.drafts.has(created!.id));
  assert.not.ok(othello.drafts.has(created!.id));
});

test('over HTTP: one bad draft in a batch creates none, and sends no event', async () => {
  const server = await TestServer.start();
  try {
    const queue = (await server.call('member', 'POST', '/register', { event_types: ['drafts'] })).body.queue_id;
    const bad = await server.call('member', 'POST', '/drafts', { drafts: [draft({}), draft({ to: [] })] });
    assert.is(bad.status, 400);
    assert.is((await server.call('member', 'GET', '/drafts')).body.count, 0);
    const good = await server.call('member', 'POST', '/drafts', { drafts: [draft({ timestamp: 5 }), { type: '', to: [], topic: '', content: 'b', timestamp: 3 }] });
    assert.is(good.status, 200);
    const events = (await server.call('member', 'GET', '/events', { queue_id: queue, last_event_id: -1, dont_block: true })).body.events;
    assert.is(events.length, 1);
    assert.is(events[0].op, 'add');
    assert.equal(events[0].drafts.map((d: any) => d.id), good.body.ids);
    const listed = await server.call('member', 'GET', '/drafts');
    assert.equal(listed.body.drafts.map((d: any) => d.timestamp), [3, 5], 'ordered by last edit');
    const othersView = await server.call('other', 'DELETE', `/drafts/${good.body.ids[0]}`);
    assert.is(othersView.status, 404);
    assert.is(othersView.body.msg, 'Draft does not exist');
  } finally {
    await server.close();
  }
});

test('over HTTP: switching synchronization off deletes drafts without a drafts event', async () => {
  const server = await TestServer.start();
  try {
    await server.call('member', 'POST', '/drafts', { drafts: [draft({})] });
    const queue = (await server.call('member', 'POST', '/register', { event_types: ['drafts', 'user_settings'] })).body.queue_id;
    assert.is((await server.call('member', 'PATCH', '/settings', { enable_drafts_synchronization: false })).status, 200);
    const events = (await server.call('member', 'GET', '/events', { queue_id: queue, last_event_id: -1, dont_block: true })).body.events;
    assert.equal(events.map((event: any) => event.type), ['user_settings']);
    const refused = await server.call('member', 'GET', '/drafts');
    assert.is(refused.body.msg, 'User has disabled synchronizing drafts.');
    await server.call('member', 'PATCH', '/settings', { enable_drafts_synchronization: true });
    assert.is((await server.call('member', 'GET', '/drafts')).body.count, 0);
  } finally {
    await server.close();
  }
});

test('over HTTP: a long poll waits for an event and ends on one', async () => {
  const server = await TestServer.start();
  try {
    const queue = (await server.call('member', 'POST', '/register', { event_types: ['drafts'] })).body.queue_id;
    const poll = server.call('member', 'GET', '/events', { queue_id: queue, last_event_id: -1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.call('member', 'POST', '/drafts', { drafts: [draft({})] });
    const events = (await poll).body.events;
    assert.is(events[0].type, 'drafts');
    const foreign = await server.call('other', 'GET', '/events', { queue_id: queue, last_event_id: -1 });
    assert.is(foreign.body.code, 'BAD_EVENT_QUEUE_ID');
  } finally {
    await server.close();
  }
});

test.run();
