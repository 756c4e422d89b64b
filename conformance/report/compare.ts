// Two exchanges, or two sequences of them, compared as a reader would: the run's prefix, times,
// queue IDs and the base URL set aside, and the IDs one side was given read as the IDs the other
// side was given at the same place (a created draft's `id`, the `messages` a flags request
// changed), so that what is left is what the two servers did differently.

import type { Exchange } from '../run/client.js';

/** What differs between two recordings only because time, the run's prefix and queue IDs differ: made equal. */
export function normalised(value: unknown): unknown {
  if (typeof value === 'string') {
    return value
      // The run's prefix, also where a rule puts a character into it.
      .replace(/(tc(?:%[0-9A-F]{2}|\\[a-z]|\\u[0-9a-f]{4}|[^a-z0-9]){0,3}?c)[0-9a-f]{8}/g, '$100000000').replace(/TCC[0-9A-F]{8}/g, 'TCC00000000')
      .replace(/https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+/g, '{base_url}')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\b(1[5-9]|2[0-4])\d{8}(\.\d+)?\b/g, '<unix time>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g, '<date>')
      .replace(/<time:[^>]*>/g, '<time:…>');
  }
  if (typeof value === 'number') return value >= 1.5e9 && value < 2.5e9 ? '<unix time>' : value;
  if (Array.isArray(value)) return value.map(normalised);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, normalised(entry)]));
  return value;
}

/** Names under which the API gives or takes IDs: `id`, `*_id`, `*_ids`, and the lists of IDs of the spec's operations. */
export const ID_KEY = /(^|_)ids?$|^(to|messages|stream_id|user_ids)$/;

/** The other side's IDs, as text, by what this side's are: side B's ID → side A's. */
export type Ids = Map<string, string>;

const isId = (value: unknown): value is number | string => (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^\d+$/.test(value));

/**
 * Learns what corresponds in two answers to the same request: at each place where both hold an
 * ID (under an ID's name), B's is A's. An object keyed by IDs (the emoji by ID) is walked key by key in order.
 */
export function learnIds(a: unknown, b: unknown, ids: Ids, key = ''): void {
  if (ID_KEY.test(key) && isId(a) && isId(b)) {
    // One to one: an ID of A's that another of B's stands for is not learnt again (a wrong ID shows).
    if (!ids.has(String(b)) && !standsForAnother(ids, String(a))) ids.set(String(b), String(a));
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.min(a.length, b.length); index++) learnIds(a[index], b[index], ids, key);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length > 0 && keysA.length === keysB.length && keysA.every((name) => /^\d+$/.test(name)) && keysB.every((name) => /^\d+$/.test(name))) {
    keysA.forEach((name, index) => {
      if (!ids.has(keysB[index]!) && !standsForAnother(ids, name)) ids.set(keysB[index]!, name);
      learnIds((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[keysB[index]!], ids, 'id');
    });
    return;
  }
  for (const name of keysA) if (name in (b as object)) learnIds((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[name], ids, name);
}

/**
 * B's value with its IDs read as A's, where they correspond. An ID of B's that corresponds to
 * nothing, yet equals an ID of A's that another of B's stands for, is not that ID: it is marked so.
 */
export function mapIds(value: unknown, ids: Ids, key = ''): unknown {
  if (ID_KEY.test(key) && isId(value)) {
    const mapped = ids.get(String(value));
    if (mapped === undefined) return standsForAnother(ids, String(value)) ? `(B's ${value}, which matches nothing of A's)` : value;
    return typeof value === 'number' ? Number(mapped) : mapped;
  }
  if (Array.isArray(value)) return value.map((entry) => mapIds(entry, ids, key));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, entry]) => [/^\d+$/.test(name) ? ids.get(name) ?? name : name, mapIds(entry, ids, /^\d+$/.test(name) ? 'id' : name)]));
  }
  return value;
}

