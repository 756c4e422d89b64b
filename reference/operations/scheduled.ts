// Scheduled messages: spec "Resources: Scheduled message", "Endpoints 2. Edit a scheduled
// message" and "3. Delete a scheduled message", with Zulip's POST and GET /scheduled_messages
// to make and read them, and the delivery worker that sends them on the reference clock.

import { listening, sendEvent } from '../model/events.js';
import type { Request } from '../model/request.js';
import { has } from '../model/levels.js';
import { checkChannelId, checkDirectRecipientIds, doSendMessage, isEmptyTopicName } from '../model/messaging.js';
import type { Channel, MessageType, Realm, Recipient, ScheduledMessage, ScheduledMessageChanges, ScheduledMessageId, User, UserId } from '../model/model.js';
import { JsonError, checkInt, pathId, type Params } from '../model/params.js';


// ---- Rules ------------------------------------------------------------------------------

/**
 * scheduled.type-synonyms: `direct` means `private` at every level;
 * scheduled.channel-type-absent-before-248: `channel` means `stream` from level 248.
 */
function messageTypeNames(realm: Realm): Readonly<Record<string, MessageType>> {
  const names: Record<string, MessageType> = { stream: 'stream', private: 'private', direct: 'private' };
  if (has(realm.featureLevel, 'channelTypeName')) names.channel = 'stream';
  return names;
}

/** scheduled.type-values */
function checkMessageType(realm: Realm, given: string): MessageType {
  const names = realm.rules.messageTypeNames(realm);
  const type = Object.hasOwn(names, given) ? names[given] : undefined;
  if (type === undefined) throw new JsonError('Invalid type: Value error, Not in the list of possible values');
  return type;
}

/** scheduled.to-matches-type: a channel message's `to` is a channel ID. */
function channelIdOfTo(to: number | number[]): number {
  checkNotAList(to);
  return to as number;
}

/**
 * scheduled.error-texts: a list as a channel message's `to` refused with Zulip's words. Only the
 * words: without this check the channel's look-up finds no channel for a list and refuses it all the same.
 */
function checkNotAList(to: number | number[]): void {
  if (Array.isArray(to)) throw new JsonError('Invalid data type for channel ID');
}

/** scheduled.to-matches-type: a direct message's `to` is a list of user IDs. */
function userIdsOfTo(to: number | number[]): number[] {
  if (!Array.isArray(to)) throw new JsonError('Invalid data type for recipients');
  return to;
}

/** scheduled.invalid-user-error */
function checkScheduledRecipientIds(realm: Realm, sender: User, ids: readonly number[]): UserId[] {
  return checkDirectRecipientIds(realm, sender, ids);
}

/** scheduled.missing-channel-error: STREAM_DOES_NOT_EXIST with the requested ID as stream_id. */
function checkScheduledChannel(realm: Realm, sender: User, id: number): Channel {
  return checkChannelId(realm, sender, id);
}

/** scheduled.required-topic-not-empty: not "(no topic)", empty, or the empty-topic display name. */
function checkRequiredTopic(realm: Realm, topic: string): void {
  if (isEmptyTopicName(realm, topic)) throw topicRequired();
}

/** scheduled.empty-topic-names (from 370); scheduled.no-topic-ordinary-before-370 */
function emptyTopicNamesMeanEmpty(realm: Realm): boolean {
  return has(realm.featureLevel, 'noTopicMeansEmptyTopic');
}

/** scheduled.empty-topic-valid-since-334; scheduled.empty-topic-invalid-before-334 */
function emptyTopicsValid(realm: Realm): boolean {
  return has(realm.featureLevel, 'emptyTopicNames');
}

/** scheduled.topic-limit: max_topic_length characters. */
function fitTopicToLimit(realm: Realm, topic: string): string {
  return realm.dialect.fitScheduledToLimit(realm, topic, 'topic');
}

/** scheduled.content-limit: max_message_length characters. */
function fitContentToLimit(realm: Realm, content: string): string {
  return realm.dialect.fitScheduledToLimit(realm, content, 'content');
}

/** scheduled.topic-ignored-for-direct: a direct message's topic is never read. */
function ignoreTopicOfDirectMessage(_topic: string): void {}

/** scheduled.to-required-on-type-change */
function checkToGivenOnTypeChange(to: number | number[] | undefined): void {
  if (to === undefined) throw new JsonError('Recipient required when updating type of scheduled message.');
}

/** scheduled.topic-required-on-change-to-channel */
function checkTopicGivenOnChangeToChannel(topic: string | undefined): void {
  if (topic === undefined) throw topicRequired();
}

