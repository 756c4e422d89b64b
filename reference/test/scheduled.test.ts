import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TestServer } from './test-helpers.js';

let server: TestServer;
test.before(async () => {
  server = await TestServer.start();
});
test.after(() => server.close());

const verona = () => [...server.reference.realm.channels.values()].find((channel) => channel.name === 'Verona')!.id;

async function now(): Promise<number> {
  return (await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 0 })).body.now;
}

async function schedule(params: Record<string, unknown>, as: 'member' | 'other' = 'member'): Promise<number> {
  const response = await server.call(as, 'POST', '/scheduled_messages', params);
  assert.is(response.status, 200, JSON.stringify(response.body));
  return response.body.scheduled_message_id;
}

async function listed(as: 'member' | 'other' = 'member'): Promise<any[]> {
  return (await server.call(as, 'GET', '/scheduled_messages')).body.scheduled_messages;
}

const lastMessage = () => [...server.reference.realm.messages.values()].at(-1)!;

test('due messages go out in time order, from their sender, at their time, and leave the list', async () => {
  const t = await now();
  const later = await schedule({ type: 'stream', to: verona(), topic: 'order', content: 'second', scheduled_delivery_timestamp: t + 120 });
  const sooner = await schedule({ type: 'private', to: [server.userId('other')], content: 'first', scheduled_delivery_timestamp: t + 60 });
  const before = server.reference.realm.lastMessageId();
  await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 600 });
  const sent = [...server.reference.realm.messages.values()].filter((message) => message.id > before);
  assert.equal(sent.map((message) => [message.content, message.timestamp, message.senderId]), [['first', t + 60, server.userId('member')], ['second', t + 120, server.userId('member')]]);
  const ids = (await listed()).map((item) => item.scheduled_message_id);
  assert.not.ok(ids.includes(later) || ids.includes(sooner));
  const edited = await server.call('member', 'PATCH', `/scheduled_messages/${later}`, { content: 'again' });
  assert.is(edited.body.msg, 'Scheduled message was already sent');
  assert.is((await server.call('member', 'DELETE', `/scheduled_messages/${later}`)).status, 200, 'as Zulip, deleting a delivered message succeeds');
});

test('with the worker down, a message found over ten minutes late fails and is never retried; one found in time is sent', async () => {
  const queue = (await server.call('member', 'POST', '/register', { event_types: ['scheduled_messages'] })).body.queue_id;
  const t = await now();
  const late = await schedule({ type: 'stream', to: verona(), topic: 'late', content: 'too late', scheduled_delivery_timestamp: t + 60 });
  const inTime = await schedule({ type: 'stream', to: verona(), topic: 'late', content: 'just in time', scheduled_delivery_timestamp: t + 700 });
  await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 1000, deliver: false });
  await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 0 });
  const failed = (await listed()).find((item) => item.scheduled_message_id === late);
  assert.is(failed.failed, true);
  assert.not.ok((await listed()).some((item) => item.scheduled_message_id === inTime));
  const notice = [...server.reference.realm.messages.values()].find((message) => message.content.includes('Message could not be sent at the scheduled time.'))!;
  assert.is(server.reference.realm.users.get(notice.senderId)!.fullName, 'Notification Bot');
  await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 60 });
  assert.is((await listed()).find((item) => item.scheduled_message_id === late).failed, true, 'failed messages are not retried');
  const events = (await server.call('member', 'GET', '/events', { queue_id: queue, last_event_id: -1, dont_block: true })).body.events;
  const after = events.filter((event: any) => event.op !== 'add');
  assert.equal(after.map((event: any) => [event.op, event.scheduled_message_id ?? event.scheduled_message.scheduled_message_id, event.scheduled_message?.failed]), [['update', late, true], ['remove', inTime, undefined]]);
  const again = await server.call('member', 'PATCH', `/scheduled_messages/${late}`, { scheduled_delivery_timestamp: (await now()) + 30 });
  assert.is(again.status, 200);
  await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 60 });
  assert.is(lastMessage().content, 'too late');
});

