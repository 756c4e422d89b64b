// Personal preference settings: the spec's tables under "User settings defaults", with the
// feature level each starts at (and, for renamed and removed ones, ends at); apart from them, the
// value a new organization gives each (Zulip's: the spec states none). Read by PATCH /settings
// (below: a user's own, where turning draft synchronization off deletes the drafts) and PATCH
// /realm/user_settings_defaults.

import { sendEvent } from '../model/events.js';
import { JsonError, Params } from '../model/params.js';
import type { Realm, Setting, SettingValue, User } from '../model/model.js';
import type { Request } from '../model/request.js';
import { doDeleteAllDrafts } from './drafts.js';

export const bool = (name: string, since = 1): Setting => ({ name, kind: { type: 'bool' }, since });
const int = (name: string, values?: readonly number[], since = 1): Setting => ({ name, kind: { type: 'int', values }, since });
const str = (name: string, values?: readonly string[], since = 1): Setting => ({ name, kind: { type: 'string', values }, since });

export const SETTINGS: readonly Setting[] = [
  bool('starred_message_counts'),
  bool('receives_typing_notifications', 253),
  bool('web_suggest_update_timezone', 329),
  bool('fluid_layout_width'),
  bool('high_contrast_mode'),
  bool('enable_drafts_synchronization'),
  bool('translate_emoticons'),
  bool('display_emoji_reaction_users', 125),
  bool('web_escape_navigates_to_home_view', 219),
  bool('left_side_userlist'),
  bool('hide_ai_features', 350),
  bool('web_left_sidebar_show_channel_folders', 411),
  bool('web_left_sidebar_unreads_count_summary', 398),
  bool('enable_stream_desktop_notifications'),
  bool('enable_stream_email_notifications'),
  bool('enable_stream_push_notifications'),
  bool('enable_stream_audible_notifications'),
  bool('enable_desktop_notifications'),
  bool('enable_sounds'),
  bool('enable_followed_topic_desktop_notifications', 189),
  bool('enable_followed_topic_email_notifications', 189),
  bool('enable_followed_topic_push_notifications', 189),
  bool('enable_followed_topic_audible_notifications', 189),
  bool('enable_offline_email_notifications'),
  bool('enable_offline_push_notifications'),
  bool('enable_online_push_notifications'),
  bool('enable_digest_emails'),
  bool('message_content_in_email_notifications'),
  bool('pm_content_in_desktop_notifications'),
  bool('wildcard_mentions_notify'),
  bool('enable_followed_topic_wildcard_mentions_notify', 189),
  bool('automatically_follow_topics_where_mentioned', 235),
  bool('presence_enabled'),
  bool('enter_sends'),
  bool('twenty_four_hour_time', 99),
  bool('send_private_typing_notifications', 105),
  bool('send_stream_typing_notifications', 105),
  bool('send_read_receipts', 105),
  bool('web_navigate_to_sent_message', 268),
  // Spec "Versioning": removed and renamed settings, each until its level.
  { ...bool('dense_mode'), before: 364 },
  { ...bool('escape_navigates_to_default_view'), before: 219 },
  { ...bool('realm_name_in_notifications'), before: 168 },
  { ...str('default_view', ['recent_topics', 'inbox', 'all_messages']), before: 219 },
  int('web_mark_read_on_scroll_policy', [1, 2, 3], 175),
  int('color_scheme', [1, 2, 3]),
  int('demote_inactive_streams', [1, 2, 3]),
  int('user_list_style', [1, 2, 3], 141),
  int('web_stream_unreads_count_display_policy', [1, 2, 3], 210),
  int('desktop_icon_count_display', [1, 2, 3, 4]),
  int('web_channel_default_view', [1, 2, 3, 4], 269),
  int('realm_name_in_email_notifications_policy', [1, 2, 3], 168),
  int('automatically_follow_topics_policy', [1, 2, 3, 4], 214),
  int('automatically_unmute_topics_in_muted_streams_policy', [1, 2, 3, 4], 214),
  int('email_address_visibility', [1, 2, 3, 4, 5], 163),
  int('web_font_size_px', undefined, 245),
  int('web_line_height_percent', undefined, 245),
  int('email_notifications_batching_period_seconds'),
  str('web_home_view', ['recent_topics', 'inbox', 'all_messages'], 219),
  // The spec allows these three; Zulip also has google-blob (fixtures/expectations/zulip.json).
  str('emojiset', ['google', 'twitter', 'text']),
  str('web_animate_image_previews', ['always', 'on_hover', 'never'], 275),
  str('resolved_topic_notice_auto_read_policy', ['always', 'except_followed', 'never'], 385),
  str('notification_sound'),
];

