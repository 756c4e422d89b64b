// Message reminders: spec "Endpoints 7. Create a message reminder", with Zulip's GET and DELETE
// /reminders, and their delivery on the reference clock: a direct message from the notification
// bot to the user.

import { listening, sendEvent } from './events.js';
import type { Request } from './http.js';
import { has } from './levels.js';
import { doSendMessage, messageIsAccessible, renderContent } from './messages.js';
import type { Message, MessageId, Realm, Reminder, User } from './model.js';
import { JsonError, missingArgument, pathId } from './params.js';

const MAX_NOTE_LENGTH = 1000;
const HOUR = 3600;

/** Zulip's link to a message. */
function messageUrl(realm: Realm, message: Message): string {
  if (message.recipient.type === 'private') return `${realm.url}/#narrow/dm/${message.recipient.userIds.join(',')}/near/${message.id}`;
  const channel = realm.channels.get(message.recipient.channelId)!;
  const slug = channel.name.replace(/[^A-Za-z0-9]+/g, '-');
  return `${realm.url}/#narrow/channel/${channel.id}-${slug}/topic/${encodeURIComponent(message.recipient.topic).replace(/%/g, '.')}/near/${message.id}`;
}

/** reminders.delivery: what the delivered reminder says. */
export function reminderContent(realm: Realm, user: User, reminder: Reminder): string {
  const message = reminder.messageId === null ? undefined : realm.messages.get(reminder.messageId);
  const noted = reminder.note !== '' && !realm.fault('reminders.note-delivered');
  if (realm.alternate('reminders.delivery')) {
    return `Reminder: ${message ? messageUrl(realm, message) : 'a note to yourself'}${noted ? `\n\n${reminder.note}` : ''}`;
  }
  const kind = message?.recipient.type === 'private' ? 'direct message' : 'message';
  const head = `You requested a reminder for the following ${kind}.${noted ? ` Note:\n > ${reminder.note}` : ''}`;
  if (!message || !messageIsAccessible(realm, user, message)) return head;
  const sender = realm.users.get(message.senderId)!;
  const where = message.recipient.type === 'stream'
    ? `in #**${realm.channels.get(message.recipient.channelId)!.name}>${message.recipient.topic}**`
    : `to ${message.recipient.userIds.filter((id) => id !== sender.id).map((id) => `@_**${realm.users.get(id)!.fullName}|${id}**`).join(', ')}`;
  const fence = '`'.repeat(Math.max(3, ...(message.content.match(/`+/g) ?? []).map((run) => run.length + 1)));
  return `${head}\n\n@_**${sender.fullName}|${sender.id}** [said](${messageUrl(realm, message)}) ${where}:\n${fence}quote\n${message.content}\n${fence}`;
}

/** reminders.listing-shape */
export function reminderDict(realm: Realm, reminder: Reminder): Record<string, unknown> {
  if (realm.alternate('reminders.listing-shape')) {
    return { reminder_id: reminder.id, message_id: reminder.messageId, scheduled_delivery_timestamp: reminder.deliveryTimestamp, note: reminder.note, failed: reminder.failed };
  }
  const user = realm.users.get(reminder.userId)!;
  const content = reminderContent(realm, user, reminder);
  const dict: Record<string, unknown> = {
    reminder_id: reminder.id, type: 'private', to: [reminder.userId], content, rendered_content: renderContent(realm, content),
    scheduled_delivery_timestamp: reminder.deliveryTimestamp, failed: reminder.failed, reminder_target_message_id: reminder.messageId,
  };
  if (realm.fault('reminders.listing-shape')) delete dict.reminder_target_message_id;
  return dict;
}

export function remindersOf(realm: Realm, user: User): Reminder[] {
  const list = [...realm.reminders.values()].filter((reminder) => reminder.userId === user.id).sort((a, b) => a.deliveryTimestamp - b.deliveryTimestamp || a.id - b.id);
  return realm.alternate('reminders.listing-shape') ? list.reverse() : list;
}

function sendRemindersEvent(realm: Realm, user: User, op: 'add' | 'remove', reminder: Reminder): void {
  if (!listening(realm, 'reminders', [user.id])) return;
  const alternate = realm.alternate('reminders.listing-shape');
  const event = op === 'add'
    ? alternate ? { op: 'created', reminder: reminderDict(realm, reminder) } : { op, reminders: [reminderDict(realm, reminder)] }
    : alternate ? { op: 'deleted', reminder_ids: [reminder.id] } : { op, reminder_id: reminder.id };
  sendEvent(realm, { type: 'reminders', ...event }, [user.id]);
}

// ---- Delivery -------------------------------------------------------------------------------

/** reminders.delivery: from the notification bot to the user; Zulip sends late reminders too. */
export function deliverReminders(realm: Realm): void {
  const now = realm.clock.now();
  const due = [...realm.reminders.values()].filter((reminder) => !reminder.failed && reminder.deliveryTimestamp <= now).sort((a, b) => a.deliveryTimestamp - b.deliveryTimestamp);
  for (const reminder of due) {
    const user = realm.users.get(reminder.userId)!;
    const seenAt = Math.max(reminder.deliveryTimestamp, realm.workerDownUntil);
    const lateAfter = realm.alternate('reminders.delivery') ? 5 * 60 : realm.fault('reminders.delivery') ? 10 * 60 : Infinity;
    if (seenAt > reminder.deliveryTimestamp + lateAfter) {
      reminder.failed = true;
      continue;
    }
    const bot = realm.notificationBot!;
    const from = realm.fault('reminders.delivered-to-self') ? user : bot;
    const userIds = [...new Set([from.id, user.id])].sort((a, b) => a - b);
    doSendMessage(realm, from, { type: 'private', userIds }, reminderContent(realm, user, reminder), false, 'Internal', seenAt);
    realm.reminders.delete(reminder.id);
    sendRemindersEvent(realm, user, 'remove', reminder);
  }
}

// ---- Operations ---------------------------------------------------------------------------

export function createReminder({ realm, user, params }: Request) {
  const alternate = realm.alternate('reminders.parameters');
  const now = realm.clock.now();
  const messageId = params.int('message_id');
  const timestamp = params.int('scheduled_delivery_timestamp');
  // reminders.note-absent-before-415: note is a parameter from level 415.
  const noteParameter = has(realm.featureLevel, 'reminderNote') || realm.fault('reminders.note-absent-before-415');
  const note = ((noteParameter ? params.string('note') : undefined) ?? '').trimEnd().replace(/^\n+/, '');
  if (messageId === undefined && !alternate) throw missingArgument('message_id');
  if (timestamp === undefined && !alternate) throw missingArgument('scheduled_delivery_timestamp');
  const when = timestamp ?? Math.floor(now) + HOUR;
  if (when <= now && !alternate && !realm.fault('reminders.parameters')) throw new JsonError('Scheduled delivery time must be in the future.');
  if (messageId !== undefined) {
    const message = realm.messages.get(messageId as MessageId);
    if (!message || !messageIsAccessible(realm, user, message)) {
      throw new JsonError('Invalid message(s)').otherwise(`You may not read message ${messageId}`, 403);
    }
  }
  if (note.length > MAX_NOTE_LENGTH) throw new JsonError(`Maximum reminder note length: ${MAX_NOTE_LENGTH} characters`);
  const reminder: Reminder = { id: realm.nextReminderId(), userId: user.id, messageId: (messageId ?? null) as MessageId | null, deliveryTimestamp: when, note, failed: false };
  realm.reminders.set(reminder.id, reminder);
  sendRemindersEvent(realm, user, 'add', reminder);
  return { reminder_id: realm.fault('reminders.create-returns-id') ? reminder.id + 1000 : reminder.id };
}

export function getReminders({ realm, user }: Request) {
  return { reminders: remindersOf(realm, user).map((reminder) => reminderDict(realm, reminder)) };
}

export function deleteReminder({ realm, user, path }: Request) {
  const id = pathId(path.reminder_id!);
  const reminder = realm.reminders.get(id);
  if (!reminder || reminder.userId !== user.id) {
    throw reminder && realm.alternate('reminders.listing-shape')
      ? new JsonError('Reminder does not exist', 403, 'FORBIDDEN').otherwise('That reminder belongs to another user', 403)
      : new JsonError('Reminder does not exist', 404);
  }
  realm.reminders.delete(id);
  sendRemindersEvent(realm, user, 'remove', reminder);
  return {};
}
