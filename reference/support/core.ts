// The Zulip endpoints the suite uses to set up and observe a target (CONTRACT.md), in Zulip's
// documented shapes, and the reference clock.

import { createHash } from 'node:crypto';
import { neverSubscribedChannels, streamDict, subscribedChannels, subscriptionDict, unsubscribedChannels } from './channels.js';
import { fetchEvents, registerQueue } from '../model/events.js';
import type { Request } from '../model/request.js';
import { has, hasShape, ZULIP_VERSION_FOR_LEVEL } from '../model/levels.js';
import { FLAG_BITS, ROLE_CODES, type Realm, type StatePart, type User } from '../model/model.js';
import { JsonError, checkString, missingArgument } from '../model/params.js';

const HEARTBEAT_SECONDS = Number(process.env.TEAMCHAT_HEARTBEAT_SECONDS ?? 50);

/** The answer of GET /server_settings, frozen (the HTTP layer then sends its text as made once), with what it was made of. */
/** All GET /server_settings answers from: the builder reads nothing else, so the answer made for them stands while they do. */
function serverSettingsInputs(realm: Realm) {
  return { featureLevel: realm.featureLevel, url: realm.url, name: realm.settings.name, clockHidden: realm.clockHidden, maxEmojiFileSizeMib: realm.maxEmojiFileSizeMib };
}
type ServerSettingsInputs = ReturnType<typeof serverSettingsInputs>;

const serverSettingsOf = new WeakMap<Realm, { readonly inputs: ServerSettingsInputs; readonly answer: Readonly<Record<string, unknown>> }>();

export function getServerSettings({ realm }: Request) {
  const inputs = serverSettingsInputs(realm);
  const made = serverSettingsOf.get(realm);
  if (made && (Object.keys(inputs) as Array<keyof ServerSettingsInputs>).every((name) => made.inputs[name] === inputs[name])) return made.answer;
  const answer = Object.freeze(serverSettings(inputs));
  serverSettingsOf.set(realm, { inputs, answer });
  return answer;
}

function serverSettings({ featureLevel, url, name, clockHidden, maxEmojiFileSizeMib }: ServerSettingsInputs): Record<string, unknown> {
  const version = ZULIP_VERSION_FOR_LEVEL(featureLevel);
  return {
    authentication_methods: { password: true, dev: false, email: true, ldap: false, remoteuser: false, github: false, azuread: false, gitlab: false, apple: false, google: false, saml: false, 'openid connect': false },
    zulip_version: version,
    zulip_merge_base: version,
    zulip_feature_level: featureLevel,
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_uri: url,
    ...(hasShape(featureLevel, 'realmUrl') ? { realm_url: url } : {}),
    realm_name: name,
    realm_icon: '',
    realm_description: '',
    realm_web_public_access_enabled: false,
    external_authentication_methods: [],
    ...(clockHidden ? {} : { reference_clock: true }),
    // POST /reference/api_key: the suite may act as a user it created with POST /users.
    reference_api_keys: true,
    // MAX_EMOJI_FILE_SIZE_MIB, which Zulip does not report.
    max_emoji_file_size_mib: maxEmojiFileSizeMib,
  };
}

/** Zulip's URL for a user without an uploaded avatar: Gravatar's, by the email's hash. */
export function avatarUrl(user: User): string {
  return `https://secure.gravatar.com/avatar/${createHash('md5').update(user.email.toLowerCase()).digest('hex')}?d=identicon&version=1`;
}

export function userDict(realm: Realm, user: User): Record<string, unknown> {
  return {
    user_id: user.id,
    email: user.email,
    delivery_email: user.email,
    full_name: user.fullName,
    role: ROLE_CODES[user.role],
    is_owner: user.role === 'owner',
    is_admin: realm.isAdministrator(user),
    is_guest: user.role === 'guest',
    is_bot: user.isBot === true,
    is_active: true,
    timezone: '',
    avatar_url: avatarUrl(user),
    avatar_version: 1,
    date_joined: new Date(user.dateJoined * 1000).toISOString(),
  };
}

