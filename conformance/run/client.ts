// The suite's HTTP client: undici with a keep-alive pool. Every exchange is recorded so that a
// failing check can show its requests as curl lines; credentials never leave this file except
// as references to environment variables.

import { Readable } from 'node:stream';
import { Pool } from 'undici';

export type Role = 'admin' | 'member' | 'other';
export const ROLES: readonly Role[] = ['admin', 'member', 'other'];

export interface Credentials {
  readonly email: string;
  readonly api_key: string;
}

/**
 * Credentials that are not the profile's: made up to be refused (an API key no server issued,
 * with a profile user's email or an unknown one), or those of a user the run created.
 */
export interface Forged {
  readonly forged: true;
  /** The profile user whose email is used, or another email. */
  readonly email: Role | string;
  readonly api_key: string;
  /** What curl lines and reports show for the key, when it is a real one. */
  readonly shown?: string;
  /** The API key is this profile user's, not `api_key` (another account's key beside an email). */
  readonly keyOf?: Role;
  /** Sent other than as the spec's HTTP Basic: under another scheme, or with no colon between email and key. */
  readonly notBasic?: 'Bearer' | 'no colon';
}

export type Caller = Role | Forged | null;

/** A file part of a multipart body. */
export interface FilePart {
  readonly file: true;
  readonly filename: string;
  readonly type: string;
  readonly data: Buffer;
}

export type ParamValue = string | number | boolean | null | readonly unknown[] | Record<string, unknown> | FilePart;

const isFile = (value: unknown): value is FilePart => typeof value === 'object' && value !== null && (value as FilePart).file === true && Buffer.isBuffer((value as FilePart).data);
export type ParamList = Record<string, ParamValue | undefined>;

export interface Exchange {
  readonly as: Caller;
  readonly method: string;
  readonly url: string;
  readonly form: ReadonlyArray<readonly [string, string]>;
  readonly multipart?: boolean;
  /** The file parts' bytes, by field name, so that a curl line can make the file (never in JSON reports). */
  readonly files?: Readonly<Record<string, FilePart>>;
  readonly status: number;
  readonly body: unknown;
}

export interface Response {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or null when the body is not JSON. */
  readonly body: any;
  readonly text: string;
}

/** A problem of the harness or the network, never the server's failure. */
export class HarnessError extends Error {
  /** The request met its timeout (no answer, or no end of one, within --timeout). */
  timedOut = false;
}

/** A reset, a timeout or a gateway's 502/503/504 on a request that could not be retried: the check cannot tell what happened. */
export class TransientError extends HarnessError {}

/**
 * The server answered 5xx where the check needed an answer. Once is not yet a verdict: the rule
 * ends in error and is run again; a server error seen again then fails it.
 */
export class ServerError extends HarnessError {}

/** Answers that come from a gateway in front of the server, not from the server. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export interface ClientOptions {
  /** Requests per second at most; 0 for no bound. */
  readonly rate: number;
  readonly timeoutMs: number;
  /** How long to wait before the first retry of an idempotent request; doubled each time. */
  readonly backoffMs?: number;
  /** How many of the last exchanges to keep for a failure found outside a property (16). */
  readonly history?: number;
}

/** How many times an idempotent request is tried after a transient fault. */
const RETRIES = 4;

/** Requests whose repetition has no other effect than the first: a second queue, the same subscription, the same value. */
const REPEATABLE = new Set(['POST /register', 'POST /users/me/subscriptions']);

export interface CallOptions {
  readonly multipart?: boolean;
  /** The request may be sent again after a transient fault: one the server must refuse, or one whose repetition changes nothing more. */
  readonly repeatable?: boolean;
  /** A timeout is not retried: the first question to a target, which may never answer at all. */
  readonly timeoutEnds?: boolean;
  /** Send a multipart body chunked, without a Content-Length (a test of a server's reading of it). */
  readonly chunked?: boolean;
}

const ENV_NAMES: Record<Role, string> = { admin: 'ADMIN', member: 'MEMBER', other: 'OTHER' };

