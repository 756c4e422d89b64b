// Realm-level defaults of user settings: spec "Endpoints 1. Update realm-level defaults of user
// settings" and the tables of "Resources: User settings defaults".

import { everyone, sendEvent } from '../model/events.js';
import type { Request } from '../model/request.js';
import type { Realm, SettingValue } from '../model/model.js';
import { readSettings } from './settings.js';

// ---- Rules ------------------------------------------------------------------------------

/**
 * defaults.values-stored; defaults.updates-follow-model: each given setting is stored as given.
 * defaults.existing-users-unchanged: only the defaults change, not any user's own setting.
 */
function storeDefaults(realm: Realm, changes: ReadonlyArray<readonly [string, SettingValue]>): void {
  for (const [name, value] of changes) realm.userSettingsDefaults[name] = value;
}

/** defaults.event-shape: a setting given with its current value is not announced. */
function changedDefaults(realm: Realm, changes: ReadonlyArray<readonly [string, SettingValue]>): Array<readonly [string, SettingValue]> {
  return changes.filter(([name, value]) => realm.userSettingsDefaults[name] !== value);
}

export const DEFAULTS_RULES = { storeDefaults, changedDefaults };

// ---- Actions ------------------------------------------------------------------------------

/** Sets the defaults; each changed one is announced. */
export function doSetRealmUserDefaults(realm: Realm, changes: ReadonlyArray<readonly [string, SettingValue]>): void {
  const changed = realm.rules.changedDefaults(realm, changes);
  realm.rules.storeDefaults(realm, changes);
  announceDefaults(realm, changed);
}

/** defaults.event-shape: the changed defaults, in the dialect's events, to every user. */
function announceDefaults(realm: Realm, changed: ReadonlyArray<readonly [string, SettingValue]>): void {
  for (const event of realm.dialect.defaultsEvents(changed)) sendEvent(realm, event, everyone(realm));
}

export function updateRealmUserDefaults({ realm, user, params }: Request) {
  realm.rules.checkAdministrator(realm, user, true);
  doSetRealmUserDefaults(realm, readSettings(params, realm));
  return {};
}

/** /register's realm_user_settings_defaults (Zulip, from level 95): the defaults and the choices clients offer. */
export function realmUserSettingsDefaultsState(realm: Realm): Record<string, unknown> {
  return {
    ...realm.userSettingsDefaults,
    emojiset_choices: [{ key: 'google', text: 'Google' }, { key: 'twitter', text: 'Twitter' }, { key: 'text', text: 'Plain text' }],
    available_notification_sounds: ['chime', 'ding', 'zulip'],
  };
}
