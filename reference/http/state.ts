// What each of the spec's operations adds to /register's state, in Zulip's shapes: installed
// into the organization when the server boots, so that /register (support/core.ts) reads it
// without knowing the operations.

import { draftDict, draftsByEditTime } from '../operations/drafts.js';
import { realmUserSettingsDefaultsState } from '../operations/defaults.js';
import { mayUploadEmoji, realmEmojiDict } from '../operations/emoji.js';
import { profileFieldDict, profileFieldsInOrder } from '../operations/fields.js';
import { reminderDict, remindersOf } from '../operations/reminders.js';
import { scheduledMessageDict, undeliveredScheduledMessages } from '../operations/scheduled.js';
import { has, hasShape } from '../model/levels.js';
import type { Realm, StatePart } from '../model/model.js';

/** Who may upload custom emoji, in the setting of the realm's level. */
function customEmojiPermission(realm: Realm): Record<string, unknown> {
  if (hasShape(realm.featureLevel, 'canAddCustomEmojiGroup')) {
    // An anonymous group of the users who may upload (Zulip: a group setting, default role:members).
    return { realm_can_add_custom_emoji_group: { direct_members: [...realm.users.values()].filter((user) => mayUploadEmoji(realm, user)).map((user) => user.id), direct_subgroups: [] } };
  }
  const membersMay = realm.emojiUploaders === 'members';
  if (hasShape(realm.featureLevel, 'addCustomEmojiPolicy')) return { realm_add_custom_emoji_policy: membersMay ? 1 : 2 };
  return { realm_add_emoji_by_admins_only: !membersMay };
}

export const OPERATIONS_STATE: readonly StatePart[] = [
  { type: 'realm', state: customEmojiPermission },
  // Zulip sends at most 1000 drafts, the most recently edited first.
  { type: 'drafts', state: (_realm, user) => ({ drafts: draftsByEditTime(user).reverse().slice(0, 1000).map(draftDict) }) },
  { type: 'realm_user_settings_defaults', state: (realm) => (realm.featureLevel >= 95 ? { realm_user_settings_defaults: realmUserSettingsDefaultsState(realm) } : {}) },
  { type: 'realm_emoji', state: (realm) => ({ realm_emoji: realmEmojiDict(realm) }) },
  {
    type: 'reminders',
    state: (realm, user) => ({
      ...(has(realm.featureLevel, 'remindersListed') ? { reminders: remindersOf(realm, user).map((reminder) => reminderDict(realm, reminder)) } : {}),
      ...(has(realm.featureLevel, 'reminderNote') ? { max_reminder_note_length: 1000 } : {}),
    }),
  },
  { type: 'custom_profile_fields', state: (realm) => ({ custom_profile_fields: profileFieldsInOrder(realm).map((field) => profileFieldDict(realm, field)) }) },
  {
    type: 'scheduled_messages',
    state: (realm, user) => (has(realm.featureLevel, 'deleteScheduledMessage') ? { scheduled_messages: undeliveredScheduledMessages(realm, user).map((scheduled) => scheduledMessageDict(realm, scheduled)) } : {}),
  },
];