test('a message to a channel archived since it was scheduled fails with the channel error', async () => {
  const created = await server.call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'doomed' }] });
  assert.is(created.status, 200);
  const channel = [...server.reference.realm.channels.values()].find((candidate) => candidate.name === 'doomed')!;
  const id = await schedule({ type: 'stream', to: channel.id, topic: 't', content: 'to a channel that goes', scheduled_delivery_timestamp: (await now()) + 60 });
  assert.is((await server.call('admin', 'DELETE', `/streams/${channel.id}`)).status, 200);
  await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 120 });
  const message = server.reference.realm.scheduledMessages.get(id as never)!;
  assert.equal([message.failed, message.failureMessage], [true, `Channel with ID '${channel.id}' does not exist`]);
});

test('a refused edit changes nothing and sends no event; an accepted one sends update', async () => {
  const queue = (await server.call('member', 'POST', '/register', { event_types: ['scheduled_messages'] })).body.queue_id;
  const id = await schedule({ type: 'private', to: [server.userId('other')], content: 'x', scheduled_delivery_timestamp: (await now()) + 86400 });
  const before = JSON.stringify((await listed()).find((item) => item.scheduled_message_id === id));
  for (const params of [{ type: 'stream', to: verona() }, { to: verona() }, { type: 'stream', to: verona(), topic: ' (no topic) ' }, { to: [999999] }, { content: '  ' }]) {
    const response = await server.call('member', 'PATCH', `/scheduled_messages/${id}`, params);
    assert.is(response.status, 400, JSON.stringify(params));
  }
  assert.is(JSON.stringify((await listed()).find((item) => item.scheduled_message_id === id)), before);
  assert.is((await server.call('member', 'PATCH', `/scheduled_messages/${id}`, { type: 'stream', to: verona(), topic: 'moved' })).status, 200);
  const events = (await server.call('member', 'GET', '/events', { queue_id: queue, last_event_id: -1, dont_block: true })).body.events;
  assert.equal(events.map((event: any) => event.op), ['add', 'update']);
  assert.equal([events[1].scheduled_message.type, events[1].scheduled_message.topic], ['stream', 'moved']);
});

test('create: Zulip\'s checks of to and topic', async () => {
  const t = (await now()) + 3600;
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ type: 'stream', to: [verona()], topic: 'x', content: 'x' }, 'Invalid data type for channel ID'],
    [{ type: 'private', to: server.userId('other'), content: 'x' }, 'Invalid data type for recipients'],
    [{ type: 'private', to: ['othello@example.com'], content: 'x' }, 'to["int"] is not an integer'],
    [{ type: 'stream', to: verona(), content: 'x' }, 'Missing topic'],
    [{ type: 'huddle', to: verona(), topic: 'x', content: 'x' }, 'Invalid type: Value error, Not in the list of possible values'],
  ];
  for (const [params, msg] of cases) {
    const response = await server.call('member', 'POST', '/scheduled_messages', { ...params, scheduled_delivery_timestamp: t });
    assert.is(response.body.msg, msg, JSON.stringify(params));
  }
  const id = await schedule({ type: 'stream', to: verona(), topic: '  (no topic) ', content: 'x', scheduled_delivery_timestamp: t });
  assert.is((await listed()).find((item) => item.scheduled_message_id === id).topic, '');
});

test('feature levels: no scheduled messages below 173, no edit below 184, no display name below 334', async () => {
  for (const [level, get, patch] of [[172, 404, 404], [183, 200, 405], [184, 200, 404]] as const) {
    const old = await TestServer.start({ featureLevel: level });
    try {
      assert.is((await old.call('member', 'GET', '/scheduled_messages')).status, get, `GET at ${level}`);
      assert.is((await old.call('member', 'PATCH', '/scheduled_messages/1', { content: 'x' })).status, patch, `PATCH of a missing message at ${level}`);
      const state = (await old.call('member', 'POST', '/register', { fetch_event_types: ['scheduled_messages', 'realm'] })).body;
      assert.is('scheduled_messages' in state, level >= 173);
      assert.not.ok('realm_empty_topic_display_name' in state);
    } finally {
      await old.close();
    }
  }
});

test.run();
