// Checks of message reminders (spec "Endpoints 7. Create a message reminder", from level 381;
// note from 415). Deliveries are seen with the reference clock or on real time (deliveries.ts);
// a late one needs the reference clock. The run's reminders are deleted at the end.

import fc from 'fast-check';
import { cleanedUp } from '../run/cleanup.js';
import type { Role } from '../run/client.js';
import { check, expect, refusedExactly, succeeded, Skip, type Check, type Context } from '../run/harness.js';
import { SHAPES } from '../run/shape.js';
import { MARKED, MARKED_SHORT, text } from './generators.js';
import { ON_TIME_SECONDS, deliveryProperty, deliveryWindow, due, dueWithinRun, stampedLate } from './deliveries.js';
import { advanceClock, fetchState, runChannel, linksToMessage, messagesAfter, pollEvents, recentMessages, registerQueue, send, targetNow, type Channel, type SpecOperation } from './world.js';

const DAY = 86_400;

/** A channel member and other share, for messages to be reminded of. */
function channel(context: Context): Promise<Channel> {
  return runChannel(context, ['member', 'other']);
}

/** A message member may read: other's, in their channel or to member directly. */
async function messageToRemind(context: Context, direct: boolean, token: string): Promise<number> {
  return direct ? send(context, 'other', [context.probe.users.member.id], `${token} remind me`) : send(context, 'other', await channel(context), `${token} remind me`, 'reminders');
}

