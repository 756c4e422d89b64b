// The HTTP layer: bodies (urlencoded or multipart, for every method) with limits, HTTP Basic
// authentication, routing, and the JSON envelope. Operations see only a Request and return
// the fields of their success response, or throw a JsonError.

import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import { BEHAVIOURS } from '../model/levels.js';
import type { Realm, UploadedFile, User } from '../model/model.js';
import { RAW, type House, type Route } from '../model/request.js';
import { answerInternalError, mapAnswer, rawAnswer, servicesOf, whenAnswered, type Answer, type Services } from './outside.js';

export { RAW, type House, type Operation, type Peer, type Request, type Route } from '../model/request.js';
import { JsonError, Params } from '../model/params.js';
import { LIMITS, bodyBytesFor, closeIfBodyUnread, formPairs, multipartBounds, readAll, refuseMalformed, streamWithin, takeFieldsWithin } from './bounds.js';

const MIB = 1024 * 1024;

/** The largest file a request may carry: MAX_EMOJI_FILE_SIZE_MIB. */
const fileLimit = (realm: Realm) => realm.maxEmojiFileSizeMib * MIB;
const bodyLimit = (realm: Realm) => bodyBytesFor(fileLimit(realm));

interface CompiledRoute extends Route {
  readonly pattern: RegExp;
  /** The path up to its first parameter: a cheap test before the pattern's. */
  readonly prefix: string;
  readonly names: string[];
  /** The methods the path has, sorted. */
  readonly allowed: string[];
}

/** The routes: paths without parameters by the path itself, the others in order. */
interface RouteTable {
  readonly exact: ReadonlyMap<string, CompiledRoute>;
  readonly patterns: readonly CompiledRoute[];
}

/** The routes of the server (server.ts gives those its feature level has, each with the methods it has then). */
export function compileRoutes(routes: readonly Route[]): RouteTable {
  const exact = new Map<string, CompiledRoute>();
  const patterns: CompiledRoute[] = [];
  for (const route of routes) {
    const allowed = methodsInOrder(route.methods);
    const names: string[] = [];
    const source = route.path.replace(/\{(\w+)(:int)?\}/g, (_, name: string, int?: string) => {
      names.push(name);
      return int ? '([0-9]+)' : '([^/]+)';
    });
    const prefix = route.path.split('{')[0]!;
    const compiled = { ...route, names, allowed, prefix, pattern: new RegExp(`^${source}/?$`) };
    if (names.length > 0) patterns.push(compiled);
    else for (const path of spellingsOf(route.path)) exact.set(path, compiled);
  }
  return { exact, patterns };
}

/** general.unknown-endpoints: the methods a path has, as Allow and allowed_methods name them: sorted. */
function methodsInOrder(methods: Route['methods']): string[] {
  return Object.keys(methods).sort();
}

/** general.unknown-endpoints: the spellings of a path without parameters the server has: with a trailing slash too, as Zulip's. */
function spellingsOf(path: string): string[] {
  return [path, `${path}/`];
}

const NO_MATCH: RegExpExecArray | null = null;

/** The route of a path, and the match of its pattern (null for a path without parameters). */
function findRoute(routes: RouteTable, pathname: string): { route: CompiledRoute; match: RegExpExecArray | null } | undefined {
  const exact = routes.exact.get(pathname);
  if (exact) return { route: exact, match: NO_MATCH };
  for (const route of routes.patterns) {
    if (!pathname.startsWith(route.prefix)) continue;
    const match = route.pattern.exec(pathname);
    if (match) return { route, match };
  }
  return undefined;
}

