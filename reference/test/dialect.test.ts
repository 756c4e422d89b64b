// The alternate dialect over HTTP: every open point decided otherwise than Zulip, every error of
// the spec's error table still with its code. And GET /messages, which both dialects have.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TestServer } from './test-helpers.js';

let zulip: TestServer;
let alternate: TestServer;

test.before(async () => {
  zulip = await TestServer.start();
  alternate = await TestServer.start({ dialect: 'alternate' });
});
test.after(async () => {
  await zulip.close();
  await alternate.close();
});

const future = () => Math.floor(Date.now() / 1000) + 86_400;

test('general.realm-limits: the alternate dialect reports its own limits and empty-topic name', async () => {
  const state = (await alternate.call('member', 'POST', '/register', { fetch_event_types: ['realm'] })).body;
  assert.equal([state.max_message_length, state.max_topic_length, state.realm_empty_topic_display_name], [4321, 47, '(sans sujet)']);
  const zulipState = (await zulip.call('member', 'POST', '/register', { fetch_event_types: ['realm'] })).body;
  assert.equal([zulipState.max_message_length, zulipState.max_topic_length, zulipState.realm_empty_topic_display_name], [10000, 60, 'general chat']);
});

test('general.unknown-endpoints: Zulip\'s dispatch answers a method a path lacks 405 with Allow, OPTIONS 204 without credentials, HEAD as GET; the alternate answers only the methods a path has', async () => {
  const wrong = await zulip.call('member', 'PUT', '/messages/flags');
  assert.equal([wrong.status, wrong.headers.get('allow'), wrong.body.allowed_methods], [405, 'POST', ['POST']]);
  const options = await zulip.call(null, 'OPTIONS', '/drafts');
  assert.equal([options.status, options.headers.get('allow')], [204, 'GET, POST']);
  const head = await zulip.call('member', 'HEAD', '/users/me', {}, { body: undefined });
  assert.equal([head.status, head.body], [200, '']);
  for (const [method, as] of [['PUT', 'member'], ['OPTIONS', null], ['HEAD', 'member']] as const) {
    const answer = await alternate.call(as, method, '/messages/flags', {}, { body: undefined });
    assert.equal([answer.status, answer.headers.get('allow')], [404, null], `${method} in the alternate dialect`);
  }
});

test('general.error-statuses: the error table keeps its codes; other errors get the alternate\'s status, code and words', async () => {
  const missing = await alternate.call('member', 'DELETE', '/scheduled_messages/99999');
  assert.is(missing.status, 400);
  assert.equal(missing.body, { result: 'error', msg: 'No scheduled message has ID 99999', code: 'BAD_REQUEST' });
  const zulipMissing = await zulip.call('member', 'DELETE', '/scheduled_messages/99999');
  assert.equal([zulipMissing.status, zulipMissing.body.code, zulipMissing.body.msg], [404, 'BAD_REQUEST', 'Scheduled message does not exist']);
  const channelId = 999_999;
  const scheduled = await alternate.call('member', 'POST', '/scheduled_messages', { type: 'direct', to: [alternate.userId('other')], content: 'x', scheduled_delivery_timestamp: future() });
  const edit = await alternate.call('member', 'PATCH', `/scheduled_messages/${scheduled.body.scheduled_message_id}`, { type: 'channel', to: channelId, topic: 'x' });
  assert.equal([edit.status, edit.body.code, edit.body.stream_id], [422, 'STREAM_DOES_NOT_EXIST', channelId]);
  assert.not.match(edit.body.msg, /does not exist/);
  const invalid = await alternate.call('member', 'POST', '/messages/flags', { messages: [], op: 'toggle', flag: 'read' });
  assert.equal([invalid.status, invalid.body.code], [422, 'INVALID_PARAMETER']);
  const absent = await alternate.call('member', 'POST', '/messages/flags', { op: 'add', flag: 'read' });
  assert.equal([absent.status, absent.body.code, 'var_name' in absent.body], [422, 'MISSING_PARAMETER', false]);
  const wrongKey = await alternate.call(null, 'GET', '/users/me', {}, { headers: { authorization: 'Basic ' + Buffer.from(`hamlet@example.com:${'a'.repeat(32)}`).toString('base64') } });
  assert.equal([wrongKey.status, wrongKey.body.code], [403, 'AUTHENTICATION_FAILED']);
});