/** A user as realm_user events and /register's realm_users give one. */
export function personDict(realm: Realm, user: User): Record<string, unknown> {
  const billing = hasShape(realm.featureLevel, 'billingAdminRemoved') ? {} : { is_billing_admin: false };
  return { ...userDict(realm, user), ...billing, bot_type: null, bot_owner_id: null, profile_data: {} };
}

export function getOwnUser({ realm, user }: Request) {
  return { ...userDict(realm, user), profile_data: {}, max_message_id: realm.lastMessageId() };
}

/**
 * State for /register, by the event type that names it: what these endpoints keep; the spec's
 * operations add theirs (realm.stateParts, installed when the server boots).
 */
const STATE: Record<string, StatePart['state']> = {
  realm: (realm) => ({
    realm_name: realm.settings.name,
    ...(hasShape(realm.featureLevel, 'realmUrl') ? { realm_url: realm.url } : {}),
    realm_uri: realm.url,
    // The empty topic and its display name exist from level 334.
    ...(has(realm.featureLevel, 'emptyTopicNames') ? { realm_empty_topic_display_name: realm.settings.emptyTopicDisplayName } : {}),
    max_message_length: realm.settings.maxMessageLength,
    max_topic_length: realm.settings.maxTopicLength,
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    event_queue_longpoll_timeout_seconds: 90,
  }),
  realm_user: (realm, user) => ({
    user_id: user.id,
    email: user.email,
    delivery_email: user.email,
    full_name: user.fullName,
    is_admin: realm.isAdministrator(user),
    is_owner: user.role === 'owner',
    is_guest: user.role === 'guest',
    realm_users: [...realm.users.values()].filter((other) => !other.isBot).map((other) => userDict(realm, other)),
  }),
  user_settings: (_realm, user) => ({ user_settings: { ...user.settings } }),
  alert_words: (_realm, user) => ({ alert_words: [...user.alertWords] }),
  realm_user_groups: (realm) => ({
    realm_user_groups: realm.userGroups.map((group) => ({ id: group.id, name: group.name, description: '', members: [...group.members].sort((a, b) => a - b), is_system_group: group.isSystemGroup === true })),
  }),
  subscription: (realm, user) => ({
    subscriptions: subscribedChannels(realm, user).map((channel) => subscriptionDict(realm, channel)),
    unsubscribed: unsubscribedChannels(realm, user).map((channel) => subscriptionDict(realm, channel)),
    never_subscribed: neverSubscribedChannels(realm, user).map((channel) => ({ ...streamDict(realm, channel), subscribers: [...channel.subscribers].sort((a, b) => a - b) })),
  }),
  message: (realm) => ({ max_message_id: realm.lastMessageId() }),
};

function eventTypesParam(request: Request, name: string): string[] | null {
  const value = request.params.list(name);
  return value === undefined ? null : value.map((item, index) => checkString(item, `${name}[${index}]`));
}

export function register(request: Request) {
  const { realm, user, params } = request;
  const eventTypes = eventTypesParam(request, 'event_types');
  const fetchTypes = eventTypesParam(request, 'fetch_event_types') ?? eventTypes;
  for (const name of ['apply_markdown', 'client_gravatar', 'slim_presence', 'include_subscribers', 'narrow', 'all_public_streams', 'queue_lifespan_secs']) {
    params.has(name);
  }
  const capabilities = params.json('client_capabilities');
  const declared = capabilities && typeof capabilities === 'object' ? Object.keys(capabilities).filter((name) => (capabilities as Record<string, unknown>)[name] === true) : [];
  const queue = registerQueue(realm, user, eventTypes, declared);
  const state: Record<string, unknown> = {
    queue_id: queue.id,
    last_event_id: -1,
    zulip_version: ZULIP_VERSION_FOR_LEVEL(realm.featureLevel),
    zulip_feature_level: realm.featureLevel,
    zulip_merge_base: ZULIP_VERSION_FOR_LEVEL(realm.featureLevel),
  };
  const fetching = (type: string) => fetchTypes === null || fetchTypes.includes(type);
  for (const [type, fetch] of Object.entries(STATE)) {
    if (fetching(type)) Object.assign(state, fetch(realm, user));
  }
  for (const part of realm.stateParts) {
    if (fetching(part.type)) Object.assign(state, part.state(realm, user));
  }
  if (fetching('message') && fetching('update_message_flags')) state.unread_msgs = unreadMessages(realm, user);
  return state;
}

