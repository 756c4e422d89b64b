// The pages a person opens in a browser: the annotated spec at GET / and the rule catalog as
// JSON at GET /rules.json, both built by npm run docs and shipped in docs/; and what the page's
// "Try it" uses: its recorded examples (GET /annotated.json), a request sent as one of the
// profile's users (POST /reference/try) and a reset of the organization (POST /reference/reset),
// for a person at this machine only, from the page the reference serves.

import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { RAW, type Peer, type Request } from '../model/request.js';
import { JsonError } from '../model/params.js';
import type { Realm } from '../model/model.js';

const DOCS = new URL('../../../docs/', import.meta.url);
const cache = new Map<string, Buffer>();

function page(name: string, type: string, served: (data: Buffer) => Buffer = (data) => data) {
  let data = cache.get(name);
  if (!data) {
    try {
      data = served(readFileSync(new URL(name, DOCS)));
    } catch {
      throw new JsonError(`Not Found: docs/${name} is not built (npm run docs writes it)`, 404);
    }
    cache.set(name, data);
  }
  return { [RAW]: { type, data } };
}

/** The annotated spec, marked as served by a reference: its examples can be tried here. */
export const annotatedSpec = (_request: Request) => page('annotated.html', 'text/html; charset=utf-8', (data) => Buffer.from(data.toString('utf8').replace('<body>', '<body data-live="1">')));
export const ruleCatalog = (_request: Request) => page('rules.json', 'application/json');
export const recordedExamples = (_request: Request) => page('annotated.json', 'application/json');

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Where a request comes from and is sent to, as checkFromThisPage reads it: the HTTP layer hands it to every operation, read only by Try it. */
export function peerOf(req: IncomingMessage): Peer {
  const origin = req.headers.origin;
  return { loopback: LOOPBACK.test(req.socket.remoteAddress ?? ''), origin: typeof origin === 'string' ? origin : undefined, host: req.headers.host, port: req.socket.localPort, fromPage: req.headers['x-teamchat-try'] === '1' };
}

/**
 * What acts for the profile's users without their keys answers only a browser page of this
 * reference on this machine: a request from elsewhere, from another site's page (its Origin is
 * not this host), or without the page's header (which no other site's page may send unasked) is refused.
 */
function checkFromThisPage(peer: Peer): void {
  if (!peer.loopback) throw new JsonError('Try it answers only requests from this machine', 403);
  // A page of another name that resolves to this machine (DNS rebinding) sends its own name as Host:
  // only this machine's names, at this reference's port, are this reference's, as development servers guard.
  if (!isOwnName(peer.host, peer.port)) throw new JsonError(`Try it answers only requests sent to this reference by a loopback name (localhost, 127.0.0.1, [::1]) at its port, not to ${JSON.stringify(peer.host ?? '')}`, 403);
  if (!peer.fromPage) throw new JsonError('Try it answers only the annotated spec this reference serves (X-Teamchat-Try: 1)', 403);
  if (peer.origin !== undefined && peer.origin !== 'null' && new URL(peer.origin).host !== peer.host) throw new JsonError(`Try it answers only pages of this reference, not ${peer.origin}`, 403);
}

/** Whether a Host header names this machine's loopback (localhost, 127.x.x.x, [::1]) with this server's port. */
export function isOwnName(host: string | undefined, port: number | undefined): boolean {
  const match = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::(\d+))?$/i.exec(host ?? '');
  if (match === null || port === undefined) return false;
  return Number(match[2] ?? 80) === port;
}

const ROLES = ['admin', 'member', 'other'] as const;

/** The credentials a tried request is sent with: a profile user's, a profile user's email with a wrong key, or none. */
function credentialsOf(realm: Realm, profile: Readonly<Record<string, string>>, as: string): string | null {
  if (as === 'nobody') return null;
  const email = profile[(ROLES as readonly string[]).includes(as) ? as : 'member']!;
  const user = realm.usersByEmail.get(email.toLowerCase());
  if (!user) throw new JsonError(`the profile's ${as} is not a user of this organization`);
  return `Basic ${Buffer.from(`${user.email}:${as === 'forged credentials' ? 'not-the-api-key' : user.apiKey}`).toString('base64')}`;
}

/** A file part of a tried upload: the page's own small image where the recorded bytes are not kept. */
interface TriedFile {
  readonly field: string;
  readonly filename: string;
  readonly type: string;
  readonly base64: string;
}

/** The body of a tried request: form-encoded, or multipart where it carries files. */
function bodyOf(form: ReadonlyArray<readonly [string, string]>, files: readonly TriedFile[]): { type: string; data: Buffer } {
  if (files.length === 0) return { type: 'application/x-www-form-urlencoded', data: Buffer.from(new URLSearchParams(form as [string, string][]).toString()) };
  const boundary = `teamchattry${Date.now().toString(16)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of form) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename.replace(/"/g, '')}"\r\nContent-Type: ${file.type}\r\n\r\n`), Buffer.from(file.base64, 'base64'), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(parts) };
}

/**
 * POST /reference/try (as, method, path, form, files): sends the request to this reference as
 * the profile's user named, and answers with the status and the answer it got. Only paths of the
 * API and of the reference's own endpoints; the page never holds an API key.
 */
export function tryRequest({ realm, params, peer }: Request): Promise<Record<string, unknown>> {
  checkFromThisPage(peer());
  const as = params.requiredString('as');
  const method = params.requiredString('method').toUpperCase();
  const path = params.requiredString('path');
  if (!['GET', 'POST', 'PATCH', 'DELETE'].includes(method)) throw new JsonError(`Try it sends GET, POST, PATCH or DELETE, not ${method}`);
  if (!/^\/(api\/v1|reference)\//.test(path) || path.startsWith('/reference/try') || path.startsWith('/reference/reset')) throw new JsonError(`Try it sends requests to the API (/api/v1/…) or the reference clock, not ${path}`);
  const form = (params.json('form') ?? []) as Array<[string, string]>;
  const files = (params.json('files') ?? []) as TriedFile[];
  if (!Array.isArray(form) || !form.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'))) throw new JsonError('form is a JSON list of [name, value] pairs of strings');
  if (!Array.isArray(files)) throw new JsonError('files is a JSON list');
  const authorization = credentialsOf(realm, realm.profile, as);
  const query = method === 'GET' && form.length > 0 ? `${path.includes('?') ? '&' : '?'}${new URLSearchParams(form).toString()}` : '';
  const body = method === 'GET' ? null : bodyOf(form, files);
  const target = new URL(path + query, realm.url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(target, {
      method, headers: { ...(authorization ? { authorization } : {}), ...(body ? { 'content-type': body.type, 'content-length': body.data.length } : {}) },
    }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Not JSON: the text as it came.
        }
        resolve({ status: answer.statusCode, answer: parsed });
      });
    });
    sent.on('error', (error) => reject(new JsonError(`Try it could not reach this reference: ${error.message}`, 502)));
    sent.end(body?.data);
  });
}

/** POST /reference/reset: the organization as the reference started it; the queues of the old one are gone. */
export function resetOrganization({ peer, reset }: Request): Record<string, unknown> {
  checkFromThisPage(peer());
  reset();
  return {};
}