const targets = new WeakMap<Ids, { size: number; values: Set<string> }>();
/** Whether some other ID of B's stands for this ID of A's. */
function standsForAnother(ids: Ids, value: string): boolean {
  let known = targets.get(ids);
  if (!known || known.size !== ids.size) targets.set(ids, (known = { size: ids.size, values: new Set(ids.values()) }));
  return known.values.has(value);
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
  const path = pathOf(exchange.url).split('/').map((segment) => (/^\d+$/.test(segment) ? ids.get(segment) ?? segment : segment)).join('/');
  const form = Object.fromEntries(exchange.form.map(([name, text]) => [name, normalised(mapIds(formValue(text), ids, name))]));
  return { method: exchange.method, path: normalised(path) as string, form };
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
function valueDifferences(a: unknown, b: unknown, bRead: unknown, at: string, found: Difference[], limit: number): void {
  if (found.length >= limit) return;
  if (Array.isArray(a) && Array.isArray(b) && Array.isArray(bRead)) {
    if (a.length !== b.length) found.push({ at: `${at}.length`, a: a.length, b: b.length });
    for (let index = 0; index < Math.min(a.length, b.length); index++) valueDifferences(a[index], b[index], bRead[index], `${at}[${index}]`, found, limit);
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
      else valueDifferences(a[name], b[rawKey.get(name) ?? name], bRead[name], `${at}.${name}`, found, limit);
    }
    return;
  }
  if (JSON.stringify(normalised(a)) !== JSON.stringify(normalised(bRead))) found.push({ at, a, b });
}

/**
 * How exchange B differs from exchange A, B's IDs read as A's: the request (with the IDs known
 * before it), the status, the answer's fields. The IDs of the two answers to one request are
 * learnt first: an ID is what it stands for, and a wrong one shows where it is used.
 */
export function differences(a: Exchange, b: Exchange, ids: Ids, limit = 12): Difference[] {
  const found: Difference[] = [];
  const requestA = requestOf(a);
  const requestB = requestOf(b, ids);
  const sameRequest = requestA.method === requestB.method && requestA.path === requestB.path;
  if (!sameRequest) found.push({ at: 'request', a: `${requestA.method} ${requestA.path}`, b: `${requestB.method} ${requestB.path}` });
  else valueDifferences(requestA.form, requestOf(b).form, requestB.form, 'form', found, limit);
  if (sameRequest) learnIds(a.body, b.body, ids);
  if (a.status !== b.status) found.push({ at: 'status', a: a.status, b: b.status });
  valueDifferences(a.body, b.body, mapIds(b.body, ids), 'body', found, limit);
  return found.slice(0, limit);
}

/** Two exchanges at one step of two sequences, and how the second differs from the first. */
export interface PairedStep<T extends Exchange = Exchange> {
  readonly a: T | null;
  readonly b: T | null;
  readonly differences: Difference[];
}

/** What a request is, for pairing steps: its method and path, IDs aside. */
const requestKey = (exchange: Exchange) => `${exchange.method} ${pathOf(exchange.url).replace(/\/\d+(?=\/|$)/g, '/{id}')}`;

/**
 * Two sequences of exchanges step by step: the longest common run of like requests (method and
 * path, IDs aside) is paired in order, IDs learnt from each pair's answers as they come; a step
 * of one side that has no like on the other stands alone.
 */
export function pairSequences<T extends Exchange>(a: readonly T[], b: readonly T[], ids: Ids = new Map()): PairedStep<T>[] {
  const keysA = a.map(requestKey);
  const keysB = b.map(requestKey);
  // lengths[i][j]: the longest common run of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lengths[i]![j] = keysA[i] === keysB[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  }
  const steps: PairedStep<T>[] = [];
  const alone = (left: T | null, right: T | null): PairedStep<T> => ({ a: left, b: right, differences: [{ at: 'request', a: left ? requestKey(left) : '(none)', b: right ? requestKey(right) : '(none)' }] });
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && keysA[i] === keysB[j]) {
      steps.push({ a: a[i]!, b: b[j]!, differences: differences(a[i]!, b[j]!, ids) });
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) steps.push(alone(a[i++]!, null));
    else steps.push(alone(null, b[j++]!));
  }
  return steps;
}