export class Client {
  private readonly pool: Pool;
  private readonly prefix: string;
  private nextSlot = 0;
  private recording: Exchange[] | null = null;
  /** The last exchanges, for a violation found outside a property. */
  private history: Exchange[] = [];
  /** Every exchange of the run, for the request count. */
  count = 0;
  /** Set while cleaning up: DELETE is then retried like GET (its second answer may be "does not exist", which cleanup ignores). */
  cleaningUp = 0;
  /** Transient faults met, retried or not. */
  transients = 0;
  /** Awaited after every exchange, before the call returns (the witness of shared state reads what each change of the run sent). */
  onExchange: ((exchange: Exchange) => Promise<void>) | null = null;
  /** Told of every answer as it comes, whoever else listens (the envelope's watch). */
  onAnswer: ((exchange: Exchange, response: Response) => void) | null = null;
  /** Told of every request before it is sent (the journal keeps the settings the run writes, in case it is killed before the answer). */
  onSend: ((as: Caller, method: string, path: string, form: ReadonlyArray<readonly [string, string]>) => void) | null = null;

  constructor(
    readonly baseUrl: string,
    private readonly credentials: Readonly<Record<Role, Credentials>>,
    private readonly options: ClientOptions,
  ) {
    const url = new URL(baseUrl);
    this.prefix = url.pathname.replace(/\/$/, '');
    this.pool = new Pool(url.origin, {
      connections: 4,
      keepAliveTimeout: 4000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connectTimeout: options.timeoutMs,
    });
  }

  private taps: Exchange[][] = [];

  /** Keeps every exchange from now until `stop`, beside the recording and the history. */
  tap(): { stop: () => Exchange[] } {
    const tapped: Exchange[] = [];
    this.taps.push(tapped);
    return { stop: () => (this.taps = this.taps.filter((other) => other !== tapped), tapped) };
  }

  /** Exchanges made before, shown again where a recording or the history is kept (results shared between rules). */
  showAgain(exchanges: readonly Exchange[]): void {
    this.recording?.push(...exchanges);
    this.history.push(...exchanges);
    this.history.splice(0, Math.max(0, this.history.length - (this.options.history ?? 16)));
  }

  startRecording(): Exchange[] {
    this.recording = [];
    return this.recording;
  }

  /** The exchanges kept so far, left in place. */
  peekHistory(): Exchange[] {
    return [...this.history];
  }

  /** The exchanges since the last call, at most the last 16. */
  takeHistory(): Exchange[] {
    const history = this.history;
    this.history = [];
    return history;
  }

  stopRecording(): Exchange[] {
    const recorded = this.recording ?? [];
    this.recording = null;
    return recorded;
  }

