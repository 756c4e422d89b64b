// Messages as the organization holds them: sending to a channel or to users, each recipient's
// own flags, who may read one, mentions and alert words. In Zulip's shapes; the spec's flag table
// says what each flag means. How a message is shown (its dict, its rendered content) is
// rendering.ts; the endpoints that send and read messages are support/messages.ts.

import { listening, sendEvent } from './events.js';
import { has } from './levels.js';
import {
  FLAG_BITS, IdMap, type Mentions, type Message, type MessageId, type NewMessageFlags, type Realm, type Recipient, type User, type UserId,
} from './model.js';
import { JsonError } from './params.js';
import { messageDict } from './rendering.js';

// ---- Access ---------------------------------------------------------------------------------

/**
 * flags.add-sets-flag, flags.remove-clears-flag: a message in the user's history (one the user
 * received, or one that was added to it later: "historical") is the user's to read and to flag.
 */
export function isInHistory(user: User, message: Message): boolean {
  return message.userFlags.has(user.id);
}

/**
 * flags.inaccessible-messages; reminders.parameters; general.channel-history-read (who may read a
 * message outside the user's history is not shown): as Zulip decides it, one the user may see the
 * channel's history of.
 */
export function messageIsAccessible(realm: Realm, user: User, message: Message): boolean {
  if (isInHistory(user, message)) return true;
  if (message.recipient.type === 'private') return false;
  const channel = realm.channels.get(message.recipient.channelId)!;
  if (channel.inviteOnly) return channel.subscribers.has(user.id) && channel.historyPublicToSubscribers;
  return user.role !== 'guest' || channel.subscribers.has(user.id);
}

/** GET /messages/{id}: the message, where the user may read it. */
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

/** flags.inaccessible-messages: a user's flags on a message; one not in the user's history reads as read and historical, as Zulip reads it. */
export function userFlagBits(message: Message, user: User): number {
  return message.userFlags.get(user.id) ?? FLAG_BITS.read | FLAG_BITS.historical;
}

// ---- Mentions -------------------------------------------------------------------------------

const STREAM_WILDCARDS = ['all', 'everyone', 'stream'];


