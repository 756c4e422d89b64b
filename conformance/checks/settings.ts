// The spec's tables of user settings (Resources: User settings defaults; Versioning), each
// setting from its level and until its removal: the suite's own copy, which the defaults' checks
// and the organization model both read. The judge does not take the judged's word for what the spec says.

export type Kind =
  | { readonly type: 'bool' }
  | { readonly type: 'int'; readonly values: (level: number) => readonly number[] }
  | { readonly type: 'free-int'; readonly sample: readonly [number, number] }
  | { readonly type: 'string'; readonly values: readonly string[] }
  | { readonly type: 'free-string' }
  /** A setting whose values the spec does not give (renamed away): only its existence is known. */
  | { readonly type: 'unknown' };

export interface SpecSetting {
  readonly name: string;
  readonly kind: Kind;
  readonly since: number;
  readonly before?: number;
  /** The levels at which the setting's values change (an enumeration's option added). */
  readonly changes?: readonly number[];
}

const bool = (name: string, since = 96): SpecSetting => ({ name, kind: { type: 'bool' }, since });
const oneTo = (n: number) => () => Array.from({ length: n }, (_, i) => i + 1);
const int = (name: string, values: (level: number) => readonly number[], since = 96): SpecSetting => ({ name, kind: { type: 'int', values }, since });
const str = (name: string, values: readonly string[], since = 96): SpecSetting => ({ name, kind: { type: 'string', values }, since });
/** An enumeration 1 to `first` that gains a value at each of its levels (`[level, value]`). */
const gaining = (name: string, first: number, gains: ReadonlyArray<readonly [number, number]>, since = 96): SpecSetting => ({
  ...int(name, (level) => [...oneTo(first)(), ...gains.filter(([at]) => level >= at).map(([, value]) => value)], since),
  changes: gains.map(([at]) => at),
});

/** The spec's four tables, each setting from its level (never before 96, the operation's), and the names of Versioning until theirs. */
export const SPEC_SETTINGS: readonly SpecSetting[] = [
  ...['starred_message_counts', 'fluid_layout_width', 'high_contrast_mode', 'enable_drafts_synchronization', 'translate_emoticons', 'left_side_userlist',
    'enable_stream_desktop_notifications', 'enable_stream_email_notifications', 'enable_stream_push_notifications', 'enable_stream_audible_notifications',
    'enable_desktop_notifications', 'enable_sounds', 'enable_offline_email_notifications', 'enable_offline_push_notifications', 'enable_online_push_notifications',
    'enable_digest_emails', 'message_content_in_email_notifications', 'pm_content_in_desktop_notifications', 'wildcard_mentions_notify', 'presence_enabled', 'enter_sends',
  ].map((name) => bool(name)),
  bool('receives_typing_notifications', 253), bool('web_suggest_update_timezone', 329), bool('display_emoji_reaction_users', 125),
  bool('web_escape_navigates_to_home_view', 219), bool('hide_ai_features', 350), bool('web_left_sidebar_show_channel_folders', 411),
  bool('web_left_sidebar_unreads_count_summary', 398), bool('automatically_follow_topics_where_mentioned', 235), bool('twenty_four_hour_time', 99),
  ...['enable_followed_topic_desktop_notifications', 'enable_followed_topic_email_notifications', 'enable_followed_topic_push_notifications',
    'enable_followed_topic_audible_notifications', 'enable_followed_topic_wildcard_mentions_notify'].map((name) => bool(name, 189)),
  ...['send_private_typing_notifications', 'send_stream_typing_notifications', 'send_read_receipts'].map((name) => bool(name, 105)),
  bool('web_navigate_to_sent_message', 268),
  int('web_mark_read_on_scroll_policy', oneTo(3), 175),
  gaining('web_channel_default_view', 2, [[383, 3], [401, 4]], 269),
  int('color_scheme', oneTo(3)), int('demote_inactive_streams', oneTo(3)), int('user_list_style', oneTo(3), 141),
  int('web_stream_unreads_count_display_policy', oneTo(3), 210),
  gaining('desktop_icon_count_display', 3, [[227, 4]]),
  int('realm_name_in_email_notifications_policy', oneTo(3), 168),
  int('automatically_follow_topics_policy', oneTo(4), 214), int('automatically_unmute_topics_in_muted_streams_policy', oneTo(4), 214),
  int('email_address_visibility', oneTo(5), 163),
  { name: 'web_font_size_px', kind: { type: 'free-int', sample: [12, 20] }, since: 245 },
  { name: 'web_line_height_percent', kind: { type: 'free-int', sample: [100, 180] }, since: 245 },
  { name: 'email_notifications_batching_period_seconds', kind: { type: 'free-int', sample: [60, 86_400] }, since: 96 },
  str('web_home_view', ['recent_topics', 'inbox', 'all_messages'], 219), str('emojiset', ['google', 'twitter', 'text']),
  str('web_animate_image_previews', ['always', 'on_hover', 'never'], 275),
  str('resolved_topic_notice_auto_read_policy', ['always', 'except_followed', 'never'], 385),
  { name: 'notification_sound', kind: { type: 'free-string' }, since: 96 },
  // Versioning: removed and renamed.
  { ...bool('dense_mode'), before: 364 },
  { ...bool('escape_navigates_to_default_view'), before: 219 },
  { ...bool('realm_name_in_notifications'), before: 168 },
  { name: 'default_view', kind: { type: 'unknown' }, since: 96, before: 219 },
];

/** The levels at which the tables change: a setting comes, goes, or gains a value. */
export const TABLE_LEVELS: readonly number[] = [...new Set(SPEC_SETTINGS.flatMap((setting) => [setting.since, ...(setting.before === undefined ? [] : [setting.before]), ...(setting.changes ?? [])]))].sort((a, b) => a - b);

/** Whether a setting is a parameter at the level. */
export const exists = (setting: SpecSetting, level: number) => level >= setting.since && (setting.before === undefined || level < setting.before);

/** The settings a level has whose values the spec gives. */
export const settingsAt = (level: number) => SPEC_SETTINGS.filter((setting) => exists(setting, level) && setting.kind.type !== 'unknown');

export type Value = boolean | number | string;

/** The valid values of a setting at the level; for free ones, a few the suite makes. */
export function validValuesAt(setting: SpecSetting, level: number): readonly Value[] {
  const kind = setting.kind;
  switch (kind.type) {
    case 'bool': return [true, false];
    case 'int': return kind.values(level);
    case 'free-int': return [kind.sample[0], kind.sample[1], Math.round((kind.sample[0] + kind.sample[1]) / 2)];
    case 'string': return kind.values;
    // Any string is valid; these are also Zulip's sounds, so that only defaults.string-values shows where Zulip differs.
    case 'free-string': return ['zulip', 'ding', 'chime'];
    default: return [];
  }
}