  /** A call to the API as one of the profile's users, with forged credentials, or without any (null). */
  async call(as: Caller, method: string, path: string, params: ParamList = {}, options: CallOptions = {}): Promise<Response> {
    const form = encodeForm(params);
    this.onSend?.(as, method, path, form);
    const multipart = options.multipart === true || Object.values(params).some(isFile);
    const apiPath = path.startsWith('/reference/') ? path : `/api/v1${path}`;
    const query = method === 'GET' && form.length > 0 ? `?${new URLSearchParams(form as [string, string][])}` : '';
    const headers: Record<string, string> = { 'user-agent': 'teamchat-conformance' };
    if (as !== null) {
      const { email, api_key } = typeof as === 'string' ? this.credentials[as] : {
        email: (ROLES as readonly string[]).includes(as.email) ? this.credentials[as.email as Role].email : as.email,
        api_key: as.keyOf !== undefined ? this.credentials[as.keyOf].api_key : as.api_key,
      };
      const notBasic = typeof as === 'object' ? as.notBasic : undefined;
      headers.authorization = `${notBasic === 'Bearer' ? 'Bearer' : 'Basic'} ${Buffer.from(`${email}${notBasic === 'no colon' ? '' : ':'}${api_key}`).toString('base64')}`;
    }
    let body: string | Buffer | (() => Readable) | undefined;
    if (multipart) {
      const boundary = `teamchat${Math.random().toString(16).slice(2)}`;
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      const parts = multipartParts(params, boundary);
      // Made whole in memory and sent with its Content-Length (the largest upload is a few MiB):
      // many servers (Django's development server, WSGI set-ups without a buffering proxy) read
      // no chunked body. Chunked only where a test asks for it.
      body = options.chunked ? () => Readable.from(parts) : Buffer.concat(parts);
    } else if (method !== 'GET') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form as [string, string][]).toString();
    }
    // GET, DELETE while cleaning up, PATCH (every PATCH of this API sets values), and requests
    // whose repetition has no further effect (registering a queue, subscribing) are retried
    // after a transient fault.
    // While cleaning up, putting personal flags back too: its answer is not looked at, only its effect.
    // A request the spec makes the server refuse (no credentials, or credentials no server
    // issued to this email) may be sent again: it should have changed nothing, and if it did, the
    // repeated one shows it as well.
    const mustBeRefused = as === null || (typeof as === 'object' && as.shown === undefined);
    const idempotent = mustBeRefused || options.repeatable === true || method === 'GET' || method === 'PATCH' || (this.cleaningUp > 0 && (method === 'DELETE' || `${method} ${path}` === 'POST /messages/flags')) || REPEATABLE.has(`${method} ${path}`);
    for (let attempt = 0; ; attempt++) {
      await this.waitForSlot();
      let response: Response;
      try {
        response = await this.send(method, this.prefix + apiPath + query, headers, typeof body === 'function' ? body() : body, path);
      } catch (error) {
        this.count++;
        this.transients++;
        if (options.timeoutEnds && (error as HarnessError).timedOut) throw new TransientError(`${method} ${path}: no answer within ${this.options.timeoutMs} ms (--timeout)`);
        if (idempotent && attempt < RETRIES) {
          await sleep((this.options.backoffMs ?? 250) * 2 ** attempt);
          continue;
        }
        throw new TransientError(`${(error as Error).message}${idempotent ? ` (after ${attempt + 1} tries)` : ' (not retried: the request may have taken effect)'}`);
      }
      this.count++;
      // A server error on a request that may be repeated is asked again once.
      if (response.status >= 500 && !GATEWAY_STATUSES.has(response.status) && idempotent && attempt === 0) {
        await sleep(this.options.backoffMs ?? 250);
        continue;
      }
      if (GATEWAY_STATUSES.has(response.status)) {
        this.transients++;
        if (idempotent && attempt < RETRIES) {
          await sleep((this.options.backoffMs ?? 250) * 2 ** attempt);
          continue;
        }
        throw new TransientError(`${method} ${path}: a gateway answered ${response.status}${idempotent ? ` ${attempt + 1} times` : ' (not retried: the request may have taken effect)'}`);
      }
      if (response.status === 429 && attempt < 5) {
        await sleep(retryAfterMs(response));
        continue;
      }
      // A real key given by the run (a created user's) is kept out of every record.
      const shownAs = as !== null && typeof as === 'object' && as.shown !== undefined ? { ...as, api_key: as.shown } : as;
      const files = multipart ? filesOf(params) : undefined;
      const exchange: Exchange = { as: shownAs, method, url: this.baseUrl.replace(/\/$/, '') + apiPath, form, multipart, status: response.status, body: withoutApiKeys(response.body) ?? response.text };
      // Not enumerable: a JSON report keeps the description of a file, not its bytes.
      if (files) Object.defineProperty(exchange, 'files', { value: files, enumerable: false });
      this.recording?.push(exchange);
      for (const tapped of this.taps) tapped.push(exchange);
      this.onAnswer?.(exchange, response);
      await this.onExchange?.(exchange);
      this.history.push(exchange);
      if (this.history.length > (this.options.history ?? 16)) this.history.shift();
      return response;
    }
  }

  private async send(method: string, path: string, headers: Record<string, string>, body: string | Buffer | Readable | undefined, shown = path): Promise<Response> {
    try {
      // undici's own timeouts, not an abort signal per request: a timer less for each request.
      const response = await this.pool.request({ method, path, headers, body, headersTimeout: this.options.timeoutMs, bodyTimeout: this.options.timeoutMs });
      const text = await response.body.text();
      let parsed: unknown = null;
      if (String(response.headers['content-type'] ?? '').includes('json')) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
      }
      return { status: response.statusCode, headers: response.headers, body: parsed, text };
    } catch (error) {
      // Named as the checks name operations: the path under /api/v1, as in every other message.
      const failure = new HarnessError(`${method} ${shown}: ${(error as Error).message}`);
      failure.timedOut = /TIMEOUT/.test(String((error as NodeJS.ErrnoException).code ?? ''));
      throw failure;
    }
  }

  private async waitForSlot(): Promise<void> {
    if (this.options.rate <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / this.options.rate;
    if (slot > now) await sleep(slot - now);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function filesOf(params: ParamList): Record<string, FilePart> {
  return Object.fromEntries(Object.entries(params).filter((entry): entry is [string, FilePart] => isFile(entry[1])));
}

/** A response body as records keep it: any api_key it carries redacted. */
function withoutApiKeys(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || !('api_key' in body)) return body;
  return { ...body, api_key: '(redacted)' };
}

function retryAfterMs(response: Response): number {
  const header = Number(response.headers['retry-after']);
  const field = Number(response.body?.['retry-after']);
  const seconds = Number.isFinite(header) && header > 0 ? header : Number.isFinite(field) && field > 0 ? field : 1;
  return Math.min(seconds, 60) * 1000;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Strings go as they are; everything else as JSON, as Zulip's clients send them; a file as a description (curl's @). */
export function encodeForm(params: ParamList): Array<readonly [string, string]> {
  const form: Array<readonly [string, string]> = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (isFile(value)) form.push([name, `@${value.filename};type=${value.type} (${value.data.length} bytes)`]);
    else form.push([name, typeof value === 'string' ? value : JSON.stringify(value)]);
  }
  return form;
}