export function createHandler(house: House, routes: readonly Route[], closed: Promise<void>) {
  const compiled = compileRoutes(routes);
  const services = servicesOf(house, closed);
  return (req: IncomingMessage, res: ServerResponse): void => {
    const realm = house.realm;
    // The body is read (within the limits) before anything is answered, so that every
    // answer, an early 401 or 404 included, leaves the connection fit for the next request.
    readBody(req, realm, (failure, body) => {
      try {
        if (failure) throw failure;
        whenAnswered(dispatch(realm, compiled, req, res, body!, services), finish, answerFailure, realm, req, res);
      } catch (error) {
        answerFailure(realm, req, res, error);
      }
    });
  };
}

/** Sends an operation's success response: JSON, or the raw bytes of a file or page (or OPTIONS' answer). */
function finish(realm: Realm, req: IncomingMessage, res: ServerResponse, data: Record<string, unknown>): void {
  const raw = rawAnswer(data);
  if (raw) answerWith(req, res, raw.status, raw.headers, raw.body);
  else send(realm, res, 200, data);
}

/** Answers a JsonError as the dialect says it; anything else is the server's own fault: 500. */
function answerFailure(realm: Realm, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  try {
    if (!(error instanceof JsonError)) throw error;
    closeIfBodyUnread(req, res, error);
    sendError(realm, res, error);
  } catch (internal) {
    answerInternalError(req, res, internal);
  }
}

const NO_QUERY = new URLSearchParams();

/** Routes and runs the operation; returns the success response. */
function dispatch(realm: Realm, routes: RouteTable, req: IncomingMessage, res: ServerResponse, body: Body, services: Services): Answer<Record<string, unknown>> {
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const query = queryAt < 0 ? NO_QUERY : new URLSearchParams(target.slice(queryAt + 1));
  const method = routedMethod(realm, req);
  const pathname = decodedPath(queryAt < 0 ? target : target.slice(0, queryAt)) ?? malformedPath(method);
  const { route, match } = findRoute(routes, pathname) ?? unknownPath(method, pathname);
  if (!route.allowed.includes(method)) return otherMethod(realm, res, route, method);
  const operation = route.methods[method]!;
  const path: Record<string, string> = {};
  if (match) for (let index = 0; index < route.names.length; index++) path[route.names[index]!] = match[index + 1]!;
  const user = route.unauthenticated ? authenticateIfPresent(realm, req) : authenticate(realm, req);
  const params = Params.merge(query, body.fields);
  const data = operation({ realm, user: user as User, params, path, files: body.files, closed: services.closed, reset: services.reset, peer: services.peerOf(req) });
  return mapAnswer(data, envelope, realm, route, params);
}

