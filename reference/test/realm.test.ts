// Settings defaults, custom profile fields, typing, user creation, subscriptions and rendered
// messages over HTTP, in Zulip's dialect.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TestServer } from './test-helpers.js';

let server: TestServer;

test.before(async () => {
  server = await TestServer.start();
});
test.after(() => server.close());

async function defaults(): Promise<Record<string, unknown>> {
  return (await server.call('member', 'POST', '/register', { fetch_event_types: ['realm_user_settings_defaults'] })).body.realm_user_settings_defaults;
}

async function events(as: 'member' | 'admin' | 'other', queueId: string): Promise<any[]> {
  return (await server.call(as, 'GET', '/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events;
}

test('settings defaults: administrators only; stored; one event per changed default; a bad value refuses the whole request', async () => {
  const refusedMember = await server.call('member', 'PATCH', '/realm/user_settings_defaults', { color_scheme: 2 });
  assert.equal([refusedMember.status, refusedMember.body.code], [400, 'UNAUTHORIZED_PRINCIPAL']);
  const queue = (await server.call('other', 'POST', '/register', { event_types: ['realm_user_settings_defaults'] })).body.queue_id;
  const ok = await server.call('admin', 'PATCH', '/realm/user_settings_defaults', { color_scheme: 2, emojiset: 'text', enter_sends: false, dense_mode: true });
  assert.equal(ok.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['dense_mode'] });
  const stored = await defaults();
  assert.equal([stored.color_scheme, stored.emojiset, stored.enter_sends, 'dense_mode' in stored], [2, 'text', false, false]);
  assert.equal((await events('other', queue)).map((event) => [event.property, event.value]), [['color_scheme', 2], ['emojiset', 'text']]);
  const bad = await server.call('admin', 'PATCH', '/realm/user_settings_defaults', { color_scheme: 3, web_home_view: 'nowhere' });
  assert.equal([bad.status, bad.body.msg], [400, 'Invalid web_home_view']);
  // Checked in the settings table's order, not the body's: color_scheme comes before emojiset there.
  const twoBad = await server.call('admin', 'PATCH', '/realm/user_settings_defaults', { emojiset: 'nope', color_scheme: 9 });
  assert.equal([twoBad.status, twoBad.body.msg], [400, 'Invalid color_scheme: Value error, Not in the list of possible values']);
  assert.is((await defaults()).color_scheme, 2);
  const own = (await server.call('member', 'POST', '/register', { fetch_event_types: ['user_settings'] })).body.user_settings;
  assert.is(own.color_scheme, 1, 'existing users keep their own settings');
});

test('settings defaults: levels decide which settings exist and which values', async () => {
  const old = await TestServer.start({ featureLevel: 218 });
  try {
    const body = (await old.call('admin', 'PATCH', '/realm/user_settings_defaults', { default_view: 'all_messages', web_home_view: 'inbox', desktop_icon_count_display: 3 })).body;
    assert.equal(body.ignored_parameters_unsupported, ['web_home_view']);
    assert.is((await old.call('admin', 'PATCH', '/realm/user_settings_defaults', { desktop_icon_count_display: 4 })).body.result, 'error');
    assert.is((await TestServer.start({ featureLevel: 95 }).then(async (older) => {
      try {
        return (await older.call('admin', 'PATCH', '/realm/user_settings_defaults', { color_scheme: 2 })).status;
      } finally {
        await older.close();
      }
    })), 404);
  } finally {
    await old.close();
  }
});

test('POST /users: a new member starts with the defaults; POST /reference/api_key lets one act as them', async () => {
  await server.call('admin', 'PATCH', '/realm/user_settings_defaults', { twenty_four_hour_time: true });
  const created = await server.call('admin', 'POST', '/users', { email: 'newcomer@example.com', password: 'x', full_name: 'Newcomer' });
  const key = (await server.call('admin', 'POST', '/reference/api_key', { user_id: created.body.user_id })).body.api_key;
  const authorization = 'Basic ' + Buffer.from(`newcomer@example.com:${key}`).toString('base64');
  const state = (await server.call(null, 'POST', '/register', { fetch_event_types: ['user_settings'] }, { headers: { authorization } })).body;
  assert.is(state.user_settings.twenty_four_hour_time, true);
  const fixtureUser = await server.call('admin', 'POST', '/reference/api_key', { user_id: server.userId('member') });
  assert.is(fixtureUser.body.result, 'error', 'only users made through POST /users');
  assert.is((await server.call('member', 'POST', '/users', { email: 'x@example.com', password: 'x', full_name: 'X' })).body.code, 'UNAUTHORIZED_PRINCIPAL');
});

test('profile fields: create, list, summary limit counting the fixture\'s field, types refused in the summary, delete', async () => {
  const list = async () => (await server.call('member', 'GET', '/realm/profile_fields')).body.custom_fields as any[];
  assert.equal((await list()).map((field) => [field.name, field.display_in_profile_summary ?? false]), [['Phone number', true], ['Biography', false]]);
  const select = await server.call('admin', 'POST', '/realm/profile_fields', { name: ' Colour ', field_type: 3, field_data: { a: { text: 'Red', order: '1' } }, display_in_profile_summary: true });
  assert.type(select.body.id, 'number');
  const listed = (await list()).find((field) => field.id === select.body.id);
  assert.equal([listed.name, listed.field_data, listed.order], ['Colour', '{"a":{"text":"Red","order":"1"}}', select.body.id]);
  const third = await server.call('admin', 'POST', '/realm/profile_fields', { name: 'Third', field_type: 1, display_in_profile_summary: true });
  assert.is(third.body.msg, 'Only 2 custom profile fields can be displayed in the profile summary.');
  assert.is((await server.call('admin', 'DELETE', `/realm/profile_fields/${select.body.id}`)).body.result, 'success');
  const longText = await server.call('admin', 'POST', '/realm/profile_fields', { name: 'Essay', field_type: 2, display_in_profile_summary: true });
  assert.is(longText.body.msg, 'Field type not supported for display in profile summary.');
  for (const [params, msg] of [
    [{ name: 'x' }, "Missing 'field_type' argument"],
    [{ name: 'x', field_type: 9 }, 'Invalid field type.'],
    [{ name: '', field_type: 1 }, 'Label cannot be blank.'],
    [{ name: 'Biography', field_type: 1 }, 'A field with that label already exists.'],
    [{ name: 'x', field_type: 3, field_data: { a: { text: 'Red' } } }, 'order key is missing from field_data'],
  ] as const) {
    assert.is((await server.call('admin', 'POST', '/realm/profile_fields', params)).body.msg, msg);
  }
  assert.is((await list()).length, 2, 'refused creates made nothing');
});

test('typing: events only for recipients who receive them; channel typing only for queues that declared it', async () => {
  const register = async (as: 'member' | 'admin', capabilities = {}) => (await server.call(as, 'POST', '/register', { event_types: ['typing'], client_capabilities: capabilities })).body.queue_id;
  await server.call('member', 'PATCH', '/settings', { receives_typing_notifications: false });
  const member = await register('member');
  const admin = await register('admin', { stream_typing_notifications: true });
  assert.is((await server.call('other', 'POST', '/typing', { op: 'start', to: [server.userId('member'), server.userId('admin')] })).body.result, 'success');
  assert.equal(await events('member', member), []);
  const [event] = await events('admin', admin);
  assert.equal([event.type, event.op, event.message_type, event.sender.user_id, event.recipients.length], ['typing', 'start', 'direct', server.userId('other'), 3]);
  await server.call('member', 'PATCH', '/settings', { receives_typing_notifications: true });
});

test('message content is rendered as Zulip renders the basics; apply_markdown=false gives the text', async () => {
  const othello = server.userId('other');
  const cases: Array<[string, string]> = [
    ['plain words', '<p>plain words</p>'],
    ['a < b & c', '<p>a &lt; b &amp; c</p>'],
    ['one\ntwo\n\nthree', '<p>one<br>\ntwo</p>\n<p>three</p>'],
    ['**bold** and *em* and ~~old~~', '<p><strong>bold</strong> and <em>em</em> and <del>old</del></p>'],
    ['`*not em*` here', '<p><code>*not em*</code> here</p>'],
    ['see https://example.com/a?b=1.', '<p>see <a href="https://example.com/a?b=1">https://example.com/a?b=1</a>.</p>'],
    [`hi @**Othello, the Moor of Venice** and @_**Othello, the Moor of Venice|${othello}**`, `<p>hi <span class="user-mention" data-user-id="${othello}">@Othello, the Moor of Venice</span> and <span class="user-mention silent" data-user-id="${othello}">Othello, the Moor of Venice</span></p>`],
    ['@**Nobody Here** stays', '<p>@<strong>Nobody Here</strong> stays</p>'],
  ];
  for (const [content, html] of cases) {
    const sent = await server.call('member', 'POST', '/messages', { type: 'private', to: [othello], content });
    const rendered = await server.call('member', 'GET', `/messages/${sent.body.id}`);
    assert.equal(rendered.body.message.content, html, content);
    const raw = await server.call('member', 'GET', `/messages/${sent.body.id}`, { apply_markdown: false });
    assert.equal(raw.body.message.content, content);
  }
});

test('support endpoints keep Zulip\'s levels: channel typing from 58, by stream_id from 215', async () => {
  for (const [level, byTo, byStreamId] of [[57, false, false], [58, true, false], [214, true, false], [215, false, true]] as const) {
    const old = await TestServer.start({ featureLevel: level });
    try {
      const verona = [...old.reference.realm.channels.values()].find((channel) => channel.name === 'Verona')!.id;
      assert.is((await old.call('member', 'POST', '/typing', { op: 'start', type: 'stream', to: [verona], topic: 't' })).status === 200, byTo, `level ${level}, to`);
      assert.is((await old.call('member', 'POST', '/typing', { op: 'start', type: 'stream', stream_id: verona, topic: 't' })).status === 200, byStreamId, `level ${level}, stream_id`);
    } finally {
      await old.close();
    }
  }
});

test('support endpoints keep Zulip\'s levels: the single-message object from 120, the dm and channel narrow operators from 177 and 250', async () => {
  for (const [level, object, dm, channel] of [[119, false, false, false], [120, true, false, false], [177, true, true, false], [250, true, true, true]] as const) {
    const old = await TestServer.start({ featureLevel: level });
    try {
      const othello = old.userId('other');
      const sent = await old.call('member', 'POST', '/messages', { type: 'private', to: [othello], content: 'hello' });
      const single = await old.call('member', 'GET', `/messages/${sent.body.id}`);
      assert.is('message' in single.body, object, `level ${level}`);
      assert.is(single.body.raw_content, 'hello');
      for (const [operator, operand, present] of [['dm', [othello], dm], ['pm-with', [othello], true], ['channel', 'Verona', channel], ['stream', 'Verona', true]] as const) {
        const read = await old.call('member', 'GET', '/messages', { narrow: [{ operator, operand }], anchor: 'newest', num_before: 5, num_after: 0 });
        assert.is(read.status === 200, present, `level ${level}, ${operator}: ${JSON.stringify(read.body)}`);
      }
    } finally {
      await old.close();
    }
  }
});

test('subscriptions: events for the subscriber, its peers and the new channel; only administrators remove others; authorization_errors_fatal', async () => {
  const queue = (await server.call('member', 'POST', '/register', { event_types: ['subscription', 'stream'] })).body.queue_id;
  const peers = (await server.call('admin', 'POST', '/register', { event_types: ['subscription', 'stream'] })).body.queue_id;
  const member = server.userId('member');
  const other = server.userId('other');
  await server.call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'peers' }], principals: [member, other] });
  const mine = await events('member', queue);
  assert.equal(mine.map((event) => `${event.type} ${event.op}`), ['stream create', 'subscription add']);
  assert.equal(mine[1].subscriptions.map((sub: any) => [sub.name, sub.subscribers]), [['peers', [member, other].sort((a, b) => a - b)]]);
  assert.equal((await events('admin', peers)).filter((event) => event.op === 'peer_add').map((event) => event.user_ids), [[member, other]]);

  const refused = await server.call('member', 'DELETE', '/users/me/subscriptions', { subscriptions: ['peers'], principals: [other] });
  assert.equal([refused.status, refused.body.msg], [400, 'Insufficient permission']);
  const removed = await server.call('admin', 'DELETE', '/users/me/subscriptions', { subscriptions: ['peers'], principals: [other] });
  assert.equal(removed.body.removed, ['peers']);
  const state = (await server.call('other', 'POST', '/register', { fetch_event_types: ['subscription'] })).body;
  assert.ok(state.unsubscribed.some((sub: any) => sub.name === 'peers'), 'unsubscribed lists the channel left');
  assert.ok(!state.never_subscribed.some((sub: any) => sub.name === 'peers'));

  await server.call('admin', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'closed' }], invite_only: true });
  const fatal = await server.call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'closed' }, { name: 'open' }] });
  assert.equal([fatal.status, fatal.body.msg], [400, 'Unable to access channel (closed).']);
  const lenient = await server.call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'closed' }, { name: 'open' }], authorization_errors_fatal: false });
  assert.equal([lenient.body.unauthorized, lenient.body.subscribed], [['closed'], { [String(member)]: ['open'] }]);
});

test('unread_msgs: the unread messages of /register, by conversation', async () => {
  const member = server.userId('member');
  const sent = await server.call('other', 'POST', '/messages', { type: 'private', to: [member], content: 'unread for you' });
  const state = (await server.call('member', 'POST', '/register', { fetch_event_types: ['message', 'update_message_flags'] })).body;
  const pm = state.unread_msgs.pms.find((entry: any) => entry.other_user_id === server.userId('other'));
  assert.ok(pm?.unread_message_ids.includes(sent.body.id), JSON.stringify(state.unread_msgs));
  await server.call('member', 'POST', '/messages/flags', { messages: [sent.body.id], op: 'add', flag: 'read' });
  const after = (await server.call('member', 'POST', '/register', { fetch_event_types: ['message', 'update_message_flags'] })).body;
  assert.equal(after.unread_msgs.count, state.unread_msgs.count - 1);
  const without = (await server.call('member', 'POST', '/register', { fetch_event_types: ['message'] })).body;
  assert.not.ok('unread_msgs' in without);
});

test.run();
