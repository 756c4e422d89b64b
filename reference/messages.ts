// Messages: sending to a channel or to users, each recipient's own flags, reading one message.
// In Zulip's shapes; the spec's flag table says what each flag means.

import { listening, sendEvent } from './events.js';
import type { Request } from './http.js';
import { has, hasShape } from './levels.js';
import {
  FLAG_BITS, IdMap, type Channel, type ChannelId, type Message, type MessageId, type Realm, type Recipient, type User, type UserId,
} from './model.js';
import { JsonError, pathId } from './params.js';
import { normalizeContent, truncateTopic } from './text.js';

// ---- Access ---------------------------------------------------------------------------------

/** Whether the user may read the message: received it, or may see the channel's history. */
export function messageIsAccessible(realm: Realm, user: User, message: Message): boolean {
  if (message.userFlags.has(user.id)) return true;
  if (message.recipient.type === 'private') return false;
  const channel = realm.channels.get(message.recipient.channelId)!;
  if (channel.inviteOnly) return channel.subscribers.has(user.id) && channel.historyPublicToSubscribers;
  return user.role !== 'guest' || channel.subscribers.has(user.id);
}

export function findAccessibleMessage(realm: Realm, user: User, id: number): Message {
  const message = realm.messages.get(id as MessageId);
  if (!message || !messageIsAccessible(realm, user, message)) throw new JsonError('Invalid message(s)');
  return message;
}

// ---- Flags as the API names them ------------------------------------------------------------

/** The flag names of a user's copy, by the feature level's names for the wildcard flags. */
export function flagNames(realm: Realm, bits: number): string[] {
  const names: string[] = [];
  const set = (name: keyof typeof FLAG_BITS) => (bits & FLAG_BITS[name]) !== 0;
  for (const name of ['read', 'starred', 'collapsed', 'mentioned'] as const) if (set(name)) names.push(name);
  const wildcard = set('stream_wildcard_mentioned') || set('topic_wildcard_mentioned');
  if (realm.rules.splitsWildcardFlags(realm)) {
    if (set('stream_wildcard_mentioned')) names.push('stream_wildcard_mentioned');
    if (set('topic_wildcard_mentioned')) names.push('topic_wildcard_mentioned');
  }
  // wildcard_mentioned: deprecated at level 224, still sent for older clients.
  if (wildcard) names.push('wildcard_mentioned');
  if (set('has_alert_word')) names.push('has_alert_word');
  if (set('historical')) names.push('historical');
  return names;
}

/** A user's flags on a message; one not in the user's history reads as read and historical. */
export function userFlagBits(message: Message, user: User): number {
  return message.userFlags.get(user.id) ?? FLAG_BITS.read | FLAG_BITS.historical;
}

// ---- Mentions -------------------------------------------------------------------------------

const STREAM_WILDCARDS = ['all', 'everyone', 'stream'];

export interface Mentions {
  users: Set<UserId>;
  streamWildcard: boolean;
  topicWildcard: boolean;
}