test('general.ids-ascend: the alternate dialect scatters draft IDs, distinct and in no order', async () => {
  const drafts = Array.from({ length: 6 }, (_, n) => ({ type: '', to: [], topic: '', content: `order ${n}` }));
  const { ids } = (await alternate.call('member', 'POST', '/drafts', { drafts })).body;
  assert.is(new Set(ids).size, 6);
  assert.ok(ids.some((id: number, index: number) => index > 0 && id < ids[index - 1]), JSON.stringify(ids));
  const zulipIds = (await zulip.call('member', 'POST', '/drafts', { drafts })).body.ids;
  assert.equal(zulipIds, [...zulipIds].sort((a: number, b: number) => a - b));
});

/** A server of its own, for a test that moves its clock or fills its history. */
async function own<T>(options: Parameters<typeof TestServer.start>[0], use: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await TestServer.start(options);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

test('general.ids-ascend: the alternate dialect numbers drafts in the messages\' range, so that the messages sent next take the drafts\' numbers', () => own({ dialect: 'alternate' }, async (alternate) => {
  const drafts = Array.from({ length: 20 }, (_, n) => ({ type: '', to: [], topic: '', content: `range ${n}` }));
  const ids: number[] = (await alternate.call('member', 'POST', '/drafts', { drafts })).body.ids;
  assert.is(new Set(ids).size, 20);
  const sent: number[] = [];
  for (let n = 0; n < 40; n++) sent.push((await alternate.call('other', 'POST', '/messages', { type: 'private', to: [alternate.userId('member')], content: `range ${n}` })).body.id);
  assert.ok(ids.some((id) => sent.includes(id)), `draft IDs ${JSON.stringify(ids)}, message IDs ${JSON.stringify(sent)}`);
  // Distinct still, batch after batch.
  const more: number[] = (await alternate.call('member', 'POST', '/drafts', { drafts })).body.ids;
  assert.is(new Set([...ids, ...more]).size, 40);
}));

test('general.date-header: the alternate dialect\'s Date header keeps the machine\'s time while the clock moves on; Zulip\'s follows it', () => own({}, (zulip) => own({ dialect: 'alternate' }, async (alternate) => {
  for (const server of [zulip, alternate]) assert.is((await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 86_400 })).status, 200);
  // Bounds that hold however loaded the machine is: the machine's time read before and after the
  // request, whole seconds as the header gives them.
  const dated = async (server: TestServer) => {
    const before = Math.floor(Date.now() / 1000);
    const date = Date.parse((await server.call(null, 'GET', '/server_settings')).headers.get('date')!) / 1000;
    return { date, before, after: Math.ceil(Date.now() / 1000) };
  };
  const machine = await dated(alternate);
  assert.ok(machine.date >= machine.before && machine.date <= machine.after, JSON.stringify(machine));
  const moved = await dated(zulip);
  assert.ok(moved.date >= moved.before + 86_400, JSON.stringify(moved));
})));

