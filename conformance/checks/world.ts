// What several areas' checks set up and observe with: the run's channels and messages, and
// event queues. Below every area module; no area imports another.

import { TransientError, type Caller, type ParamList, type Role } from '../run/client.js';
import { expect, noServerError, succeeded, Unobservable, type Capability, type Context } from '../run/harness.js';
import { SHAPES } from '../run/shape.js';

export interface Channel {
  readonly id: number;
  readonly name: string;
}

async function subscribeTo(context: Context, as: Role, name: string, inviteOnly = false): Promise<Channel> {
  const params = { subscriptions: [{ name, description: 'teamchat-conformance run channel' }], ...(inviteOnly ? { invite_only: true } : {}) };
  succeeded(await context.call(as, 'POST', '/users/me/subscriptions', params), `POST /users/me/subscriptions ${name}`);
  const list = succeeded(await context.call(as, 'GET', '/users/me/subscriptions'), 'GET /users/me/subscriptions', SHAPES.subscriptions);
  const found = (list.subscriptions as Array<{ stream_id: number; name: string }>).find((sub) => sub.name === name);
  expect(found, `GET /users/me/subscriptions: ${name} is missing after subscribing`);
  return { id: found.stream_id, name };
}

/** The names of the spec's flag table at a feature level (the wildcard flags split at 224). */
export function flagTable(level: number): string[] {
  return ['read', 'starred', 'collapsed', 'mentioned', ...(level >= 224 ? ['stream_wildcard_mentioned', 'topic_wildcard_mentioned'] : []), 'has_alert_word', 'historical', 'wildcard_mentioned'];
}

export async function createChannel(context: Context, suffix: string, subscribers: Role[], inviteOnly = false): Promise<Channel> {
  const name = `${context.prefix}-${suffix}`;
  const channel = await subscribeTo(context, subscribers[0]!, name, inviteOnly);
  context.putBack(`archive channel ${name}`, { as: 'admin', method: 'DELETE', path: `/streams/${channel.id}`, params: {} });
  context.cleanup.leftBehind(`channels, archived (the API deletes no channel: each is named ${context.prefix}-…)`);
  for (const role of subscribers.slice(1)) await subscribeTo(context, role, name);
  return channel;
}

/**
 * The run's channel of these subscribers, made once for every area that needs one (each finds its
 * messages by topic and token): a channel a check changes (one that members leave) is its own.
 */
export function runChannel(context: Context, subscribers: Role[]): Promise<Channel> {
  return context.memo(`channel ${subscribers.join(' ')}`, () => createChannel(context, subscribers.join('-'), subscribers));
}

/**
 * A message sent to a channel's topic, where a transient fault may hide whether it was: the topic
 * is read for the content (which must be the topic's alone, from this sender), and the message
 * sent again only where it is not there. A case set up so costs no case when the network drops
 * an answer.
 */
export async function sendSurely(context: Context, as: Role, to: Channel | number[], content: string, topic: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(context, as, to, content, topic);
    } catch (error) {
      if (!(error instanceof TransientError) || attempt >= 3) throw error;
      const where: Conversation = Array.isArray(to) ? { dm: to } : { channel: to.id, topic };
      const found = (await readConversation(context, as, where, 20))
        .find((message) => message.sender_id === context.probe.users[as].id && String(message.content).includes(content));
      if (found) return noteSent(context, found.id, sentWhere(context, as, to, topic));
    }
  }
}

/** Sends a message through POST /messages; `readBySender`, where given, is sent as read_by_sender (Zulip's from level 236: the caller sends it only where the target has it). */
export async function send(context: Context, as: Role, to: Channel | number[], content: string, topic = 'flags', readBySender?: boolean): Promise<number> {
  const params = { ...(Array.isArray(to) ? { type: 'private', to, content } : { type: 'stream', to: to.id, topic, content }), ...(readBySender === undefined ? {} : { read_by_sender: readBySender }) };
  const body = succeeded(await context.call(as, 'POST', '/messages', params), 'POST /messages', SHAPES.sent);
  return noteSent(context, body.id, sentWhere(context, as, to, topic));
}

/** Where a message the actor sent went: a channel's topic, or its direct conversation's participants. */
const sentWhere = (context: Context, as: Role, to: Channel | number[], topic: string): Sent => (Array.isArray(to) ? { participants: [...new Set([context.probe.users[as].id, ...to])] } : { channel: to.id, topic });

/** A message the run sent: its flags are put back at the end, and where it went is kept for reading it below level 120. */
function noteSent(context: Context, id: number, where: Sent): number {
  context.noteMessage(id);
  const sent = sentTo.get(context) ?? new Map<number, Sent>();
  sentTo.set(context, sent);
  sent.set(id, where);
  return id;
}

