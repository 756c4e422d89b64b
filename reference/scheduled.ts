// Scheduled messages: spec "Resources: Scheduled message", "Endpoints 2. Edit a scheduled
// message" and "3. Delete a scheduled message", with Zulip's POST and GET /scheduled_messages
// to make and read them, and the delivery worker that sends them on the reference clock.

import { listening, sendEvent } from './events.js';
import type { Request } from './http.js';
import { has } from './levels.js';
import {
  checkChannelId, checkChannelTopic, checkDirectRecipientIds, doSendMessage, isEmptyTopicName, renderContent,
} from './messages.js';
import type { Realm, Recipient, ScheduledMessage, ScheduledMessageId, User } from './model.js';
import { JsonError, checkInt, pathId, type Params } from './params.js';
import { characterLength, normalizeContent, truncateTopic } from './text.js';

type MessageType = 'stream' | 'private';

/** scheduled.late-delivery-fails: how late the worker may send a message (Zulip: ten minutes; the alternate dialect: five). */
const latestDeliverySeconds = (realm: Realm) => (realm.alternate('scheduled.late-delivery-fails') ? 5 : 10) * 60;

// ---- Rules ------------------------------------------------------------------------------

/**
 * scheduled.type-values; scheduled.type-synonyms: `direct` means `private` at every level;
 * scheduled.channel-type-absent-before-248: `channel` means `stream` from level 248.
 */
function checkMessageType(realm: Realm, given: string): MessageType {
  const channelName = has(realm.featureLevel, 'channelTypeName') || realm.fault('scheduled.channel-type-absent-before-248');
  if (given === 'stream' || (given === 'channel' && channelName)) {
    return given === 'channel' && realm.fault('scheduled.type-synonyms') ? 'private' : 'stream';
  }
  if (given === 'private' || given === 'direct') return 'private';
  if (realm.fault('scheduled.type-values')) return 'stream';
  throw new JsonError('Invalid type: Value error, Not in the list of possible values');
}

/** `to` is a channel ID or a list of user IDs (Json[int | list[int]]). */
function parseTo(params: Params): number | number[] | undefined {
  const value = params.json('to');
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((item) => checkInt(item, 'to["int"]'));
  return checkInt(value, 'to["int"]');
}

/** scheduled.to-matches-type: a channel ID for channel messages, a list of user IDs for direct ones. */
function checkRecipient(realm: Realm, sender: User, type: MessageType, to: number | number[], topic: string): Recipient {
  if (type === 'stream') {
    if (Array.isArray(to) && !(realm.fault('scheduled.to-matches-type') && to.length > 0)) throw new JsonError('Invalid data type for channel ID');
    const id = Array.isArray(to) ? to[0]! : to;
    return { type: 'stream', channelId: checkChannelOfEdit(realm, sender, id).id, topic };
  }
  if (!Array.isArray(to)) throw new JsonError('Invalid data type for recipients');
  const known = realm.fault('scheduled.invalid-user-error') ? to.filter((id) => realm.users.has(id as never)) : to;
  return { type: 'private', userIds: checkDirectRecipientIds(realm, sender, known) };
}

/** scheduled.missing-channel-error: STREAM_DOES_NOT_EXIST with the requested ID as stream_id. */
function checkChannelOfEdit(realm: Realm, sender: User, id: number) {
  try {
    return checkChannelId(realm, sender, id);
  } catch (error) {
    if (error instanceof JsonError && realm.fault('scheduled.missing-channel-error')) throw new JsonError(error.msg, error.status, error.code);
    throw error;
  }
}

/**
 * The topic of an edit: spec "Topic rules". A required topic (the type is being set to
 * channel) cannot be "(no topic)", empty, or the empty-topic display name; a topic given
 * otherwise means the empty topic by those names (from level 370), and may be empty from 334.
 */
function checkEditedTopic(realm: Realm, given: string, required: boolean): string {
  let topic = realm.fault('scheduled.topic-normalized') || realm.alternate('scheduled.topic-normalized') ? given : given.trim();
  if (required && isEmptyTopicName(realm, topic) && !realm.fault('scheduled.required-topic-not-empty')) throw topicRequired();
  if (emptyTopicNamesMeanEmpty(realm) && isEmptyTopicName(realm, topic)) topic = '';
  if (topic === '' && !emptyTopicsValid(realm)) throw new JsonError("Topic can't be empty!");
  if (topic.includes('\0')) throw new JsonError('Topic must not contain null bytes');
  if (realm.fault('scheduled.topic-limit')) return truncateCountingCodeUnits(topic, realm.settings.maxTopicLength);
  return checkTopicLength(realm, topic);
}