test('general.channel-history-read: a narrow to a public channel never joined gives its history in Zulip\'s dialect only; GET /messages/{id} gives it in both', () => own({}, (zulip) => own({ dialect: 'alternate' }, async (alternate) => {
  for (const [server, readable] of [[zulip, true], [alternate, false]] as const) {
    const name = `history ${readable}`;
    assert.is((await server.call('other', 'POST', '/users/me/subscriptions', { subscriptions: [{ name }] })).status, 200);
    const channel = (await server.call('other', 'GET', '/users/me/subscriptions')).body.subscriptions.find((sub: { name: string }) => sub.name === name).stream_id;
    const id = (await server.call('other', 'POST', '/messages', { type: 'stream', to: channel, topic: 't', content: 'before member came' })).body.id;
    const narrowed = await server.call('member', 'GET', '/messages', { narrow: [{ operator: 'stream', operand: channel }], anchor: 'newest', num_before: 10, num_after: 0 });
    assert.is(narrowed.body.messages.some((message: { id: number }) => message.id === id), readable, name);
    assert.is((await server.call('member', 'GET', `/messages/${id}`)).body.message?.id, id);
    // Once flagged, it is the user's history in both.
    assert.is((await server.call('member', 'POST', '/messages/flags', { messages: [id], op: 'add', flag: 'starred' })).status, 200);
    const flagged = await server.call('member', 'GET', '/messages', { narrow: [{ operator: 'stream', operand: channel }], anchor: 'newest', num_before: 10, num_after: 0 });
    assert.ok(flagged.body.messages.some((message: { id: number }) => message.id === id), `${name}, flagged`);
  }
})));

test('drafts: the alternate dialect reads [7, 7] as one channel, refuses a future timestamp, keeps content as sent', async () => {
  const channel = (await alternate.call('member', 'GET', '/users/me/subscriptions')).body.subscriptions[0].stream_id;
  const twice = await alternate.call('member', 'POST', '/drafts', { drafts: [{ type: 'stream', to: [channel, channel], topic: 't', content: ' padded ' }] });
  assert.is(twice.body.result, 'success');
  const stored = (await alternate.call('member', 'GET', '/drafts')).body.drafts.find((draft: any) => draft.id === twice.body.ids[0]);
  assert.is(stored.content, ' padded ');
  const ahead = await alternate.call('member', 'POST', '/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'x', timestamp: future() }] });
  assert.is(ahead.status, 422);
  const zulipTwice = await zulip.call('member', 'POST', '/drafts', { drafts: [{ type: 'stream', to: [1, 1], topic: 't', content: 'x' }] });
  assert.is(zulipTwice.body.msg, 'Must specify exactly 1 channel ID for channel messages');
});

test('GET /messages: narrow by channel and topic, or by direct conversation; rendered unless apply_markdown=false', async () => {
  for (const server of [zulip, alternate]) {
    const channel = (await server.call('other', 'GET', '/users/me/subscriptions')).body.subscriptions[0];
    const sent: number[] = [];
    for (const content of ['one & two', 'three']) sent.push((await server.call('other', 'POST', '/messages', { type: 'stream', to: channel.stream_id, topic: 'narrowed', content })).body.id);
    await server.call('other', 'POST', '/messages', { type: 'stream', to: channel.stream_id, topic: 'elsewhere', content: 'not this' });
    const narrow = [{ operator: 'channel', operand: channel.stream_id }, { operator: 'topic', operand: 'narrowed' }];
    const raw = (await server.call('other', 'GET', '/messages', { narrow, anchor: 'newest', num_before: 10, num_after: 0, apply_markdown: false })).body;
    assert.equal(raw.messages.map((m: any) => [m.id, m.content]), [[sent[0], 'one & two'], [sent[1], 'three']]);
    const rendered = (await server.call('other', 'GET', '/messages', { narrow, anchor: 'oldest', num_before: 0, num_after: 0 })).body;
    assert.equal(rendered.messages.map((m: any) => m.content), [server === zulip ? '<p>one &amp; two</p>' : '<div class="tc-message">one &amp; two</div>']);
    assert.is(rendered.found_newest, false);
    const dm = await server.call('other', 'POST', '/messages', { type: 'private', to: [server.userId('member')], content: 'just us' });
    const conversation = (await server.call('member', 'GET', '/messages', { narrow: [['dm', [server.userId('other')]]], anchor: 'newest', num_before: 5, apply_markdown: false })).body;
    assert.equal(conversation.messages.map((m: any) => [m.id, m.content]), [[dm.body.id, 'just us']]);
    const unknown = await server.call('member', 'GET', '/messages', { narrow: [['search', 'x']] });
    assert.is(unknown.body.code, 'BAD_NARROW');
  }
});

test.run();
