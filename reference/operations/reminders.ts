// Message reminders: spec "Endpoints 7. Create a message reminder", with Zulip's GET and DELETE
// /reminders, and their delivery on the reference clock: a direct message from the notification
// bot to the user.

import { listening, sendEvent } from '../model/events.js';
import type { Request } from '../model/request.js';
import { has } from '../model/levels.js';
import { doSendMessage, messageIsAccessible } from '../model/messaging.js';
import type { Message, MessageId, Realm, Reminder, User } from '../model/model.js';
import { JsonError, pathId } from '../model/params.js';
import { characterLength } from '../model/text.js';

/** reminders.parameters: the longest note, in characters. */
const MAX_NOTE_LENGTH = 1000;
/** reminders.parameters: a reminder without a time is due in an hour where the dialect allows it. */
const HOUR = 3600;

/** reminders.delivery: Zulip's encoding of a name in a narrow: percent-encoded but for letters, digits and -_~, then "%" written ".". */
export function hashEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*.]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%/g, '.');
}

/** reminders.delivery: Zulip's link to a message. */
export function messageUrl(realm: Realm, message: Message): string {
  if (message.recipient.type === 'private') return `${realm.url}/#narrow/dm/${message.recipient.userIds.join(',')}/near/${message.id}`;
  const channel = realm.channels.get(message.recipient.channelId)!;
  return `${realm.url}/#narrow/channel/${channel.id}-${hashEncode(channel.name.replace(/ /g, '-'))}/topic/${hashEncode(message.recipient.topic)}/near/${message.id}`;
}

// ---- Rules ------------------------------------------------------------------------------

/** reminders.note-absent-before-415: note is a parameter from level 415. */
function readsReminderNote(realm: Realm): boolean {
  return has(realm.featureLevel, 'reminderNote');
}

/** reminders.note-delivered */
function deliveredNote(reminder: Reminder): string {
  return reminder.note;
}

/** reminders.delivered-to-self: from the notification bot, to the user. */
function reminderSender(realm: Realm, _user: User): User {
  return realm.notificationBot!;
}

/** reminders.create-returns-id */
function idOfCreatedReminder(reminder: Reminder): number {
  return reminder.id;
}

/** reminders.sent-at-its-time: a reminder goes once its time has come, not before. */
function dueReminders(realm: Realm, now: number): Reminder[] {
  return [...realm.reminders.values()].filter((reminder) => !reminder.failed && reminder.deliveryTimestamp <= now);
}

export const REMINDER_RULES = { readsReminderNote, deliveredNote, reminderSender, idOfCreatedReminder, dueReminders };

// ---- Listing ------------------------------------------------------------------------------

/** reminders.delivery: what the delivered reminder says. */
export function reminderContent(realm: Realm, user: User, reminder: Reminder): string {
  return realm.dialect.reminderContent(realm, user, reminder, realm.rules.deliveredNote(reminder));
}

/** reminders.listing-shape */
export function reminderDict(realm: Realm, reminder: Reminder): Record<string, unknown> {
  return realm.dialect.reminderDict(realm, reminder);
}

/** The user's reminders, by delivery time. */
export function remindersOf(realm: Realm, user: User): Reminder[] {
  const list = [...realm.reminders.values()].filter((reminder) => reminder.userId === user.id).sort((a, b) => a.deliveryTimestamp - b.deliveryTimestamp || a.id - b.id);
  return realm.dialect.remindersListed(list);
}

/** reminders.listing-shape: the change, to the user's own clients. */
function sendRemindersEvent(realm: Realm, user: User, op: 'add' | 'remove', reminder: Reminder): void {
  const audience = realm.rules.ownDataAudience(realm, user);
  if (has(realm.featureLevel, 'remindersListed') && listening(realm, 'reminders', audience)) sendEvent(realm, { type: 'reminders', ...realm.dialect.remindersEvent(realm, op, reminder) }, audience);
}

// ---- Delivery -------------------------------------------------------------------------------

/** reminders.delivery: the client a delivered reminder names, Zulip's worker's. */
const REMINDER_CLIENT = 'Internal';

/** reminders.delivery: reminders due at once go in the order of their times, as Zulip's worker takes them. */
function inOrderOfTime(due: Reminder[]): Reminder[] {
  return due.sort((a, b) => a.deliveryTimestamp - b.deliveryTimestamp);
}

/** reminders.delivery: a direct conversation's members in the order of their IDs, as Zulip keeps them. */
function inIdOrder<T extends number>(ids: T[]): T[] {
  return ids.sort((a, b) => a - b);
}

