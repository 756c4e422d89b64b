// Event queues, as Zulip's: ids from 0 per queue, long polling with a heartbeat, events
// filtered by the queue's event types, idle queues collected after ten minutes.

import { randomUUID } from 'node:crypto';
import type { Event, EventQueue, Realm, User, UserId } from './model.js';


const IDLE_QUEUE_SECONDS = 600;


export function registerQueue(realm: Realm, user: User, eventTypes: readonly string[] | null, capabilities: readonly string[] = []): EventQueue {
  collectIdleQueues(realm);
  const queue: EventQueue = {
    id: randomUUID(),
    userId: user.id,
    eventTypes: eventTypes === null ? null : new Set(eventTypes),
    capabilities: new Set(capabilities),
    givenSettings: { ...user.settings },
    events: [],
    nextEventId: 0,
    lastTouched: Date.now() / 1000,
    waiter: null,
  };
  realm.queues.set(queue.id, queue);
  return queue;
}

function collectIdleQueues(realm: Realm): void {
  const now = Date.now() / 1000;
  for (const [id, queue] of realm.queues) {
    if (queue.waiter === null && now - queue.lastTouched >= IDLE_QUEUE_SECONDS) realm.queues.delete(id);
  }
}

/** Whether a queue of one of the users takes events of this type: if none does, the event need not be built. */
export function listening(realm: Realm, type: string, userIds: readonly UserId[]): boolean {
  for (const queue of realm.queues.values()) {
    if (userIds.includes(queue.userId) && (queue.eventTypes === null || queue.eventTypes.has(type))) return true;
  }
  return false;
}

/**
 * Sends the event to every queue of the given users that asked for its type (and declared the
 * capability, if one is needed, and is taken by `takes`, if given).
 */
export function sendEvent(realm: Realm, event: Event, userIds: Iterable<UserId>, capability?: string, takes?: (queue: EventQueue) => boolean): void {
  if (realm.queues.size === 0) return;
  const users = new Set(userIds);
  for (const queue of realm.queues.values()) {
    if (!users.has(queue.userId)) continue;
    if (queue.eventTypes !== null && !queue.eventTypes.has(event.type)) continue;
    if (capability !== undefined && !queue.capabilities.has(capability)) continue;
    if (takes !== undefined && !takes(queue)) continue;
    pushEvent(queue, event);
  }
}

function pushEvent(queue: EventQueue, event: Event): void {
  queue.events.push({ ...structuredClone(event), id: queue.nextEventId++ });
  const waiter = queue.waiter;
  queue.waiter = null;
  waiter?.();
}

/** Drops the events the client has seen, then waits (unless dontBlock) for one to come. */
export async function fetchEvents(
  queue: EventQueue,
  lastEventId: number,
  dontBlock: boolean,
  heartbeatSeconds: number,
  closed: Promise<void>,
): Promise<Array<Event & { id: number }>> {
  queue.events = queue.events.filter((event) => event.id > lastEventId);
  queue.lastTouched = Date.now() / 1000;
  if (queue.events.length > 0 || dontBlock) return queue.events;
  // Only one long poll waits on a queue; a newer one takes over from an older one.
  queue.waiter?.();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => pushEvent(queue, { type: 'heartbeat' }), heartbeatSeconds * 1000);
    queue.waiter = () => {
      clearTimeout(timer);
      resolve();
    };
    closed.then(() => queue.waiter?.(), () => undefined);
  });
  queue.lastTouched = Date.now() / 1000;
  return queue.events;
}

/** Every human user of the organization: realm-wide events go to them all. Users are only ever added. */
const humans = new WeakMap<Realm, { users: number; ids: readonly UserId[] }>();
export function everyone(realm: Realm): readonly UserId[] {
  const known = humans.get(realm);
  if (known?.users === realm.users.size) return known.ids;
  const ids = [...realm.users.values()].filter((user) => !user.isBot).map((user) => user.id);
  humans.set(realm, { users: realm.users.size, ids });
  return ids;
}