/** scheduled.topic-limit; scheduled.limits-truncate: Zulip truncates, the alternate dialect refuses. */
function checkTopicLength(realm: Realm, topic: string): string {
  const max = realm.settings.maxTopicLength;
  if (!realm.alternate('scheduled.limits-truncate')) return truncateTopic(topic, max);
  if (characterLength(topic) > max) throw new JsonError(`Topics are at most ${max} characters long`);
  return topic;
}

/** scheduled.empty-topic-names (from 370); scheduled.no-topic-ordinary-before-370 */
function emptyTopicNamesMeanEmpty(realm: Realm): boolean {
  return has(realm.featureLevel, 'noTopicMeansEmptyTopic')
    ? !realm.fault('scheduled.empty-topic-names')
    : realm.fault('scheduled.no-topic-ordinary-before-370');
}

/** scheduled.empty-topic-valid-since-334; scheduled.empty-topic-invalid-before-334 */
function emptyTopicsValid(realm: Realm): boolean {
  return has(realm.featureLevel, 'emptyTopicNames')
    ? !realm.fault('scheduled.empty-topic-valid-since-334')
    : realm.fault('scheduled.empty-topic-invalid-before-334');
}

/** The fault scheduled.topic-limit: a limit in UTF-16 code units, where the spec counts characters. */
function truncateCountingCodeUnits(topic: string, max: number): string {
  return topic.length <= max ? topic : topic.slice(0, max - 3).replace(/[\ud800-\udbff]$/, '') + '...';
}

const topicRequired = () => new JsonError('Topic required when updating scheduled message type to channel.');

/** scheduled.future-timestamp: the alternate dialect takes a past time as "due now". */
function checkDeliveryTimeInFuture(realm: Realm, timestamp: number): void {
  if (realm.alternate('scheduled.future-timestamp')) return;
  if (timestamp <= realm.clock.now()) throw new JsonError('Scheduled delivery time must be in the future.');
}

/** scheduled.content-limit; scheduled.limits-truncate */
function checkScheduledContent(realm: Realm, content: string): string {
  const max = realm.settings.maxMessageLength;
  if (realm.fault('scheduled.content-limit')) return normalizeContent(content, Number.MAX_SAFE_INTEGER);
  const refuses = realm.fault('scheduled.limits-truncate') || realm.alternate('scheduled.limits-truncate');
  if (refuses && characterLength(content.trimEnd()) > max) throw new JsonError('Message too long');
  return normalizeContent(content, max);
}

/** scheduled.missing-message-error; scheduled.own-messages-only: only the sender's own. */
function findScheduledMessage(realm: Realm, user: User, id: number): ScheduledMessage {
  const scheduled = realm.scheduledMessages.get(id as ScheduledMessageId);
  const own = scheduled !== undefined && (scheduled.senderId === user.id || realm.fault('scheduled.own-messages-only'));
  if (scheduled && !own && realm.alternate('scheduled.error-texts')) {
    throw new JsonError('Scheduled message does not exist', 403, 'FORBIDDEN').otherwise('That scheduled message belongs to another user', 403);
  }
  if (!scheduled || !own) {
    throw new JsonError('Scheduled message does not exist', 404, realm.fault('scheduled.missing-message-error') ? 'NOT_FOUND' : 'BAD_REQUEST')
      .otherwise(`No scheduled message has ID ${id}`, 400);
  }
  return scheduled;
}

export function scheduledMessageDict(realm: Realm, scheduled: ScheduledMessage): Record<string, unknown> {
  if (realm.alternate('scheduled.listing-shape')) return alternateScheduledMessageDict(realm, scheduled);
  const base = {
    scheduled_message_id: scheduled.id,
    content: scheduled.content,
    rendered_content: renderContent(realm, scheduled.content),
    scheduled_delivery_timestamp: scheduled.deliveryTimestamp,
    failed: scheduled.failed,
  };
  if (scheduled.recipient.type === 'stream') {
    return { ...base, type: 'stream', to: scheduled.recipient.channelId, topic: scheduled.recipient.topic };
  }
  // Zulip lists the other participants; a message to oneself lists the sender.
  const others = scheduled.recipient.userIds.filter((id) => id !== scheduled.senderId || realm.fault('scheduled.listing-shape'));
  return { ...base, type: 'private', to: others.length > 0 ? others : [scheduled.senderId] };
}