function multipartParts(params: ParamList, boundary: string): Buffer[] {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (isFile(value)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n`), value.data, Buffer.from('\r\n'));
    } else {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return parts;
}

/** Whether the target is on this machine: no rate bound protects it (the CLI's and the API's default). */
export function isLoopback(target: string): boolean {
  const host = new URL(target).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** An exchange's answer as a person reads it: the status and the body, cut past 200 characters with its length. */
export function answerLine(exchange: Exchange): string {
  const body = typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body);
  return `→ ${exchange.status} ${body.length > 200 ? `${body.slice(0, 200)}… (${body.length} characters)` : body}`;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command that repeats the exchange; credentials are environment variables. */
export function curlLine(exchange: Exchange): string {
  const parts = ['curl', '-sS'];
  // curl sends a GET unless given data: a POST without a body says so.
  if (exchange.method !== 'GET' && (exchange.method !== 'POST' || exchange.form.length === 0)) parts.push('-X', exchange.method);
  if (exchange.method === 'GET' && exchange.form.length > 0) parts.push('-G');
  if (typeof exchange.as === 'string') {
    const name = ENV_NAMES[exchange.as];
    parts.push('-u', `"$TEAMCHAT_${name}_EMAIL:$TEAMCHAT_${name}_API_KEY"`);
  } else if (exchange.as !== null) {
    // Forged credentials are the suite's own and no secret; a profile user's email and key stay variables.
    const { email, api_key, shown, keyOf } = exchange.as;
    const user = (ROLES as readonly string[]).includes(email) ? `$TEAMCHAT_${ENV_NAMES[email as Role]}_EMAIL` : email;
    const key = keyOf !== undefined ? `$TEAMCHAT_${ENV_NAMES[keyOf]}_API_KEY` : shown ?? api_key;
    const { notBasic } = exchange.as;
    if (notBasic === undefined) parts.push('-u', `"${user}:${key}"`);
    else parts.push('-H', `"Authorization: ${notBasic === 'Bearer' ? 'Bearer' : 'Basic'} $(printf '%s' "${user}${notBasic === 'no colon' ? '' : ':'}${key}" | base64 -w0)"`);
  }
  parts.push(shellQuote(exchange.url));
  const making: string[] = [];
  for (const [name, value] of exchange.form) {
    if (exchange.multipart) {
      const file = exchange.files?.[name];
      if (file) {
        const path = `/tmp/teamchat-${name}-${file.data.length}.${file.filename.split('.').pop() === file.filename ? 'bin' : file.filename.split('.').pop()}`;
        making.push(`${makeFile(file.data)} > ${path}`);
        parts.push('-F', shellQuote(`${name}=@${path};filename=${file.filename};type=${file.type}`));
      } else {
        parts.push('-F', shellQuote(`${name}=${value.replace(/ \(\d+ bytes\)$/, '')}`));
      }
      continue;
    }
    // A value the shell cannot carry (NUL, control characters) goes percent-encoded.
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value)) parts.push('--data-raw', shellQuote(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
    else parts.push('--data-urlencode', shellQuote(`${name}=${value}`));
  }
  return [...making, parts.join(' ')].join(' && ');
}

/**
 * A shell command that writes these bytes to standard output: base64 of them, or, around a long
 * run of one byte (a padded image), base64 of what comes before and after and the run made by head.
 */
function makeFile(data: Buffer): string {
  const b64 = (bytes: Buffer) => (bytes.length === 0 ? '' : `echo ${bytes.toString('base64')} | base64 -d; `);
  let best = { at: 0, length: 0 };
  for (let at = 0; at < data.length;) {
    let end = at;
    while (end < data.length && data[end] === data[at]) end++;
    if (end - at > best.length) best = { at, length: end - at };
    at = end;
  }
  if (best.length < 1024) return `{ ${b64(data)}}`;
  const byte = data[best.at]!.toString(8).padStart(3, '0');
  return `{ ${b64(data.subarray(0, best.at))}head -c ${best.length} /dev/zero | tr '\\000' '\\${byte}'; ${b64(data.subarray(best.at + best.length))}}`;
}
