// Two exchanges, or two sequences of them, compared as a reader would: the run's prefix, times,
// queue IDs and the base URL set aside, and the IDs one side was given read as the IDs the other
// side was given at the same place (a created draft's `id`, the `messages` a flags request
// changed), so that what is left is what the two servers did differently.

import type { Exchange } from '../run/client.js';

/**
 * What differs between two recordings only because time, the run's prefix and queue IDs differ:
 * made equal. An ID (under an ID's name) is never taken for a time, however large: a server may
 * number its objects in the range of today's Unix times.
 */
export function normalised(value: unknown, key = ''): unknown {
  if (key !== '' && ID_KEY.test(key) && isId(value)) return value;
  if (typeof value === 'string') return normalisedText(value);
  if (typeof value === 'number') return value >= 1.5e9 && value < 2.5e9 ? '<unix time>' : value;
  if (Array.isArray(value)) return value.map((entry) => normalised(entry, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, normalised(entry, name)]));
  return value;
}

/**
 * Texts already read: a run repeats its texts (paths, contents, names) in thousands of
 * exchanges, and a comparison reads each many times. Emptied when it grows large.
 */
const textsRead = new Map<string, string>();

function normalisedText(value: string): string {
  // Nothing to set aside in a text without a digit, a prefix, a URL, a UUID's dash or a time mark.
  if (!/[\dTt<-]/.test(value)) return value;
  const known = textsRead.get(value);
  if (known !== undefined) return known;
  if (textsRead.size >= 200_000) textsRead.clear();
  const read = value
      // The run's prefix, also where a rule puts a character into it.
      .replace(/(tc(?:%[0-9A-F]{2}|\\[a-z]|\\u[0-9a-f]{4}|[^a-z0-9]){0,4}?c)[0-9a-f]{8}/g, '$100000000').replace(/\b([Tt][Cc][Cc])[0-9a-fA-F]{8}/g, '$100000000')
      .replace(/\b1[5-9]\d{11}\b/g, '<ms time>')
      // The run's token in its lease's claim (`run tcc-5b7c838b`), which names the run, not the server.
      .replace(/\btcc-[0-9a-f]{8}\b/g, 'tcc-00000000')
      .replace(/https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+/g, '{base_url}')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\b(1[5-9]|2[0-4])\d{8}(\.\d+)?\b/g, '<unix time>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g, '<date>')
      .replace(/<time:[^>]*>/g, '<time:…>');
  textsRead.set(value, read);
  return read;
}

/**
 * Names under which the API gives or takes IDs: `id`, `*_id`, `*_ids`, and the lists of IDs of the
 * spec's operations; and a profile field's `order`, a rank a server numbers as it numbers its IDs
 * (one server's 3 and 6 are another's 1 and 2): read as the other side's, never by its value.
 */
export const ID_KEY = /(^|_)ids?$|^(to|messages|stream_id|user_ids|order)$/;

/**
 * The other side's IDs, as text, by what this side's are, kind by kind: `channel:70` → `7` (each
 * kind of object numbers its own, so that channel 1 and draft 1 are not one).
 */
export type Ids = Map<string, string>;

const isId = (value: unknown): value is number | string => (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^\d+$/.test(value));

/** The kinds of object the API's collections and ID names stand for. */
const KINDS: Record<string, string> = {
  drafts: 'draft', draft: 'draft', draft_id: 'draft', messages: 'message', message: 'message', message_id: 'message', message_ids: 'message',
  scheduled_messages: 'scheduled', scheduled_message: 'scheduled', scheduled_message_id: 'scheduled', scheduled_message_ids: 'scheduled',
  reminders: 'reminder', reminder: 'reminder', reminder_id: 'reminder', reminder_ids: 'reminder', reminder_target_message_id: 'message',
  custom_fields: 'field', custom_profile_fields: 'field', profile_fields: 'field', field: 'field', field_id: 'field',
  stream_id: 'channel', channel_id: 'channel', streams: 'channel', subscriptions: 'channel', subscribed: 'user', already_subscribed: 'user', stream_ids: 'channel',
  ignored_because_not_subscribed_channels: 'channel', user_id: 'user', user_ids: 'user', sender_id: 'user', author_id: 'user', users: 'user',
  members: 'user', realm_users: 'user', emoji: 'emoji', realm_emoji: 'emoji', recipient_id: 'recipient', queue_id: 'queue',
};

/** The kind of the ID under `key`, inside the collection `parent` (an `id` is its collection's). */
export function kindOf(key: string, parent: string): string {
  if (key === 'id' || key === 'ids') return KINDS[parent] ?? (key === 'ids' && parent === '' ? 'draft' : parent || 'id');
  return KINDS[key] ?? key.replace(/_ids?$/, '');
}

