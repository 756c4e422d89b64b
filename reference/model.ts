// The organization's data: plain records and the maps that hold them. Nothing here knows HTTP.

import type { DialectDecisions } from './dialect.js';
import type { EventQueue } from './events.js';
import type { SpecRules } from './rules.js';

export type UserId = number & { readonly __brand: 'UserId' };
export type ChannelId = number & { readonly __brand: 'ChannelId' };
export type MessageId = number & { readonly __brand: 'MessageId' };
export type DraftId = number & { readonly __brand: 'DraftId' };
export type ScheduledMessageId = number & { readonly __brand: 'ScheduledMessageId' };

export type Role = 'owner' | 'administrator' | 'moderator' | 'member' | 'guest';
export const ROLE_CODES: Record<Role, number> = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 };

export type SettingValue = boolean | number | string;

export type IdKind = 'user' | 'channel' | 'message' | 'draft' | 'scheduledMessage' | 'profileField' | 'reminder' | 'emoji';

export interface User {
  readonly id: UserId;
  readonly email: string;
  readonly fullName: string;
  readonly apiKey: string;
  readonly role: Role;
  readonly dateJoined: number;
  /** System bots (the notification bot): not listed among the organization's users. */
  readonly isBot?: boolean;
  settings: Record<string, SettingValue>;
  alertWords: string[];
  /** The user's drafts. */
  drafts: IdMap<DraftId, Draft>;
}

export type DraftType = '' | 'stream' | 'private';

export interface Draft {
  readonly id: DraftId;
  type: DraftType;
  /** Channel drafts: [channel ID]; direct drafts: the other participants (or [self]); unaddressed: []. */
  to: number[];
  topic: string;
  content: string;
  /** Seconds, possibly fractional; reported floored. */
  timestamp: number;
}

export interface Channel {
  readonly id: ChannelId;
  name: string;
  description: string;
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isArchived: boolean;
  readonly dateCreated: number;
  readonly creatorId: UserId | null;
  subscribers: Set<UserId>;
  /** Users who were subscribed once and left: /register lists the channel as unsubscribed for them. */
  formerSubscribers: Set<UserId>;
}

export type Recipient = { type: 'stream'; channelId: ChannelId; topic: string } | { type: 'private'; userIds: UserId[] };

export interface Message {
  readonly id: MessageId;
  readonly senderId: UserId;
  readonly recipient: Recipient;
  readonly content: string;
  readonly timestamp: number;
  readonly client: string;
  /** Each user's flags on the message, as bits of FLAG_BITS: the users who have it in their history. */
  readonly userFlags: IdMap<UserId, number>;
}

/** The stored personal flags; wildcard_mentioned is derived from the two wildcard flags. */
export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
} as const;

export type StoredFlag = keyof typeof FLAG_BITS;

export interface ScheduledMessage {
  readonly id: ScheduledMessageId;
  readonly senderId: UserId;
  /** As a sent message's: a direct recipient lists every participant, the sender included. */
  recipient: Recipient;
  content: string;
  deliveryTimestamp: number;
  readonly readBySender: boolean;
  failed: boolean;
  /** A failed message edited with a new time, in a dialect that lists it as failed until it is sent: due again. */
  retry: boolean;
  failureMessage: string | null;
  delivered: boolean;
}

export type ProfileFieldType = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface ProfileField {
  readonly id: number;
  name: string;
  hint: string;
  readonly type: ProfileFieldType;
  /** As stored: a JSON text for List of options and External account, else "" (Zulip) or the object given (alternate). */
  fieldData: unknown;
  order: number;
  displayInProfileSummary: boolean;
  required: boolean;
  editableByUser: boolean;
}

export interface Reminder {
  readonly id: number;
  readonly userId: UserId;
  /** The message it links; null in the alternate dialect's reminders of a note alone. */
  readonly messageId: MessageId | null;
  readonly deliveryTimestamp: number;
  readonly note: string;
  failed: boolean;
}

export interface CustomEmoji {
  readonly id: number;
  /** Stored as Zulip stores it: lower case, spaces as underscores. */
  readonly name: string;
  readonly authorId: UserId | null;
  readonly data: Buffer;
  readonly mimeType: string;
  deactivated: boolean;
}

export interface UserGroup {
  readonly id: number;
  readonly name: string;
  readonly members: Set<UserId>;
  /** Zulip's groups of a role (role:administrators), which settings name by ID. */
  readonly isSystemGroup?: boolean;
}

export interface RealmSettings {
  name: string;
  emptyTopicDisplayName: string;
  maxMessageLength: number;
  maxTopicLength: number;
}

/**
 * Records by their numeric ID, for the stores that grow without bound under load (messages and
 * each user's flags on them, a user's drafts, the profile fields): a Map's hash table is copied whole each time it doubles, while
 * IDs given out in ascending order fill an array indexed by ID, which grows at its end. It keeps
 * the part of Map's interface the model uses; it iterates in ascending ID order, which no rule
 * depends on (listings sort by their own key).
 */
