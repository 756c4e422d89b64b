// Users: who may do what (organization administrators), Zulip's POST /users, and the
// reference's own endpoint to act as a user it created (outside /api/v1, like its clock).

import { randomBytes } from 'node:crypto';
import type { Request } from '../model/request.js';
import { IdMap, type Realm, type SettingValue, type User, type UserId } from '../model/model.js';
import { personDict } from './core.js';
import { everyone, sendEvent } from '../model/events.js';
import { JsonError, missingArgument } from '../model/params.js';

/** general.error-statuses: Zulip's words and code for refusing a user who is no administrator (the spec shows neither). */
const NOT_ADMINISTRATOR = { msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' } as const;

/**
 * Endpoints restricted to organization administrators (owners included); general.admin-only
 * for the spec's endpoints 1 and 4 (`specEndpoint`).
 */
function checkAdministrator(realm: Realm, user: User, _specEndpoint = false): void {
  if (!realm.isAdministrator(user)) throw new JsonError(NOT_ADMINISTRATOR.msg, 400, NOT_ADMINISTRATOR.code);
}

/** defaults.new-users-get-defaults */
function settingsOfNewUser(realm: Realm): Record<string, SettingValue> {
  return { ...realm.userSettingsDefaults };
}

/**
 * general.own-data-only: an operation on a user's own data (drafts, scheduled messages, flags,
 * reminders) is told to that user's clients, and to no one else's.
 */
function ownDataAudience(_realm: Realm, user: User): UserId[] {
  return [user.id];
}

export const USER_RULES = { checkAdministrator, settingsOfNewUser, ownDataAudience };

/** Users made through POST /users, whose API keys the reference gives out. */
const createdUsers = new WeakMap<Realm, Set<UserId>>();

/** Zulip's POST /users: an administrator creates a member, who starts with the organization's defaults. */
export function createUser({ realm, user, params }: Request) {
  realm.rules.checkAdministrator(realm, user);
  const email = params.requiredString('email').trim();
  const fullName = params.requiredString('full_name').trim();
  params.requiredString('password');
  if (!/^[^@\s]+@[^@\s]+$/.test(email) || fullName === '') throw new JsonError('Bad name or username');
  if (realm.usersByEmail.has(email.toLowerCase())) throw new JsonError(`Email '${email}' already in use`);
  const created: User = {
    id: realm.nextId('user') as UserId, email, fullName, apiKey: randomBytes(16).toString('hex'), role: 'member', dateJoined: Math.floor(realm.clock.now()),
    settings: realm.rules.settingsOfNewUser(realm),
    alertWords: [], drafts: new IdMap(),
  };
  realm.addUser(created);
  sendEvent(realm, { type: 'realm_user', op: 'add', person: personDict(realm, created) }, everyone(realm));
  if (!createdUsers.has(realm)) createdUsers.set(realm, new Set());
  createdUsers.get(realm)!.add(created.id);
  return { user_id: created.id };
}

/** POST /reference/api_key (administrators): the API key of a user made through POST /users. */
export function referenceApiKey({ realm, user, params }: Request) {
  realm.rules.checkAdministrator(realm, user);
  const id = params.int('user_id');
  if (id === undefined) throw missingArgument('user_id');
  const target = realm.users.get(id as UserId);
  if (!target || !createdUsers.get(realm)?.has(target.id)) throw new JsonError(`No user made through POST /users has ID ${id}`);
  return { api_key: target.apiKey };
}
