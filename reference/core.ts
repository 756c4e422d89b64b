// The Zulip endpoints the suite uses to set up and observe a target (CONTRACT.md), in Zulip's
// documented shapes, and the reference clock.

import { subscribedChannels, subscriptionDict } from './channels.js';
import { draftDict, draftsByEditTime, doDeleteAllDrafts } from './drafts.js';
import { fetchEvents, registerQueue, sendEvent } from './events.js';
import type { Request } from './http.js';
import { has, ZULIP_VERSION_FOR_LEVEL } from './levels.js';
import { ROLE_CODES, type Realm, type SettingValue, type User } from './model.js';
import { JsonError, checkString, missingArgument } from './params.js';
import { scheduledMessageDict, undeliveredScheduledMessages } from './scheduled.js';
import { realmUserSettingsDefaultsState } from './defaults.js';
import { mayUploadEmoji, realmEmojiDict } from './emoji.js';
import { reminderDict, remindersOf } from './reminders.js';
import { profileFieldDict, profileFieldsInOrder } from './fields.js';
import { readSettings } from './settings.js';

const HEARTBEAT_SECONDS = Number(process.env.TEAMCHAT_HEARTBEAT_SECONDS ?? 50);

export function getServerSettings({ realm }: Request) {
  const version = ZULIP_VERSION_FOR_LEVEL(realm.featureLevel);
  return {
    authentication_methods: { password: true, dev: false, email: true, ldap: false, remoteuser: false, github: false, azuread: false, gitlab: false, apple: false, google: false, saml: false, 'openid connect': false },
    zulip_version: version,
    zulip_merge_base: version,
    zulip_feature_level: realm.featureLevel,
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_uri: realm.url,
    realm_url: realm.url,
    realm_name: realm.settings.name,
    realm_icon: '',
    realm_description: '',
    realm_web_public_access_enabled: false,
    external_authentication_methods: [],
    reference_clock: true,
    // POST /reference/api_key: the suite may act as a user it created with POST /users.
    reference_api_keys: true,
    // MAX_EMOJI_FILE_SIZE_MIB, which Zulip does not report.
    max_emoji_file_size_mib: realm.maxEmojiFileSizeMib,
  };
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
    avatar_url: null,
    avatar_version: 1,
    date_joined: new Date(user.dateJoined * 1000).toISOString(),
  };
}

export function getOwnUser({ realm, user }: Request) {
  return { ...userDict(realm, user), profile_data: {}, max_message_id: realm.lastMessageId() };
}

/** State for /register, by the event type that names it. */
type StateFetcher = (realm: Realm, user: User) => Record<string, unknown>;

const STATE: Record<string, StateFetcher> = {
  realm: (realm) => ({
    realm_name: realm.settings.name,
    realm_url: realm.url,
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
    realm_user_groups: realm.userGroups.map((group) => ({ id: group.id, name: group.name, description: '', members: [...group.members].sort((a, b) => a - b), is_system_group: false })),
  }),
  subscription: (realm, user) => ({ subscriptions: subscribedChannels(realm, user).map((channel) => subscriptionDict(realm, channel)) }),
  message: (realm) => ({ max_message_id: realm.lastMessageId() }),
  // Zulip sends at most 1000 drafts, the most recently edited first.
  drafts: (_realm, user) => ({ drafts: draftsByEditTime(user).reverse().slice(0, 1000).map(draftDict) }),
  realm_user_settings_defaults: (realm) => (realm.featureLevel >= 95 ? { realm_user_settings_defaults: realmUserSettingsDefaultsState(realm) } : {}),
  realm_emoji: (realm) => ({ realm_emoji: realmEmojiDict(realm) }),
  realm_can_add_custom_emoji_group: (realm) => ({
    // An anonymous group of the users who may upload (Zulip: a group setting, default role:members).
    realm_can_add_custom_emoji_group: { direct_members: [...realm.users.values()].filter((user) => mayUploadEmoji(realm, user)).map((user) => user.id), direct_subgroups: [] },
  }),
  reminders: (realm, user) => (has(realm.featureLevel, 'reminders') ? { reminders: remindersOf(realm, user).map((reminder) => reminderDict(realm, reminder)), max_reminder_note_length: 1000 } : {}),
  custom_profile_fields: (realm) => ({ custom_profile_fields: profileFieldsInOrder(realm).map((field) => profileFieldDict(realm, field)) }),
  scheduled_messages: (realm, user) =>
    (has(realm.featureLevel, 'deleteScheduledMessage') ? { scheduled_messages: undeliveredScheduledMessages(realm, user).map((scheduled) => scheduledMessageDict(realm, scheduled)) } : {}),
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
  for (const [type, fetch] of Object.entries(STATE)) {
    if (fetchTypes === null || fetchTypes.includes(type)) Object.assign(state, fetch(realm, user));
  }
  return state;
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

// ---- Own settings -------------------------------------------------------------------------

export function doChangeUserSetting(realm: Realm, user: User, name: string, value: SettingValue): void {
  if (user.settings[name] === value) return;
  user.settings[name] = value;
  sendEvent(realm, { type: 'user_settings', op: 'update', property: name, value }, [user.id]);
  if (name === 'enable_drafts_synchronization' && value === false) doDeleteAllDrafts(realm, user);
}

export function updateSettings({ realm, user, params }: Request) {
  const changes = readSettings(params, realm);
  for (const [name, value] of changes) doChangeUserSetting(realm, user, name, value);
  return {};
}

// ---- The reference clock --------------------------------------------------------------------

export function advanceClock({ realm, user, params }: Request) {
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
