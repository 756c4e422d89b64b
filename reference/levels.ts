// Feature levels: the one place that answers "does this behaviour exist at level N?".

export const MAX_FEATURE_LEVEL = 415;
export const MIN_FEATURE_LEVEL = 1;

export const BEHAVIOURS = {
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