/** How Zulip writes a name in a narrow link: percent-encoded but for letters, digits and -_~, with "." for "%". */
const hashEncode = (text: string) => [...new TextEncoder().encode(text)]
  .map((byte) => (/[A-Za-z0-9_~-]/.test(String.fromCharCode(byte)) && byte < 128 ? String.fromCharCode(byte) : `.${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const token = (context: Context) => context.token('reminder');

/**
 * The longest note the target takes, where it does not say (the spec names no limit): notes of
 * 10,000 characters, then ever shorter ones, until one is accepted (deleted with the run's other
 * reminders); null
 * where none of a hundred characters or more is.
 */
async function longestNoteTaken(context: Context): Promise<number | null> {
  const messageId = await context.memo('reminders-general', () => messageToRemind(context, true, `${context.prefix} general`));
  for (let length = 10_000; length >= 100; length = Math.floor(length / 2)) {
    const response = await remind(context, { message_id: messageId, scheduled_delivery_timestamp: (await targetNow(context)) + 30 * DAY, note: 'n'.repeat(length) });
    if (response.body?.result === 'success') return length;
  }
  return null;
}

/**
 * Creates a reminder as member; the end of the run deletes it whatever happens. A target that
 * deletes no reminders gets one due within the run's delivery wait instead of the time asked
 * for, so that it is delivered before the run ends; where the run cannot wait, it is named among
 * what the run leaves.
 */
async function remind(context: Context, params: Record<string, unknown>) {
  const undeletable = Boolean(context.probe.missing['reminder-deletion']);
  const soon = undeletable && Number.isInteger(params.scheduled_delivery_timestamp) && params.message_id !== undefined ? await dueWithinRun(context) : null;
  const sent = soon === null ? params : { ...params, scheduled_delivery_timestamp: Math.min(soon, params.scheduled_delivery_timestamp as number) };
  const response = await context.call('member', 'POST', '/reminders', sent as never);
  const id = response.body?.reminder_id;
  if (!Number.isInteger(id)) return response;
  if (undeletable) {
    const why = `reminders of member's, scheduled (the target deletes no reminders; each links to a message of member's with ${context.prefix} in it and comes to member from the notification bot at its time)`;
    if (soon === null) context.cleanup.leftBehind(why);
    // Delivered within the wait, unless the target's worker did not run in time.
    else context.cleanup.atEnd(`reminder ${id}, due within the run`, async () => {
      if (context.deliveryState.settled?.outcome !== null) context.cleanup.leftBehind(why);
    });
    return response;
  }
  context.cleanup.atEnd(`delete reminder ${id}`, async () => cleanedUp(await context.call('member', 'DELETE', `/reminders/${id}`)),
    { as: 'member', method: 'DELETE', path: `/reminders/${id}`, params: {} });
  return response;
}

async function listReminders(context: Context, as: Role = 'member'): Promise<any[]> {
  const body = succeeded(await context.call(as, 'GET', '/reminders'), 'GET /reminders', SHAPES.reminders);
  expect(Array.isArray(body.reminders), `GET /reminders: no reminders list: ${JSON.stringify(body).slice(0, 300)}`);
  return body.reminders;
}


const mustChecks: Check[] = [
  check('reminders.create-returns-id', async (context) => {
    await context.property(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 1000 })), async ([direct, offset]) => {
      const messageId = await messageToRemind(context, direct, token(context));
      const when = (await targetNow(context)) + 30 * DAY + offset;
      const body = succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: when }), 'POST /reminders');
      expect(Number.isInteger(body.reminder_id), `POST /reminders answered without an integer reminder_id: ${JSON.stringify(body)}`);
      // A target that lists no reminders (Zulip before its listing) shows the ID no other way; one
      // that deletes none got a time within the run instead of the one asked for.
      if (context.probe.missing['reminder-listing'] || context.probe.missing['reminder-deletion']) return;
      const listed = (await listReminders(context)).find((reminder) => reminder.reminder_id === body.reminder_id);
      expect(listed, `GET /reminders does not list reminder ${body.reminder_id}`);
      expect(listed.scheduled_delivery_timestamp === when && Object.values(listed).includes(messageId), `reminder ${body.reminder_id} is listed as ${JSON.stringify(listed)}: not for message ${messageId} at ${when}`);
    }, context.runsSmokeAtMost(6));
  }),

  check('reminders.delivered-to-self', async (context) => {
    const { users } = context.probe;
    await deliveryProperty(context, fc.boolean(), async (direct) => {
      const tag = token(context);
      const messageId = await messageToRemind(context, direct, tag);
      const note = context.level >= 415 ? { note: `${tag} note` } : {};
      const delivery = await due(context);
      succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: delivery.at, ...note }), 'POST /reminders');
      await delivery.passed();
      // The delivered reminder comes from a bot, none of the profile's users, and links the
      // message: the message's ID is a whole segment of a link's path or fragment. Found among the
      // newest messages, whatever order the server gives IDs in.
      const profile = [users.member.id, users.other.id, users.admin.id];
      const links = (message: any) => !profile.includes(message.sender_id) && linksToMessage(String(message.content), messageId);
      const delivered = (await recentMessages(context, 'member', deliveryWindow(context))).filter(links);
      for (const message of delivered) context.noteMessage(message.id);
      expect(delivered.length === 1, `${delivered.length} messages from a bot linking message ${messageId} reached member after the reminder's time: ${JSON.stringify(delivered.map((m) => m.content))}`);
      const [reminder] = delivered;
      const participants = (reminder.display_recipient as Array<{ id: number }>).map((user) => user.id);
      expect(reminder.type === 'private' && reminder.sender_id !== users.member.id, `the reminder is ${JSON.stringify({ type: reminder.type, sender_id: reminder.sender_id })}: not a direct message from a bot`);
      expect(participants.every((id) => id === users.member.id || id === reminder.sender_id), `the reminder went to ${JSON.stringify(participants)}, not to member alone`);
      const others = (await recentMessages(context, 'other', deliveryWindow(context))).filter(links);
      expect(others.length === 0, `other received the reminder too: ${JSON.stringify(others.map((m) => m.content))}`);
    }, context.runsSmokeAtMost(3));
  }, ['deliveries']),

  // Not before its time: with the reference clock, nothing is there a few seconds before it; the
  // reminder sent, on any target, carries no earlier timestamp than the one it was set for.
  check('reminders.sent-at-its-time', async (context) => {
    await deliveryProperty(context, fc.boolean(), async (direct) => {
      const messageId = await messageToRemind(context, direct, token(context));
      const delivery = await due(context);
      succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: delivery.at }), 'POST /reminders');
      // The reminder is the message that links the one reminded of, whoever sent it: when it went is this rule's, who sent it another's.
      const ours = async () => (await recentMessages(context, 'member', deliveryWindow(context))).filter((message) => message.id !== messageId && linksToMessage(String(message.content), messageId));
      if (await delivery.almost()) {
        const early = await ours();
        for (const message of early) context.noteMessage(message.id);
        expect(early.length === 0, `the reminder of message ${messageId}, due at ${delivery.at}, was sent before its time: ${JSON.stringify(early.map((message) => ({ id: message.id, timestamp: message.timestamp })))}`);
      }
      await delivery.passed();
      const sent = await ours();
      for (const message of sent) context.noteMessage(message.id);
      if (sent.length === 0) throw new Skip(`the reminder of message ${messageId} was not delivered after its time, so when it went cannot be told`);
      const before = sent.filter((message) => !(message.timestamp >= delivery.at));
      expect(before.length === 0, `the reminder of message ${messageId}, due at ${delivery.at}, was sent with timestamp ${before.map((message) => message.timestamp).join(', ')}: before its time`);
      // With the reference clock, whose advance delivers as a worker on time: not over a minute after it either.
      const late = stampedLate(delivery, sent);
      expect(late.length === 0, `the reminder of message ${messageId}, due at ${delivery.at}, was sent with timestamp ${late.map((message) => message.timestamp).join(', ')}: over ${ON_TIME_SECONDS} s after its time, though the reference clock's advance delivers as a worker on time`);
    }, { runs: context.runsSmokeAtMost(3), boundaries: [fc.constant(true)] });
  }, ['deliveries']),

  check('reminders.note-delivered', async (context) => {
    // The boundary: the longest note the target takes, of every kind of character that must come
    // back as sent: the length /register gives (max_reminder_note_length, which the spec does not
    // name), or else the longest of ever shorter ones it accepts, long enough to cross any cut a
    // server might make.
    const limit: unknown = (await fetchState(context, 'member', ['reminders'])).max_reminder_note_length;
    const length = Number.isInteger(limit) ? (limit as number) : await longestNoteTaken(context);
    const marked = Array.from(MARKED.repeat(Math.ceil((length ?? MARKED.length) / MARKED.length) + 1));
    const longest = [fc.constant(marked.slice(0, length ?? MARKED.length).join('').trim())];
    // And a note of two lines: a line break inside a note is shown as sent, as every other character.
    const lines = fc.constant(`two lines:\n${MARKED_SHORT}`);
    await deliveryProperty(context, text(20), async (words) => {
      const tag = token(context);
      const messageId = await messageToRemind(context, false, tag);
      const note = Array.from(`${tag} ${words}`).slice(0, length ?? undefined).join('').trimEnd();
      const delivery = await due(context);
      succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: delivery.at, note }), 'POST /reminders');
      await delivery.passed();
      const delivered = (await recentMessages(context, 'member', deliveryWindow(context))).filter((message) => message.id !== messageId && String(message.content).includes(tag));
      for (const message of delivered) context.noteMessage(message.id);
      expect(delivered.some((message) => String(message.content).includes(note)), `no delivered reminder shows the note ${JSON.stringify(note)}: ${JSON.stringify(delivered.map((m) => m.content))}`);
    }, { runs: context.runsSmokeAtMost(3), boundaries: [...longest, lines] });
  }, ['deliveries']),

  check('reminders.note-absent-before-415', async (context) => {
    await context.property(text(10), async (words) => {
      const messageId = await messageToRemind(context, true, token(context));
      const body = succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: (await targetNow(context)) + 30 * DAY, note: words }), 'POST /reminders with note');
      expect(Array.isArray(body.ignored_parameters_unsupported) && body.ignored_parameters_unsupported.includes('note'), `at level ${context.level} note should be named in ignored_parameters_unsupported: ${JSON.stringify(body)}`);
    }, context.runsSmokeAtMost(3));
  }),
];

