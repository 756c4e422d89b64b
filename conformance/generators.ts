// Generators shared by the areas' checks, and the event-queue helpers they observe with.

import fc from 'fast-check';
import type { Role } from './client.js';
import { succeeded, type Context } from './harness.js';

export { characterLength } from '../reference/text.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\ufeff]/g;

/** Unicode text without control characters or surrounding whitespace, at least one character. */
export function text(maxGraphemes: number): fc.Arbitrary<string> {
  return fc.string({ unit: 'grapheme', minLength: 1, maxLength: maxGraphemes }).map((value) => {
    const clean = value.replace(CONTROL, '').trim();
    return clean === '' ? 'x' : clean;
  });
}

/** A topic: text within the target's limit, counted in characters. */
export function topicText(maxTopicLength: number): fc.Arbitrary<string> {
  return text(Math.min(20, maxTopicLength)).map((topic) => Array.from(topic).slice(0, maxTopicLength).join('').trim() || 'x');
}

export interface Queue {
  readonly id: string;
  lastEventId: number;
  remove(): Promise<void>;
}

export async function registerQueue(context: Context, as: Role, eventTypes: string[]): Promise<Queue> {
  const body = succeeded(await context.call(as, 'POST', '/register', { event_types: eventTypes, fetch_event_types: [] }), 'POST /register');
  const queue: Queue = {
    id: body.queue_id,
    lastEventId: body.last_event_id ?? -1,
    remove: () => context.cleanup.now(`delete event queue ${body.queue_id}`, () => context.call(as, 'DELETE', '/events', { queue_id: body.queue_id })),
  };
  return queue;
}

/**
 * Collects the queue's events until `done` holds for what was seen, or the wait ends. Polls
 * without blocking, so a server that sends nothing costs the wait, not a long poll.
 */
export async function pollEvents(context: Context, as: Role, queue: Queue, done: (events: any[]) => boolean, waitMs = context.options.eventWaitMs): Promise<any[]> {
  const seen: any[] = [];
  const deadline = Date.now() + waitMs;
  for (;;) {
    const body = succeeded(
      await context.call(as, 'GET', '/events', { queue_id: queue.id, last_event_id: queue.lastEventId, dont_block: true }),
      'GET /events',
    );
    for (const event of body.events ?? []) {
      queue.lastEventId = Math.max(queue.lastEventId, event.id);
      if (event.type !== 'heartbeat') seen.push(event);
    }
    if (done(seen) || Date.now() >= deadline) return seen;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
