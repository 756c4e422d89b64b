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
  /** Empty topic names are valid for channel messages. */
  emptyTopicNames: 334,
  /** ignored_because_not_subscribed_channels in the flags response. */
  ignoredBecauseNotSubscribedChannels: 355,
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

export const ZULIP_VERSION_FOR_LEVEL = (level: number): string => `reference-fl${level}`;