/** scheduled.failed-needs-timestamp, with Zulip's text. */
function checkFailedMessageGetsTimestamp(scheduled: ScheduledMessage, timestamp: number | undefined): void {
  if (scheduled.failed && timestamp === undefined) throw new JsonError('Scheduled delivery time must be in the future.');
}

/** scheduled.own-messages-only */
function isOwnScheduledMessage(user: User, scheduled: ScheduledMessage): boolean {
  return scheduled.senderId === user.id;
}

/** scheduled.missing-message-error */
function scheduledMessageNotFound(id: number): JsonError {
  return new JsonError('Scheduled message does not exist', 404, 'BAD_REQUEST').otherwise(`No scheduled message has ID ${id}`, 400);
}

/** scheduled.edits-follow-model: an edit changes what it gives, nothing else. */
function applyScheduledEdit(scheduled: ScheduledMessage, changes: ScheduledMessageChanges): void {
  Object.assign(scheduled, changes);
}

/** scheduled.delete-missing-error */
function deleteScheduledMessageById(realm: Realm, user: User, id: number): void {
  doDeleteScheduledMessage(realm, user, findScheduledMessage(realm, user, id));
}

/** scheduled.delete-removes */
function removeScheduledMessage(realm: Realm, scheduled: ScheduledMessage): void {
  realm.scheduledMessages.delete(scheduled.id);
}

/** scheduled.delivery: a due message is sent by its sender. */
function scheduledMessageSender(_realm: Realm, sender: User): User {
  return sender;
}

/** scheduled.delivered-as-edited: what is sent is the message as its last edit left it. */
function scheduledMessageToSend(scheduled: ScheduledMessage): { readonly recipient: Recipient; readonly content: string } {
  return { recipient: scheduled.recipient, content: scheduled.content };
}

/** scheduled.deleted-never-sent; scheduled.sent-at-its-time: the worker sends only what is still scheduled, once its time has come. */
function dueScheduledMessages(realm: Realm, now: number): ScheduledMessage[] {
  return awaitingDelivery(realm).filter((scheduled) => scheduled.deliveryTimestamp <= now);
}

/**
 * scheduled.delivery: what the worker would send: neither sent yet nor failed (unless an edit gave
 * a failed one a new time). Delivery is not among the spec's established moves ("how a message
 * becomes failed ... not shown"): which messages a worker takes up is the reference's, Zulip's.
 */
function awaitingDelivery(realm: Realm): ScheduledMessage[] {
  return [...realm.scheduledMessages.values()].filter((scheduled) => !scheduled.delivered && (!scheduled.failed || scheduled.retry));
}

export const SCHEDULED_RULES = {
  messageTypeNames, checkMessageType, channelIdOfTo, userIdsOfTo, checkScheduledRecipientIds, checkScheduledChannel,
  checkRequiredTopic, emptyTopicNamesMeanEmpty, emptyTopicsValid, fitTopicToLimit, fitContentToLimit, ignoreTopicOfDirectMessage,
  checkToGivenOnTypeChange, checkTopicGivenOnChangeToChannel, checkFailedMessageGetsTimestamp, isOwnScheduledMessage,
  scheduledMessageNotFound, applyScheduledEdit, deleteScheduledMessageById, removeScheduledMessage, dueScheduledMessages, scheduledMessageSender, scheduledMessageToSend,
};

// ---- Validation ---------------------------------------------------------------------------

/** `to` is a channel ID or a list of user IDs (Json[int | list[int]]). */
function parseTo(params: Params): number | number[] | undefined {
  const value = params.json('to');
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map((item) => checkInt(item, TO_ITEM_NAME));
  return checkInt(value, TO_ITEM_NAME);
}

/** scheduled.error-texts: the name a refusal of a `to` that is neither an ID nor a list of IDs gives ('to["int"] is not an integer'). */
const TO_ITEM_NAME = 'to["int"]';

function checkRecipient(realm: Realm, sender: User, type: MessageType, to: number | number[], topic: string): Recipient {
  if (type === 'stream') return { type: 'stream', channelId: realm.rules.checkScheduledChannel(realm, sender, realm.rules.channelIdOfTo(to)).id, topic };
  return { type: 'private', userIds: realm.rules.checkScheduledRecipientIds(realm, sender, realm.rules.userIdsOfTo(to)) };
}

/**
 * The topic of an edit: spec "Topic rules". A required topic (the type is being set to
 * channel) cannot be "(no topic)", empty, or the empty-topic display name; a topic given
 * otherwise means the empty topic by those names (from level 370), and may be empty from 334.
 */
