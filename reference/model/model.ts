// The organization's data: plain records and the maps that hold them, the realm that holds them,
// and the two interfaces by which the rest plugs in: the spec's rules (SpecRules, which a seeded
// fault replaces one of) and the dialect's decisions (DialectDecisions). Nothing here knows HTTP,
// and nothing here imports a room above it.

import type { JsonError, Params } from './params.js';

export type UserId = number & { readonly __brand: 'UserId' };
export type ChannelId = number & { readonly __brand: 'ChannelId' };
export type MessageId = number & { readonly __brand: 'MessageId' };
export type DraftId = number & { readonly __brand: 'DraftId' };
export type ScheduledMessageId = number & { readonly __brand: 'ScheduledMessageId' };

export type Role = 'owner' | 'administrator' | 'moderator' | 'member' | 'guest';
export const ROLE_CODES: Record<Role, number> = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 };

export type SettingValue = boolean | number | string;

/** A part of /register's state: the event type that asks for it, and the fields it gives. */
export interface StatePart {
  readonly type: string;
  readonly state: (realm: Realm, user: User) => Record<string, unknown>;
}

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
  /** What each part of the server adds to /register's state, by the event type that names it; installed when the server boots. */
  stateParts: readonly StatePart[] = [];
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

// ---- What the operations take and give, which the dialects and the rules' table name too ----

/** A draft as given, before it has an ID. */
export type DraftFields = Omit<Draft, 'id'>;

/** A custom emoji added, or one removed by its name. */
export type EmojiChange = { add: CustomEmoji } | { remove: string };

/** A profile field added, or one removed by its ID. */
export type ProfileFieldsChange = { add: ProfileField } | { remove: number };

/** What a flags request does to a flag. */
export type FlagOperation = 'add' | 'remove';

/** The messages a flags request changed, and the channels whose messages it skipped. */
export interface FlagsResult {
  modified: number[];
  ignoredChannels: number[];
}

/** A scheduled message's type, as the reference keeps it. */
export type MessageType = 'stream' | 'private';

/** A typing notification starts or stops. */
export type TypingOp = 'start' | 'stop';

/** What a setting takes: a boolean, an integer (of a set, or any), a string (of a set, or any). */
export type SettingKind =
  | { readonly type: 'bool' }
  | { readonly type: 'int'; readonly values?: readonly number[] }
  | { readonly type: 'string'; readonly values?: readonly string[] };

/** A setting of the spec's tables, from the level it starts at (to the one it was removed at), with a new organization's value. */
export interface Setting {
  readonly name: string;
  readonly kind: SettingKind;
  readonly since: number;
  /** The level at which the setting was removed. */
  readonly before?: number;
}

/** A scheduled message's edit: what it changes. */
export type ScheduledMessageChanges = Partial<Pick<ScheduledMessage, 'recipient' | 'content' | 'deliveryTimestamp'>>;

// ---- Events ----

/** An event as queues hold it: its type, and what the type carries. */
export type Event = { type: string } & Record<string, unknown>;

export interface EventQueue {
  readonly id: string;
  readonly userId: UserId;
  readonly eventTypes: ReadonlySet<string> | null;
  /** The client_capabilities the queue declared (Zulip: stream_typing_notifications, ...). */
  readonly capabilities: ReadonlySet<string>;
  /** The user's settings as the client was given them when it registered (POST /register's user_settings). */
  readonly givenSettings: Readonly<User['settings']>;
  events: Array<Event & { id: number }>;
  nextEventId: number;
  lastTouched: number;
  waiter: (() => void) | null;
}

// ---- What a request carries, and what messages mention ----

export interface UploadedFile {
  readonly field: string;
  readonly filename: string;
  readonly mimeType: string;
  readonly data: Buffer;
}

export interface Mentions {
  users: Set<UserId>;
  streamWildcard: boolean;
  topicWildcard: boolean;
}