/** Where a message the run sent went: a channel and topic, or the people of a direct conversation. */
type Sent = { readonly channel: number; readonly topic: string } | { readonly participants: readonly number[] };

/** Where each message the run sent went, so that a read below level 120 narrows to its conversation. */
const sentTo = new WeakMap<Context, Map<number, Sent>>();

export interface Queue {
  readonly id: string;
  lastEventId: number;
  remove(): Promise<void>;
}

/** A new event queue of the user for these event types; null: every event (names the spec does not fix). */
export async function registerQueue(context: Context, as: Role, eventTypes: string[] | null, capabilities?: Record<string, boolean>): Promise<Queue> {
  // Zulip 8 requires notification_settings_null in any client_capabilities object; false is its default.
  const client_capabilities = capabilities && { notification_settings_null: false, ...capabilities };
  const body = succeeded(await context.call(as, 'POST', '/register', { event_types: eventTypes ?? undefined, fetch_event_types: [], client_capabilities }), 'POST /register', SHAPES.register);
  const queue: Queue = {
    id: body.queue_id,
    lastEventId: body.last_event_id ?? -1,
    remove: () => context.cleanup.request(`delete event queue ${body.queue_id}`, () => context.call(as, 'DELETE', '/events', { queue_id: body.queue_id })),
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
  // Looked at again soon, then less often: a wait for what must not come costs few requests. A
  // smoke run looks now and once more at the deadline: two polls at most, however slow the
  // machine, so that its budget of requests does not depend on timing.
  let pause = context.options.smoke ? waitMs : 25;
  for (;;) {
    const body = succeeded(
      await context.call(as, 'GET', '/events', { queue_id: queue.id, last_event_id: queue.lastEventId, dont_block: true }),
      'GET /events',
      SHAPES.events,
    );
    for (const event of body.events ?? []) {
      queue.lastEventId = Math.max(queue.lastEventId, event.id);
      if (event.type !== 'heartbeat') seen.push(event);
    }
    if (done(seen) || Date.now() >= deadline) return seen;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
    pause = context.options.smoke ? waitMs : Math.min(pause * 2, 200);
  }
}

/** Event names are not shown: a typing notification is an event whose type speaks of typing. */
export const isTyping = (event: any) => /typing/i.test(String(event?.type));

/** Part of the user's state as POST /register gives it; the queue that opens is deleted at once. */
export async function fetchState(context: Context, as: Caller, types: string[], what = 'POST /register'): Promise<any> {
  const state = succeeded(await context.call(as, 'POST', '/register', { event_types: ['heartbeat'], fetch_event_types: types }), what);
  await context.cleanup.request('delete the probe queue', () => context.call(as, 'DELETE', '/events', { queue_id: state.queue_id }));
  return state;
}

/** Where a message went, as GET /messages narrows to it. */
export type Conversation = { readonly channel: number; readonly topic: string } | { readonly dm: readonly number[] };

/**
 * The newest messages the user may read in a conversation, oldest first, raw where the server
 * honours apply_markdown=false (match them by a token, not by equality, in case it renders).
 */
export async function readConversation(context: Context, as: Role, where: Conversation, count = 100): Promise<any[]> {
  // Zulip named the operators stream (channel from level 250) and pm-with (dm from 177); the old names still work.
  const narrow = 'channel' in where
    ? [{ operator: 'stream', operand: where.channel }, { operator: 'topic', operand: where.topic }]
    : [{ operator: context.level >= 177 ? 'dm' : 'pm-with', operand: where.dm }];
  return readMessages(context, as, { narrow, anchor: 'newest', num_before: count, num_after: 0, apply_markdown: false });
}

/**
 * One message as the user sees it, flags included. GET /messages/{id} gives the message object
 * from Zulip's level 120 (its raw content only before): below, the message is read at its ID as an
 * anchor, in its conversation where the run sent it. Reading is not an operation of the spec: a
 * message the target does not give this way is an observation missing (Unobservable, a skip with
 * its reason), never the server's failure. A server may keep in a user's history only what they
 * received or flagged, and read it only so.
 */
export async function fetchMessage(context: Context, as: Role, id: number, params: { apply_markdown?: boolean } = {}): Promise<any> {
  if (context.level >= 120) {
    const response = await context.call(as, 'GET', `/messages/${id}`, params);
    noServerError(response, `GET /messages/${id}`);
    if (response.body?.result !== 'success' || response.body.message === null || typeof response.body.message !== 'object') {
      throw new Unobservable(`GET /messages/${id} as ${as} does not give the message (${response.status} ${JSON.stringify(response.body ?? response.text).slice(0, 200)}): reading messages is not an operation of the spec, so what the rule needed of it could not be observed`);
    }
    return response.body.message;
  }
  const where = sentTo.get(context)?.get(id);
  const me = context.probe.users[as].id;
  const narrow = where === undefined ? undefined : 'channel' in where
    ? [{ operator: 'stream', operand: where.channel }, { operator: 'topic', operand: where.topic }]
    : [{ operator: context.level >= 177 ? 'dm' : 'pm-with', operand: where.participants.length > 1 ? where.participants.filter((user) => user !== me) : where.participants }];
  const found = (await readMessages(context, as, { narrow, anchor: id, num_before: 0, num_after: 0, apply_markdown: params.apply_markdown ?? true })).find((message) => message.id === id);
  if (!found) throw new Unobservable(`GET /messages at its ID as an anchor${narrow ? ', narrowed to its conversation,' : ''} does not give message ${id} to ${as}, and below level 120 there is no GET /messages/{id}: the target keeps this message out of the user's history, so what the rule needed of it could not be observed`);
  return found;
}

/** The user's newest messages, oldest first. */
export function recentMessages(context: Context, as: Role, count = 50): Promise<any[]> {
  return readMessages(context, as, { anchor: 'newest', num_before: count, num_after: 0, apply_markdown: false });
}

/** The user's messages after the one with this ID, oldest first: for decisions, where Zulip's IDs ascend. */
export async function messagesAfter(context: Context, as: Role, id: number, count = 1000): Promise<any[]> {
  return (await readMessages(context, as, { anchor: id, num_before: 0, num_after: count, apply_markdown: false })).filter((message) => message.id !== id);
}

/**
 * Whether a message's text links the message with this ID: a link in it (Markdown, HTML or a
 * bare URL) whose path, query or fragment has the ID as a whole segment. The link's host and
 * port are never looked at, and a segment such as `12-name` or `5,6` is not the ID 12 or 5.
 */
export function linksToMessage(text: string, messageId: number): boolean {
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)|href="([^"]+)"|(https?:\/\/[^\s)<>\]"]+)|(#narrow\/[^\s)<>\]"]+)/g)]
    .map((match) => match[1] ?? match[2] ?? match[3] ?? match[4]!);
  return targets.some((target) => {
    let url: URL;
    try {
      url = new URL(target, 'http://host.invalid/');
    } catch {
      return false;
    }
    return `${url.pathname}${url.search}${url.hash}`.split(/[/?#&=]/).includes(String(messageId));
  });
}

async function readMessages(context: Context, as: Role, params: Parameters<Context['call']>[3]): Promise<any[]> {
  const body = succeeded(await context.call(as, 'GET', '/messages', params), 'GET /messages', SHAPES.messages);
  return body.messages;
}

/**
 * One operation of the spec, as the general rules (envelope, authentication, ignored
 * parameters) exercise it. Each area describes its own; the general checks get them all.
 */
export interface SpecOperation {
  /** Method and path as the spec writes them. */
  readonly name: string;
  /** The feature level the operation exists from. */
  readonly since: number;
  /** Who makes the valid request: an administrator where members may not, else member. */
  readonly as?: 'admin' | 'member';
  /** Endpoints 1 and 4, which the spec restricts to administrators. */
  readonly adminOnly?: boolean;
  /** The level from which its success responses list unsupported parameters, where earlier than 167 (spec "Versioning"). */
  readonly ignoredParametersSince?: number;
  /**
   * What of the target the set-up needs to observe and undo a request (a listing, a deletion):
   * where the target lacks it, the rules of every operation leave this one out.
   */
  readonly needs?: readonly Capability[];
  /**
   * An operation on the caller's own data (drafts, scheduled messages, flags, reminders): its
   * prepared request says what others observe (general.own-data-only). `copies`: of objects every
   * user who has them holds a copy of (messages), which each other user may hold or not.
   */
  readonly ownData?: true | 'copies';
  /** Its valid request may be sent twice on one set-up, each time accepted, the undo removing what both made. */
  readonly repeatable?: true;
  /** Sets up one request the spec makes valid, and, where it can, one the spec refuses. */
  prepare(context: Context): Promise<PreparedOperation>;
}

export interface PreparedOperation {
  readonly method: string;
  readonly path: string;
  readonly valid: ParamList;
  readonly invalid?: { readonly path: string; readonly params: ParamList };
  /** What the request could change, as text to compare before and after. */
  observe(): Promise<string>;
  /** Removes what the set-up and an accepted request made. */
  undo(): Promise<void>;
  /**
   * Of an operation on the caller's own data (general.own-data-only): what another profile user
   * observes of their data of the same kind, as text to compare before and after, and whether an
   * event tells of this operation's objects (by their token, or by an ID where one of them is meant).
   */
  readonly others?: {
    observe(as: Role): Promise<string>;
    tells(event: any): boolean;
  };
}

/**
 * Whether a value holds this number where the key says what it is: under a key matching `keys`
 * (`scheduled_message_id`, `messages`), alone or in a list. A number anywhere else is something
 * else's ID.
 */
export function namesId(value: unknown, id: number, keys: RegExp): boolean {
  if (Array.isArray(value)) return value.some((item) => namesId(item, id, keys));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, item]) => (keys.test(key) && (item === id || (Array.isArray(item) && item.includes(id)))) || namesId(item, id, keys));
}