/** Zulip's mention syntax: @**Name**, @**Name|id**, @**|id**, @*group*; @_ makes it silent. */
export function findMentions(realm: Realm, content: string): Mentions {
  const mentions: Mentions = { users: new Set(), streamWildcard: false, topicWildcard: false };
  const pattern = /(?:^|(?<=[\s'"({[/<]))@(_?)(\*\*([^*]+)\*\*|\*([^*]+)\*)/g;
  for (const match of content.matchAll(pattern)) {
    if (realm.rules.isSilentMention(match[1]!)) continue;
    const userText = match[3];
    const groupText = match[4];
    if (groupText !== undefined) {
      const group = realm.userGroups.find((candidate) => candidate.name.toLowerCase() === groupText.toLowerCase());
      group?.members.forEach((id) => mentions.users.add(id));
      continue;
    }
    const text = userText!.trim();
    const wildcard = text.toLowerCase();
    if (STREAM_WILDCARDS.includes(wildcard) || (wildcard === 'channel' && realm.featureLevel >= 247)) {
      mentions.streamWildcard = true;
    } else if (wildcard === 'topic') {
      mentions.topicWildcard = true;
    } else {
      const user = mentionedUser(realm, text);
      if (user) mentions.users.add(user.id);
    }
  }
  return mentions;
}

/** Whether one of the user's alert words stands in the content as a word, in any case. */
export function containsAlertWord(realm: Realm, user: User, content: string): boolean {
  const text = realm.rules.alertWordForm(content);
  return user.alertWords.some((word) => {
    const needle = realm.rules.alertWordForm(word);
    let from = 0;
    for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, from)) {
      const before = text[at - 1];
      const after = text[at + needle.length];
      if (!(before && /[\p{L}\p{N}_]/u.test(before)) && !(after && /[\p{L}\p{N}_]/u.test(after))) return true;
      from = at + 1;
    }
    return false;
  });
}

// ---- Rules ------------------------------------------------------------------------------

/** flags.wildcard-mentioned-before-224: the split wildcard flags exist from level 224. */
function splitsWildcardFlags(realm: Realm): boolean {
  return has(realm.featureLevel, 'splitWildcardMentionFlags');
}

/** flags.mention-flags: @_ makes a mention silent: it sets no flag. */
function isSilentMention(marker: string): boolean {
  return marker === '_';
}

/** flags.alert-word-flag: alert words match in any case. */
function alertWordForm(text: string): string {
  return text.toLowerCase();
}

export interface NewMessageFlags {
  read: boolean;
  mentioned: boolean;
  inChannel: boolean;
  mentions: Mentions;
  alertWord: boolean;
}

/** flags.messages-start-unread; flags.wildcard-mention-flags: a recipient's flags on a new message. */
function flagsOfNewMessage({ read, mentioned, inChannel, mentions, alertWord }: NewMessageFlags): number {
  let bits = 0;
  if (read) bits |= FLAG_BITS.read;
  if (mentioned) bits |= FLAG_BITS.mentioned;
  if (inChannel && mentions.streamWildcard) bits |= FLAG_BITS.stream_wildcard_mentioned;
  if (inChannel && mentions.topicWildcard) bits |= FLAG_BITS.topic_wildcard_mentioned;
  if (alertWord) bits |= FLAG_BITS.has_alert_word;
  return bits;
}

/** general.message-rendering: GET /messages/{id} renders content unless asked for the raw text. */
function rendersByDefault(): boolean {
  return true;
}

export const MESSAGE_RULES = { splitsWildcardFlags, isSilentMention, alertWordForm, flagsOfNewMessage, rendersByDefault };

// ---- Sending --------------------------------------------------------------------------------

export function recipientUserIds(realm: Realm, message: { senderId: UserId; recipient: Recipient }): Set<UserId> {
  if (message.recipient.type === 'private') return new Set(message.recipient.userIds);
  const channel = realm.channels.get(message.recipient.channelId)!;
  return new Set([...channel.subscribers, message.senderId]);
}

export function doSendMessage(realm: Realm, sender: User, recipient: Recipient, content: string, readBySender: boolean, client = 'API', sentAt = realm.clock.now()): Message {
  const message: Message = {
    id: realm.nextId('message') as MessageId,
    senderId: sender.id,
    recipient,
    content,
    timestamp: Math.floor(sentAt),
    client,
    userFlags: new IdMap(),
  };
  const mentions = findMentions(realm, content);
  const inChannel = recipient.type === 'stream';
  const channel = inChannel ? realm.channels.get(recipient.channelId)! : null;
  for (const userId of recipientUserIds(realm, message)) {
    // Messages start unread, except the sender's own when sent read (a non-API client), and
    // one the sender gets in a channel they are not subscribed to (the unread invariant).
    const senderReads = userId === sender.id && (readBySender || (channel !== null && !channel.subscribers.has(userId)));
    const alertWord = userId !== sender.id && containsAlertWord(realm, realm.users.get(userId)!, content);
    message.userFlags.set(userId, realm.rules.flagsOfNewMessage({ read: senderReads, mentioned: mentions.users.has(userId), inChannel, mentions, alertWord }));
  }
  realm.messages.set(message.id, message);
  for (const [userId, bits] of message.userFlags) {
    if (listening(realm, 'message', [userId])) sendEvent(realm, { type: 'message', message: messageDict(realm, message), flags: flagNames(realm, bits) }, [userId]);
  }
  return message;
}

/** general.message-rendering: the dialect renders content as HTML. */
export function renderContent(realm: Realm, content: string): string {
  return realm.dialect.renderContent(realm, content);
}

/**
 * Zulip's HTML for the basics of its Markdown: paragraphs and line breaks, **strong**,
 * *emphasis*, ~~strike~~, `code`, links, and user mentions; anything else stays text.
 */
export function renderZulipMarkdown(realm: Realm, content: string): string {
  return content
    .split(/\n[ \t]*\n+/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${renderInline(realm, paragraph.trim()).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

export const escapeHtml = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/** Inline markup: code spans first (nothing inside them is markup), then the rest. */
function renderInline(realm: Realm, text: string): string {
  return text.split(/(`[^`\n]+`)/).map((piece, index) => {
    if (index % 2 === 1) return `<code>${escapeHtml(piece.slice(1, -1))}</code>`;
    return escapeHtml(piece)
      .replace(/(^|[\s(])(https?:\/\/[^\s<"]+[^\s<".,;:!?)])/g, '$1<a href="$2">$2</a>')
      .replace(/(^|[\s'(])@(_?)\*\*([^*]+)\*\*/g, (whole, before: string, silent: string, name: string) => {
        const user = mentionedUser(realm, name);
        if (!user) return whole;
        return `${before}<span class="user-mention${silent ? ' silent' : ''}" data-user-id="${user.id}">${silent ? '' : '@'}${escapeHtml(user.fullName)}</span>`;
      })
      .replace(/\*\*(?=\S)([^*]+?)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[^*\w])\*(?=\S)([^*]+?)\*(?![*\w])/g, '$1<em>$2</em>')
      .replace(/~~(?=\S)([^~]+?)~~/g, '<del>$1</del>');
  }).join('');
}

function mentionedUser(realm: Realm, text: string): User | undefined {
  const [name, id] = text.split('|');
  if (id !== undefined && /^\d+$/.test(id.trim())) return realm.users.get(Number(id) as UserId);
  return [...realm.users.values()].find((candidate) => candidate.fullName.toLowerCase() === name!.trim().toLowerCase());
}

/** A message as Zulip's API shows it; content rendered unless the client asks for the raw text. */
export function messageDict(realm: Realm, message: Message, applyMarkdown = false): Record<string, unknown> {
  const sender = realm.users.get(message.senderId)!;
  const base = {
    id: message.id,
    sender_id: sender.id,
    sender_full_name: sender.fullName,
    sender_email: sender.email,
    sender_realm_str: '',
    content: applyMarkdown ? renderContent(realm, message.content) : message.content,
    content_type: applyMarkdown ? 'text/html' : 'text/x-markdown',
    timestamp: message.timestamp,
    client: message.client,
    is_me_message: false,
    reactions: [],
    submessages: [],
    topic_links: [],
    avatar_url: null,
  };
  if (message.recipient.type === 'stream') {
    const channel = realm.channels.get(message.recipient.channelId)!;
    return { ...base, type: 'stream', stream_id: channel.id, display_recipient: channel.name, subject: message.recipient.topic, recipient_id: channel.id };
  }
  const participants = message.recipient.userIds.map((id) => realm.users.get(id)!).sort((a, b) => a.email.localeCompare(b.email));
  return {
    ...base,
    type: 'private',
    subject: '',
    recipient_id: 0,
    display_recipient: participants.map((user) => ({ id: user.id, email: user.email, full_name: user.fullName, is_mirror_dummy: false })),
  };
}

// ---- Operations ------------------------------------------------------------------------------

/** A channel message's topic: stripped; the empty topic's other names from level 370; truncated. */
export function checkChannelTopic(realm: Realm, given: string | undefined): string {
  if (given === undefined) throw new JsonError('Missing topic');
  let topic = given.trim();
  if (has(realm.featureLevel, 'noTopicMeansEmptyTopic') && isEmptyTopicName(realm, topic)) topic = '';
  if (topic === '' && !has(realm.featureLevel, 'emptyTopicNames')) throw new JsonError("Topic can't be empty!");
  if (topic.includes('\0')) throw new JsonError('Topic must not contain null bytes');
  return truncateTopic(topic, realm.settings.maxTopicLength);
}

/** "(no topic)", "" and the organization's empty-topic display name (which exists from level 334). */
export function isEmptyTopicName(realm: Realm, topic: string): boolean {
  return topic === '' || topic === '(no topic)' || (has(realm.featureLevel, 'emptyTopicNames') && topic === realm.settings.emptyTopicDisplayName);
}

/** A channel the sender may post to, by ID. */
export function checkChannelId(realm: Realm, sender: User, id: number): Channel {
  const channel = realm.channels.get(id as ChannelId);
  if (!channel || channel.isArchived || (channel.inviteOnly && !channel.subscribers.has(sender.id))) {
    throw new JsonError(`Channel with ID '${id}' does not exist`, 400, 'STREAM_DOES_NOT_EXIST', { stream_id: id }).otherwise(`No channel has ID ${id}`);
  }
  return channel;
}

/** Direct message participants by user ID, the sender included, sorted and without duplicates. */
export function checkDirectRecipientIds(realm: Realm, sender: User, ids: readonly number[]): UserId[] {
  for (const id of ids) {
    if (!realm.users.has(id as UserId)) throw new JsonError(`Invalid user ID ${id}`).otherwise(`There is no user with ID ${id}`);
  }
  return [...new Set([sender.id, ...(ids as UserId[])])].sort((a, b) => a - b);
}

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
  const readBySender = params.bool('read_by_sender') ?? false;
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