/** The path of a request's target, its escapes decoded (an emoji's name may be escaped); undefined where an escape is malformed. */
function decodedPath(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

// ---- Beyond the routes: general.unknown-endpoints ----------------------------------------------

/** general.unknown-endpoints: the method a request is routed by; HEAD as GET where the dialect answers it so (without a body: answerBody). */
function routedMethod(realm: Realm, req: IncomingMessage): string {
  const method = req.method ?? 'GET';
  return method === 'HEAD' && realm.dialect.headAnsweredAsGet() ? 'GET' : method;
}

/** general.unknown-endpoints: the body an answer is sent with: none to a HEAD. */
function answerBody<T>(req: IncomingMessage, body: T): T | undefined {
  return req.method === 'HEAD' ? undefined : body;
}

/** general.unknown-endpoints: a path the server does not have is a 404. A test double tells an endpoint it lacks from a typo: the client may be right about Zulip. */
function unknownPath(method: string, pathname: string): never {
  throw new JsonError(pathname.startsWith('/api/') ? `Not Found: the reference server does not implement ${method} ${pathname}` : 'Not Found', 404);
}

/** general.unknown-endpoints: a path whose escapes are malformed is no path the server has. */
function malformedPath(method: string): never {
  return unknownPath(method, '');
}

/**
 * general.unknown-endpoints: a method the path does not have. OPTIONS names the methods it has,
 * where the dialect answers it, credentials or none (an empty answer of status 204); any other is refused.
 */
function otherMethod(realm: Realm, res: ServerResponse, route: CompiledRoute, method: string): Record<string, unknown> {
  if (method !== 'OPTIONS' || !realm.dialect.optionsAnswered()) refuseMethod(realm, res, route);
  return { [RAW]: { status: 204, headers: { Allow: route.allowed.join(', ') }, data: NOTHING } };
}
/** general.unknown-endpoints: the body of OPTIONS' answer. */
const NOTHING = Buffer.alloc(0);

/** general.unknown-endpoints: a method the path does not have, refused as the dialect says (Zulip: 405 with Allow and allowed_methods). */
function refuseMethod(realm: Realm, res: ServerResponse, route: CompiledRoute): never {
  const { error, allow } = realm.dialect.methodNotAllowed(route.path, route.allowed);
  if (allow) res.setHeader('Allow', route.allowed.join(', '));
  throw error;
}

/**
 * An operation that answers the same until something changes may say so by answering a frozen
 * object, the same one each time: its envelope, and then its text, are made once (each realm's
 * rules are fixed while it runs).
 */
const envelopedOnce = new WeakMap<object, Record<string, unknown>>();
const textOnce = new WeakMap<object, string>();

function envelope(realm: Realm, route: CompiledRoute, params: Params, data: Record<string, unknown>): Record<string, unknown> {
  const ignored = params.ignored();
  if (ignored.length === 0 && Object.isFrozen(data)) {
    let response = envelopedOnce.get(data);
    if (!response) envelopedOnce.set(data, (response = Object.freeze(realm.rules.successEnvelope(route.path, data))));
    return response;
  }
  const response = realm.rules.successEnvelope(route.path, data);
  if (ignored.length > 0 && realm.rules.listsIgnoredParameters(realm, route)) response.ignored_parameters_unsupported = realm.rules.ignoredParametersListed(ignored);
  return response;
}

function sendError(realm: Realm, res: ServerResponse, error: JsonError): void {
  const { status, headers, body } = realm.dialect.errorResponse(realm, error);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  send(realm, res, status, body);
}

// ---- Rules ------------------------------------------------------------------------------

/** general.envelope: result "success" and msg "" around the operation's fields. */
function successEnvelope(_path: string, data: Record<string, unknown>): Record<string, unknown> {
  return { result: 'success', msg: '', ...data };
}

/** general.ignored-parameters-on-settings; general.ignored-parameters-absent-before-167: from level 167 everywhere; before, on the routes that had it earlier. */
function listsIgnoredParameters(realm: Realm, route: Pick<Route, 'ignoredParametersSince'>): boolean {
  return realm.featureLevel >= (route.ignoredParametersSince ?? BEHAVIOURS.ignoredParametersUnsupported);
}

/** general.ignored-parameters-listed: every parameter the operation did not read. */
function ignoredParametersListed(ignored: string[]): string[] {
  return ignored;
}

/** general.authentication-required: the account whose email it is, if the API key is that account's. */
function userOfCredentials(realm: Realm, email: string, apiKey: string): User | undefined {
  const user = realm.usersByEmail.get(email);
  return user !== undefined && user.apiKey === apiKey ? user : undefined;
}

export const HTTP_RULES = { successEnvelope, listsIgnoredParameters, ignoredParametersListed, userOfCredentials };

function send(realm: Realm, res: ServerResponse, status: number, body: Record<string, unknown>): void {
  let text = Object.isFrozen(body) ? textOnce.get(body) : undefined;
  if (text === undefined) {
    text = JSON.stringify(body) + '\n';
    if (Object.isFrozen(body)) textOnce.set(body, text);
  }
  // The Date header is the dialect's time, written every time: Node's own is cached, and on a
  // loaded machine its timer can leave it a second or more behind.
  const second = Math.floor(realm.dialect.httpDateTime(realm));
  res.sendDate = false;
  answerWith(res.req, res, status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), Date: httpDate(second) }, text);
}