/** Zulip's mention syntax: @**Name**, @**Name|id**, @**|id**, @*group*; @_ makes it silent. */
export function findMentions(realm: Realm, content: string): Mentions {
  const mentions: Mentions = { users: new Set(), streamWildcard: false, topicWildcard: false };
  const pattern = /(?:^|(?<=[\s'"({[/<]))@(_?)(\*\*([^*]+)\*\*|\*([^*]+)\*)/g;
  for (const match of mentioningOnly(realm, content.matchAll(pattern))) {
    const userText = match[3];
    const groupText = match[4];
    if (groupText !== undefined) {
      const group = realm.userGroups.find((candidate) => candidate.name.toLowerCase() === groupText.toLowerCase());
      group?.members.forEach((id) => mentions.users.add(id));
      continue;
    }
    const text = mentionName(userText!);
    const wildcard = text.toLowerCase();
    if (STREAM_WILDCARDS.includes(wildcard) || isLaterChannelWildcard(realm, wildcard)) {
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

/** flags.silent-mentions: the mentions that may set flags; a silent one (@_) is left out where the dialect says it sets nothing. */
function mentioningOnly(realm: Realm, matches: Iterable<RegExpMatchArray>): RegExpMatchArray[] {
  return [...matches].filter((match) => !realm.rules.isSilentMention(realm, match[1]!));
}

/** Zulip's syntax (the spec shows none, general.message-rendering): a name between the stars, its spaces trimmed. */
function mentionName(text: string): string {
  return text.trim();
}

/** Zulip's syntax (general.message-rendering): @**channel** is a channel wildcard from level 247, beside @**all**, @**everyone** and @**stream**. */
function isLaterChannelWildcard(realm: Realm, word: string): boolean {
  return word === 'channel' && realm.featureLevel >= 247;
}

/** flags.alert-word-flag: whether the content holds one of the user's alert words. */
export function containsAlertWord(realm: Realm, user: User, content: string): boolean {
  const text = realm.rules.alertWordForm(realm, content);
  return user.alertWords.some((word) => {
    const needle = realm.rules.alertWordForm(realm, word);
    let from = 0;
    for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, from)) {
      if (countsAt(realm, text, at, needle.length)) return true;
      from = at + 1;
    }
    return false;
  });
}

/** flags.alert-word-matching: a message never carries has_alert_word for its own sender, in Zulip's dialect and the alternate (the spec's table does not say). */
function isSenderUnalerted(userId: UserId, sender: User): boolean {
  return userId === sender.id;
}

/** general.message-rendering: the client a message sent through the API names (GET /messages, not shown). */
const API_CLIENT = 'API';

/** flags.alert-word-matching: where a word of the user's stands in the text, whether it counts (in Zulip's dialect, only standing apart). */
function countsAt(realm: Realm, text: string, at: number, length: number): boolean {
  if (!realm.dialect.alertWordsStandApart()) return true;
  const before = text[at - 1];
  const after = text[at + length];
  return !(before && /[\p{L}\p{N}_]/u.test(before)) && !(after && /[\p{L}\p{N}_]/u.test(after));
}

// ---- Rules ------------------------------------------------------------------------------

/** flags.wildcard-mentioned-before-224: the split wildcard flags exist from level 224. */
function splitsWildcardFlags(realm: Realm): boolean {
  return has(realm.featureLevel, 'splitWildcardMentionFlags');
}

/** flags.silent-mentions: @_ makes a mention silent: in Zulip's dialect it sets no flag (the spec knows no silent mention). */
function isSilentMention(realm: Realm, marker: string): boolean {
  return marker === '_' && realm.dialect.silentMentionsSetNothing();
}

/** flags.alert-word-matching: the form in which alert words and the text are compared (in Zulip's dialect, in any case: both in lower case). */
function alertWordForm(realm: Realm, text: string): string {
  return realm.dialect.alertWordsInAnyCase() ? text.toLowerCase() : text;
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

export function doSendMessage(realm: Realm, sender: User, recipient: Recipient, content: string, readBySender: boolean, client = API_CLIENT, sentAt = realm.clock.now()): Message {
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
    const alertWord = !isSenderUnalerted(userId, sender) && containsAlertWord(realm, realm.users.get(userId)!, content);
    message.userFlags.set(userId, realm.rules.flagsOfNewMessage({ read: senderReads, mentioned: mentions.users.has(userId), inChannel, mentions, alertWord }));
  }
  realm.messages.set(message.id, message);
  announceMessage(realm, message);
  return message;
}

/** flags.event-shape (events are not shown): each recipient's clients are told of the new message with its flags, as Zulip tells them. */
function announceMessage(realm: Realm, message: Message): void {
  for (const [userId, bits] of message.userFlags) {
    if (listening(realm, 'message', [userId])) sendEvent(realm, { type: 'message', message: messageDict(realm, message), flags: flagNames(realm, bits) }, [userId]);
  }
}

/** general.message-rendering: the user a rendered mention names. */
export function mentionedUser(realm: Realm, text: string): User | undefined {
  const [name, id] = text.split('|');
  if (id !== undefined && /^\d+$/.test(id.trim())) return realm.users.get(Number(id) as UserId);
  return [...realm.users.values()].find((candidate) => candidate.fullName.toLowerCase() === name!.trim().toLowerCase());
}

// ---- Addresses ------------------------------------------------------------------------------

// A message's channel, users and topic are checked in addresses.ts; scheduled.ts and typing.ts
// import them from here as they did before they moved (their records of mutation runs hold
// their built modules as they are).
export { checkChannelTopic, isEmptyTopicName, checkChannelId, checkDirectRecipientIds } from './addresses.js';