/** The values a setting may take at a feature level: web_channel_default_view gained 3 at 383 and 4 at 401; desktop_icon_count_display 4 at 227. */
export function allowedValues(setting: Setting, level: number): readonly (number | string)[] | undefined {
  if (setting.name === 'web_channel_default_view') return level >= 401 ? [1, 2, 3, 4] : level >= 383 ? [1, 2, 3] : [1, 2];
  if (setting.name === 'desktop_icon_count_display') return level >= 227 ? [1, 2, 3, 4] : [1, 2, 3];
  return setting.kind.type === 'bool' ? undefined : setting.kind.values;
}

export const settingsAt = (level: number): Setting[] =>
  SETTINGS.filter((setting) => level >= setting.since && (setting.before === undefined || level < setting.before));

/**
 * The value each setting has in a new organization, as Zulip's are: the spec states no initial
 * values (a server may start its users with any value the setting takes).
 */
const INITIAL_VALUES: Readonly<Record<string, SettingValue>> = {
  starred_message_counts: true, receives_typing_notifications: true, web_suggest_update_timezone: true, fluid_layout_width: false,
  high_contrast_mode: false, enable_drafts_synchronization: true, translate_emoticons: false, display_emoji_reaction_users: true,
  web_escape_navigates_to_home_view: true, left_side_userlist: false, hide_ai_features: false, web_left_sidebar_show_channel_folders: true,
  web_left_sidebar_unreads_count_summary: true, enable_stream_desktop_notifications: false, enable_stream_email_notifications: false,
  enable_stream_push_notifications: false, enable_stream_audible_notifications: false, enable_desktop_notifications: true, enable_sounds: true,
  enable_followed_topic_desktop_notifications: true, enable_followed_topic_email_notifications: true, enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true, enable_offline_email_notifications: true, enable_offline_push_notifications: true,
  enable_online_push_notifications: true, enable_digest_emails: true, message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true, wildcard_mentions_notify: true, enable_followed_topic_wildcard_mentions_notify: true,
  automatically_follow_topics_where_mentioned: true, presence_enabled: true, enter_sends: false, twenty_four_hour_time: false,
  send_private_typing_notifications: true, send_stream_typing_notifications: true, send_read_receipts: true, web_navigate_to_sent_message: true,
  dense_mode: true, escape_navigates_to_default_view: true, realm_name_in_notifications: false, default_view: 'recent_topics',
  web_mark_read_on_scroll_policy: 1, color_scheme: 1, demote_inactive_streams: 1, user_list_style: 3, web_stream_unreads_count_display_policy: 2,
  desktop_icon_count_display: 1, web_channel_default_view: 1, realm_name_in_email_notifications_policy: 1, automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 2, email_address_visibility: 1, web_font_size_px: 16, web_line_height_percent: 140,
  email_notifications_batching_period_seconds: 120, web_home_view: 'inbox', emojiset: 'google', web_animate_image_previews: 'on_hover',
  resolved_topic_notice_auto_read_policy: 'except_followed', notification_sound: 'zulip',
};

export function initialSettings(level: number): Record<string, SettingValue> {
  return Object.fromEntries(settingsAt(level).map((setting) => [setting.name, INITIAL_VALUES[setting.name]!]));
}

// ---- Rules ------------------------------------------------------------------------------

/** defaults.settings-at-their-levels: the settings a server at the level has. */
function settingsOfLevel(level: number): Setting[] {
  return settingsAt(level);
}

