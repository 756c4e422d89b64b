// Realm-level defaults of user settings: spec "Endpoints 1. Update realm-level defaults of user
// settings" and the tables of "Resources: User settings defaults".

import { sendEvent } from './events.js';
import type { Request } from './http.js';
import type { Realm, SettingValue, UserId } from './model.js';
import { readSettings } from './settings.js';
import { checkAdministrator } from './users.js';

/** Every human user of the organization: realm-wide events go to them all. Users are only ever added. */
const humans = new WeakMap<Realm, { users: number; ids: readonly UserId[] }>();
export function everyone(realm: Realm): readonly UserId[] {
  const known = humans.get(realm);
  if (known?.users === realm.users.size) return known.ids;
  const ids = [...realm.users.values()].filter((user) => !user.isBot).map((user) => user.id);
  humans.set(realm, { users: realm.users.size, ids });
  return ids;
}

/** Sets the defaults; each changed one is announced (defaults.event-shape), an unchanged one is not. */
export function doSetRealmUserDefaults(realm: Realm, changes: ReadonlyArray<readonly [string, SettingValue]>): void {
  const changed = changes.filter(([name, value]) => realm.userSettingsDefaults[name] !== value || realm.fault('defaults.event-shape'));
  for (const [name, value] of changed) {
    realm.userSettingsDefaults[name] = value;
    // The fault defaults.existing-users-unchanged: existing users are changed too.
    if (realm.fault('defaults.existing-users-unchanged')) for (const user of realm.users.values()) user.settings[name] = value;
  }
  if (changed.length === 0) return;
  if (realm.alternate('defaults.event-shape')) {
    sendEvent(realm, { type: 'realm_user_settings_defaults', op: 'update', changes: Object.fromEntries(changed) }, everyone(realm));
    return;
  }
  for (const [property, value] of changed) sendEvent(realm, { type: 'realm_user_settings_defaults', op: 'update', property, value }, everyone(realm));
}

export function updateRealmUserDefaults({ realm, user, params }: Request) {
  checkAdministrator(realm, user, true);
  let changes = readSettings(params, realm);
  // The faults of defaults.values-stored and defaults.updates-follow-model.
  if (realm.fault('defaults.values-stored')) changes = changes.map(([name, value]) => [name, name === 'color_scheme' && value === 3 ? 1 : value]);
  if (realm.fault('defaults.updates-follow-model') && changes.length >= 3) changes = changes.slice(0, -1);
  doSetRealmUserDefaults(realm, changes);
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