/** scheduled.listing-shape in the alternate dialect. */
function alternateScheduledMessageDict(realm: Realm, scheduled: ScheduledMessage): Record<string, unknown> {
  const { recipient } = scheduled;
  const channelType = has(realm.featureLevel, 'channelTypeName') ? 'channel' : 'stream';
  return {
    scheduled_message_id: scheduled.id,
    type: recipient.type === 'stream' ? channelType : 'direct',
    to: recipient.type === 'stream' ? recipient.channelId : recipient.userIds,
    topic: recipient.type === 'stream' ? recipient.topic : '',
    content: scheduled.content,
    scheduled_delivery_timestamp: scheduled.deliveryTimestamp,
    failed: scheduled.failed,
  };
}

/** The user's undelivered scheduled messages, failed ones included, by delivery time. */
export function undeliveredScheduledMessages(realm: Realm, user: User): ScheduledMessage[] {
  const list = [...realm.scheduledMessages.values()]
    .filter((scheduled) => scheduled.senderId === user.id && !scheduled.delivered)
    .sort((a, b) => a.deliveryTimestamp - b.deliveryTimestamp || a.id - b.id);
  // scheduled.listing-shape: the alternate dialect lists the latest first.
  return realm.alternate('scheduled.listing-shape') ? list.reverse() : list;
}

// ---- Actions ------------------------------------------------------------------------------

function sendScheduledMessagesEvent(realm: Realm, user: User, event: () => Record<string, unknown>): void {
  if (listening(realm, 'scheduled_messages', [user.id])) sendEvent(realm, { type: 'scheduled_messages', ...event() }, [user.id]);
}

/** scheduled.event-shapes: {op: "update", scheduled_message}; the alternate dialect sends a list. */
function sendScheduledMessageUpdate(realm: Realm, sender: User, scheduled: ScheduledMessage): void {
  const listed = realm.fault('scheduled.event-shapes') || realm.alternate('scheduled.event-shapes');
  sendScheduledMessagesEvent(realm, sender, () => (listed ? { op: 'update', scheduled_messages: [scheduledMessageDict(realm, scheduled)] } : { op: 'update', scheduled_message: scheduledMessageDict(realm, scheduled) }));
}

/** scheduled.event-shapes: {op: "remove", scheduled_message_id}; the alternate dialect sends a list of IDs. */
function sendScheduledMessageRemove(realm: Realm, sender: User, scheduled: ScheduledMessage): void {
  sendScheduledMessagesEvent(realm, sender, () => (realm.alternate('scheduled.event-shapes') ? { op: 'remove', scheduled_message_ids: [scheduled.id] } : { op: 'remove', scheduled_message_id: scheduled.id }));
}

export function doScheduleMessage(realm: Realm, sender: User, fields: Omit<ScheduledMessage, 'id' | 'senderId' | 'failed' | 'retry' | 'failureMessage' | 'delivered'>): ScheduledMessage {
  const scheduled: ScheduledMessage = { id: realm.nextScheduledMessageId(), senderId: sender.id, ...fields, failed: false, retry: false, failureMessage: null, delivered: false };
  realm.scheduledMessages.set(scheduled.id, scheduled);
  sendScheduledMessagesEvent(realm, sender, () => ({ op: 'add', scheduled_messages: [scheduledMessageDict(realm, scheduled)] }));
  return scheduled;
}

export function doEditScheduledMessage(realm: Realm, sender: User, scheduled: ScheduledMessage, changes: Partial<Pick<ScheduledMessage, 'recipient' | 'content' | 'deliveryTimestamp'>>): void {
  Object.assign(scheduled, changes);
  // Decision scheduled.edit-clears-failed: a message edited with a new time is pending again;
  // the alternate dialect still lists it as failed until it is sent.
  if (changes.deliveryTimestamp !== undefined && !realm.fault('scheduled.edit-clears-failed')) {
    if (realm.alternate('scheduled.edit-clears-failed')) scheduled.retry = scheduled.failed;
    else scheduled.failed = false;
    scheduled.failureMessage = null;
  }
  sendScheduledMessageUpdate(realm, sender, scheduled);
}

/** States and transitions: DELETE of a pending or failed message; sending is cancelled. */
export function doDeleteScheduledMessage(realm: Realm, sender: User, scheduled: ScheduledMessage): void {
  if (realm.fault('scheduled.delete-removes')) return;
  realm.scheduledMessages.delete(scheduled.id);
  if (realm.fault('scheduled.deleted-never-sent')) stillSent(realm).push(scheduled);
  sendScheduledMessageRemove(realm, sender, scheduled);
}