/** defaults.value-types: a boolean setting takes true or false. */
function readBooleanSetting(params: Params, name: string): boolean | undefined {
  return params.bool(name);
}

/** defaults.enum-values; defaults.string-values: a setting with a list of values takes one of them. */
function checkSettingValue(setting: Setting, value: SettingValue, allowed: readonly (number | string)[]): void {
  if (allowed.includes(value as never)) return;
  throw new JsonError(valueOutsideListText(setting));
}

/** defaults.error-texts (the texts are not shown): Zulip's refusal of a value outside a setting's list. */
function valueOutsideListText(setting: Setting): string {
  return setting.kind.type === 'int' ? `Invalid ${setting.name}: Value error, Not in the list of possible values` : `Invalid ${setting.name}`;
}

export const SETTINGS_RULES = { settingsOfLevel, readBooleanSetting, checkSettingValue };

/** The realm's settings by name, with their place in the table: the settings of its level, found once. */
const settingsByName = new WeakMap<Realm, ReadonlyMap<string, { setting: Setting; place: number }>>();
function settingsOfRealm(realm: Realm): ReadonlyMap<string, { setting: Setting; place: number }> {
  let byName = settingsByName.get(realm);
  if (!byName) {
    byName = new Map(realm.rules.settingsOfLevel(realm.featureLevel).map((setting, place) => [setting.name, { setting, place }]));
    settingsByName.set(realm, byName);
  }
  return byName;
}

/**
 * Reads every setting the request carries, validated, in the table's order; unknown names are
 * left unread. Any invalid value refuses the whole request.
 */
export function readSettings(params: Params, realm: Realm): Array<[string, SettingValue]> {
  const level = realm.featureLevel;
  const table = settingsOfRealm(realm);
  const given: Array<{ setting: Setting; place: number }> = [];
  for (const name of params.names()) {
    const entry = table.get(name);
    if (entry) given.push(entry);
  }
  const changes: Array<[string, SettingValue]> = [];
  for (const { setting } of inTableOrder(given)) {
    let value: SettingValue | undefined;
    if (setting.kind.type === 'bool') value = realm.rules.readBooleanSetting(params, setting.name);
    else if (setting.kind.type === 'int') value = params.int(setting.name);
    else value = params.string(setting.name);
    if (value === undefined) continue;
    const allowed = allowedValues(setting, level);
    if (allowed) realm.rules.checkSettingValue(setting, value, allowed);
    // defaults.integer-ranges: the spec gives no range to its integers without enumeration.
    else if (setting.kind.type === 'int') realm.dialect.checkIntegerSetting(setting.name, value as number);
    changes.push([setting.name, value]);
  }
  return changes;
}

/**
 * defaults.error-texts; defaults.event-shape (neither is shown): the settings a request names, in
 * the table's order, as Zulip reads them: the first invalid one in it is the one refused, and the
 * changes are told in it.
 */
function inTableOrder(given: Array<{ setting: Setting; place: number }>): Array<{ setting: Setting; place: number }> {
  return given.sort((a, b) => a.place - b.place);
}

// ---- PATCH /settings: a user's own settings (Zulip's; the spec speaks of enable_drafts_synchronization) ----

export function doChangeUserSetting(realm: Realm, user: User, name: string, value: SettingValue): void {
  if (user.settings[name] === value) return;
  user.settings[name] = value;
  // drafts.sync-off-deletes-drafts: turning synchronization off deletes the drafts. They go first:
  // a server that told of their deletion would do so before the setting's event.
  if (name === 'enable_drafts_synchronization' && value === false) doDeleteAllDrafts(realm, user);
  announceUserSetting(realm, user, name, value);
}

/** drafts.event-shapes (events are not shown): the user's clients are told of the change of the user's setting, as Zulip tells them. */
function announceUserSetting(realm: Realm, user: User, name: string, value: SettingValue): void {
  sendEvent(realm, { type: 'user_settings', op: 'update', property: name, value }, [user.id]);
}

export function updateSettings({ realm, user, params }: Request) {
  const changes = readSettings(params, realm);
  for (const [name, value] of changes) doChangeUserSetting(realm, user, name, value);
  return {};
}