const decisionChecks: Check[] = [
  check('reminders.parameters', async (context) => {
    const messageId = await messageToRemind(context, true, token(context));
    const later = (await targetNow(context)) + DAY;
    refusedExactly(await remind(context, { scheduled_delivery_timestamp: later }), 'without message_id', "Missing 'message_id' argument", 400, 'REQUEST_VARIABLE_MISSING');
    refusedExactly(await remind(context, { message_id: messageId }), 'without a time', "Missing 'scheduled_delivery_timestamp' argument", 400, 'REQUEST_VARIABLE_MISSING');
    refusedExactly(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: later - 2 * DAY }), 'a past time', 'Scheduled delivery time must be in the future.');
    const hidden = await send(context, 'other', [context.probe.users.admin.id], `${token(context)} not for member`);
    refusedExactly(await remind(context, { message_id: hidden, scheduled_delivery_timestamp: later }), 'a message member may not read', 'Invalid message(s)');
    if (!context.probe.missing['reminder-deletion']) refusedExactly(await context.call('member', 'DELETE', '/reminders/2000000000'), 'DELETE of a reminder that does not exist', 'Reminder does not exist', 404);
    if (context.level >= 415) {
      // The note's limit, as /register gives it.
      const state = await fetchState(context, 'member', ['reminders']);
      const limit = state.max_reminder_note_length;
      expect(Number.isInteger(limit) && limit > 0, `POST /register gives no max_reminder_note_length: ${JSON.stringify(limit)}`);
      refusedExactly(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: later, note: 'n'.repeat(limit + 1) }), 'a note one character over the limit', `Maximum reminder note length: ${limit} characters`);
      succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: later, note: 'n'.repeat(limit) }), 'a note at the limit');
    }
  }),

  check('reminders.delivery', async (context) => {
    const { users } = context.probe;
    const reminded = await channel(context);
    // A topic with a space and a dot, which Zulip's links encode as ".20" and ".2E".
    const topic = 'remind me.';
    const inChannel = await send(context, 'other', reminded, `${token(context)} remind me`, topic);
    const direct = await send(context, 'other', [users.member.id], `${token(context)} remind me`);
    const now = await advanceClock(context, 0);
    // From level 415 the direct message's reminder has a note, which loses its leading newlines and trailing spaces.
    const note = `${token(context)} note`;
    const notes: Record<number, string> = context.level >= 415 ? { [direct]: `\n\n${note}  ` } : {};
    for (const messageId of [inChannel, direct]) succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: now + 60, ...(notes[messageId] ? { note: notes[messageId] } : {}) }), 'POST /reminders');
    // Not before its time.
    await advanceClock(context, 30);
    const early = (await messagesAfter(context, 'member', inChannel)).filter((message) => linksToMessage(String(message.content), inChannel) || linksToMessage(String(message.content), direct));
    expect(early.length === 0, `a reminder arrived 30 seconds before its time: ${JSON.stringify(early.map((m) => m.content))}`);
    // The worker is down past ten minutes: Zulip still delivers a reminder.
    await advanceClock(context, 30 + 11 * 60, false);
    await advanceClock(context, 0);
    const after = await messagesAfter(context, 'member', inChannel);
    const links = {
      [inChannel]: `/#narrow/channel/${reminded.id}-${hashEncode(reminded.name.replace(/ /g, '-'))}/topic/${hashEncode(topic)}/near/${inChannel}`,
      [direct]: `/#narrow/dm/${[users.member.id, users.other.id].sort((a, b) => a - b).join(',')}/near/${direct}`,
    };
    for (const messageId of [inChannel, direct]) {
      const [reminder] = after.filter((message) => linksToMessage(String(message.content), messageId));
      if (reminder) context.noteMessage(reminder.id);
      expect(reminder, `no reminder linking message ${messageId} arrived, eleven minutes late`);
      const first = (messageId === direct ? 'You requested a reminder for the following direct message.' : 'You requested a reminder for the following message.') + (notes[messageId] ? ` Note:\n > ${note}\n` : '\n');
      expect(reminder.sender_full_name === 'Notification Bot' && String(reminder.content).startsWith(first), `the reminder is ${JSON.stringify({ sender: reminder.sender_full_name, content: reminder.content })}`);
      expect(String(reminder.content).includes(links[messageId]!), `the reminder of message ${messageId} does not link it as Zulip does (${links[messageId]}): ${JSON.stringify(reminder.content)}`);
    }
  }, ['reference-clock']),

  check('reminders.listing-shape', async (context) => {
    const queue = await registerQueue(context, 'member', ['reminders']);
    try {
      const messageId = await messageToRemind(context, true, token(context));
      const when = (await targetNow(context)) + 30 * DAY;
      const id = succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: when }), 'POST /reminders').reminder_id;
      // Listed by time (Zulip orders by nothing else); another user's list does not show them.
      const sooner = succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: when - 2 * DAY }), 'POST /reminders').reminder_id;
      const same = succeeded(await remind(context, { message_id: messageId, scheduled_delivery_timestamp: when - DAY }), 'POST /reminders').reminder_id;
      const order = (await listReminders(context)).map((reminder) => reminder.reminder_id).filter((listedId) => [id, sooner, same].includes(listedId));
      const want = [sooner, same, id];
      expect(JSON.stringify(order) === JSON.stringify(want), `GET /reminders lists ${JSON.stringify(order)}, not by time: ${JSON.stringify(want)}`);
      const othersList = await listReminders(context, 'other');
      expect(!othersList.some((reminder) => [id, sooner, same].includes(reminder.reminder_id)), `other's GET /reminders lists member's reminders: ${JSON.stringify(othersList)}`);
      for (const extra of [sooner, same]) succeeded(await context.call('member', 'DELETE', `/reminders/${extra}`), 'DELETE /reminders/{id}');
      const listed = (await listReminders(context)).find((reminder) => reminder.reminder_id === id);
      const keys = ['content', 'failed', 'reminder_id', 'reminder_target_message_id', 'rendered_content', 'scheduled_delivery_timestamp', 'to', 'type'];
      expect(listed && JSON.stringify(Object.keys(listed).sort()) === JSON.stringify(keys) && listed.type === 'private' && listed.to[0] === context.probe.users.member.id && listed.reminder_target_message_id === messageId,
        `reminder ${id} is listed as ${JSON.stringify(listed)}`);
      refusedExactly(await context.call('other', 'DELETE', `/reminders/${id}`), "other's DELETE of member's reminder", 'Reminder does not exist', 404);
      succeeded(await context.call('member', 'DELETE', `/reminders/${id}`), 'DELETE /reminders/{id}');
      const about = (event: any) => event?.reminder_id === id || event?.reminders?.[0]?.reminder_id === id;
      const events = (await pollEvents(context, 'member', queue, (seen) => seen.filter(about).length >= 2)).filter(about);
      expect(events[0]?.op === 'add' && events[0].reminders?.[0]?.reminder_id === id && events[1]?.op === 'remove' && events[1].reminder_id === id, `the events about reminder ${id} are ${JSON.stringify(events)}`);
    } finally {
      await queue.remove();
    }
  }, ['events', 'reminder-listing', 'reminder-deletion']),
];