function answerWith(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string | number>, body: string | Buffer): void {
  res.writeHead(status, headers);
  setImmediate(finishAnswer, res, answerBody(req, body));
}

/**
 * Answers are written once the event loop has handled all it has read in this turn, together:
 * under load, a client's side is then woken once per turn rather than once per answer.
 */
function finishAnswer(res: ServerResponse, body: string | Buffer | undefined): void {
  res.end(body);
}

/** general.date-header: the last Date header made, for the second it was made in. */
let lastDate = { second: NaN, text: '' };
/** general.date-header: the Date header of an answer, made once a second. */
function httpDate(second: number): string {
  if (second !== lastDate.second) lastDate = { second, text: new Date(second * 1000).toUTCString() };
  return lastDate.text;
}

// ---- Authentication ----------------------------------------------------------------------

/** Authorization headers already checked, per realm: API keys do not change while it runs. */
const authenticated = new WeakMap<Realm, Map<string, User>>();

/** general.error-statuses: refused credentials are HTTP 401, code UNAUTHORIZED. */
function unauthorized(msg: string): JsonError {
  return new JsonError(msg, 401, 'UNAUTHORIZED');
}

/**
 * general.error-statuses (the spec shows neither statuses nor texts): how each refusal of
 * credentials is answered, in Zulip's words; a scheme other than Basic is a plain 400.
 */
const CREDENTIALS_REFUSED = {
  missing: () => unauthorized('Not logged in: API authentication or user session required'),
  malformed: () => unauthorized('Invalid authorization header for basic auth'),
  scheme: () => new JsonError('This endpoint requires HTTP basic authentication.'),
};

/** general.error-statuses: a key no account has, told as malformed (not 32 letters and digits, UNAUTHORIZED) or as wrong (INVALID_API_KEY). */
function refusedKey(apiKey: string): JsonError {
  return /^[A-Za-z0-9]{32}$/.test(apiKey) ? new JsonError('Invalid API key', 401, 'INVALID_API_KEY') : unauthorized('Malformed API key');
}

export function authenticate(realm: Realm, req: IncomingMessage): User {
  const header = req.headers.authorization;
  if (!header) throw CREDENTIALS_REFUSED.missing();
  let known = authenticated.get(realm);
  if (!known) authenticated.set(realm, (known = new Map()));
  let user = known.get(header);
  if (!user) {
    user = checkBasicCredentials(realm, header);
    if (known.size < 1000) known.set(header, user);
  }
  return user;
}

function checkBasicCredentials(realm: Realm, header: string): User {
  const [scheme, encoded, ...rest] = header.trim().split(/\s+/);
  // Zulip's reading: a scheme and its credentials, the scheme Basic (another is a plain 400).
  if (!encoded || rest.length > 0) throw CREDENTIALS_REFUSED.malformed();
  if (scheme!.toLowerCase() !== 'basic') throw CREDENTIALS_REFUSED.scheme();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw CREDENTIALS_REFUSED.malformed();
  const email = decoded.slice(0, colon).trim().toLowerCase();
  const apiKey = decoded.slice(colon + 1).trim();
  const user = realm.rules.userOfCredentials(realm, email, apiKey);
  if (!user) throw refusedKey(apiKey);
  return user;
}

function authenticateIfPresent(realm: Realm, req: IncomingMessage): User | null {
  try {
    return req.headers.authorization ? authenticate(realm, req) : null;
  } catch {
    // Unauthenticated endpoints ignore credentials, good or bad, as Zulip's do.
    return null;
  }
}

// ---- Bodies --------------------------------------------------------------------------------

interface Body {
  fields: Map<string, string>;
  files: UploadedFile[];
}

type BodyCallback = (failure: JsonError | null, body: Body | null) => void;

