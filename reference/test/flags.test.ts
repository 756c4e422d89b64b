import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { doUpdateMessageFlags } from '../operations/flags.js';
import { buildRealm, readFixture } from '../http/boot.js';
import { doSendMessage, findMentions, flagNames, userFlagBits } from '../model/messaging.js';
import { doUnsubscribe } from '../support/channels.js';
import { JsonError } from '../model/params.js';
import { TestServer } from './test-helpers.js';

function world(level = 415) {
  const realm = buildRealm(readFixture(), level, new Set());
  const user = (email: string) => realm.usersByEmail.get(email)!;
  const channel = (name: string) => [...realm.channels.values()].find((c) => c.name === name)!;
  return { realm, hamlet: user('hamlet@example.com'), othello: user('othello@example.com'), iago: user('iago@example.com'), verona: channel('Verona'), scotland: channel('Scotland'), venice: channel('Venice') };
}

test('mentions: personal, by id, silent, group, wildcards', () => {
  const { realm, hamlet, othello } = world();
  assert.equal([...findMentions(realm, '@**King Hamlet** and @_**Othello, the Moor of Venice**').users], [hamlet.id]);
  assert.equal([...findMentions(realm, `x@**King Hamlet** @**|${othello.id}**`).users], [othello.id], 'a mention needs a boundary before it');
  assert.equal([...findMentions(realm, '@*venetians*').users].sort(), [...realm.userGroups[1]!.members].sort());
  assert.ok(findMentions(realm, '(@**all**)').streamWildcard);
  assert.ok(findMentions(realm, '@**topic**').topicWildcard);
  assert.not.ok(findMentions(world(246).realm, '@**channel**').streamWildcard, '@**channel** starts at level 247');
});

test('flags of a new message: unread, mentions, alert words; the sender\'s copy per read_by_sender', () => {
  const { realm, hamlet, othello, iago, verona } = world();
  const message = doSendMessage(realm, iago, { type: 'stream', channelId: verona.id, topic: 't' }, '@**King Hamlet** the HANDKERCHIEF @**all**', false);
  assert.equal(flagNames(realm, userFlagBits(message, hamlet)), ['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
  assert.equal(flagNames(realm, userFlagBits(message, othello)), ['stream_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word']);
  assert.equal(flagNames(realm, userFlagBits(message, iago)), ['stream_wildcard_mentioned', 'wildcard_mentioned']);
  const read = doSendMessage(realm, iago, { type: 'stream', channelId: verona.id, topic: 't' }, 'hi', true);
  assert.equal(flagNames(realm, userFlagBits(read, iago)), ['read']);
  const old = world(223);
  const before224 = doSendMessage(old.realm, old.iago, { type: 'stream', channelId: old.verona.id, topic: 't' }, '@**all**', false);
  assert.equal(flagNames(old.realm, userFlagBits(before224, old.hamlet)), ['wildcard_mentioned']);
});

test('flags: modified messages only, unsubscribed channels skipped, history rows, access', () => {
  const { realm, hamlet, othello, iago, scotland, venice, verona } = world();
  const inVerona = doSendMessage(realm, othello, { type: 'stream', channelId: verona.id, topic: 't' }, 'a', false);
  const inScotland = doSendMessage(realm, iago, { type: 'stream', channelId: scotland.id, topic: 't' }, 'b', false);
  const inVenice = doSendMessage(realm, othello, { type: 'stream', channelId: venice.id, topic: 't' }, 'c', false);
  assert.equal(doUpdateMessageFlags(realm, hamlet, 'add', 'read', [inVerona.id, inScotland.id]).modified, [inVerona.id]);
  assert.equal(doUpdateMessageFlags(realm, hamlet, 'add', 'read', [inVerona.id]).modified, []);
  assert.equal(doUpdateMessageFlags(realm, hamlet, 'remove', 'read', [inVerona.id, inScotland.id]), { modified: [inVerona.id], ignoredChannels: [scotland.id] });
  assert.equal(doUpdateMessageFlags(realm, hamlet, 'add', 'starred', [inScotland.id]).modified, [inScotland.id]);
  assert.equal(flagNames(realm, userFlagBits(inScotland, hamlet)), ['read', 'starred', 'historical']);
  assert.throws(() => doUpdateMessageFlags(realm, hamlet, 'add', 'starred', [inVerona.id, inVenice.id]), (error: unknown) => error instanceof JsonError && error.msg === 'Invalid message(s)');
  assert.not.ok((userFlagBits(inVerona, hamlet) & 2) !== 0, 'the refused request starred nothing');
  assert.equal(doUpdateMessageFlags(realm, hamlet, 'remove', 'starred', [inVenice.id]).modified, []);
});

test('leaving a channel marks its unread messages read', () => {
  const { realm, hamlet, othello, verona } = world();
  const message = doSendMessage(realm, othello, { type: 'stream', channelId: verona.id, topic: 't' }, 'a', false);
  assert.equal(flagNames(realm, userFlagBits(message, hamlet)), []);
  doUnsubscribe(realm, hamlet, verona);
  assert.equal(flagNames(realm, userFlagBits(message, hamlet)), ['read']);
});

test('over HTTP: the flags response by feature level, and Zulip\'s error texts', async () => {
  for (const [level, present] of [[354, false], [355, true]] as const) {
    const server = await TestServer.start({ featureLevel: level });
    try {
      const sent = await server.call('other', 'POST', '/messages', { type: 'stream', to: 'Verona', topic: 't', content: 'hello' });
      const removeRead = await server.call('member', 'POST', '/messages/flags', { messages: [sent.body.id], op: 'remove', flag: 'read' });
      assert.is('ignored_because_not_subscribed_channels' in removeRead.body, present, `level ${level}`);
      const star = await server.call('member', 'POST', '/messages/flags', { messages: [sent.body.id], op: 'add', flag: 'starred' });
      assert.equal(star.body, { result: 'success', msg: '', messages: [sent.body.id] });
      const texts = [
        [{ op: 'add', flag: 'read' }, "Missing 'messages' argument"],
        [{ messages: [1], op: 'x', flag: 'nope' }, "Invalid flag: 'nope'"],
        [{ messages: [1], op: 'x', flag: 'historical' }, "Flag not editable: 'historical'"],
        [{ messages: [1], op: 'x', flag: 'read' }, "Invalid message flag operation: 'x'"],
        [{ messages: [1], op: 'add', flag: 'wildcard_mentioned' }, "Invalid flag: 'wildcard_mentioned'"],
      ] as const;
      for (const [params, msg] of texts) assert.is((await server.call('member', 'POST', '/messages/flags', params)).body.msg, msg);
    } finally {
      await server.close();
    }
  }
  // Before level 224 wildcard_mentioned is a stored flag that cannot be changed.
  const old = await TestServer.start({ featureLevel: 223 });
  try {
    assert.is((await old.call('member', 'POST', '/messages/flags', { messages: [1], op: 'add', flag: 'wildcard_mentioned' })).body.msg, "Flag not editable: 'wildcard_mentioned'");
  } finally {
    await old.close();
  }
});

test.run();
