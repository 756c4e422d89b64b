// The organization the reference boots with: read from a fixture file, checked, turned into
// a Realm. Also the target profile (CONTRACT.md) for it.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Dialect } from '../dialects/dialect.js';
import { clockAheadOf, realmBehaviour, type FaultSet } from '../faults/faults.js';
import { IdMap, Realm, type Channel, type ChannelId, type ProfileFieldType, type Role, type User, type UserId } from '../model/model.js';
import { initialSettings } from '../operations/settings.js';
import { SPEC_RULES } from './rules.js';
import { OPERATIONS_STATE } from './state.js';

export const DEFAULT_FIXTURE = new URL('../../../fixtures/organization.json', import.meta.url);

export interface Fixture {
  realm: { name: string; empty_topic_display_name: string; max_message_length: number; max_topic_length: number };
  users: Array<{ email: string; full_name: string; role: Role; api_key: string }>;
  channels: Array<{ name: string; description?: string; invite_only: boolean; subscribers: string[] }>;
  alert_words?: Record<string, string[]>;
  user_groups?: Array<{ name: string; members: string[] }>;
  profile_fields?: Array<{ name: string; hint: string; type: ProfileFieldType; display_in_profile_summary: boolean }>;
  profile: { admin: string; member: string; other: string };
}

export function readFixture(path: string | URL = DEFAULT_FIXTURE): Fixture {
  const fixture = JSON.parse(readFileSync(path, 'utf8')) as Fixture;
  const emails = new Set(fixture.users.map((user) => user.email.toLowerCase()));
  const known = (email: string, where: string) => {
    if (!emails.has(email.toLowerCase())) throw new Error(`fixture: ${where} names unknown user ${email}`);
  };
  for (const user of fixture.users) {
    if (!/^[A-Za-z0-9]{32}$/.test(user.api_key)) throw new Error(`fixture: API key of ${user.email} is not 32 letters and digits`);
  }
  for (const channel of fixture.channels) channel.subscribers.forEach((email) => known(email, `channel ${channel.name}`));
  for (const email of Object.keys(fixture.alert_words ?? {})) known(email, 'alert_words');
  for (const group of fixture.user_groups ?? []) group.members.forEach((email) => known(email, `user group ${group.name}`));
  for (const [role, email] of Object.entries(fixture.profile)) known(email, `profile.${role}`);
  return fixture;
}

export function buildRealm(fixture: Fixture, featureLevel: number, faults: FaultSet, dialect: Dialect = 'zulip', dialectSeed = 0): Realm {
  const settings = {
    name: fixture.realm.name,
    emptyTopicDisplayName: fixture.realm.empty_topic_display_name,
    maxMessageLength: fixture.realm.max_message_length,
    maxTopicLength: fixture.realm.max_topic_length,
  };
  const { rules, decisions } = realmBehaviour(SPEC_RULES, faults, dialect, dialectSeed);
  const realm = new Realm(decisions.realmSettings(settings), featureLevel, rules, decisions);
  realm.clock.advance(clockAheadOf(faults));
  realm.emojiUploaders = decisions.emojiUploaders();
  realm.profile = fixture.profile;
  realm.stateParts = OPERATIONS_STATE;
  const now = Math.floor(realm.clock.now());
  realm.initialUserSettings = initialSettings(featureLevel);
  realm.userSettingsDefaults = initialSettings(featureLevel);
  for (const entry of fixture.users) {
    const user: User = {
      id: realm.nextId('user') as UserId,
      email: entry.email,
      fullName: entry.full_name,
      apiKey: entry.api_key,
      role: entry.role,
      dateJoined: now,
      settings: initialSettings(featureLevel),
      alertWords: fixture.alert_words?.[entry.email] ?? [],
      drafts: new IdMap(),
    };
    realm.addUser(user);
  }
  realm.notificationBot = {
    id: realm.nextId('user') as UserId, email: 'notification-bot@zulip.com', fullName: 'Notification Bot', apiKey: randomBytes(16).toString('hex'),
    role: 'member', dateJoined: now, isBot: true, settings: initialSettings(featureLevel), alertWords: [], drafts: new IdMap(),
  };
  realm.addUser(realm.notificationBot);
  const idOf = (email: string) => realm.usersByEmail.get(email.toLowerCase())!.id;
  for (const entry of fixture.channels) {
    const channel: Channel = {
      id: realm.nextId('channel') as ChannelId,
      name: entry.name,
      description: entry.description ?? '',
      inviteOnly: entry.invite_only,
      historyPublicToSubscribers: true,
      isArchived: false,
      dateCreated: now,
      creatorId: null,
      subscribers: new Set<UserId>(entry.subscribers.map(idOf)),
      formerSubscribers: new Set<UserId>(),
    };
    realm.channels.set(channel.id, channel);
  }
  for (const entry of fixture.profile_fields ?? []) {
    const id = realm.nextId('profileField');
    const summary = entry.display_in_profile_summary && featureLevel >= 146;
    realm.profileFields.set(id, { id, name: entry.name, hint: entry.hint, type: entry.type, fieldData: '', order: id, displayInProfileSummary: summary, required: false, editableByUser: true });
  }
  (fixture.user_groups ?? []).forEach((group, index) => {
    realm.userGroups.push({ id: index + 1, name: group.name, members: new Set(group.members.map(idOf)) });
  });
  // The system group that channel settings name before they take any group (POST /users adds only members).
  const administrators = [...realm.users.values()].filter((user) => realm.isAdministrator(user)).map((user) => user.id);
  realm.userGroups.push({ id: realm.userGroups.length + 1, name: 'role:administrators', members: new Set(administrators), isSystemGroup: true });
  return realm;
}

export function targetProfile(fixture: Fixture, baseUrl: string) {
  const credentials = (email: string) => {
    const user = fixture.users.find((candidate) => candidate.email === email)!;
    return { email: user.email, api_key: user.api_key };
  };
  return {
    base_url: baseUrl,
    users: {
      admin: credentials(fixture.profile.admin),
      member: credentials(fixture.profile.member),
      other: credentials(fixture.profile.other),
    },
  };
}
