// Interference, named: while the run holds the server's lease, event queues watch the state that
// every client of the target shares. Right after each change the run makes to it, the queue that
// sees that change is read: the events of the settings the run just sent are the run's own, any
// other was made by someone else. A check that fails while such a change is seen ends in error
// with what changed, not in fail.

import type { Client, Exchange, Role } from './client.js';
import { ROLES } from './client.js';
import type { Shared } from './harness.js';

interface Watch {
  readonly as: Role;
  readonly queue: string;
  lastEventId: number;
}

interface Seen {
  readonly shares: Shared;
  readonly what: string;
}

/** Whether a value an event carries is the one a form sent: a string as it was, anything else as JSON. */
const sameValue = (sent: string, value: unknown) => sent === (typeof value === 'string' ? value : JSON.stringify(value)) || sent === JSON.stringify(value);

const pathOf = (exchange: Exchange) => new URL(exchange.url).pathname.replace(/^.*\/api\/v1/, '');

/**
 * The settings an event says changed, with their values: Zulip's {property, value}, or the keys of
 * an object it carries ({changes: {…}}), since event shapes are not shown. None: it cannot be told.
 */
function changesIn(event: any): Array<[string, unknown]> {
  if (typeof event?.property === 'string') return [[event.property, event.value]];
  const carried = Object.values(event ?? {}).find((value) => value !== null && typeof value === 'object' && !Array.isArray(value));
  return carried ? Object.entries(carried as Record<string, unknown>) : [];
}

export class Witness {
  private watches: Watch[] = [];
  /** The profile fields not made by the run, as last seen. */
  private foreignFields: string | null = null;
  private broken = false;
  /** Changes someone else made, seen since the check began. */
  private seen: Seen[] = [];

  constructor(
    /** The client that watches: not the run's, so that its requests stay out of the checks' records. */
    private readonly watcher: Client,
    private readonly prefix: string,
  ) {}

  /** Opens the queues that watch the shared state. A target without events has no witness. */
  async start(): Promise<void> {
    try {
      for (const as of ROLES) {
        const types = as === 'admin' ? ['realm_user_settings_defaults', 'custom_profile_fields', 'user_settings'] : ['user_settings'];
        const response = await this.watcher.call(as, 'POST', '/register', { event_types: types, fetch_event_types: as === 'admin' ? ['custom_profile_fields'] : [] });
        if (response.body?.result !== 'success' || typeof response.body.queue_id !== 'string') throw new Error('no queue');
        this.watches.push({ as, queue: response.body.queue_id, lastEventId: Number(response.body.last_event_id ?? -1) });
        if (as === 'admin') this.foreignFields = this.fieldsNotOurs(response.body.custom_profile_fields);
      }
    } catch {
      this.broken = true;
    }
  }

  /** A check begins: what was seen before is not its concern. */
  forget(): void {
    this.seen = [];
  }

  /**
   * Given every exchange of the run: after a change it made to the shared state, the events since
   * are read from the queue that sees it; those of the settings it sent are its own (one each).
   */
  async see(exchange: Exchange): Promise<void> {
    if (this.broken || exchange.method === 'GET' || typeof exchange.as !== 'string') return;
    const path = pathOf(exchange);
    // Profile fields need no read per change: the fields not the run's are compared whenever the queue is read.
    const whose: Role | null = path === '/realm/user_settings_defaults' ? 'admin' : path === '/settings' ? exchange.as : null;
    if (whose === null) return;
    // A refused change sends no event: what others did meanwhile is read after the next accepted one, or at the end.
    if ((exchange.body as { result?: string } | null)?.result !== 'success') return;
    // By name and value: a setting sent with the value it had sends no event, so an event of that
    // name with another value is someone else's.
    const sent = new Map(exchange.form.map(([name, value]) => [name, value]));
    const type = path === '/settings' ? 'user_settings' : 'realm_user_settings_defaults';
    await this.read(whose, (eventType, name, value) => eventType === type && sent.has(name) && sameValue(sent.get(name)!, value) && sent.delete(name));
  }

  /** Reads a queue's new events; each change of a setting that `ours` does not claim is someone else's. */
  private async read(as: Role, ours: (type: string, name: string, value: unknown) => boolean): Promise<void> {
    const watch = this.watches.find((candidate) => candidate.as === as);
    if (!watch) return;
    const response = await this.watcher.call(watch.as, 'GET', '/events', { queue_id: watch.queue, last_event_id: watch.lastEventId, dont_block: true });
    if (response.body?.result !== 'success' || !Array.isArray(response.body.events)) {
      this.broken = true;
      return;
    }
    for (const event of response.body.events as any[]) {
      watch.lastEventId = Math.max(watch.lastEventId, Number(event.id));
      if (event.type === 'realm_user_settings_defaults' || event.type === 'user_settings') {
        for (const [name, value] of changesIn(event)) {
          if (ours(event.type, name, value)) continue;
          this.seen.push(event.type === 'user_settings'
            ? { shares: 'profile users\' settings', what: `${watch.as}'s setting ${name} became ${JSON.stringify(value)}, which this run did not set` }
            : { shares: 'organization defaults', what: `the organization's default ${name} became ${JSON.stringify(value)}, which this run did not set` });
        }
      } else if (event.type === 'custom_profile_fields') {
        const now = this.fieldsNotOurs(event.fields);
        if (now !== null && this.foreignFields !== null && now !== this.foreignFields) {
          this.seen.push({ shares: 'profile fields', what: 'the profile fields that are not this run\'s changed (added, removed or edited by another client)' });
        }
        if (now !== null) this.foreignFields = now;
      }
    }
  }

  private fieldsNotOurs(fields: unknown): string | null {
    if (!Array.isArray(fields)) return null;
    return JSON.stringify(fields.filter((field) => !String(field?.name).includes(this.prefix)).map((field) => [field.id, field.name, field.hint, field.field_type, field.field_data, field.display_in_profile_summary ?? null]));
  }

  /**
   * The changes to this shared state that someone else made since the check began, each as a
   * sentence; empty when there were none, or when the target has no events to see them by.
   */
  async othersChanges(shares: readonly Shared[]): Promise<string[]> {
    if (this.broken) return [];
    // What came after the run's last change is no change of the run's.
    for (const watch of this.watches) await this.read(watch.as, () => false);
    return [...new Set(this.seen.filter((seen) => shares.includes(seen.shares)).map((seen) => seen.what))];
  }

  async stop(): Promise<void> {
    for (const watch of this.watches) await this.watcher.call(watch.as, 'DELETE', '/events', { queue_id: watch.queue }).catch(() => undefined);
    this.watches = [];
  }
}
