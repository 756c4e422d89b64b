// Interference, named, and only interference: while the run holds the server's lease, event queues
// watch the state that every client of the target shares. What the events show is sorted against
// the run's own writes since the queue was last read:
//
// - a setting the run wrote, at a value it sent: the run's own change;
// - a setting the run wrote, at a value it did not send: the server's answer to the run's request
//   (it stored something else), or another client's change in the same moment. The witness
//   cannot tell which: the rule is run again, and a failure seen again is the server's;
// - a setting the run did not write, or a profile field the run did not make: another client's
//   change. A check that fails while one is seen ends in error with what changed, not in fail.
//
// In a default run the queue is read after each change the run makes, so that little else happens
// in between; a smoke run, which keeps a budget of requests, reads only when a check fails.

import type { Client, Exchange, Role } from './client.js';
import { ROLES } from './client.js';
import type { Shared } from './harness.js';
import { sameValue, scopeOf, type Scope } from './put-back.js';

interface Watch {
  readonly as: Role;
  readonly queue: string;
  lastEventId: number;
}

interface Seen {
  readonly shares: Shared;
  readonly what: string;
}

/** What the witness saw of others: their changes, and changes it cannot tell from the server's own. */
export interface OthersChanges {
  readonly foreign: string[];
  readonly unclear: string[];
}

/**
 * The settings an event says changed, with their values: Zulip's {property, value}, or the keys of
 * an object it carries ({changes: {…}}), since event shapes are not shown. None: it cannot be told.
 */
function changesIn(event: any): Array<[string, unknown]> {
  if (typeof event?.property === 'string') return [[event.property, event.value]];
  const carried = Object.values(event ?? {}).find((value) => value !== null && typeof value === 'object' && !Array.isArray(value));
  return carried ? Object.entries(carried as Record<string, unknown>) : [];
}

const owner = (scope: Scope) => (scope === 'defaults' ? 'the organization\'s default' : `${scope}'s setting`);

export class Witness {
  private watches: Watch[] = [];
  /** The profile fields not made by the run, as last seen. */
  private foreignFields: string | null = null;
  private broken = false;
  /** Changes someone else made, and changes that may be, seen since the check began. */
  private seen: Seen[] = [];
  private unclear: Seen[] = [];
  /** The values the run sent for each setting since the queues were last read (the run's own writes). */
  private written = new Map<string, Set<string>>();
  /**
   * The values of the run's requests still on their way: requests sent at once (a command of the
   * organization model) answer one by one, and a read after the first may see the second's change
   * before its answer comes. Kept until their answer, whatever reads come between.
   */
  private readonly inFlight: Array<readonly [string, string]> = [];
  /** The profile fields the run made: found by the IDs its creates were answered with. */
  private readonly ownFields = new Set<number>();

  constructor(
    /** The client that watches: not the run's, so that its requests stay out of the checks' records. */
    private readonly watcher: Client,
    private readonly prefix: string,
    /** Read the queues after each change the run makes (a default run), or only when a check fails (a smoke run). */
    private readonly eager = true,
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
    this.unclear = [];
  }

  /** Given every request of the run as it is sent: what it writes is the run's from then on, answered or not. */
  sending(as: unknown, method: string, path: string, form: ReadonlyArray<readonly [string, string]>): void {
    if (this.broken || method === 'GET' || typeof as !== 'string') return;
    const scope = scopeOf(as as Role, method, path);
    if (scope === null) return;
    for (const [name, value] of form) this.inFlight.push([`${scope}\u0000${name}`, value]);
  }

  /** Given every exchange of the run: notes what it wrote, and in a default run reads what that changed. */
  async see(exchange: Exchange): Promise<void> {
    if (this.broken || exchange.method === 'GET' || typeof exchange.as !== 'string') return;
    const path = new URL(exchange.url).pathname.replace(/^.*\/api\/v1/, '');
    const body = exchange.body as { result?: string; id?: unknown } | null;
    if (exchange.method === 'POST' && path === '/realm/profile_fields' && Number.isInteger(body?.id)) this.ownFields.add(body!.id as number);
    const scope = scopeOf(exchange.as, exchange.method, path);
    if (scope === null) return;
    // Refused or not, what the run sent is its own: a server that applied a refused change did it at the run's request.
    for (const [name, value] of exchange.form) {
      const key = `${scope}\u0000${name}`;
      this.written.set(key, (this.written.get(key) ?? new Set()).add(value));
      const waiting = this.inFlight.findIndex(([other, sent]) => other === key && sent === value);
      if (waiting >= 0) this.inFlight.splice(waiting, 1);
    }
    if (this.eager && body?.result === 'success') await this.readAll();
  }

