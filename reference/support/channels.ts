// Channels and subscriptions, in Zulip's shapes.

import { sendEvent } from '../model/events.js';
import type { Request } from '../model/request.js';
import { hasShape } from '../model/levels.js';
import { doSendMessage } from '../model/messaging.js';
import { FLAG_BITS, type Channel, type ChannelId, type Message, type Realm, type User, type UserId } from '../model/model.js';
import { JsonError, checkDict, checkString, missingArgument, pathId } from '../model/params.js';

/** Zulip's channel object (BasicStream, later BasicChannel), with the keys of the realm's level. */
export function streamDict(realm: Realm, channel: Channel): Record<string, unknown> {
  const level = realm.featureLevel;
  const administrators = realm.userGroups.find((group) => group.isSystemGroup && group.name === 'role:administrators')!.id;
  // Group settings that take any group are given as the anonymous group of their members.
  const group = (members: Iterable<UserId>) => ({ direct_members: [...members].sort((a, b) => a - b), direct_subgroups: [] as number[] });
  return {
    stream_id: channel.id,
    name: channel.name,
    ...(hasShape(level, 'channelIsArchived') ? { is_archived: channel.isArchived } : {}),
    description: channel.description,
    date_created: channel.dateCreated,
    ...(hasShape(level, 'channelCreatorId') ? { creator_id: channel.creatorId } : {}),
    invite_only: channel.inviteOnly,
    rendered_description: channel.description ? `<p>${channel.description}</p>` : '',
    is_web_public: false,
    stream_post_policy: 1,
    message_retention_days: null,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    first_message_id: firstMessageId(realm, channel),
    ...(hasShape(level, 'channelIsRecentlyActive') ? { is_recently_active: true } : {}),
    is_announcement_only: false,
    ...(hasShape(level, 'canRemoveSubscribersGroup') ? { can_remove_subscribers_group: administrators } : hasShape(level, 'canRemoveSubscribersGroupId') ? { can_remove_subscribers_group_id: administrators } : {}),
    ...(hasShape(level, 'canAdministerChannelGroup') ? { can_administer_channel_group: group(channel.creatorId === null ? [] : [channel.creatorId]) } : {}),
    ...(hasShape(level, 'canSendMessageGroup') ? { can_send_message_group: group(realm.users.keys()) } : {}),
    ...(hasShape(level, 'canAddSubscribersGroup') ? { can_add_subscribers_group: group([]) } : {}),
    ...(hasShape(level, 'canSubscribeGroup') ? { can_subscribe_group: group([]) } : {}),
    stream_weekly_traffic: null,
  };
}

