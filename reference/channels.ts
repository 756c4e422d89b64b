// Channels and subscriptions, in Zulip's shapes.

import { sendEvent } from './events.js';
import type { Request } from './http.js';
import { FLAG_BITS, type Channel, type ChannelId, type Realm, type User, type UserId } from './model.js';
import { JsonError, checkDict, checkString, missingArgument, pathId } from './params.js';

export function subscriptionDict(realm: Realm, channel: Channel): Record<string, unknown> {
  return {
    stream_id: channel.id,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.description ? `<p>${channel.description}</p>` : '',
    date_created: channel.dateCreated,
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: false,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    is_archived: channel.isArchived,
    message_retention_days: null,
    first_message_id: firstMessageId(realm, channel),
    stream_weekly_traffic: null,
    color: '#76ce90',
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: null,
    audible_notifications: null,
    wildcard_mentions_notify: null,
    subscribers: [...channel.subscribers].sort((a, b) => a - b),
  };
}

function firstMessageId(realm: Realm, channel: Channel): number | null {
  for (const message of realm.messages.values()) {
    if (message.recipient.type === 'stream' && message.recipient.channelId === channel.id) return message.id;
  }
  return null;
}

export function subscribedChannels(realm: Realm, user: User): Channel[] {
  return [...realm.channels.values()].filter((channel) => !channel.isArchived && channel.subscribers.has(user.id));
}

export function getSubscriptions({ realm, user, params }: Request) {
  params.has('include_subscribers');
  return { subscriptions: subscribedChannels(realm, user).map((channel) => subscriptionDict(realm, channel)) };
}

// ---- Subscribing and unsubscribing ------------------------------------------------------------

function findChannelByName(realm: Realm, name: string): Channel | undefined {
  return [...realm.channels.values()].find((channel) => !channel.isArchived && channel.name.toLowerCase() === name.toLowerCase());
}

/** The users a subscription request acts for: the principals, or the caller. */
function principals(realm: Realm, user: User, value: unknown[] | undefined): User[] {
  if (value === undefined) return [user];
  return value.map((item) => {
    const found = typeof item === 'number' ? realm.users.get(item as UserId) : typeof item === 'string' ? realm.usersByEmail.get(item.toLowerCase()) : undefined;
    if (!found) throw new JsonError(typeof item === 'number' ? `Invalid user ID ${item}` : `No such user`);
    return found;
  });
}

export function subscribe({ realm, user, params }: Request) {
  const list = params.list('subscriptions');
  if (list === undefined) throw missingArgument('subscriptions');
  const wanted = list.map((item, index) => {
    const dict = checkDict(item, `subscriptions[${index}]`);
    const name = checkString(dict.name, `subscriptions[${index}]["name"]`).trim();
    if (name === '') throw new JsonError('Channel name can\'t be empty.');
    if (name.length > 60) throw new JsonError('Channel name too long (limit: 60 characters).');
    return { name, description: typeof dict.description === 'string' ? dict.description : '' };
  });
  const users = principals(realm, user, params.list('principals'));
  const inviteOnly = params.bool('invite_only') ?? false;
  const historyPublic = params.bool('history_public_to_subscribers') ?? true;
  for (const name of ['announce', 'is_web_public', 'is_default_stream', 'authorization_errors_fatal', 'message_retention_days']) params.has(name);
  // Every channel is checked before any subscription changes.
  for (const { name } of wanted) {
    const channel = findChannelByName(realm, name);
    if (channel?.inviteOnly && !channel.subscribers.has(user.id) && !realm.isAdministrator(user)) throw new JsonError(`Unable to access channel (${name}).`);
  }
  const subscribed: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  for (const { name, description } of wanted) {
    let channel = findChannelByName(realm, name);
    if (!channel) {
      channel = {
        id: realm.nextChannelId(), name, description, inviteOnly, historyPublicToSubscribers: historyPublic, isArchived: false,
        dateCreated: Math.floor(realm.clock.now()), creatorId: user.id, subscribers: new Set(),
      };
      realm.channels.set(channel.id, channel);
    }
    for (const target of users) {
      const bucket = channel.subscribers.has(target.id) ? already : subscribed;
      (bucket[String(target.id)] ??= []).push(channel.name);
      channel.subscribers.add(target.id);
    }
  }
  return { subscribed, already_subscribed: already };
}

/** flags.unread-only-in-subscribed-channels: leaving a channel marks its messages read. */
export function doUnsubscribe(realm: Realm, user: User, channel: Channel): void {
  channel.subscribers.delete(user.id);
  if (realm.fault('flags.unread-only-in-subscribed-channels')) return;
  const marked: number[] = [];
  for (const message of realm.messages.values()) {
    if (message.recipient.type !== 'stream' || message.recipient.channelId !== channel.id) continue;
    const bits = message.userFlags.get(user.id);
    if (bits === undefined || (bits & FLAG_BITS.read) !== 0) continue;
    message.userFlags.set(user.id, bits | FLAG_BITS.read);
    marked.push(message.id);
  }
  if (marked.length > 0) sendEvent(realm, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: marked, all: false }, [user.id]);
}

export function unsubscribe({ realm, user, params }: Request) {
  const list = params.list('subscriptions');
  if (list === undefined) throw missingArgument('subscriptions');
  const names = list.map((item, index) => checkString(item, `subscriptions[${index}]`));
  const users = principals(realm, user, params.list('principals'));
  const channels = names.map((name) => {
    const channel = findChannelByName(realm, name);
    if (!channel) throw new JsonError(`Channel '${name}' does not exist`, 400, 'STREAM_DOES_NOT_EXIST', { stream: name });
    return channel;
  });
  const removed: string[] = [];
  const notRemoved: string[] = [];
  for (const channel of channels) {
    for (const target of users) {
      if (!channel.subscribers.has(target.id)) {
        notRemoved.push(channel.name);
        continue;
      }
      doUnsubscribe(realm, target, channel);
      removed.push(channel.name);
    }
  }
  return { removed, not_removed: notRemoved };
}

export function archiveChannel({ realm, user, path }: Request) {
  if (!realm.isAdministrator(user)) throw new JsonError('Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
  const channel = realm.channels.get(pathId(path.stream_id!) as ChannelId);
  if (!channel || channel.isArchived) throw new JsonError('Invalid channel ID');
  for (const subscriber of [...channel.subscribers]) doUnsubscribe(realm, realm.users.get(subscriber)!, channel);
  channel.isArchived = true;
  return {};
}