export function checkEditedTopic(realm: Realm, given: string, required: boolean): string {
  let topic = realm.dialect.editedTopic(given);
  if (required) realm.rules.checkRequiredTopic(realm, topic);
  if (realm.rules.emptyTopicNamesMeanEmpty(realm) && isEmptyTopicName(realm, topic)) topic = '';
  if (topic === '' && !realm.rules.emptyTopicsValid(realm)) throw new JsonError("Topic can't be empty!");
  checkTopicWithoutNullBytes(topic);
  return realm.rules.fitTopicToLimit(realm, topic);
}

/** scheduled.error-texts: a topic with a NUL is refused, as Zulip refuses it (the spec forbids null bytes in a draft's topic only). */
function checkTopicWithoutNullBytes(topic: string): void {
  if (topic.includes('\0')) throw new JsonError('Topic must not contain null bytes');
}

const topicRequired = () => new JsonError('Topic required when updating scheduled message type to channel.');

function findScheduledMessage(realm: Realm, user: User, id: number): ScheduledMessage {
  const scheduled = realm.scheduledMessages.get(id as ScheduledMessageId);
  if (!scheduled) throw realm.rules.scheduledMessageNotFound(id);
  if (!realm.rules.isOwnScheduledMessage(user, scheduled)) throw realm.dialect.othersScheduledMessage(realm.rules.scheduledMessageNotFound(id));
  return scheduled;
}

/** scheduled.listing-shape; scheduled.event-shapes: a scheduled message as it is listed and announced. */
export function scheduledMessageDict(realm: Realm, scheduled: ScheduledMessage): Record<string, unknown> {
  return realm.dialect.scheduledMessageDict(realm, scheduled);
}

/** The user's undelivered scheduled messages, failed ones included, by delivery time. */
export function undeliveredScheduledMessages(realm: Realm, user: User): ScheduledMessage[] {
  const list = [...realm.scheduledMessages.values()]
    .filter((scheduled) => scheduled.senderId === user.id && !scheduled.delivered)
    .sort((a, b) => a.deliveryTimestamp - b.deliveryTimestamp || a.id - b.id);
  return realm.dialect.scheduledMessagesListed(list);
}

// ---- Actions ------------------------------------------------------------------------------

/** scheduled.event-shapes: the change, to the user's own clients. */
function sendScheduledMessagesEvent(realm: Realm, user: User, event: () => Record<string, unknown>): void {
  const audience = realm.rules.ownDataAudience(realm, user);
  if (listening(realm, 'scheduled_messages', audience)) sendEvent(realm, { type: 'scheduled_messages', ...event() }, audience);
}

export function doScheduleMessage(realm: Realm, sender: User, fields: Omit<ScheduledMessage, 'id' | 'senderId' | 'failed' | 'retry' | 'failureMessage' | 'delivered'>): ScheduledMessage {
  const scheduled: ScheduledMessage = { id: realm.nextId('scheduledMessage') as ScheduledMessageId, senderId: sender.id, ...fields, failed: false, retry: false, failureMessage: null, delivered: false };
  realm.scheduledMessages.set(scheduled.id, scheduled);
  sendScheduledMessagesEvent(realm, sender, () => ({ op: 'add', scheduled_messages: [scheduledMessageDict(realm, scheduled)] }));
  return scheduled;
}

export function doEditScheduledMessage(realm: Realm, sender: User, scheduled: ScheduledMessage, changes: ScheduledMessageChanges): void {
  realm.rules.applyScheduledEdit(scheduled, changes);
  rescheduleOnNewTime(realm, scheduled, changes);
  sendScheduledMessagesEvent(realm, sender, () => realm.dialect.scheduledMessageUpdateEvent(scheduledMessageDict(realm, scheduled)));
}

/** scheduled.edit-clears-failed: what a new time does to a failed message. */
function rescheduleOnNewTime(realm: Realm, scheduled: ScheduledMessage, changes: ScheduledMessageChanges): void {
  if (changes.deliveryTimestamp !== undefined) realm.dialect.rescheduleFailedMessage(scheduled);
}

/** States and transitions: DELETE of a pending or failed message; sending is cancelled. */
export function doDeleteScheduledMessage(realm: Realm, sender: User, scheduled: ScheduledMessage): void {
  realm.rules.removeScheduledMessage(realm, scheduled);
  sendScheduledMessagesEvent(realm, sender, () => realm.dialect.scheduledMessageRemoveEvent(scheduled.id));
}

// ---- Delivery -------------------------------------------------------------------------------