/** A subscription: the channel, and the subscriber's own settings of it. */
export function subscriptionDict(realm: Realm, channel: Channel): Record<string, unknown> {
  return {
    ...streamDict(realm, channel),
    ...(hasShape(realm.featureLevel, 'subscriptionEmailAddressRemoved') ? {} : { email_address: '' }),
    color: '#76ce90',
    is_muted: false,
    in_home_view: true,
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

/** Channels the user left and has not rejoined. */
export function unsubscribedChannels(realm: Realm, user: User): Channel[] {
  return [...realm.channels.values()].filter((channel) => !channel.isArchived && !channel.subscribers.has(user.id) && channel.formerSubscribers.has(user.id));
}

/** Channels the user can see and was never subscribed to. */
export function neverSubscribedChannels(realm: Realm, user: User): Channel[] {
  return [...realm.channels.values()].filter((channel) =>
    !channel.subscribers.has(user.id) && !channel.formerSubscribers.has(user.id) && realm.channelIsAccessible(user, channel));
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

/** Who sees a channel and its subscribers: everyone but guests for a public one; else its subscribers and administrators. */
function audience(realm: Realm, channel: Channel): UserId[] {
  return [...realm.users.values()]
    .filter((user) => !user.isBot && (channel.subscribers.has(user.id) || (channel.inviteOnly ? realm.isAdministrator(user) : user.role !== 'guest')))
    .map((user) => user.id);
}

/** subscription peer_add and peer_remove, to those who see the channel's subscribers, the changed users aside. */
function sendPeerEvent(realm: Realm, op: 'peer_add' | 'peer_remove', channel: Channel, changed: UserId[]): void {
  if (changed.length === 0 || !hasShape(realm.featureLevel, 'peerSubscriptionIds')) return;
  const others = audience(realm, channel).filter((id) => !changed.includes(id));
  sendEvent(realm, { type: 'subscription', op, stream_ids: [channel.id], user_ids: changed }, others);
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
  const fatal = params.bool('authorization_errors_fatal') ?? true;
  for (const name of ['announce', 'is_web_public', 'is_default_stream', 'message_retention_days']) params.has(name);
  if (users.some((target) => target.id !== user.id) && user.role === 'guest') throw new JsonError('Insufficient permission');
  // Every channel is checked before any subscription changes; with authorization_errors_fatal=false,
  // a channel the caller may not access is reported and left out.
  const unauthorized: string[] = [];
  const allowed = wanted.filter(({ name }) => {
    const channel = findChannelByName(realm, name);
    if (!channel?.inviteOnly || channel.subscribers.has(user.id) || realm.isAdministrator(user)) return true;
    if (fatal) throw new JsonError(`Unable to access channel (${name}).`);
    unauthorized.push(channel.name);
    return false;
  });
  const subscribed: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  const added = new Map<UserId, Channel[]>();
  const created: Channel[] = [];
  const key = (target: User) => (hasShape(realm.featureLevel, 'subscribedByUserId') ? String(target.id) : target.email);
  for (const { name, description } of allowed) {
    const existing = findChannelByName(realm, name);
    const channel = existing ?? {
      id: realm.nextId('channel') as ChannelId, name, description, inviteOnly, historyPublicToSubscribers: historyPublic, isArchived: false,
      dateCreated: Math.floor(realm.clock.now()), creatorId: user.id, subscribers: new Set<UserId>(), formerSubscribers: new Set<UserId>(),
    };
    if (!existing) realm.channels.set(channel.id, channel);
    const newly: UserId[] = [];
    for (const target of users) {
      const bucket = channel.subscribers.has(target.id) ? already : subscribed;
      (bucket[key(target)] ??= []).push(channel.name);
      if (channel.subscribers.has(target.id)) continue;
      channel.subscribers.add(target.id);
      newly.push(target.id);
      added.set(target.id, [...(added.get(target.id) ?? []), channel]);
    }
    // A new channel is announced first, to all who may see it, its new subscribers among them.
    if (!existing) sendEvent(realm, { type: 'stream', op: 'create', streams: [streamDict(realm, channel)] }, audience(realm, channel));
    sendPeerEvent(realm, 'peer_add', channel, newly);
    // As Zulip does, the notification bot opens a new channel with a notice of who created it: a
    // message the server sends because of a client's request, which a client never sent.
    if (!existing) created.push(channel);
  }
  for (const channel of created) {
    doSendMessage(realm, realm.notificationBot!, { type: 'stream', channelId: channel.id, topic: 'channel events' }, `**${channel.inviteOnly ? 'Private' : 'Public'}** channel created by @_**${user.fullName}|${user.id}**.`, false, 'Internal');
  }
  for (const [id, channels] of added) sendEvent(realm, { type: 'subscription', op: 'add', subscriptions: channels.map((channel) => subscriptionDict(realm, channel)) }, [id]);
  return { subscribed, already_subscribed: already, ...(fatal ? {} : { unauthorized }) };
}

export function doUnsubscribe(realm: Realm, user: User, channel: Channel): void {
  channel.subscribers.delete(user.id);
  channel.formerSubscribers.add(user.id);
  realm.rules.markReadOnLeaving(realm, user, channel);
}

/** flags.unread-only-in-subscribed-channels: leaving a channel marks its messages read. */
function markReadOnLeaving(realm: Realm, user: User, channel: Channel): void {
  const marked = unreadMessagesIn(realm, user, channel);
  for (const message of marked) message.userFlags.set(user.id, message.userFlags.get(user.id)! | FLAG_BITS.read);
  announceMarkedRead(realm, user, marked);
}

/** The messages of the channel the user has and has not read: those leaving it marks read. */
function unreadMessagesIn(realm: Realm, user: User, channel: Channel): Message[] {
  const unread: Message[] = [];
  for (const message of realm.messages.values()) {
    if (message.recipient.type !== 'stream' || message.recipient.channelId !== channel.id) continue;
    const bits = message.userFlags.get(user.id);
    if (bits !== undefined && (bits & FLAG_BITS.read) === 0) unread.push(message);
  }
  return unread;
}

/** flags.event-shape (events are not shown): the user's clients are told which messages leaving marked read, as Zulip tells them. */
function announceMarkedRead(realm: Realm, user: User, marked: readonly Message[]): void {
  if (marked.length > 0) sendEvent(realm, { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: marked.map((message) => message.id), all: false }, [user.id]);
}

export const CHANNEL_RULES = { markReadOnLeaving };

/** Zulip lets only administrators remove others (can_remove_subscribers_group, default role:administrators). */
export function unsubscribe({ realm, user, params }: Request) {
  const list = params.list('subscriptions');
  if (list === undefined) throw missingArgument('subscriptions');
  const names = list.map((item, index) => checkString(item, `subscriptions[${index}]`));
  const users = principals(realm, user, params.list('principals'));
  if (users.some((target) => target.id !== user.id) && !realm.isAdministrator(user)) throw new JsonError('Insufficient permission');
  const channels = names.map((name) => {
    const channel = findChannelByName(realm, name);
    if (!channel) throw new JsonError(`Channel '${name}' does not exist`, 400, 'STREAM_DOES_NOT_EXIST', { stream: name });
    return channel;
  });
  const removed: string[] = [];
  const notRemoved: string[] = [];
  for (const channel of channels) {
    const left: UserId[] = [];
    for (const target of users) {
      if (!channel.subscribers.has(target.id)) {
        notRemoved.push(channel.name);
        continue;
      }
      doUnsubscribe(realm, target, channel);
      sendEvent(realm, { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: channel.id, name: channel.name }] }, [target.id]);
      left.push(target.id);
      removed.push(channel.name);
    }
    sendPeerEvent(realm, 'peer_remove', channel, left);
  }
  return { removed, not_removed: notRemoved };
}

export function archiveChannel({ realm, user, path }: Request) {
  if (!realm.isAdministrator(user)) throw new JsonError('Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
  const channel = realm.channels.get(pathId(path.stream_id!) as ChannelId);
  if (!channel || channel.isArchived) throw new JsonError('Invalid channel ID');
  const saw = audience(realm, channel);
  for (const subscriber of [...channel.subscribers]) doUnsubscribe(realm, realm.users.get(subscriber)!, channel);
  channel.isArchived = true;
  const deleted = hasShape(realm.featureLevel, 'streamDeleteIds') ? { streams: [{ stream_id: channel.id }], stream_ids: [channel.id] } : { streams: [streamDict(realm, channel)] };
  sendEvent(realm, { type: 'stream', op: 'delete', ...deleted }, saw);
  return {};
}