// ---- Time ---------------------------------------------------------------------------------------
//
// The target's time is its API's: what the reference clock answers where the target has one, else
// the timestamp the target puts on a message the run sends. Never the HTTP Date header, which a
// server need not keep in step with its API's clock (a test clock moved ahead leaves it behind).

/**
 * The target's now as its API states it, read now: the reference clock's answer, or the timestamp
 * of a direct message member sends itself. Costs a request or two; `targetNow` is the cheap estimate.
 */
export async function serverStamp(context: Context): Promise<number> {
  if (context.deliveryState.mode === 'clock') return advanceClock(context, 0);
  const me = context.probe.users.member.id;
  const id = await send(context, 'member', [me], `${context.token('time')} the target's time`);
  const stamped = (await fetchMessage(context, 'member', id)).timestamp;
  expect(Number.isInteger(stamped), `message ${id} has no integer timestamp: ${JSON.stringify(stamped)}`);
  // The stamp is whole seconds: the target's time was somewhere in the second after it.
  context.timeOffset = stamped + 0.5 - Date.now() / 1000;
  return stamped;
}

/**
 * The target's now, estimated: its API's time as last read (serverStamp, or a clock answer), moved on
 * by this machine's clock since. Another run may have moved a reference clock meanwhile: where a
 * check needs the exact now, it reads serverStamp.
 */