export interface NewMessageFlags {
  read: boolean;
  mentioned: boolean;
  inChannel: boolean;
  mentions: Mentions;
  alertWord: boolean;
}

// ---- Where the realm plugs in: the spec's rules (a seeded fault replaces one) and the dialect's decisions ----

/** The spec's rules, by name: the functions the area modules state them in (http/rules.ts gathers them). */
export interface SpecRules {
  // the HTTP layer: envelopes, ignored parameters, credentials (http/handler.ts)
  successEnvelope: (path: string, data: Record<string, unknown>) => Record<string, unknown>;
  listsIgnoredParameters: (realm: Realm, route: { readonly ignoredParametersSince?: number }) => boolean;
  ignoredParametersListed: (ignored: string[]) => string[];
  userOfCredentials: (realm: Realm, email: string, apiKey: string) => User | undefined;

  // users (support/users.ts)
  checkAdministrator: (realm: Realm, user: User, specEndpoint?: boolean) => void;
  settingsOfNewUser: (realm: Realm) => Record<string, SettingValue>;
  ownDataAudience: (realm: Realm, user: User) => UserId[];

  // settings (operations/settings.ts)
  settingsOfLevel: (level: number) => Setting[];
  readBooleanSetting: (params: Params, name: string) => boolean | undefined;
  checkSettingValue: (setting: Setting, value: SettingValue, allowed: readonly (number | string)[]) => void;

  // defaults (operations/defaults.ts)
  storeDefaults: (realm: Realm, changes: ReadonlyArray<readonly [string, SettingValue]>) => void;
  changedDefaults: (realm: Realm, changes: ReadonlyArray<readonly [string, SettingValue]>) => Array<readonly [string, SettingValue]>;

  // drafts (operations/drafts.ts)
  checkRequiredDraftKeys: (dict: Record<string, unknown>, name: string) => void;
  draftTextField: (given: unknown, field: string) => string;
  checkDraftType: (given: string, name: string) => DraftType;
  draftTimestampNow: (realm: Realm) => number;
  checkTopicWithoutNullBytes: (topic: string) => void;
  checkOneChannel: (channels: readonly number[]) => number;
  unaddressedDraft: (to: readonly number[], content: string, timestamp: number) => DraftFields;
  draftsParameter: (params: Params) => unknown[];
  storeDraft: (user: User, draft: Draft) => void;
  idsOfCreatedDrafts: (drafts: readonly Draft[]) => DraftId[];
  announceCreatedDrafts: (realm: Realm, user: User, drafts: readonly Draft[]) => void;
  removeDraft: (user: User, draft: Draft) => void;
  deleteDraftsSilently: (realm: Realm, user: User) => void;

  // scheduled messages (operations/scheduled.ts)
  messageTypeNames: (realm: Realm) => Readonly<Record<string, MessageType>>;
  checkMessageType: (realm: Realm, given: string) => MessageType;
  channelIdOfTo: (to: number | number[]) => number;
  userIdsOfTo: (to: number | number[]) => number[];
  checkScheduledRecipientIds: (realm: Realm, sender: User, ids: readonly number[]) => UserId[];
  checkScheduledChannel: (realm: Realm, sender: User, id: number) => Channel;
  checkRequiredTopic: (realm: Realm, topic: string) => void;
  emptyTopicNamesMeanEmpty: (realm: Realm) => boolean;
  emptyTopicsValid: (realm: Realm) => boolean;
  fitTopicToLimit: (realm: Realm, topic: string) => string;
  fitContentToLimit: (realm: Realm, content: string) => string;
  ignoreTopicOfDirectMessage: (topic: string) => void;
  checkToGivenOnTypeChange: (to: number | number[] | undefined) => void;
  checkTopicGivenOnChangeToChannel: (topic: string | undefined) => void;
  checkFailedMessageGetsTimestamp: (scheduled: ScheduledMessage, timestamp: number | undefined) => void;
  isOwnScheduledMessage: (user: User, scheduled: ScheduledMessage) => boolean;
  scheduledMessageNotFound: (id: number) => JsonError;
  applyScheduledEdit: (scheduled: ScheduledMessage, changes: ScheduledMessageChanges) => void;
  deleteScheduledMessageById: (realm: Realm, user: User, id: number) => void;
  removeScheduledMessage: (realm: Realm, scheduled: ScheduledMessage) => void;
  dueScheduledMessages: (realm: Realm, now: number) => ScheduledMessage[];
  scheduledMessageSender: (realm: Realm, sender: User) => User;
  scheduledMessageToSend: (scheduled: ScheduledMessage) => { readonly recipient: Recipient; readonly content: string };