/**
 * What `to` names, by the `type` beside it: users (a direct message's) or a channel; `to` where
 * nothing says which.
 */
const toKey = (type: unknown): string => (type === 'private' || type === 'direct' ? 'user_ids' : type === 'stream' || type === 'channel' ? 'stream_id' : 'to');

/** B's ID of a kind, as A's, where it is known; `to` names a channel or users. */
function lookUp(ids: Ids, kind: string, value: string): string | undefined {
  if (kind === 'to') return ids.get(`channel:${value}`) ?? ids.get(`user:${value}`);
  return ids.get(`${kind}:${value}`);
}

const targets = new WeakMap<Ids, { size: number; values: Set<string> }>();
/** Whether some other ID of B's, of this kind, stands for this ID of A's. */
function standsForAnother(ids: Ids, kind: string, value: string): boolean {
  let known = targets.get(ids);
  if (!known || known.size !== ids.size) targets.set(ids, (known = { size: ids.size, values: new Set([...ids.entries()].map(([key, target]) => `${key.slice(0, key.indexOf(':'))}:${target}`)) }));
  return kind === 'to' ? known.values.has(`channel:${value}`) || known.values.has(`user:${value}`) : known.values.has(`${kind}:${value}`);
}

/**
 * Learns what corresponds in two answers to the same request: at each place where both hold an
 * ID (under an ID's name), B's is A's, of the kind the name and its collection say. One to one:
 * an ID of A's that another of B's stands for is not learnt again (a wrong ID then shows). An
 * object keyed by IDs (the emoji by ID) is walked key by key in order.
 */
