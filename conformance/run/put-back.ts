// Putting back what the run changed, and nothing else: compare-and-set. A setting is put back only
// where the run wrote it and where it still holds a value the run sent; a value found there that
// the run neither found nor sent is someone else's, and is left as it is, named as a conflict. An
// object is deleted only while it is still the run's. Both the end of a run and --undo put back
// this way, so that an undo run twice, late or by mistake changes nothing it should not.

import type { Caller, Client, ParamList, ParamValue, Role } from './client.js';
import { encodeForm } from './client.js';

/** A request that puts something back, as the journal keeps it. */
export interface PutBack {
  readonly as: Role;
  readonly method: string;
  readonly path: string;
  readonly params: ParamList;
  /** For a DELETE: the run's token, which the object must still carry to be deleted. */
  readonly owned?: string;
}

/** Whose settings a write changes: the organization's defaults, or a profile user's own. */
export type Scope = 'defaults' | Role;

/** The settings writes the run sent, whatever their answer: the values it may have caused. */
export class SentValues {
  private readonly sent = new Map<string, Set<string>>();

  add(scope: Scope, name: string, value: string): boolean {
    const key = `${scope}\u0000${name}`;
    const values = this.sent.get(key) ?? new Set<string>();
    this.sent.set(key, values);
    if (values.has(value)) return false;
    values.add(value);
    return true;
  }

  of(scope: Scope, name: string): ReadonlySet<string> {
    return this.sent.get(`${scope}\u0000${name}`) ?? new Set();
  }
}

/** The settings scope a request writes, if it writes settings. */
export function scopeOf(as: Caller, method: string, path: string): Scope | null {
  if (method !== 'PATCH' || typeof as !== 'string') return null;
  if (path === '/realm/user_settings_defaults') return 'defaults';
  if (path === '/settings') return as;
  return null;
}

/** Whether a value read back is the one a form field carried: a string as it was, anything else as JSON. */
export const sameValue = (sent: string, value: unknown) => sent === (typeof value === 'string' ? value : JSON.stringify(value));

const formValue = (value: ParamValue | undefined) => encodeForm({ value })[0]?.[1] ?? '';

const owner = (scope: Scope) => (scope === 'defaults' ? 'the organization\'s default' : `${scope}'s setting`);

/** The scope's settings as POST /register gives them now (the queue it opens is deleted at once). */
async function currentSettings(client: Client, scope: Scope): Promise<Record<string, unknown>> {
  const as: Role = scope === 'defaults' ? 'admin' : scope;
  const type = scope === 'defaults' ? 'realm_user_settings_defaults' : 'user_settings';
  const response = await client.call(as, 'POST', '/register', { event_types: ['heartbeat'], fetch_event_types: [type] });
  const body = response.body;
  if (body?.result !== 'success') throw new Error(`POST /register as ${as} (to read ${type}): ${response.status} ${response.text.slice(0, 200)}`);
  if (typeof body.queue_id === 'string') await client.call(as, 'DELETE', '/events', { queue_id: body.queue_id }).catch(() => undefined);
  // Servers below level 89 give a user's settings at the top level of the state.
  const settings = scope === 'defaults' ? body[type] : body[type] ?? body;
  if (settings === null || typeof settings !== 'object') throw new Error(`POST /register as ${as} gives no ${type}`);
  return settings;
}

/**
 * Puts a change back if it is still the run's; resolves with the conflicts: what someone else
 * changed since, left as it is. Throws when the target refuses to put back what is the run's.
 */
export async function putBackNow(client: Client, request: PutBack, sent: SentValues): Promise<string[]> {
  const scope = scopeOf(request.as, request.method, request.path);
  if (scope !== null) return restoreSettings(client, scope, request, sent);
  if (request.method === 'DELETE' && request.owned !== undefined) {
    const conflict = await notOurs(client, request);
    if (conflict !== undefined) return conflict === null ? [] : [conflict];
  }
  const response = await client.call(request.as, request.method, request.path, request.params);
  // A DELETE of what is gone already (a lease claim released, a swept object) has had its effect.
  if (request.method === 'DELETE' && response.status === 404) return [];
  if (response.body?.result !== 'success') throw new Error(`${request.method} ${request.path}: ${response.status} ${response.text.slice(0, 200)}`);
  return [];
}

/** The settings the run wrote, back to what it found, where each still holds a value the run sent. */
async function restoreSettings(client: Client, scope: Scope, request: PutBack, sent: SentValues): Promise<string[]> {
  const written = Object.entries(request.params).filter(([name]) => sent.of(scope, name).size > 0);
  if (written.length === 0) return [];
  const current = await currentSettings(client, scope);
  const back: ParamList = {};
  const conflicts: string[] = [];
  for (const [name, original] of written) {
    if (!(name in current) || sameValue(formValue(original), current[name])) continue;
    if ([...sent.of(scope, name)].some((value) => sameValue(value, current[name]))) back[name] = original;
    else conflicts.push(`${owner(scope)} ${name} is ${JSON.stringify(current[name])}, which this run neither found (${formValue(original)}) nor set: someone changed it since, so it is left as it is`);
  }
  if (Object.keys(back).length > 0) {
    const response = await client.call(request.as, 'PATCH', request.path, back);
    if (response.body?.result !== 'success') throw new Error(`PATCH ${request.path} ${JSON.stringify(back)}: ${response.status} ${response.text.slice(0, 200)}`);
  }
  return conflicts;
}

/** The listings an owned object is found in, by the path that deletes it. */
const LISTINGS: ReadonlyArray<readonly [RegExp, string, string, string]> = [
  [/^\/drafts\/(\d+)$/, '/drafts', 'drafts', 'id'],
  [/^\/scheduled_messages\/(\d+)$/, '/scheduled_messages', 'scheduled_messages', 'scheduled_message_id'],
  [/^\/reminders\/(\d+)$/, '/reminders', 'reminders', 'reminder_id'],
];

/**
 * Whether the object a DELETE names is no longer the run's: null when it is gone already, a
 * conflict when it is there without the run's token, undefined when it is still the run's (or
 * cannot be looked up, and the DELETE goes as the journal has it).
 */
async function notOurs(client: Client, request: PutBack): Promise<string | null | undefined> {
  for (const [pattern, path, key, idKey] of LISTINGS) {
    const id = Number(pattern.exec(request.path)?.[1]);
    if (!Number.isInteger(id)) continue;
    const response = await client.call(request.as, 'GET', path);
    const listed: unknown = response.body?.[key];
    if (response.body?.result !== 'success' || !Array.isArray(listed)) return undefined;
    const found = listed.find((item) => item?.[idKey] === id);
    if (found === undefined) return null;
    return JSON.stringify(found).includes(request.owned!) ? undefined : `${request.path.slice(1).replace('/', ' ')} of ${request.as} is no longer this run's (it does not carry ${request.owned}): left as it is`;
  }
  return undefined;
}