/** The delivery worker: sends each due message, in the dialect's order, at the time it is seen. */
export function deliverScheduledMessages(realm: Realm): void {
  const now = realm.clock.now();
  const due = inDeliveryOrder(realm, realm.rules.dueScheduledMessages(realm, now));
  for (const scheduled of failUnsendable(realm, due, now)) {
    const sender = realm.users.get(scheduled.senderId)!;
    const { recipient, content } = realm.rules.scheduledMessageToSend(scheduled);
    doSendMessage(realm, realm.rules.scheduledMessageSender(realm, sender), recipient, content, scheduled.readBySender, DELIVERY_CLIENT, seenAt(realm, scheduled, now));
    scheduled.delivered = true;
    scheduled.failed = false;
    forgetDelivered(realm, sender, scheduled);
  }
}

/** scheduled.delivery: messages due at once go in the dialect's order (the spec states none). */
function inDeliveryOrder(realm: Realm, due: ScheduledMessage[]): ScheduledMessage[] {
  return due.sort(realm.dialect.deliveryOrder);
}

/** scheduled.delivery: the client a delivered message names (the spec shows none). */
const DELIVERY_CLIENT = 'API';

/** scheduled.sent-at-its-time: a message is seen when it comes due, or, if the worker was down then, when it came back; never after now. */
function seenAt(realm: Realm, scheduled: ScheduledMessage, now: number): number {
  return Math.min(now, Math.max(scheduled.deliveryTimestamp, realm.workerDownUntil));
}

/**
 * scheduled.late-delivery-fails: a message seen too late fails, as does one whose channel is
 * gone or closed to its sender; the others are sent.
 */
function failUnsendable(realm: Realm, due: readonly ScheduledMessage[], now: number): ScheduledMessage[] {
  return due.filter((scheduled) => {
    const sender = realm.users.get(scheduled.senderId)!;
    const at = seenAt(realm, scheduled, now);
    try {
      if (at > scheduled.deliveryTimestamp + realm.dialect.latestScheduledDeliverySeconds()) throw new JsonError('Message could not be sent at the scheduled time.');
      if (scheduled.recipient.type === 'stream') checkChannelId(realm, sender, scheduled.recipient.channelId);
      return true;
    } catch (error) {
      if (!(error instanceof JsonError)) throw error;
      doFailScheduledMessage(realm, sender, scheduled, error.msg, at);
      return false;
    }
  });
}

/** scheduled.late-delivery-fails: the message fails, and its sender is told as the dialect tells. */
function doFailScheduledMessage(realm: Realm, sender: User, scheduled: ScheduledMessage, reason: string, failedAt: number): void {
  scheduled.failed = true;
  scheduled.retry = false;
  scheduled.failureMessage = reason;
  sendScheduledMessagesEvent(realm, sender, () => realm.dialect.scheduledMessageUpdateEvent(scheduledMessageDict(realm, scheduled)));
  realm.dialect.noticeFailedScheduledMessage(realm, sender, scheduled, reason, failedAt);
}

/** scheduled.delivery: what becomes of a message once sent, and its sender's clients are told it left the list. */
function forgetDelivered(realm: Realm, sender: User, scheduled: ScheduledMessage): void {
  realm.dialect.forgetDeliveredScheduledMessage(realm, scheduled);
  sendScheduledMessagesEvent(realm, sender, () => realm.dialect.scheduledMessageRemoveEvent(scheduled.id));
}

// ---- Operations ---------------------------------------------------------------------------

export function createScheduledMessage({ realm, user, params }: Request) {
  const type = realm.rules.checkMessageType(realm, params.requiredString('type'));
  const to = parseTo(params);
  if (to === undefined) throw new JsonError("Missing 'to' argument", 400, 'REQUEST_VARIABLE_MISSING', { var_name: 'to' });
  const topic = params.string('topic') ?? params.string('subject');
  const content = params.requiredString('content');
  const timestamp = params.int('scheduled_delivery_timestamp');
  if (timestamp === undefined) throw new JsonError("Missing 'scheduled_delivery_timestamp' argument", 400, 'REQUEST_VARIABLE_MISSING', { var_name: 'scheduled_delivery_timestamp' });
  const readBySender = has(realm.featureLevel, 'readBySender') ? params.bool('read_by_sender') ?? false : false;
  realm.dialect.checkDeliveryTimeInFuture(realm, timestamp);
  const body = realm.rules.fitContentToLimit(realm, content);
  const recipient = checkRecipient(realm, user, type, to, type === 'stream' ? realm.dialect.newMessageTopic(realm, topic) : '');
  const scheduled = doScheduleMessage(realm, user, { recipient, content: body, deliveryTimestamp: timestamp, readBySender });
  return { scheduled_message_id: scheduled.id };
}