/** The fault scheduled.deleted-never-sent: deleted messages the worker still sends. */
const deletedButSent = new WeakMap<Realm, ScheduledMessage[]>();
function stillSent(realm: Realm): ScheduledMessage[] {
  let list = deletedButSent.get(realm);
  if (!list) deletedButSent.set(realm, (list = []));
  return list;
}

// ---- Delivery -------------------------------------------------------------------------------

/**
 * The delivery worker: sends each due message, oldest first. A message is seen when it comes
 * due, or, if the worker was down then, when it came back; seen over ten minutes late, it
 * fails, as do messages that can no longer be sent.
 */
export function deliverScheduledMessages(realm: Realm): void {
  const now = realm.clock.now();
  const due = [...realm.scheduledMessages.values(), ...stillSent(realm)]
    .filter((scheduled) => !scheduled.delivered && (!scheduled.failed || scheduled.retry) && scheduled.deliveryTimestamp <= now)
    .sort((a, b) => a.deliveryTimestamp - b.deliveryTimestamp || a.id - b.id);
  for (const scheduled of due) {
    const sender = realm.users.get(scheduled.senderId)!;
    const seenAt = Math.max(scheduled.deliveryTimestamp, realm.workerDownUntil);
    try {
      const late = seenAt > scheduled.deliveryTimestamp + latestDeliverySeconds(realm) && !realm.fault('scheduled.late-delivery-fails');
      if (late) throw new JsonError('Message could not be sent at the scheduled time.');
      const recipient = revalidateRecipient(realm, sender, scheduled.recipient);
      const from = realm.fault('scheduled.delivery') ? realm.notificationBot! : sender;
      doSendMessage(realm, from, recipient, scheduled.content, scheduled.readBySender, 'API', seenAt);
      scheduled.delivered = true;
      scheduled.failed = false;
      // scheduled.delivery: Zulip keeps the delivered row; the alternate dialect drops it.
      if (realm.alternate('scheduled.delivery')) realm.scheduledMessages.delete(scheduled.id);
      sendScheduledMessageRemove(realm, sender, scheduled);
    } catch (error) {
      if (!(error instanceof JsonError)) throw error;
      doFailScheduledMessage(realm, sender, scheduled, error.msg, seenAt);
    }
  }
}

/** Permissions are those at delivery time: the channel may have been archived since. */
function revalidateRecipient(realm: Realm, sender: User, recipient: Recipient): Recipient {
  if (recipient.type === 'stream') checkChannelId(realm, sender, recipient.channelId);
  return recipient;
}

function doFailScheduledMessage(realm: Realm, sender: User, scheduled: ScheduledMessage, reason: string, failedAt: number): void {
  scheduled.failed = true;
  scheduled.retry = false;
  scheduled.failureMessage = reason;
  sendScheduledMessageUpdate(realm, sender, scheduled);
  // scheduled.late-delivery-fails: the alternate dialect fails silently.
  if (realm.alternate('scheduled.late-delivery-fails')) return;
  const time = new Date(scheduled.deliveryTimestamp * 1000).toISOString();
  const notice = `The message you scheduled for <time:${time}> was not sent because of the following error:\n\n> ${reason}\n\n[View scheduled messages](#scheduled)`;
  doSendMessage(realm, realm.notificationBot!, { type: 'private', userIds: [realm.notificationBot!.id, sender.id].sort((a, b) => a - b) }, notice, false, 'Internal', failedAt);
}

// ---- Operations ---------------------------------------------------------------------------

export function createScheduledMessage({ realm, user, params }: Request) {
  const type = checkMessageType(realm, params.requiredString('type'));
  const to = parseTo(params);
  if (to === undefined) throw new JsonError("Missing 'to' argument", 400, 'REQUEST_VARIABLE_MISSING', { var_name: 'to' });
  const topic = params.string('topic') ?? params.string('subject');
  const content = params.requiredString('content');
  const timestamp = params.int('scheduled_delivery_timestamp');
  if (timestamp === undefined) throw new JsonError("Missing 'scheduled_delivery_timestamp' argument", 400, 'REQUEST_VARIABLE_MISSING', { var_name: 'scheduled_delivery_timestamp' });
  const readBySender = params.bool('read_by_sender') ?? false;
  checkDeliveryTimeInFuture(realm, timestamp);
  const body = checkScheduledContent(realm, content);
  const recipient = checkRecipient(realm, user, type, to, type === 'stream' ? checkNewTopic(realm, topic) : '');
  const scheduled = doScheduleMessage(realm, user, { recipient, content: body, deliveryTimestamp: timestamp, readBySender });
  return { scheduled_message_id: scheduled.id };
}