export async function targetNow(context: Context): Promise<number> {
  if (context.timeOffset === null) await serverStamp(context);
  return context.approximateNow();
}

/** Moves the target's clock (CONTRACT: POST /reference/clock); returns the new now. */
export async function advanceClock(context: Context, seconds: number, deliver = true, { orMore = false } = {}): Promise<number> {
  // What comes due may be sent to the profile's users: the end of the run puts their flags back.
  context.noteMessage();
  // A read of the clock (no advance) may be sent again after a transient fault, and so may an
  // advance whose caller takes the clock further as well as it takes it this far (orMore).
  const repeatable = seconds === 0 || orMore;
  const body = succeeded(await context.call('admin', 'POST', '/reference/clock', { advance_seconds: seconds, deliver }, { repeatable }), 'POST /reference/clock');
  expect(Number.isInteger(body.now), `POST /reference/clock: no now: ${JSON.stringify(body)}`);
  context.timeOffset = body.now - Date.now() / 1000;
  return body.now;
}

/**
 * Whether an event speaks of these drafts: by the name of its type, by a draft's whole content
 * (which carries the run's token), or by one of the drafts' IDs where a draft's ID is meant: a
 * field named for drafts (`draft_id`, `draft_ids`), or `id`/`ids` inside a draft (under such a
 * field, or anywhere in an event whose type names drafts). A number anywhere else is not a draft:
 * a message's ID, a user's, a time or the queue's event ID can equal a draft's (a server may number
 * drafts and messages from one range, and another run's messages reach the same user's queue), and
 * the run's prefix alone is not one of its drafts: an event that lists every custom emoji names
 * those of every run.
 */
export function aboutDrafts(ids: readonly number[], contents: readonly string[], byTypeName = true) {
  const quoted = contents.filter((content) => content.length > 0).map((content) => JSON.stringify(content).slice(1, -1));
  const isDraftId = (value: unknown) => typeof value === 'number' && ids.includes(value);
  const mentions = (value: unknown, inDraft: boolean): boolean => {
    if (Array.isArray(value)) return value.some((item) => mentions(item, inDraft));
    if (value === null || typeof value !== 'object') return false;
    return Object.entries(value).some(([key, item]) => {
      const draftField = /draft/i.test(key);
      const idField = draftField || (inDraft && /^ids?$/.test(key));
      return (idField && (isDraftId(item) || (Array.isArray(item) && item.some(isDraftId)))) || mentions(item, inDraft || draftField);
    });
  };
  return (event: any): boolean => {
    const text = JSON.stringify(event);
    const typed = /draft/i.test(String(event?.type));
    // The event's own `id` is the queue's, whatever its type.
    const { id: _queued, ...payload } = event ?? {};
    return (byTypeName && typed) || quoted.some((content) => text.includes(content)) || mentions(payload, typed);
  };
}
