// What the HTTP layer does only for what stands outside the spec: answers that come later (the
// event queue's long poll, GET /events, and the page's Try it, POST /reference/try), answers of
// raw bytes (a served emoji image, the pages, and OPTIONS' empty one), the services only those operations read (the
// server's shutdown, the request's peer, the reset), and the answer to the reference's own bug
// (HTTP 500, which no request may reach). No spec operation needs any of it: the handler
// (http/handler.ts, spec code, mutated) calls these the same way for every request, so that a
// mutant of its own code is seen by the spec's operations.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { RAW, type House, type Request } from '../model/request.js';
import { peerOf } from './pages.js';

/** An operation's answer: now, or later (GET /events, POST /reference/try). */
export type Answer<T> = T | Promise<T>;

/**
 * Goes on with an answer now, or when it comes (an answer that fails later is failed): done and
 * failed take the handler's three arguments first, so that an answer given now costs no closure.
 */
export function whenAnswered<A, B, C, T>(answer: Answer<T>, done: (a: A, b: B, c: C, value: T) => void, failed: (a: A, b: B, c: C, error: unknown) => void, a: A, b: B, c: C): void {
  if (answer instanceof Promise) answer.then((value) => done(a, b, c, value)).catch((error: unknown) => failed(a, b, c, error));
  else done(a, b, c, answer);
}

/** An answer made from another, now or when it comes; map takes three arguments first, as whenAnswered's. */
export function mapAnswer<A, B, C, T, U>(answer: Answer<T>, map: (a: A, b: B, c: C, value: T) => U, a: A, b: B, c: C): Answer<U> {
  return answer instanceof Promise ? answer.then((value) => map(a, b, c, value)) : map(a, b, c, answer);
}

/** What only the operations outside the spec read of a request: the server's shutdown (GET /events), its peer and the reset (Try it). */
export interface Services {
  readonly closed: Request['closed'];
  readonly reset: Request['reset'];
  /** The request's peer, read when asked. */
  peerOf(req: IncomingMessage): Request['peer'];
}

export function servicesOf(house: House, closed: Promise<void>): Services {
  return { closed, reset: () => house.reset(), peerOf: (req) => () => peerOf(req) };
}

/** A raw answer: the bytes of a served image or page and their type, or a status and headers of its own (OPTIONS' 204). */
interface Raw {
  readonly data: Buffer;
  readonly type?: string;
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The status, headers and bytes of a raw answer, or undefined for the fields of a JSON one. */
export function rawAnswer(data: Record<string, unknown>): { status: number; headers: Record<string, string | number>; body: Buffer } | undefined {
  const raw = (data as { [RAW]?: Raw })[RAW];
  if (!raw) return undefined;
  if (raw.status !== undefined) return { status: raw.status, headers: { ...raw.headers }, body: raw.data };
  return { status: 200, headers: { 'Content-Type': raw.type ?? 'application/octet-stream', 'Content-Length': raw.data.length }, body: raw.data };
}

/** The reference threw other than a JsonError: its own bug. Said on stderr, and answered 500 if nothing was sent yet. */
export function answerInternalError(req: IncomingMessage, res: ServerResponse, internal: unknown): void {
  process.stderr.write(`internal error on ${req.method} ${req.url}: ${(internal as Error)?.stack ?? String(internal)}\n`);
  if (res.headersSent) return;
  const text = JSON.stringify({ result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' }) + '\n';
  res.writeHead(500, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
}
