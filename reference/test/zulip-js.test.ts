// The reference as a client developer's test double: every operation it implements, driven
// through Zulip's official JavaScript client (zulip-js), unmodified. zulip-js sends every POST
// as multipart form data and every other method's parameters in the query string.

import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { png } from '../../conformance/checks/uploads.js';
import { MAX_FEATURE_LEVEL } from '../model/levels.js';
import { TestServer } from './test-helpers.js';

// zulip-js replaces the global FormData with the form-data package's (isomorphic-form-data);
// it keeps its own reference, so Node's is put back for the other tests of this process.
const nativeFormData = globalThis.FormData;
const zulipInit = createRequire(import.meta.url)('zulip-js') as (config: { realm: string; username: string; apiKey: string }) => Promise<any>;
globalThis.FormData = nativeFormData;

let server: TestServer;
let directory: string;
test.before(async () => {
  server = await TestServer.start({ featureLevel: MAX_FEATURE_LEVEL });
  directory = mkdtempSync(join(tmpdir(), 'zulip-js-'));
});
test.after(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

async function client(role: 'admin' | 'member' | 'other') {
  const email = server.reference.fixture.profile[role];
  const user = server.reference.fixture.users.find((candidate) => candidate.email === email)!;
  return zulipInit({ realm: server.url, username: user.email, apiKey: user.api_key });
}

/** The answer, which must be a success. */
function ok(response: any, what: string): any {
  assert.equal(response?.result, 'success', `${what}: ${JSON.stringify(response)}`);
  return response;
}

test('every implemented operation works through zulip-js, as a client uses it', async () => {
  const member = await client('member');
  const admin = await client('admin');
  const other = server.userId('other');

  const settings = ok(await member.server.settings(), 'server settings');
  assert.equal(settings.zulip_feature_level, MAX_FEATURE_LEVEL);
  assert.match(settings.zulip_version, /^\d+\.\d+/);
  const queue = ok(await member.queues.register({ event_types: ['message', 'subscription', 'drafts'] }), 'register');
  assert.ok(queue.queue_id && Array.isArray(queue.subscriptions) && Array.isArray(queue.never_subscribed));
  const me = ok(await member.users.me.getProfile(), 'own user');
  assert.equal(me.email, server.reference.fixture.profile.member);

  // Channels and messages.
  ok(await member.users.me.subscriptions.add({ subscriptions: JSON.stringify([{ name: 'zulip-js' }]), principals: JSON.stringify([me.user_id, other]) }), 'subscribe');
  const subscriptions = ok(await member.streams.subscriptions.retrieve(), 'subscriptions').subscriptions;
  const channel = subscriptions.find((subscription: any) => subscription.name === 'zulip-js').stream_id;
  const sent = ok(await member.messages.send({ type: 'stream', to: channel, topic: 'test double', content: 'Hello *world*' }), 'send');
  ok(await member.messages.send({ type: 'direct', to: [other], content: 'hi' }), 'send direct');
  const read = ok(await member.messages.retrieve({ anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'stream', operand: channel }, { operator: 'topic', operand: 'test double' }] }), 'messages');
  assert.equal(read.messages.map((message: any) => message.id), [sent.id]);
  assert.equal(read.messages[0].content, '<p>Hello <em>world</em></p>');
  const one = ok(await member.messages.getById({ message_id: sent.id, apply_markdown: false }), 'message');
  assert.equal(one.message.content, 'Hello *world*');
  ok(await member.messages.flags.add({ messages: [sent.id], flag: 'starred' }), 'star');
  ok(await member.messages.flags.remove({ messages: [sent.id], flag: 'starred' }), 'unstar');
  ok(await member.typing.send({ op: 'start', to: [other] }), 'typing');
  const events = ok(await member.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1, dont_block: true }), 'events');
  assert.ok(events.events.some((event: any) => event.type === 'message' && event.message.id === sent.id), JSON.stringify(events.events));
  assert.ok(events.events.some((event: any) => event.type === 'subscription' && event.op === 'add'), JSON.stringify(events.events));

  // Drafts and scheduled messages (PATCH and DELETE carry their parameters in the query string).
  const drafts = ok(await member.callEndpoint('/drafts', 'POST', { drafts: [{ type: 'stream', to: [channel], topic: 'test double', content: 'draft' }] }), 'create draft');
  ok(await member.callEndpoint(`/drafts/${drafts.ids[0]}`, 'PATCH', { draft: JSON.stringify({ type: '', to: [], topic: '', content: 'edited' }) }), 'edit draft');
  assert.equal(ok(await member.callEndpoint('/drafts', 'GET'), 'drafts').drafts.map((draft: any) => draft.content), ['edited']);
  ok(await member.callEndpoint(`/drafts/${drafts.ids[0]}`, 'DELETE'), 'delete draft');
  const later = Math.floor(Date.now() / 1000) + 3600;
  const scheduled = ok(await member.callEndpoint('/scheduled_messages', 'POST', { type: 'stream', to: String(channel), topic: 'test double', content: 'later', scheduled_delivery_timestamp: String(later) }), 'schedule');
  ok(await member.callEndpoint(`/scheduled_messages/${scheduled.scheduled_message_id}`, 'PATCH', { content: 'later still' }), 'edit scheduled');
  assert.equal(ok(await member.callEndpoint('/scheduled_messages', 'GET'), 'scheduled').scheduled_messages[0].content, 'later still');
  ok(await member.callEndpoint(`/scheduled_messages/${scheduled.scheduled_message_id}`, 'DELETE'), 'delete scheduled');

  // Reminders, settings, defaults, profile fields.
  const reminder = ok(await member.callEndpoint('/reminders', 'POST', { message_id: String(sent.id), scheduled_delivery_timestamp: String(later), note: 'look again' }), 'reminder');
  assert.equal(ok(await member.callEndpoint('/reminders', 'GET'), 'reminders').reminders.map((each: any) => each.reminder_id), [reminder.reminder_id]);
  ok(await member.callEndpoint(`/reminders/${reminder.reminder_id}`, 'DELETE'), 'delete reminder');
  ok(await member.callEndpoint('/settings', 'PATCH', { enter_sends: true }), 'settings');
  ok(await admin.callEndpoint('/realm/user_settings_defaults', 'PATCH', { enter_sends: true }), 'defaults');
  const field = ok(await admin.callEndpoint('/realm/profile_fields', 'POST', { name: 'zulip-js', hint: 'a hint', field_type: '1' }), 'create field');
  assert.ok(ok(await member.callEndpoint('/realm/profile_fields', 'GET'), 'fields').custom_fields.some((each: any) => each.id === field.id));
  ok(await admin.callEndpoint(`/realm/profile_fields/${field.id}`, 'DELETE'), 'delete field');

  // A custom emoji: a file part, the way zulip-js sends one (a stream of a file).
  const file = join(directory, 'smile.png');
  writeFileSync(file, png());
  ok(await member.callEndpoint('/realm/emoji/zulip_js', 'POST', { file: createReadStream(file) }), 'upload emoji');
  const emoji = Object.values(ok(await member.emojis.retrieve(), 'emoji').emoji) as any[];
  const uploaded = emoji.find((each) => each.name === 'zulip_js' && !each.deactivated);
  assert.ok(uploaded, JSON.stringify(emoji));
  const image = await fetch(new URL(uploaded.source_url, server.url));
  assert.equal(Buffer.from(await image.arrayBuffer()), png());
  ok(await member.callEndpoint('/realm/emoji/zulip_js', 'DELETE'), 'delete emoji');

  // Users, leaving and archiving, the queue.
  ok(await admin.users.create({ email: 'zulip-js@example.com', password: 'a long zulip-js password', full_name: 'zulip-js' }), 'create user');
  ok(await member.users.me.subscriptions.remove({ subscriptions: JSON.stringify(['zulip-js']) }), 'unsubscribe');
  ok(await admin.streams.deleteById({ stream_id: channel }), 'archive channel');
  ok(await member.queues.deregister({ queue_id: queue.queue_id }), 'delete queue');
});

test('an endpoint the reference lacks is told apart from a typo, in the way zulip-js reports it', async () => {
  const member = await client('member');
  const answer = await member.callEndpoint('/user_groups', 'GET');
  assert.equal(answer.result, 'error');
  assert.match(answer.msg, /reference server does not implement GET \/api\/v1\/user_groups/);
  const method = await member.messages.update({ message_id: 1, content: 'edited' });
  assert.equal(method.result, 'error');
  assert.match(method.msg, /implements only GET/);
});

test.run();