export function readBody(req: IncomingMessage, realm: Realm, done: BodyCallback): void {
  // A request that declares no body has none to wait for (Node drops what is left when the answer ends).
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return done(null, { fields: new Map(), files: [] });
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) return readMultipart(req, realm, done);
  // Zulip reads parameters from urlencoded and multipart bodies only; any other body is ignored.
  const form = type.startsWith('application/x-www-form-urlencoded');
  readAll(req, form ? LIMITS.fieldBytes : bodyLimit(realm), (failure, bytes) => {
    if (failure) return done(failure, null);
    let fields: Map<string, string>;
    try {
      fields = form ? formFields(bytes!) : new Map();
    } catch (error) {
      return done(error as JsonError, null);
    }
    done(null, { fields, files: [] });
  });
}

function formFields(bytes: Buffer): Map<string, string> {
  const fields = new Map<string, string>();
  for (const pair of formPairs(bytes.toString('utf8'))) {
    const equals = pair.indexOf('=');
    fields.set(formDecoded(equals < 0 ? pair : pair.slice(0, equals)), equals < 0 ? '' : formDecoded(pair.slice(equals + 1)));
  }
  return fields;
}

/**
 * A name or value of an urlencoded body, as URLSearchParams decodes it ('+' is a space, %XX a
 * byte of UTF-8), without its slower parse of the whole body; a malformed escape is left to it.
 */
export function formDecoded(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return new URLSearchParams(`x=${text}`).get('x')!;
  }
}

/** busboy's limits for a realm; busboy signals a file that reaches fileSize, so one byte over the limit is the first refused. */
const multipartLimitsByRealm = new WeakMap<Realm, busboy.Limits>();
function multipartLimits(realm: Realm): busboy.Limits {
  let limits = multipartLimitsByRealm.get(realm);
  if (!limits) {
    const files = realm.rules.filePartsAllowed();
    limits = { ...multipartBounds(files), files, fileSize: realm.rules.largestEmojiFile(realm) + 1 };
    multipartLimitsByRealm.set(realm, limits);
  }
  return limits;
}

/**
 * A multipart body through busboy, within the limits. A file over the realm's limit is refused at
 * once: no more of it is buffered, and the answer goes out before the rest of the body is read.
 */
function readMultipart(req: IncomingMessage, realm: Realm, done: BodyCallback): void {
  const fields = new Map<string, string>();
  const files: UploadedFile[] = [];
  let failure: JsonError | null = null;
  let settled = false;
  const fail = (error: JsonError) => {
    failure ??= error;
  };
  let detach = () => {};
  const stop = (error: JsonError) => {
    if (settled) return;
    settled = true;
    detach();
    error.bodyUnread = true;
    done(error, null);
  };
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: multipartLimits(realm) });
  } catch (error) {
    req.resume();
    return done(new JsonError(`Malformed multipart body: ${(error as Error).message}`), null);
  }
  takeFieldsWithin(parser, (name, value) => fields.set(name, value), fail);
  parser.on('file', (field, stream, info) => {
    const chunks: Buffer[] = [];
    // A body that ends inside the file errs on the file's stream too: answered as malformed, never thrown.
    refuseMalformed(stream, stop);
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => {
      chunks.length = 0;
      stream.resume();
      stop(new JsonError(`Uploaded file is larger than the allowed limit of ${realm.maxEmojiFileSizeMib} MiB`).otherwise(`The file is larger than ${realm.maxEmojiFileSizeMib} MiB`, 413));
    });
    stream.on('end', () => {
      if (!stream.truncated) files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) });
    });
  });
  parser.on('filesLimit', () => fail(new JsonError('You must upload exactly one file.')));
  refuseMalformed(parser, stop);
  parser.on('close', () => {
    if (settled) return;
    settled = true;
    done(failure, failure ? null : { fields, files });
  });
  // The body streams through the parser, so that no more than the limit is ever held. A
  // plain write per chunk rather than a pipe: busboy consumes each chunk as it is written.
  detach = streamWithin(req, bodyLimit(realm), (chunk) => parser.write(chunk), stop);
  req.on('end', () => settled || parser.end());
}