/** reminders.delivered-to-self; reminders.sent-at-its-time: a direct message to the user, once its time has come. */
export function deliverReminders(realm: Realm): void {
  const now = realm.clock.now();
  const due = inOrderOfTime(realm.rules.dueReminders(realm, now));
  for (const reminder of failLateReminders(realm, due, now)) {
    const user = realm.users.get(reminder.userId)!;
    const from = realm.rules.reminderSender(realm, user);
    const userIds = inIdOrder([...new Set([from.id, user.id])]);
    doSendMessage(realm, from, { type: 'private', userIds }, reminderContent(realm, user, reminder), false, REMINDER_CLIENT, reminderSeenAt(realm, reminder, now));
    realm.reminders.delete(reminder.id);
    sendRemindersEvent(realm, user, 'remove', reminder);
  }
}

/** reminders.sent-at-its-time: seen at its time, or, if the worker was down then, when it came back; never after now. */
function reminderSeenAt(realm: Realm, reminder: Reminder, now: number): number {
  return Math.min(now, Math.max(reminder.deliveryTimestamp, realm.workerDownUntil));
}

/** reminders.delivery: a reminder seen later than the dialect allows fails; the others are sent. */
function failLateReminders(realm: Realm, due: readonly Reminder[], now: number): Reminder[] {
  return due.filter((reminder) => {
    if (reminderSeenAt(realm, reminder, now) <= reminder.deliveryTimestamp + realm.dialect.latestReminderDeliverySeconds()) return true;
    reminder.failed = true;
    return false;
  });
}

// ---- Operations ---------------------------------------------------------------------------

export function createReminder({ realm, user, params }: Request) {
  const now = realm.clock.now();
  const messageId = params.int('message_id');
  const timestamp = params.int('scheduled_delivery_timestamp');
  const note = noteAsGiven(realm.rules.readsReminderNote(realm) ? params.string('note') : undefined);
  const when = deliveryTimeOf(realm, messageId, timestamp, now);
  checkMessageReadable(realm, user, messageId);
  checkNoteLength(note);
  const reminder: Reminder = { id: realm.nextId('reminder'), userId: user.id, messageId: (messageId ?? null) as MessageId | null, deliveryTimestamp: when, note, failed: false };
  realm.reminders.set(reminder.id, reminder);
  sendRemindersEvent(realm, user, 'add', reminder);
  return { reminder_id: realm.rules.idOfCreatedReminder(reminder) };
}

/** reminders.note-delivered: the note the user gave is the one shown. */
function noteAsGiven(given: string | undefined): string {
  return given === undefined ? noNote() : withoutBlankEdges(given);
}

/** reminders.delivery: what a reminder created without a note carries: the empty note (the spec says only that a note is optional, and shown when given). */
function noNote(): string {
  return '';
}

/** reminders.delivery: Zulip drops a note's leading newlines and trailing whitespace. */
function withoutBlankEdges(note: string): string {
  return note.trimEnd().replace(/^\n+/, '');
}

/** reminders.parameters: the parameters the dialect requires, and a time in the future (an hour from now where none is given). */
function deliveryTimeOf(realm: Realm, messageId: number | undefined, timestamp: number | undefined, now: number): number {
  realm.dialect.checkReminderParametersGiven(messageId, timestamp);
  const when = timestamp ?? Math.floor(now) + HOUR;
  realm.dialect.checkReminderTimeInFuture(when, now);
  return when;
}

/** reminders.parameters: a reminder is of a message the user may read. */
function checkMessageReadable(realm: Realm, user: User, messageId: number | undefined): void {
  if (messageId === undefined) return;
  const message = realm.messages.get(messageId as MessageId);
  if (!message || !messageIsAccessible(realm, user, message)) throw new JsonError('Invalid message(s)').otherwise(`You may not read message ${messageId}`, 403);
}

/** reminders.parameters: a note of MAX_NOTE_LENGTH characters at most, counted as Zulip (Python) counts them, not in UTF-16 units. */
function checkNoteLength(note: string): void {
  if (characterLength(note) > MAX_NOTE_LENGTH) throw new JsonError(`Maximum reminder note length: ${MAX_NOTE_LENGTH} characters`);
}

export function getReminders({ realm, user }: Request) {
  return { reminders: remindersOf(realm, user).map((reminder) => reminderDict(realm, reminder)) };
}

export function deleteReminder({ realm, user, path }: Request) {
  const id = pathId(path.reminder_id!);
  const reminder = realm.reminders.get(id);
  if (!reminder) throw new JsonError('Reminder does not exist', 404);
  if (reminder.userId !== user.id) throw realm.dialect.othersReminder();
  realm.reminders.delete(id);
  sendRemindersEvent(realm, user, 'remove', reminder);
  return {};
}
