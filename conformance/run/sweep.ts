// The sweep: removes everything named with the run's prefix (or, with --sweep-only, with any
// prefix of the suite's form), whatever check made it and however the check ended, and says
// what it removed. Settings and defaults are not found by a name: the run puts those back itself.

import { ROLES, type Client, type Role } from './client.js';
import type { Cleanup } from './cleanup.js';

/** The form of every run's prefix: tcc and eight hex digits. */
export const PREFIX_FORM = /tcc[0-9a-f]{8}/;

/** Lists what `as` may see, or nothing when the endpoint answers otherwise (an older level, synchronization off). */
async function listed(client: Client, as: Role, path: string, key: string): Promise<any[]> {
  const response = await client.call(as, 'GET', path);
  return response.body?.result === 'success' && Array.isArray(response.body[key]) ? response.body[key] : [];
}

function remover(client: Client, cleanup: Cleanup, removed: string[]) {
  return (what: string, as: Role, path: string) => cleanup.now(`sweep: ${what}`, async () => {
    const response = await client.call(as, 'DELETE', path);
    if (response.body?.result !== 'success') throw new Error(`DELETE ${path}: ${response.status} ${response.text.slice(0, 200)}`);
    removed.push(what);
  });
}

/** The profile fields so named: shared by the organization, swept before the run's lease is released. */
export async function sweepProfileFields(client: Client, cleanup: Cleanup, named: (text: string) => boolean, removed: string[] = []): Promise<string[]> {
  const remove = remover(client, cleanup, removed);
  for (const field of await listed(client, 'admin', '/realm/profile_fields', 'custom_fields')) {
    if (named(String(field.name)) || named(String(field.hint))) await remove(`profile field ${field.id} (${field.name || field.hint})`, 'admin', `/realm/profile_fields/${field.id}`);
  }
  return removed;
}

export async function sweep(client: Client, cleanup: Cleanup, named: (text: string) => boolean): Promise<string[]> {
  const removed: string[] = [];
  const remove = remover(client, cleanup, removed);
  await cleanup.now('sweep: read what is left', async () => {
    for (const as of ROLES) {
      for (const scheduled of await listed(client, as, '/scheduled_messages', 'scheduled_messages')) {
        if (named(String(scheduled.content))) await remove(`scheduled message ${scheduled.scheduled_message_id} of ${as}`, as, `/scheduled_messages/${scheduled.scheduled_message_id}`);
      }
      for (const draft of await listed(client, as, '/drafts', 'drafts')) {
        if (named(String(draft.content))) await remove(`draft ${draft.id} of ${as}`, as, `/drafts/${draft.id}`);
      }
    }
    for (const as of ROLES) {
      for (const reminder of await listed(client, as, '/reminders', 'reminders')) {
        if (named(JSON.stringify(reminder))) await remove(`reminder ${reminder.reminder_id} of ${as}`, as, `/reminders/${reminder.reminder_id}`);
      }
    }
    const emoji = await client.call('admin', 'GET', '/realm/emoji');
    for (const listed of Object.values((emoji.body?.emoji ?? {}) as Record<string, { name: string; deactivated: boolean }>)) {
      if (!listed.deactivated && named(listed.name.toLowerCase())) await remove(`custom emoji ${listed.name}`, 'admin', `/realm/emoji/${encodeURIComponent(listed.name)}`);
    }
    await sweepProfileFields(client, cleanup, named, removed);
    const channels = new Map<number, string>();
    for (const as of ROLES) {
      for (const subscription of await listed(client, as, '/users/me/subscriptions', 'subscriptions')) {
        if (named(String(subscription.name))) channels.set(subscription.stream_id, subscription.name);
      }
    }
    for (const [id, name] of channels) await remove(`channel ${id} (${name}), archived`, 'admin', `/streams/${id}`);
  });
  return removed;
}
