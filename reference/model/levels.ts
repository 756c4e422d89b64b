// Feature levels: the one place that answers "does this behaviour exist at level N?".

export const MAX_FEATURE_LEVEL = 415;
export const MIN_FEATURE_LEVEL = 1;

export const BEHAVIOURS = {
  /** PATCH /realm/user_settings_defaults. */
  realmUserSettingsDefaults: 96,
  /** display_in_profile_summary of custom profile fields. */
  profileFieldSummary: 146,
  /** The Pronouns custom profile field type (8). */
  pronounsFieldType: 151,
  /** email_address_visibility becomes a personal setting. */
  emailAddressVisibility: 163,
  /** realm_name_in_email_notifications_policy replaces realm_name_in_notifications. */
  realmNameInEmailNotificationsPolicy: 168,
  /** default_view and escape_navigates_to_default_view renamed web_home_view and web_escape_navigates_to_home_view. */
  webHomeView: 219,
  /** desktop_icon_count_display gains option 2, renumbered. */
  desktopIconCountDisplayFour: 227,
  /** required of custom profile fields. */
  profileFieldRequired: 244,
  /** Typing notifications only to users with receives_typing_notifications. */
  receivesTypingNotifications: 253,
  /** editable_by_user of custom profile fields. */
  profileFieldEditableByUser: 296,
  /** dense_mode removed. */
  denseModeRemoved: 364,
  /** web_channel_default_view gains 3 (list of topics). */
  channelDefaultViewThree: 383,
  /** web_channel_default_view gains 4 (top unread topic). */
  channelDefaultViewFour: 401,
  /** POST /reminders. */
  reminders: 381,
  /** GET /reminders, DELETE /reminders/{id}, reminders events and /register's reminders. */
  remindersListed: 399,
  /** The note of a reminder. */
  reminderNote: 415,
  /** ignored_parameters_unsupported on every success response. */
  ignoredParametersUnsupported: 167,
  /** DELETE /scheduled_messages/{id}. */
  deleteScheduledMessage: 173,
  /** PATCH /scheduled_messages/{id}. */
  editScheduledMessage: 184,
  /** stream_wildcard_mentioned and topic_wildcard_mentioned; wildcard_mentioned deprecated. */
  splitWildcardMentionFlags: 224,
  /** `direct` as a synonym of `private` in POST /messages (Zulip; the spec's scheduled messages have it throughout). */
  directTypeName: 174,
  /** `channel` as a synonym of `stream` in message types. */
  channelTypeName: 248,
  /** read_by_sender in POST /messages: the sender's own copy may start read. */
  readBySender: 236,
  /** Empty topic names are valid for channel messages. */
  emptyTopicNames: 334,
  /** ignored_because_not_subscribed_channels in the flags response. */
  ignoredBecauseNotSubscribedChannels: 355,
  /** Zulip's texts say "channel" where they said "stream". */
  channelWording: 255,
  /** "(no topic)" and the empty-topic display name mean the empty topic. */
  noTopicMeansEmptyTopic: 370,
} as const;

export type Behaviour = keyof typeof BEHAVIOURS;

/** Levels the self-test checks the suite at: each behaviour's first level, the one before, and the ends. */
export const BOUNDARY_LEVELS: readonly number[] = [
  ...new Set([MIN_FEATURE_LEVEL, ...Object.values(BEHAVIOURS).flatMap((level) => [level - 1, level]), MAX_FEATURE_LEVEL]),
].sort((a, b) => a - b);

export function has(level: number, behaviour: Behaviour): boolean {
  return level >= BEHAVIOURS[behaviour];
}

/**
 * Keys of the support endpoints' answers (CONTRACT.md) that Zulip added or replaced at a
 * level: no rule of the spec hangs on them, so they are not boundary levels of the self-test.
 */
export const SHAPES = {
  /** GET /messages/{id} gives the message object (only raw_content before). */
  singleMessageObject: 120,
  /** Typing notifications in a channel's topic: POST /typing with type stream, to [channel ID] and topic. */
  channelTyping: 58,
  /** ...with stream_id instead of to. */
  typingStreamId: 215,
  /** The narrow operator dm (pm-with before; the old name still works). */
  dmOperator: 177,
  /** The narrow operator channel (stream before; the old name still works). */
  channelOperator: 250,
  /** DELETE /realm/emoji/{name} of a name no active emoji has is a 404 (it was a 400). */
  missingEmojiNotFound: 190,
  /** realm_add_custom_emoji_policy replaces realm_add_emoji_by_admins_only. */
  addCustomEmojiPolicy: 85,
  /** Peer subscription events carry stream_ids and user_ids. */
  peerSubscriptionIds: 35,
  /** can_remove_subscribers_group_id of a channel (a system group's ID). */
  canRemoveSubscribersGroupId: 142,
  /** ...renamed can_remove_subscribers_group. */
  canRemoveSubscribersGroup: 197,
  /** POST /users/me/subscriptions keys subscribed and already_subscribed by user ID, not email. */
  subscribedByUserId: 207,
  /** email_address of a subscription removed. */
  subscriptionEmailAddressRemoved: 226,
  /** creator_id of a channel. */
  channelCreatorId: 254,
  /** realm_url beside realm_uri, in /server_settings and /register. */
  realmUrl: 257,
  /** realm_can_add_custom_emoji_group replaces realm_add_custom_emoji_policy. */
  canAddCustomEmojiGroup: 307,
  /** is_archived of a channel. */
  channelIsArchived: 315,
  /** is_recently_active of a channel. */
  channelIsRecentlyActive: 323,
  /** can_administer_channel_group of a channel. */
  canAdministerChannelGroup: 325,
  /** can_send_message_group of a channel. */
  canSendMessageGroup: 333,
  /** can_add_subscribers_group of a channel. */
  canAddSubscribersGroup: 342,
  /** can_subscribe_group of a channel. */
  canSubscribeGroup: 357,
  /** is_billing_admin of a user removed. */
  billingAdminRemoved: 363,
  /** stream delete events carry stream_ids, and streams only the IDs. */
  streamDeleteIds: 343,
} as const;

export function hasShape(level: number, shape: keyof typeof SHAPES): boolean {
  return level >= SHAPES[shape];
}

/** The level each Zulip major version was released at; the levels between are its development. */
const RELEASES: ReadonlyArray<readonly [major: number, level: number]> = [
  [3, 26], [4, 65], [5, 114], [6, 156], [7, 185], [8, 237], [9, 278], [10, 377], [11, 421],
];

/**
 * A version a client can parse, true to the level: the Zulip release of that level, or the
 * development of the next one ("8.0-dev" at 218), marked as the reference's.
 */
export function ZULIP_VERSION_FOR_LEVEL(level: number): string {
  const [major, released] = RELEASES.find(([, at]) => level <= at) ?? [12, Infinity];
  return `${major}.0${level === released ? '' : '-dev'}+teamchat-reference.fl${level}`;
}
