// The reference's own bounds on what it holds of a request, and its answer to a body it cannot
// read. The spec states no bound but the emoji file's (Limits: MAX_EMOJI_FILE_SIZE_MIB), which the
// HTTP layer keeps in handler.ts, and describes no malformed body; these are the server's, so that
// no client can make it hold more than it will answer, or leave it waiting (the README's "the
// server never crashes, hangs or answers 5xx because of what a client sent"). A request past a
// bound is refused with HTTP 413 in the envelope, changes nothing, and the connection is closed
// once what is left of its body is dropped; a malformed body is a 400. Not mutated: no statement
// of the spec is kept here.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type busboy from 'busboy';
import { JsonError } from '../model/params.js';

const MIB = 1024 * 1024;

export const LIMITS = {
  /** An urlencoded body, and every field of a multipart body. */
  fieldBytes: 4 * MIB,
  fields: 1000,
  /** What is read and dropped of a body after an answer that refused it, before the connection is closed. */
  drainBytes: 64 * MIB,
};

/**
 * The most a whole body may be: the largest file it may carry, or the largest field where that is
 * larger, and a MiB more for the rest of the form. The bound follows the realm's file limit, so
 * that a file of exactly the limit always fits, and a realm that allows larger files reads larger bodies.
 */
export const bodyBytesFor = (fileBytes: number) => Math.max(LIMITS.fieldBytes, fileBytes) + MIB;

export const tooLarge = () => new JsonError('Request body too large', 413);

/** A declared length past the limit: refused before any of the body is read. */
const declaredPast = (req: IncomingMessage, limit: number) => Number(req.headers['content-length'] ?? 0) > limit;

/** Reads and drops the rest of a refused body, up to LIMITS.drainBytes, then closes the connection. */
function drain(req: IncomingMessage): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LIMITS.drainBytes) req.socket.destroy();
  });
  req.resume();
}

/** After an answer that refused a body before all of it was read: what still comes is dropped, up to a bound, and the connection closed. */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse, error: JsonError): void {
  if (error.status !== 413 && !error.bodyUnread) return;
  res.setHeader('Connection', 'close');
  drain(req);
}

/** The bytes of a body, up to `limit`. */
export function readAll(req: IncomingMessage, limit: number, done: (failure: JsonError | null, bytes: Buffer | null) => void): void {
  if (declaredPast(req, limit)) return done(tooLarge(), null);
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (failure: JsonError | null, bytes: Buffer | null) => {
    if (settled) return;
    settled = true;
    chunks.length = 0;
    done(failure, bytes);
  };
  req.on('data', (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > limit) settle(tooLarge(), null);
    else chunks.push(chunk);
  });
  req.on('end', () => settle(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
  req.on('error', (error) => settle(new JsonError(`Malformed request body: ${error.message}`), null));
}

/**
 * A body's chunks handed to `write` as they come, up to `limit`; past it, `stop` is told once and
 * no more is written. Returns what stops the writing (for a refusal made on the way).
 */
export function streamWithin(req: IncomingMessage, limit: number, write: (chunk: Buffer) => void, stop: (error: JsonError) => void): () => void {
  const detach = () => req.removeListener('data', listener);
  let size = 0;
  const listener = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) return write(chunk);
    detach();
    stop(tooLarge());
  };
  if (declaredPast(req, limit)) {
    stop(tooLarge());
    return detach;
  }
  req.on('data', listener);
  return detach;
}

/** The name=value pairs of an urlencoded body, the empty ones left out; more than LIMITS.fields is refused. */
export function formPairs(text: string): string[] {
  const pairs = text.split('&').filter((pair) => pair !== '');
  if (pairs.length > LIMITS.fields) throw new JsonError(`Too many fields (limit: ${LIMITS.fields})`, 413);
  return pairs;
}

/** busboy's bounds on the fields of a multipart body, and on its parts beside `files` files. */
export const multipartBounds = (files: number): busboy.Limits => ({ fieldSize: LIMITS.fieldBytes, fields: LIMITS.fields, parts: LIMITS.fields + files });

/** The fields of a multipart body, each handed to `take`; a field busboy cut at its bound, or fields or parts past theirs, refused through `fail`. */
export function takeFieldsWithin(parser: busboy.Busboy, take: (name: string, value: string) => void, fail: (error: JsonError) => void): void {
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated || info.nameTruncated) fail(new JsonError(`Field ${name} is too large`, 413));
    else take(name, value);
  });
  parser.on('fieldsLimit', () => fail(new JsonError(`Too many fields (limit: ${LIMITS.fields})`, 413)));
  parser.on('partsLimit', () => fail(new JsonError('Too many parts', 413)));
}

/** A stream of a multipart body that errs (a body that ends inside a part, or one busboy cannot read): refused as malformed through `stop`, never thrown. */
export function refuseMalformed(stream: NodeJS.EventEmitter, stop: (error: JsonError) => void): void {
  stream.on('error', (error: Error) => stop(new JsonError(`Malformed multipart body: ${error.message}`)));
}