export function getScheduledMessages({ realm, user }: Request) {
  return { scheduled_messages: undeliveredScheduledMessages(realm, user).map((scheduled) => scheduledMessageDict(realm, scheduled)) };
}

/** Zulip's order of checks: what is given, the time, the message, then the new fields. */
export function editScheduledMessage({ realm, user, params, path }: Request) {
  const lookUp = () => findScheduledMessage(realm, user, pathId(path.scheduled_message_id!));
  let scheduled = lookedUpFirst(realm, lookUp);
  const typeName = params.string('type');
  const type = typeName === undefined ? undefined : realm.rules.checkMessageType(realm, typeName);
  const to = parseTo(params);
  const topic = params.string('topic') ?? params.string('subject');
  const content = params.string('content');
  const timestamp = params.int('scheduled_delivery_timestamp');
  checkSomethingGiven(realm, [type, to, topic, content, timestamp]);
  const typeChanges = type !== undefined && typeIsChange(type, scheduled);
  if (typeChanges) realm.rules.checkToGivenOnTypeChange(to);
  if (typeChanges && type === 'stream') realm.rules.checkTopicGivenOnChangeToChannel(topic);
  checkNewTimeInFuture(realm, timestamp);
  scheduled ??= lookUp();
  checkNotDelivered(scheduled);
  realm.rules.checkFailedMessageGetsTimestamp(scheduled, timestamp);

  const changes: ScheduledMessageChanges = {};
  const current = scheduled.recipient;
  const newType = type ?? current.type;
  if (to !== undefined) {
    // A channel message without a new topic keeps its own (a direct one becoming a channel
    // message has none to keep only if the topic rule above is broken).
    const keptTopic = current.type === 'stream' ? current.topic : realm.settings.emptyTopicDisplayName;
    const newTopic = newType === 'stream' && topic !== undefined ? checkEditedTopic(realm, topic, typeChanges && type === 'stream') : keptTopic;
    changes.recipient = checkRecipient(realm, user, newType, to, newTopic);
  } else if (topic !== undefined && current.type === 'stream') {
    changes.recipient = { ...current, topic: checkEditedTopic(realm, topic, false) };
  } else if (topic !== undefined) {
    realm.rules.ignoreTopicOfDirectMessage(topic);
  }
  if (content !== undefined) changes.content = realm.rules.fitContentToLimit(realm, content);
  if (timestamp !== undefined) changes.deliveryTimestamp = timestamp;
  doEditScheduledMessage(realm, user, scheduled, changes);
  return {};
}

/** scheduled.error-texts: the dialect may look the message up before anything else. */
function lookedUpFirst(realm: Realm, lookUp: () => ScheduledMessage): ScheduledMessage | undefined {
  return realm.dialect.scheduledEditLooksUpMessageFirst() ? lookUp() : undefined;
}

/** scheduled.error-texts: what an edit that gives nothing answers. */
function checkSomethingGiven(realm: Realm, given: readonly unknown[]): void {
  if (given.every((value) => value === undefined)) realm.dialect.emptyScheduledEdit();
}

/**
 * scheduled.to-required-on-type-change; scheduled.topic-required-on-change-to-channel: a type unlike
 * the message's own is a change, which needs `to` (and a topic, to a channel).
 */
function typeIsChange(type: MessageType, scheduled: ScheduledMessage | undefined): boolean {
  return scheduled === undefined ? typeGivenBeforeLookUp() : type !== scheduled.recipient.type;
}

/**
 * scheduled.error-texts: where the type is checked before the message is looked up, a type given
 * counts as a change (Zulip requires `to` whenever type is given).
 */
function typeGivenBeforeLookUp(): boolean {
  return true;
}

/** scheduled.future-timestamp */
function checkNewTimeInFuture(realm: Realm, timestamp: number | undefined): void {
  if (timestamp !== undefined) realm.dialect.checkDeliveryTimeInFuture(realm, timestamp);
}

/** scheduled.delivery: a delivered message is no longer scheduled. */
function checkNotDelivered(scheduled: ScheduledMessage): void {
  if (scheduled.delivered) throw new JsonError('Scheduled message was already sent');
}

export function deleteScheduledMessage({ realm, user, path }: Request) {
  realm.rules.deleteScheduledMessageById(realm, user, pathId(path.scheduled_message_id!));
  return {};
}