export function learnIds(a: unknown, b: unknown, ids: Ids, key = '', parent = ''): void {
  if (ID_KEY.test(key) && isId(a) && isId(b)) {
    const kind = kindOf(key, parent);
    // `to` is learnt where it says what it is: nowhere here.
    if (kind !== 'to' && !ids.has(`${kind}:${b}`) && !standsForAnother(ids, kind, String(a))) ids.set(`${kind}:${b}`, String(a));
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    // A list of bare IDs says which is which by position only where the spec says so: the IDs of created drafts, in the order sent.
    if (a.some((item) => item !== null && typeof item === 'object') || key === 'ids') for (const [left, right] of pairedItems(a, b)) learnIds(left, right, ids, key, parent);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length > 0 && keysA.length === keysB.length && keysA.every((name) => /^\d+$/.test(name)) && keysB.every((name) => /^\d+$/.test(name))) {
    const kind = KINDS[key] ?? key;
    keysA.forEach((name, index) => {
      if (!ids.has(`${kind}:${keysB[index]}`) && !standsForAnother(ids, kind, name)) ids.set(`${kind}:${keysB[index]}`, name);
      learnIds((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[keysB[index]!], ids, 'id', key);
    });
    return;
  }
  for (const name of keysA) if (name in (b as object)) learnIds((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[name], ids, name, key || parent);
}

/** What an item of a list is, IDs and times aside: its other fields, for pairing items two servers list in other orders. */
const signature = (item: unknown): string | null => {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return null;
  // An answer's item is read in every pass over the runs: once is enough.
  const known = signatures.get(item);
  if (known !== undefined) return known;
  const own = Object.entries(item).filter(([name, value]) => !ID_KEY.test(name) && (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number'));
  const read = own.length === 0 ? null : JSON.stringify(normalised(Object.fromEntries(own)));
  signatures.set(item, read);
  return read;
};
const signatures = new WeakMap<object, string | null>();

/**
 * The items of two lists paired for learning IDs: items of objects by what they are (each told
 * apart so on both sides), never by position where they differ; lists of plain values by position,
 * where both are as long.
 */
function pairedItems(a: readonly unknown[], b: readonly unknown[]): Array<[unknown, unknown]> {
  const keysA = a.map(signature);
  const keysB = b.map(signature);
  if (keysA.every((key) => key === null) && keysB.every((key) => key === null)) return a.length === b.length ? a.map((item, index) => [item, b[index]]) : [];
  const once = (keys: Array<string | null>) => {
    const counts = new Map<string, number>();
    for (const key of keys) if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
    return (key: string | null) => key !== null && counts.get(key) === 1;
  };
  const onceA = once(keysA);
  const onceB = once(keysB);
  const pairs: Array<[unknown, unknown]> = [];
  keysA.forEach((key, index) => {
    if (onceA(key) && onceB(key)) pairs.push([a[index], b[keysB.indexOf(key)]]);
  });
  return pairs;
}

/**
 * B's value with its IDs read as A's, where they correspond. An ID of B's that corresponds to
 * nothing, yet equals an ID of A's that another of B's stands for, is not that ID: it is marked so.
 */
export function mapIds(value: unknown, ids: Ids, key = '', parent = ''): unknown {
  if (ID_KEY.test(key) && isId(value)) {
    const kind = kindOf(key, parent);
    const mapped = lookUp(ids, kind, String(value));
    if (mapped === undefined) return standsForAnother(ids, kind, String(value)) ? `(B's ${value}, which matches nothing of A's)` : value;
    return typeof value === 'number' ? Number(mapped) : mapped;
  }
  if (Array.isArray(value)) return value.map((entry) => mapIds(entry, ids, key, parent));
  if (value !== null && typeof value === 'object') {
    const kind = KINDS[key] ?? key;
    const type = (value as { type?: unknown }).type;
    return Object.fromEntries(Object.entries(value).map(([name, entry]) => (/^\d+$/.test(name)
      ? [ids.get(`${kind}:${name}`) ?? name, mapIds(entry, ids, 'id', key)]
      : [name, mapIds(entry, ids, name === 'to' ? toKey(type) : name, key || parent)])));
  }
  return value;
}

/** The path under /api/v1 (or the reference's own), its query left out. */
export const pathOf = (url: string) => new URL(url).pathname.replace(/^.*?\/api\/v1(?=\/)/, '');

/** A form value as the API reads it: JSON where it is JSON, else the text. */
export const formValue = (text: string): unknown => {
  if (!/^[[{\d-]/.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** What a request asks, B's IDs read as A's: its method, its path (an ID segment mapped), its parameters. */
export function requestOf(exchange: Exchange, ids: Ids = new Map()): { readonly method: string; readonly path: string; readonly form: Record<string, unknown> } {
  const segments = pathOf(exchange.url).split('/');
  // A segment of digits is an ID of the collection before it: read as A's, never as a time.
  const path = segments.map((segment, index) => (/^\d+$/.test(segment) ? lookUp(ids, KINDS[segments[index - 1]!] ?? segments[index - 1]!, segment) ?? segment : normalised(segment))).join('/');
  const type = formValue(exchange.form.find(([name]) => name === 'type')?.[1] ?? '');
  const form = Object.fromEntries(exchange.form.map(([name, text]) => {
    const key = name === 'to' ? toKey(type) : name;
    return [normalised(name) as string, normalised(mapIds(formValue(text), ids, key), key)];
  }));
  return { method: exchange.method, path, form };
}

/** One place where two exchanges differ: `request`, `status`, or a field of the answer (`body.drafts[0].topic`). */
export interface Difference {
  readonly at: string;
  readonly a: unknown;
  readonly b: unknown;
}

/**
 * Where two values differ, by path, at most `limit` places: A's and B's compared as read (B's IDs
 * as A's, prefixes and times aside), each difference shown with the values as they came.
 */
function valueDifferences(a: unknown, b: unknown, bRead: unknown, at: string, found: Difference[], limit: number, key = ''): void {
  if (found.length >= limit) return;
  if (Array.isArray(a) && Array.isArray(b) && Array.isArray(bRead)) {
    if (a.length !== b.length) found.push({ at: `${at}.length`, a: a.length, b: b.length });
    for (let index = 0; index < Math.min(a.length, b.length); index++) valueDifferences(a[index], b[index], bRead[index], `${at}[${index}]`, found, limit, key);
    return;
  }
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (isObject(a) && isObject(b) && isObject(bRead)) {
    // B's keys as read: an object keyed by IDs is keyed by A's.
    const readKeys = Object.keys(bRead);
    const rawKey = new Map(Object.keys(b).map((key, index) => [readKeys[index] ?? key, key]));
    for (const name of new Set([...Object.keys(a), ...readKeys])) {
      const inA = name in a;
      const inB = name in bRead;
      if (!inA || !inB) found.push({ at: `${at}.${name}`, a: inA ? a[name] : '(absent)', b: inB ? b[rawKey.get(name) ?? name] : '(absent)' });
      else valueDifferences(a[name], b[rawKey.get(name) ?? name], bRead[name], `${at}.${name}`, found, limit, name);
    }
    return;
  }
  if (JSON.stringify(normalised(a, key)) !== JSON.stringify(normalised(bRead, key))) found.push({ at, a, b });
}

/**
 * How exchange B differs from exchange A, B's IDs read as A's: the request (with the IDs known
 * before it), the status, the answer's fields. The IDs of the two answers to one request are
 * learnt first: an ID is what it stands for, and a wrong one shows where it is used.
 */
export function differences(a: Exchange, b: Exchange, ids: Ids, limit = 12, { learnOnly = false } = {}): Difference[] {
  comparisonWork.compared++;
  const found: Difference[] = [];
  const requestA = requestOf(a);
  const requestB = requestOf(b, ids);
  const sameRequest = requestA.method === requestB.method && requestA.path === requestB.path;
  if (!sameRequest) found.push({ at: 'request', a: `${requestA.method} ${requestA.path}`, b: `${requestB.method} ${requestB.path}` });
  else valueDifferences(requestA.form, requestOf(b).form, requestB.form, 'form', found, limit);
  // What the answers to one request give stands for each other: to a request sent alike, not one sent otherwise.
  // An answer's own `id` is of what its request names: POST /messages gives a message's.
  const collection = requestA.path.split('/').filter((segment) => segment && !/^\d+$/.test(segment) && !segment.startsWith('{')).pop() ?? '';
  if (sameRequest && found.length === 0) learnIds(a.body, b.body, ids, '', collection);
  if (learnOnly) return found;
  if (a.status !== b.status) found.push({ at: 'status', a: a.status, b: b.status });
  valueDifferences(a.body, b.body, mapIds(b.body, ids, '', collection), 'body', found, limit);
  return found.slice(0, limit);
}

/** Two exchanges at one step of two sequences, and how the second differs from the first. */
export interface PairedStep<T extends Exchange = Exchange> {
  readonly a: T | null;
  readonly b: T | null;
  readonly differences: Difference[];
}

/** What a request is, for pairing steps: its method and path, IDs aside (`PATCH /scheduled_messages/{id}`). */
export const requestKey = (exchange: Exchange) => `${exchange.method} ${(normalised(pathOf(exchange.url).replace(/\/\d+(?=\/|$)/g, '/{id}')) as string)}`;

const isPoll = (exchange: Exchange) => exchange.method === 'GET' && pathOf(exchange.url) === '/events' && exchange.status === 200 && Array.isArray((exchange.body as { events?: unknown } | null)?.events);
const queueOf = (exchange: Exchange) => exchange.form.find(([name]) => name === 'queue_id')?.[1];
/** A poll's events, heartbeats aside (a heartbeat says only that a wait was long). */
const eventsOf = (exchange: Exchange) => ((exchange.body as { events: Array<{ type?: unknown }> }).events).filter((event) => event?.type !== 'heartbeat');

/**
 * Polls of one queue one after another, as one poll that brought all their events: how a wait's
 * events fall into polls (one in the first, or none until the third) is the machine's timing, not
 * the server's answer.
 */
function coalescedPolls<T extends Exchange>(list: readonly T[]): T[] {
  const out: T[] = [];
  for (const exchange of list) {
    const previous = out[out.length - 1];
    if (!isPoll(exchange)) out.push(exchange);
    else if (previous !== undefined && isPoll(previous) && queueOf(previous) === queueOf(exchange)) out[out.length - 1] = { ...previous, body: { ...(previous.body as object), events: [...eventsOf(previous), ...eventsOf(exchange)] } };
    else out.push({ ...exchange, body: { ...(exchange.body as object), events: eventsOf(exchange) } });
  }
  return out;
}

/** A value kept for a pair of objects (two runs, two lists of exchanges) while both live: work done once per pair. */
export function pairCache<A extends object, B extends object, V>(): { get(a: A, b: B): V | undefined; set(a: A, b: B, value: V): V } {
  const byFirst = new WeakMap<A, WeakMap<B, V>>();
  return {
    get: (a, b) => byFirst.get(a)?.get(b),
    set(a, b, value) {
      let ofA = byFirst.get(a);
      if (!ofA) byFirst.set(a, (ofA = new WeakMap()));
      ofA.set(b, value);
      return value;
    },
  };
}

/**
 * What comparing has cost so far, counted: exchanges compared field by field, exchanges aligned,
 * and the alignment's steps (diagonals tried and snake steps, Myers). A benchmark and a test hold
 * them in proportion to the exchanges of the runs compared.
 */
export const comparisonWork = { compared: 0, aligned: 0, alignmentSteps: 0 };

/** The most edits (steps of one side alone) the pairing looks through before it gives up on aligning the rest. */
const MAX_EDITS = 2_000;

/**
 * The pairs of a longest common subsequence of two lists of keys, in order, by Myers' O((N+M)D)
 * difference algorithm: in proportion to the lists where they differ in few steps, as two runs of
 * one seed do. The common head and tail are paired first. Past MAX_EDITS edits, what lies between
 * them is left unpaired: two runs that far apart differ everywhere anyway.
 */
export function commonPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const pairs: Array<[number, number]> = [];
  for (let index = 0; index < head; index++) pairs.push([index, index]);
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const middle = n > 0 && m > 0 ? middlePairs(n, m, (x, y) => a[head + x] === b[head + y]) : [];
  for (const [x, y] of middle) pairs.push([head + x, head + y]);
  for (let index = tail; index > 0; index--) pairs.push([a.length - index, b.length - index]);
  return pairs;
}

function middlePairs(n: number, m: number, same: (x: number, y: number) => boolean): Array<[number, number]> {
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  // trace[d]: the furthest x on each diagonal -d..d before step d.
  const trace: Int32Array[] = [];
  let end = -1;
  for (let d = 0; d <= Math.min(n + m, MAX_EDITS) && end < 0; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      comparisonWork.alignmentSteps++;
      while (x < n && y < m && same(x, y)) {
        x++;
        y++;
        comparisonWork.alignmentSteps++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        end = d;
        break;
      }
    }
  }
  if (end < 0) return [];
  const pairs: Array<[number, number]> = [];
  let x = n;
  let y = m;
  for (let d = end; d > 0; d--) {
    const before = trace[d]!;
    const at = (k: number) => before[k + d]!;
    const k = x - y;
    const previous = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previous);
    const previousY = previousX - previous;
    // The snake after the edit: pairs.
    while (x > previousX && y > previousY) pairs.push([--x, --y]);
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) pairs.push([--x, --y]);
  return pairs.reverse();
}

/**
 * Two sequences of exchanges step by step: the longest common run of like requests (method and
 * path, IDs aside) is paired in order, IDs learnt from each pair's answers as they come; a step
 * of one side that has no like on the other stands alone. With `oneWait`, polls of one queue in a
 * row are paired as one (coalescedPolls).
 */
export function pairSequences<T extends Exchange>(allA: readonly T[], allB: readonly T[], ids: Ids = new Map(), { oneWait = false } = {}): PairedStep<T>[] {
  return alignedSteps(allA, allB, oneWait).map(({ a, b }) => ({ a, b, differences: a && b ? differences(a, b, ids) : [{ at: 'request', a: a ? requestKey(a) : '(none)', b: b ? requestKey(b) : '(none)' }] }));
}

/** What pairSequences learns of the IDs, without comparing the answers' fields: a run's correspondence is learnt so. */
export function learnSequences(allA: readonly Exchange[], allB: readonly Exchange[], ids: Ids, oneWait = false): void {
  for (const { a, b } of alignedSteps(allA, allB, oneWait)) if (a && b) differences(a, b, ids, 12, { learnOnly: true });
}

/** The steps of pairSequences, without comparing the exchanges of each: which is paired with which, and which stands alone. */
export function alignedSteps<T extends Exchange>(allA: readonly T[], allB: readonly T[], oneWait = false): Array<{ a: T | null; b: T | null }> {
  // Two runs are aligned once, however many times they are read.
  const cache = oneWait ? alignedAsWaits : aligned;
  const known = cache.get(allA, allB);
  if (known) return known as Array<{ a: T | null; b: T | null }>;
  // Two servers' runs: a queue's polls in a row are one wait. An example's two sides keep every poll, each the exchange it was.
  const [a, b] = oneWait ? [coalescedPolls(allA), coalescedPolls(allB)] : [allA, allB];
  comparisonWork.aligned += a.length + b.length;
  const steps: Array<{ a: T | null; b: T | null }> = [];
  let i = 0;
  let j = 0;
  // Between two paired steps, the steps of A alone, then those of B alone.
  for (const [x, y] of [...commonPairs(a.map(requestKey), b.map(requestKey)), [a.length, b.length] as [number, number]]) {
    while (i < x) steps.push({ a: a[i++]!, b: null });
    while (j < y) steps.push({ a: null, b: b[j++]! });
    if (x < a.length && y < b.length) steps.push({ a: a[x]!, b: b[y]! });
    i = x + 1;
    j = y + 1;
  }
  cache.set(allA, allB, steps);
  return steps;
}

/** Alignments already made: of two runs' exchanges as they are, and with each queue's polls in a row as one wait. */
const aligned = pairCache<readonly Exchange[], readonly Exchange[], Array<{ a: Exchange | null; b: Exchange | null }>>();
const alignedAsWaits = pairCache<readonly Exchange[], readonly Exchange[], Array<{ a: Exchange | null; b: Exchange | null }>>();