  // messages (model/messaging.ts)
  splitsWildcardFlags: (realm: Realm) => boolean;
  isSilentMention: (realm: Realm, marker: string) => boolean;
  alertWordForm: (realm: Realm, text: string) => string;
  flagsOfNewMessage: (flags: NewMessageFlags) => number;
  rendersByDefault: () => boolean;

  // channels (support/channels.ts)
  markReadOnLeaving: (realm: Realm, user: User, channel: Channel) => void;

  // flags (operations/flags.ts)
  flagParameter: (params: Params) => string;
  checkFlagOperation: (op: string) => FlagOperation;
  checkFlagInTable: (realm: Realm, flag: string) => void;
  checkChangeableFlag: (flag: string) => StoredFlag;
  messagesToChange: (realm: Realm, user: User, op: FlagOperation, flag: StoredFlag, ids: readonly number[]) => { candidates: readonly number[]; ignoredChannels: number[] };
  flagsOfHistoricalMessage: () => number;
  changeFlag: (message: Message, user: User, flag: StoredFlag, op: FlagOperation, bits: number) => boolean;
  listedMessages: (result: FlagsResult, requested: readonly number[]) => number[];
  listsIgnoredChannels: (realm: Realm, op: FlagOperation, flag: StoredFlag) => boolean;

  // profile fields (operations/fields.ts)
  fieldTypeParameter: (params: Params) => number;
  checkFieldType: (realm: Realm, type: number) => ProfileFieldType;
  readsSummaryFlag: (realm: Realm) => boolean;
  summaryFieldCount: (realm: Realm) => number;
  checkSummaryRoom: (realm: Realm) => void;
  checkSummaryType: (type: ProfileFieldType) => void;
  checkSelectOption: (key: string, option: unknown) => string;
  checkFieldNameOptional: (given: string | undefined) => void;
  idOfCreatedField: (field: ProfileField) => number;
  removeProfileField: (realm: Realm, field: ProfileField) => void;
  listedFieldData: (field: ProfileField) => unknown;

  // reminders (operations/reminders.ts)
  readsReminderNote: (realm: Realm) => boolean;
  deliveredNote: (reminder: Reminder) => string;
  reminderSender: (realm: Realm, user: User) => User;
  idOfCreatedReminder: (reminder: Reminder) => number;
  dueReminders: (realm: Realm, now: number) => Reminder[];

  // emoji (operations/emoji.ts)
  emojiNameKey: (name: string) => string;
  checkEmojiNameCharacters: (name: string, letters: RegExp) => void;
  filePartsAllowed: () => number;
  checkOneFile: (files: readonly UploadedFile[]) => UploadedFile;
  isImageOrGif: (file: UploadedFile) => boolean;
  isOtherImage: (file: UploadedFile) => boolean;
  isWholeImage: (file: UploadedFile) => boolean;
  largestEmojiFile: (realm: Realm) => number;
  mayUploadEmojiByConfiguration: (realm: Realm, user: User) => boolean;
  storeEmoji: (realm: Realm, emoji: CustomEmoji) => void;
  deactivateEmoji: (realm: Realm, emoji: CustomEmoji) => void;