/** A new message's topic: as a sent message's in Zulip's dialect, as an edit's in the alternate one (not stripped, refused past the limit). */
function checkNewTopic(realm: Realm, given: string | undefined): string {
  if (!realm.alternate('scheduled.topic-normalized')) return checkChannelTopic(realm, given);
  if (given === undefined) throw new JsonError('Missing topic');
  return checkEditedTopic(realm, given, false);
}

export function getScheduledMessages({ realm, user }: Request) {
  return { scheduled_messages: undeliveredScheduledMessages(realm, user).map((scheduled) => scheduledMessageDict(realm, scheduled)) };
}

/**
 * Zulip's order of checks: what is given, the time, the message, then the new fields. The
 * alternate dialect looks the message up first, and asks for `to` and a topic only when the
 * type changes, as the spec says (scheduled.error-texts).
 */
export function editScheduledMessage({ realm, user, params, path }: Request) {
  const alternate = realm.alternate('scheduled.error-texts');
  const lookUp = () => findScheduledMessage(realm, user, pathId(path.scheduled_message_id!));
  let scheduled = alternate ? lookUp() : undefined;
  const typeName = params.string('type');
  const type = typeName === undefined ? undefined : checkMessageType(realm, typeName);
  const to = parseTo(params);
  const topic = params.string('topic') ?? params.string('subject');
  const content = params.string('content');
  const timestamp = params.int('scheduled_delivery_timestamp');
  if (type === undefined && to === undefined && topic === undefined && content === undefined && timestamp === undefined) {
    if (alternate) return {};
    throw new JsonError(realm.fault('scheduled.error-texts') ? 'No changes' : 'Nothing to change');
  }
  const typeChanges = type !== undefined && (!alternate || type !== scheduled!.recipient.type);
  if (typeChanges && to === undefined && !realm.fault('scheduled.to-required-on-type-change')) {
    throw new JsonError('Recipient required when updating type of scheduled message.');
  }
  if (typeChanges && type === 'stream' && topic === undefined && !realm.fault('scheduled.topic-required-on-change-to-channel')) throw topicRequired();
  if (timestamp !== undefined && !realm.fault('scheduled.future-timestamp')) checkDeliveryTimeInFuture(realm, timestamp);
  scheduled ??= lookUp();
  // Decision scheduled.delivery: a delivered message is no longer scheduled.
  if (scheduled.delivered) throw new JsonError('Scheduled message was already sent');
  // scheduled.failed-needs-timestamp, with Zulip's text.
  if (scheduled.failed && timestamp === undefined && !realm.fault('scheduled.failed-needs-timestamp')) {
    throw new JsonError('Scheduled delivery time must be in the future.');
  }

  const changes: Parameters<typeof doEditScheduledMessage>[3] = {};
  const current = scheduled.recipient;
  const newType = type ?? current.type;
  if (to !== undefined) {
    // scheduled.topic-ignored-for-direct: a direct message's topic is never read. A channel
    // message without a new topic keeps its own (a direct one becoming a channel message has
    // none to keep only under the fault scheduled.topic-required-on-change-to-channel).
    const keptTopic = current.type === 'stream' ? current.topic : realm.settings.emptyTopicDisplayName;
    const newTopic = newType === 'stream' && topic !== undefined ? checkEditedTopic(realm, topic, typeChanges && type === 'stream') : keptTopic;
    changes.recipient = checkRecipient(realm, user, newType, to, newTopic);
  } else if (topic !== undefined && current.type === 'stream') {
    changes.recipient = { ...current, topic: checkEditedTopic(realm, topic, false) };
  } else if (topic !== undefined && realm.fault('scheduled.topic-ignored-for-direct')) {
    throw new JsonError('Direct messages have no topic');
  }
  if (content !== undefined) changes.content = checkScheduledContent(realm, content);
  if (content !== undefined && realm.fault('scheduled.edits-follow-model') && current.type === 'private' && to === undefined) delete changes.content;
  if (timestamp !== undefined) changes.deliveryTimestamp = timestamp;
  doEditScheduledMessage(realm, user, scheduled, changes);
  return {};
}

export function deleteScheduledMessage({ realm, user, path }: Request) {
  const id = pathId(path.scheduled_message_id!);
  if (realm.fault('scheduled.delete-missing-error') && !realm.scheduledMessages.has(id as ScheduledMessageId)) return {};
  doDeleteScheduledMessage(realm, user, findScheduledMessage(realm, user, id));
  return {};
}