  /** The values being read against: taken from `written` when a read of the queues began. */
  private reading = new Map<string, Set<string>>();
  /** The reads of the queues, one after another: answers of requests at once come (and read) side by side. */
  private reads: Promise<void> = Promise.resolve();

  /**
   * Reads every queue, after any read still going. What the run sent before the read began is
   * judged by it and then forgotten; what it sends meanwhile counts too, and is kept for the next.
   */
  private readAll(): Promise<void> {
    const read = this.reads.then(async () => {
      this.reading = this.written;
      this.written = new Map();
      try {
        for (const watch of this.watches) await this.read(watch);
      } finally {
        this.reading = new Map();
      }
    });
    this.reads = read.catch(() => undefined);
    return read;
  }

  /** Reads a queue's new events and sorts each change they show: the run's, unclear, or someone else's. */
  private async read(watch: Watch): Promise<void> {
    const response = await this.watcher.call(watch.as, 'GET', '/events', { queue_id: watch.queue, last_event_id: watch.lastEventId, dont_block: true });
    if (response.body?.result !== 'success' || !Array.isArray(response.body.events)) {
      this.broken = true;
      return;
    }
    for (const event of response.body.events as any[]) {
      watch.lastEventId = Math.max(watch.lastEventId, Number(event.id));
      if (event.type === 'realm_user_settings_defaults' || event.type === 'user_settings') {
        const scope: Scope = event.type === 'user_settings' ? watch.as : 'defaults';
        const shares: Shared = event.type === 'user_settings' ? 'profile users\' settings' : 'organization defaults';
        for (const [name, value] of changesIn(event)) {
          const key = `${scope}\u0000${name}`;
          const sent = new Set([...(this.reading.get(key) ?? []), ...(this.written.get(key) ?? []), ...this.inFlight.filter(([other]) => other === key).map(([, value]) => value)]);
          if (sent.size === 0) {
            this.seen.push({ shares, what: `${owner(scope)} ${name} became ${JSON.stringify(value)}, which this run did not set` });
            continue;
          }
          if ([...sent].some((one) => sameValue(one, value))) continue;
          this.unclear.push({ shares, what: `${owner(scope)} ${name} became ${JSON.stringify(value)}, which this run's request did not send (it sent ${[...sent].join(', ')}): the server's doing, or another client's at that moment` });
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

  /** The fields neither made by the run (by the IDs its creates were answered with) nor named with its prefix. */
  private fieldsNotOurs(fields: unknown): string | null {
    if (!Array.isArray(fields)) return null;
    const ours = (field: any) => this.ownFields.has(field?.id) || String(field?.name).includes(this.prefix) || String(field?.hint).includes(this.prefix);
    return JSON.stringify(fields.filter((field) => !ours(field)).map((field) => [field.id, field.name, field.hint, field.field_type, field.field_data, field.display_in_profile_summary ?? null]));
  }

  /**
   * What others changed of this shared state since the check began, each as a sentence, and what
   * may be another client's or the server's doing; empty when nothing was seen, or when the
   * target has no events to see it by.
   */
  async othersChanges(shares: readonly Shared[]): Promise<OthersChanges> {
    if (this.broken) return { foreign: [], unclear: [] };
    await this.readAll();
    const of = (list: Seen[]) => [...new Set(list.filter((seen) => shares.includes(seen.shares)).map((seen) => seen.what))];
    return { foreign: of(this.seen), unclear: of(this.unclear) };
  }

  async stop(): Promise<void> {
    for (const watch of this.watches) await this.watcher.call(watch.as, 'DELETE', '/events', { queue_id: watch.queue }).catch(() => undefined);
    this.watches = [];
  }
}
