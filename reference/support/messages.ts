// Zulip's message endpoints, which the suite uses to set up and observe: POST /messages, GET
// /messages (with narrows) and GET /messages/{id}. What a message is and who may read it is the
// model's (model/messaging.ts).

import type { Request } from '../model/request.js';
import { has, hasShape } from '../model/levels.js';
import { FLAG_BITS, type Channel, type ChannelId, type Message, type Realm, type Recipient, type User, type UserId } from '../model/model.js';
import { JsonError, pathId } from '../model/params.js';
import { normalizeContent } from '../model/text.js';
import { checkChannelId, checkChannelTopic, doSendMessage, findAccessibleMessage, flagNames, messageIsAccessible, userFlagBits } from '../model/messaging.js';
import { messageDict } from '../model/rendering.js';

function findChannelForSending(realm: Realm, sender: User, to: string): Channel {
  let value: unknown = to;
  try {
    value = JSON.parse(to);
  } catch {
    // a raw channel name
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new JsonError('Expected exactly one channel');
    value = value[0];
  }
  if (typeof value === 'number') return checkChannelId(realm, sender, value);
  if (typeof value !== 'string') throw new JsonError('Invalid data type for channel');
  const name = value.toLowerCase();
  const channel = [...realm.channels.values()].find((candidate) => candidate.name.toLowerCase() === name && !candidate.isArchived);
  if (!channel) throw new JsonError(`Channel '${value}' does not exist`, 400, 'STREAM_DOES_NOT_EXIST', { stream: value });
  return checkChannelId(realm, sender, channel.id);
}

function findDirectRecipients(realm: Realm, sender: User, to: string): UserId[] {
  let value: unknown;
  try {
    value = JSON.parse(to);
  } catch {
    value = to.split(',').map((email) => email.trim()).filter(Boolean);
  }
  if (typeof value === 'string' || typeof value === 'number') value = [value];
  if (!Array.isArray(value)) throw new JsonError('Invalid data type for recipients');
  const ids = new Set<UserId>([sender.id]);
  for (const item of value) {
    if (typeof item === 'number') {
      if (!realm.users.has(item as UserId)) throw new JsonError(`Invalid user ID ${item}`);
      ids.add(item as UserId);
    } else if (typeof item === 'string') {
      const user = realm.usersByEmail.get(item.toLowerCase());
      if (!user) throw new JsonError(`Invalid email '${item}'`);
      ids.add(user.id);
    } else {
      throw new JsonError('Invalid data type for recipients');
    }
  }
  return [...ids].sort((a, b) => a - b);
}

export function sendMessage({ realm, user, params }: Request) {
  const type = params.requiredString('type');
  const channelTypes = has(realm.featureLevel, 'channelTypeName') ? ['stream', 'channel'] : ['stream'];
  const directTypes = has(realm.featureLevel, 'directTypeName') ? ['private', 'direct'] : ['private'];
  if (!channelTypes.includes(type) && !directTypes.includes(type)) throw new JsonError('Invalid type');
  const to = params.requiredString('to');
  const topicParam = params.string('topic') ?? params.string('subject');
  const content = normalizeContent(params.requiredString('content'), realm.settings.maxMessageLength);
  const readBySender = has(realm.featureLevel, 'readBySender') ? params.bool('read_by_sender') ?? false : false;
  params.has('queue_id');
  params.has('local_id');
  let recipient: Recipient;
  if (channelTypes.includes(type)) {
    const channel = findChannelForSending(realm, user, to);
    recipient = { type: 'stream', channelId: channel.id, topic: checkChannelTopic(realm, topicParam) };
  } else {
    recipient = { type: 'private', userIds: findDirectRecipients(realm, user, to) };
  }
  const message = doSendMessage(realm, user, recipient, content, readBySender);
  return { id: message.id };
}

export function getMessage({ realm, user, params, path }: Request) {
  const applyMarkdown = params.bool('apply_markdown') ?? realm.rules.rendersByDefault();
  params.has('allow_empty_topic_name');
  const message = findAccessibleMessage(realm, user, pathId(path.message_id!));
  if (!hasShape(realm.featureLevel, 'singleMessageObject')) return { raw_content: message.content };
  return {
    raw_content: message.content,
    message: { ...messageDict(realm, message, applyMarkdown), flags: flagNames(realm, userFlagBits(message, user)) },
  };
}

// ---- Reading messages by narrow -------------------------------------------------------------

type NarrowTerm = { operator: string; operand: unknown; negated?: boolean };

/** The narrow terms Zulip's clients send: [{operator, operand}] or [[operator, operand]]. */
function parseNarrow(value: unknown[] | undefined): NarrowTerm[] {
  return (value ?? []).map((term, index) => {
    if (Array.isArray(term) && term.length === 2 && typeof term[0] === 'string') return { operator: term[0], operand: term[1] };
    if (term && typeof term === 'object' && typeof (term as NarrowTerm).operator === 'string') return term as NarrowTerm;
    throw new JsonError(`Invalid narrow[${index}]`);
  });
}