  // typing (operations/typing.ts)
  receivesTyping: (realm: Realm, queue: EventQueue, kind: 'direct' | 'channel') => boolean;
}

type TypingEvent = { event: Event; audience: Iterable<UserId>; capability?: string };

/** What the realm does where the spec is silent; each member names its decision (dialects/dialect.ts, DECIDED_BY). */
export interface DialectDecisions {
  // general.realm-limits
  realmSettings(fixture: RealmSettings): RealmSettings;
  // general.ids-ascend (users are numbered 1, 2, 3 in every dialect); `lastMessage`, the last
  // message ID given out, for a dialect that numbers another kind in the messages' range
  nextId(kind: Exclude<IdKind, 'user'>, last: number, lastMessage: number): number;
  // general.date-header: the time the HTTP Date header tells, in unix seconds
  httpDateTime(realm: Realm): number;
  // general.channel-history-read: whether a read narrowed to a channel gives the channel's
  // history, or only what the user received or flagged, as a read without a narrow does
  channelHistoryReadable(): boolean;
  // general.error-statuses
  errorResponse(realm: Realm, error: JsonError): { status: number; headers: Record<string, string>; body: Record<string, unknown> };
  // general.message-rendering
  renderContent(realm: Realm, content: string): string;
  // general.unknown-endpoints: whether HEAD is answered as GET, whether OPTIONS names the methods
  // a path has, and how a method a path does not have is refused (and whether with Allow)
  headAnsweredAsGet(): boolean;
  optionsAnswered(): boolean;
  methodNotAllowed(path: string, allowed: readonly string[]): { error: JsonError; allow: boolean };

  // drafts.sync-off-endpoints-refuse
  draftsReadableWhileSynchronizationOff(): boolean;
  // drafts.unknown-keys-rejected
  rejectsUnknownDraftKeys(): boolean;
  // drafts.content-normalized
  draftContent(realm: Realm, given: string, name: string): string;
  // drafts.negative-timestamp-rejected
  checkDraftTimestamp(realm: Realm, given: number): void;
  // drafts.topic-normalized
  draftTopic(realm: Realm, topic: string): string;
  // drafts.audience-normalized
  draftChannels(to: number[]): number[];
  directDraftAddress(user: User, to: number[], topic: string): Pick<DraftFields, 'type' | 'to' | 'topic'>;
  // drafts.invalid-audience-rejected
  checkDraftChannel(realm: Realm, user: User, id: number): void;
  checkDraftUsers(realm: Realm, ids: readonly number[]): void;
  // drafts.event-shapes
  draftsEvent(op: 'add' | 'update' | 'remove', drafts: readonly Draft[]): Event;
  // drafts.edit-delete-follow-model
  draftsListed(drafts: Draft[]): Draft[];
  draftNotFound(realm: Realm, id: number): JsonError;

  // scheduled.topic-normalized
  editedTopic(given: string): string;
  newMessageTopic(realm: Realm, given: string | undefined): string;
  // scheduled.limits-truncate
  fitScheduledToLimit(realm: Realm, text: string, what: 'topic' | 'content'): string;
  // scheduled.future-timestamp
  checkDeliveryTimeInFuture(realm: Realm, timestamp: number): void;
  // scheduled.error-texts
  scheduledEditLooksUpMessageFirst(): boolean;
  emptyScheduledEdit(): void;
  othersScheduledMessage(notFound: JsonError): JsonError;
  // scheduled.listing-shape
  scheduledMessageDict(realm: Realm, scheduled: ScheduledMessage): Record<string, unknown>;
  scheduledMessagesListed(list: ScheduledMessage[]): ScheduledMessage[];
  // scheduled.event-shapes
  scheduledMessageUpdateEvent(dict: Record<string, unknown>): Record<string, unknown>;
  scheduledMessageRemoveEvent(id: number): Record<string, unknown>;
  // scheduled.edit-clears-failed
  rescheduleFailedMessage(scheduled: ScheduledMessage): void;
  // scheduled.late-delivery-fails
  latestScheduledDeliverySeconds(): number;
  noticeFailedScheduledMessage(realm: Realm, sender: User, scheduled: ScheduledMessage, reason: string, failedAt: number): void;
  // scheduled.delivery
  forgetDeliveredScheduledMessage(realm: Realm, scheduled: ScheduledMessage): void;
  deliveryOrder(a: ScheduledMessage, b: ScheduledMessage): number;