/** /register's unread_msgs: the user's unread messages, by conversation. */
function unreadMessages(realm: Realm, user: User): Record<string, unknown> {
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, { other_user_id: number; sender_id: number; unread_message_ids: number[] }>();
  const huddles = new Map<string, { user_ids_string: string; unread_message_ids: number[] }>();
  const entry = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
    if (!map.has(key)) map.set(key, make());
    return map.get(key)!;
  };
  const mentions: number[] = [];
  let count = 0;
  for (const message of realm.messages.values()) {
    const bits = message.userFlags.get(user.id);
    if (bits === undefined || (bits & FLAG_BITS.read) !== 0) continue;
    const { recipient } = message;
    if (recipient.type === 'stream') {
      if (!realm.channels.get(recipient.channelId)?.subscribers.has(user.id)) continue;
      const { channelId: stream_id, topic } = recipient;
      entry(streams, `${stream_id}\0${topic}`, () => ({ stream_id, topic, unread_message_ids: [] })).unread_message_ids.push(message.id);
    } else if (recipient.userIds.length <= 2) {
      const other = recipient.userIds.find((id) => id !== user.id) ?? user.id;
      entry(pms, other, () => ({ other_user_id: other, sender_id: other, unread_message_ids: [] })).unread_message_ids.push(message.id);
    } else {
      const key = [...recipient.userIds].sort((a, b) => a - b).join(',');
      entry(huddles, key, () => ({ user_ids_string: key, unread_message_ids: [] })).unread_message_ids.push(message.id);
    }
    if ((bits & (FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0) mentions.push(message.id);
    count++;
  }
  return { count, pms: [...pms.values()], streams: [...streams.values()], huddles: [...huddles.values()], mentions, old_unreads_missing: false };
}

function findQueue(realm: Realm, user: User, queueId: string) {
  const queue = realm.queues.get(queueId);
  if (!queue || queue.userId !== user.id) {
    throw new JsonError(`Bad event queue ID: ${queueId}`, 400, 'BAD_EVENT_QUEUE_ID', { queue_id: queueId });
  }
  return queue;
}

export async function getEvents({ realm, user, params, closed }: Request) {
  const queueId = params.string('queue_id');
  if (queueId === undefined) throw missingArgument('queue_id');
  const lastEventId = params.int('last_event_id');
  const dontBlock = params.bool('dont_block') ?? false;
  const queue = findQueue(realm, user, queueId);
  if (lastEventId === undefined) throw missingArgument('last_event_id');
  const events = await fetchEvents(queue, lastEventId, dontBlock, HEARTBEAT_SECONDS, closed);
  return { events, queue_id: queue.id };
}

export function deleteQueue({ realm, user, params }: Request) {
  const queueId = params.requiredString('queue_id');
  findQueue(realm, user, queueId);
  realm.queues.delete(queueId);
  return {};
}

// ---- The reference clock --------------------------------------------------------------------

export function advanceClock({ realm, user, params }: Request) {
  if (realm.clockHidden) throw new JsonError('Not Found', 404);
  if (!realm.isAdministrator(user)) throw new JsonError('Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
  const seconds = params.int('advance_seconds');
  if (seconds === undefined) throw missingArgument('advance_seconds');
  if (seconds < 0) throw new JsonError('advance_seconds must not be negative');
  const deliver = params.bool('deliver') ?? true;
  realm.clock.advance(seconds);
  // With deliver=false the worker was down while the clock moved: what came due meanwhile is late.
  if (deliver) realm.runDeliveries();
  else realm.workerDownUntil = realm.clock.now();
  return { now: Math.floor(realm.clock.now()) };
}