export class IdMap<K extends number, V extends {}> implements Iterable<[K, V]> {
  private readonly byId: V[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): V | undefined {
    return Number.isSafeInteger(id) && id >= 0 ? this.byId[id] : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: K, value: V): this {
    if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not an ID: ${id}`);
    if (this.byId[id] === undefined) this.count++;
    this.byId[id] = value;
    return this;
  }

  delete(id: number): boolean {
    if (!this.has(id)) return false;
    delete this.byId[id];
    this.count--;
    return true;
  }

  clear(): void {
    this.byId.length = 0;
    this.count = 0;
  }

  /** The records, in ascending ID order (holes are skipped, however sparse the IDs). */
  values(): V[] {
    return Object.values(this.byId);
  }

  keys(): K[] {
    return Object.keys(this.byId).map(Number) as K[];
  }

  [Symbol.iterator](): Iterator<[K, V]> {
    return Object.entries(this.byId).map(([id, value]): [K, V] => [Number(id) as K, value])[Symbol.iterator]();
  }
}

export class Clock {
  private offsetSeconds = 0;
  /** Seconds since the epoch, fractional: the machine's time plus every advance. */
  now(): number {
    return Date.now() / 1000 + this.offsetSeconds;
  }
  advance(seconds: number): void {
    this.offsetSeconds += seconds;
  }
}

export class Realm {
  readonly users = new Map<UserId, User>();
  readonly usersByEmail = new Map<string, User>();
  readonly channels = new Map<ChannelId, Channel>();
  readonly messages = new IdMap<MessageId, Message>();
  readonly scheduledMessages = new Map<ScheduledMessageId, ScheduledMessage>();
  readonly profileFields = new IdMap<number, ProfileField>();
  readonly reminders = new Map<number, Reminder>();
  readonly emoji = new Map<number, CustomEmoji>();
  /** Who may upload custom emoji (Zulip's can_add_custom_emoji_group, by role). */
  emojiUploaders: 'members' | 'administrators' = 'members';
  /** MAX_EMOJI_FILE_SIZE_MIB. */
  maxEmojiFileSizeMib = 5;
  /** The settings new users start with (spec "User settings defaults"); set when the realm is built. */
  userSettingsDefaults: Record<string, SettingValue> = {};
  /** The settings of a new organization at the realm's level, before any change of the defaults. */
  initialUserSettings: Readonly<Record<string, SettingValue>> = {};
  readonly userGroups: UserGroup[] = [];
  readonly queues = new Map<string, EventQueue>();
  readonly clock = new Clock();
  /**
   * The clock is hidden: the server behaves as a real one, without POST /reference/clock or
   * server_settings.reference_clock, and its worker alone delivers, on real time.
   */
  clockHidden = false;
  /** The base URL the server answers at, known once it listens. */
  url = '';
  /** What the delivery worker does when it runs: each area that delivers adds its part. */
  readonly deliveryWorkers: Array<(realm: Realm) => void> = [];
  /** The end of the last time the delivery worker was down (the clock advanced with deliver=false). */
  workerDownUntil = -Infinity;
  /** The emails of the profile's users by role (admin, member, other), from the fixture. */
  profile: Readonly<Record<string, string>> = {};
  /** The bot that tells users about messages that could not be sent; set when the realm is built. */
  notificationBot: User | null = null;
  /** The last ID given out, by kind. */
  private readonly lastIds: Record<IdKind, number> = { user: 0, channel: 0, message: 0, draft: 0, scheduledMessage: 0, profileField: 0, reminder: 0, emoji: 0 };

  constructor(
    readonly settings: RealmSettings,
    readonly featureLevel: number,
    /** The spec's rules, by name (rules.ts); a seeded fault replaces one here. */
    readonly rules: SpecRules,
    /** What the realm does where the spec is silent (dialect.ts). */
    readonly dialect: DialectDecisions,
  ) {}

  /** The next ID of a kind; the dialect decides how IDs follow each other (general.ids-ascend). */
  nextId(kind: IdKind): number {
    return (this.lastIds[kind] = kind === 'user' ? this.lastIds.user + 1 : this.dialect.nextId(kind, this.lastIds[kind], this.lastIds.message));
  }

  runDeliveries(): void {
    for (const worker of this.deliveryWorkers) worker(this);
  }

  lastMessageId(): number {
    return this.lastIds.message;
  }

  addUser(user: User): void {
    this.users.set(user.id, user);
    this.usersByEmail.set(user.email.toLowerCase(), user);
  }

  isAdministrator(user: User): boolean {
    return user.role === 'owner' || user.role === 'administrator';
  }

  /** A channel the user may see: public, or private with the user subscribed. */
  channelIsAccessible(user: User, channel: Channel): boolean {
    if (channel.isArchived) return false;
    if (!channel.inviteOnly) return user.role !== 'guest' || channel.subscribers.has(user.id);
    return channel.subscribers.has(user.id);
  }
}