  // fields.error-texts
  checksFieldTypeFirst(): boolean;
  // fields.field-data-rules
  checkSelectHasChoices(data: Record<string, unknown>): void;
  checkSelectChoiceUnique(texts: ReadonlySet<string>, text: string): void;
  externalAccountData(data: Record<string, unknown>): unknown;
  storedFieldData(type: ProfileFieldType, data: Record<string, unknown>): unknown;
  // fields.name-rules
  profileFieldName(given: string | undefined, hint: string): string;
  checkFieldNameFree(realm: Realm, name: string): void;
  // fields.listing-shape
  listsUnsetSummaryFlag(): boolean;
  profileFieldsListed(fields: ProfileField[]): ProfileField[];
  profileFieldsEvent(realm: Realm, change: ProfileFieldsChange): Event;

  // flags.error-texts
  flagsChecksOpFirst(): boolean;
  // flags.inaccessible-messages
  checkHistoryAccess(realm: Realm, user: User, ids: readonly number[]): void;
  // flags.silent-mentions
  silentMentionsSetNothing(): boolean;
  // flags.alert-word-matching
  alertWordsInAnyCase(): boolean;
  alertWordsStandApart(): boolean;
  // flags.event-shape
  flagsEvent(realm: Realm, user: User, op: FlagOperation, flag: string, modified: number[]): Event;

  // reminders.parameters
  checkReminderParametersGiven(messageId: number | undefined, timestamp: number | undefined): void;
  checkReminderTimeInFuture(when: number, now: number): void;
  // reminders.delivery
  reminderContent(realm: Realm, user: User, reminder: Reminder, note: string): string;
  latestReminderDeliverySeconds(): number;
  // reminders.listing-shape
  reminderDict(realm: Realm, reminder: Reminder): Record<string, unknown>;
  remindersListed(list: Reminder[]): Reminder[];
  remindersEvent(realm: Realm, op: 'add' | 'remove', reminder: Reminder): Record<string, unknown>;
  othersReminder(): JsonError;

  // emoji.name-rules
  emojiName(given: string): string;
  emojiNameLetters(): RegExp;
  checkEmojiNameLength(name: string): void;
  storedEmojiName(realm: Realm, name: string): string;
  checkEmojiNameFree(existing: CustomEmoji): void;
  // emoji.image-bytes
  checkDeclaredImageType(file: UploadedFile): void;
  // emoji.permission
  emojiUploaders(): 'members' | 'administrators';
  mayRemoveEmoji(realm: Realm, user: User, emoji: CustomEmoji): boolean;
  // emoji.listing-shape
  emojiListed(emoji: CustomEmoji[]): CustomEmoji[];
  emojiEvent(realm: Realm, change: EmojiChange): Event;
  emojiToRemove(found: CustomEmoji | undefined, name: string): CustomEmoji | undefined;

  // typing.event-shape
  directTypingEvent(realm: Realm, sender: User, op: TypingOp, userIds: UserId[]): TypingEvent;
  channelTypingEvent(realm: Realm, sender: User, op: TypingOp, channel: Channel, topic: string): TypingEvent;

  // defaults.event-shape
  defaultsEvents(changed: ReadonlyArray<readonly [string, unknown]>): Event[];
  // defaults.integer-ranges
  checkIntegerSetting(name: string, value: number): void;
}