export const REMINDERS_CHECKS: readonly Check[] = [...mustChecks, ...decisionChecks];

export const REMINDERS_OPERATIONS: readonly SpecOperation[] = [
  {
    name: 'POST /reminders', since: 381, ownData: true, repeatable: true,
    // A reminder made is seen by GET /reminders and removed by DELETE: on a target without them
    // (Zulip at 381 to 384) the rules of every operation cannot tell what a request did.
    needs: ['reminder-listing', 'reminder-deletion'],
    async prepare(context) {
      const messageId = await context.memo('reminders-general', () => messageToRemind(context, true, `${context.prefix} general`));
      // Only the reminders of the run's own message: other runs remind the same user meanwhile.
      // A reminder names its message in a field of its own (Zulip: reminder_target_message_id) or links to it.
      const names = (reminder: any) => Object.entries(reminder ?? {}).some(([key, value]) => /message_id$/.test(key) && value === messageId) || linksToMessage(String(reminder?.content ?? ''), messageId);
      const ofOurs = async () => (await listReminders(context)).filter(names);
      const before = new Set((await ofOurs()).map((reminder) => reminder.reminder_id));
      return {
        method: 'POST', path: '/reminders',
        valid: { message_id: messageId, scheduled_delivery_timestamp: (await targetNow(context)) + 30 * DAY },
        observe: async () => JSON.stringify((await ofOurs()).map((reminder) => reminder.reminder_id).sort((a, b) => a - b)),
        others: {
          observe: async (as) => JSON.stringify((await listReminders(context, as)).filter(names).sort((a, b) => a.reminder_id - b.reminder_id)),
          tells: (event) => names(event) || (Array.isArray(event?.reminders) && event.reminders.some(names)),
        },
        undo: async () => {
          for (const reminder of await ofOurs()) {
            if (!before.has(reminder.reminder_id)) await context.cleanup.request(`delete reminder ${reminder.reminder_id}`, () => context.call('member', 'DELETE', `/reminders/${reminder.reminder_id}`));
          }
        },
      };
    },
  },
];