/** A filter for one narrow term; channel, topic and direct conversations are what the reference knows. */
function narrowFilter(realm: Realm, user: User, term: NarrowTerm): (message: Message) => boolean {
  const { operator, operand } = term;
  const named = (old: string, current: string, since: 'dmOperator' | 'channelOperator') => operator === old || (operator === current && hasShape(realm.featureLevel, since));
  if (named('stream', 'channel', 'channelOperator')) {
    const channel = typeof operand === 'number'
      ? realm.channels.get(operand as ChannelId)
      : [...realm.channels.values()].find((candidate) => candidate.name.toLowerCase() === String(operand).toLowerCase());
    if (!channel || !realm.channelIsAccessible(user, channel)) throw new JsonError(`Invalid narrow operand: unknown channel`, 400, 'BAD_NARROW');
    return (message) => message.recipient.type === 'stream' && message.recipient.channelId === channel.id;
  }
  if (operator === 'topic' || operator === 'subject') {
    const topic = String(operand).toLowerCase();
    return (message) => message.recipient.type === 'stream' && message.recipient.topic.toLowerCase() === topic;
  }
  if (named('pm-with', 'dm', 'dmOperator')) {
    const given = Array.isArray(operand) ? operand : typeof operand === 'number' ? [operand] : String(operand).split(',');
    const ids = given.map((item) => (typeof item === 'number' ? item : realm.usersByEmail.get(String(item).trim().toLowerCase())?.id));
    if (ids.some((id) => id === undefined || !realm.users.has(id as UserId))) throw new JsonError('Invalid narrow operand: unknown user', 400, 'BAD_NARROW');
    const participants = [...new Set([user.id, ...(ids as UserId[])])].sort((a, b) => a - b).join();
    return (message) => message.recipient.type === 'private' && message.recipient.userIds.join() === participants;
  }
  throw new JsonError(`Invalid narrow operator: unknown operator ${JSON.stringify(operator)}`, 400, 'BAD_NARROW');
}

/** Zulip's GET /messages: the user's messages in a narrow, around an anchor, in ID order. */
export function getMessages({ realm, user, params }: Request) {
  const terms = parseNarrow(params.list('narrow'));
  const filters = terms.map((term) => narrowFilter(realm, user, term));
  // A channel's history is searched only in a narrow to the channel, where the dialect gives it;
  // else the user's own messages: those received, and those flagged since.
  const byChannel = realm.dialect.channelHistoryReadable() && terms.some((term) => term.operator === 'channel' || term.operator === 'stream');
  const visible = (message: Message) => (byChannel ? messageIsAccessible(realm, user, message) : message.userFlags.has(user.id));
  const anchorText = params.string('anchor') ?? 'newest';
  const before = params.int('num_before') ?? 0;
  const after = params.int('num_after') ?? 0;
  if (before < 0 || after < 0 || before + after > 5000) throw new JsonError('Too many messages requested (maximum 5000).');
  const applyMarkdown = params.bool('apply_markdown') ?? true;
  for (const name of ['client_gravatar', 'include_anchor', 'use_first_unread_anchor', 'allow_empty_topic_name']) params.has(name);
  const matching = [...realm.messages.values()]
    .filter((message) => visible(message) && filters.every((filter) => filter(message)))
    .sort((a, b) => a.id - b.id);
  const ids = matching.map((message) => message.id);
  let anchor: number;
  if (anchorText === 'newest') anchor = ids.at(-1) ?? 0;
  else if (anchorText === 'oldest') anchor = ids[0] ?? 0;
  else if (anchorText === 'first_unread') anchor = matching.find((message) => (userFlagBits(message, user) & FLAG_BITS.read) === 0)?.id ?? ids.at(-1) ?? 0;
  else if (/^\d+$/.test(anchorText)) anchor = Number(anchorText);
  else throw new JsonError(`Invalid anchor`);
  const at = matching.findIndex((message) => message.id >= anchor);
  const start = at < 0 ? matching.length : at;
  const foundAnchor = matching[start]?.id === anchor;
  const firstAfter = foundAnchor ? start + 1 : start;
  const page = [...matching.slice(Math.max(0, start - before), start), ...(foundAnchor ? [matching[start]!] : []), ...matching.slice(firstAfter, firstAfter + after)];
  return {
    messages: page.map((message) => ({ ...messageDict(realm, message, applyMarkdown), flags: flagNames(realm, userFlagBits(message, user)) })),
    anchor,
    found_anchor: foundAnchor,
    found_oldest: start - before <= 0,
    found_newest: firstAfter + after >= matching.length,
    history_limited: false,
  };
}

