// node dist/scripts/least.js: the least server, a second floor for npm run bench.
//
// The bare floor reads a body and drops it. Any server of the spec must also do the work that an
// operation's input itself asks for: decode the urlencoded body, parse the parameters the spec
// makes JSON, find the caller by the Authorization header, keep what the operation creates or
// changes, and answer the fields the spec lists. This server does that and nothing else: no
// validation, no events, no error texts, every ID taken as existing. No server of the spec can do
// less for these requests, so its rate is what the operation allows on the machine; the bench
// holds the reference against it beside the bare floor. It serves the bench's requests only.
// GET /server_settings, which asks for no work but an answer, it answers with the text of the file
// its first argument names (the reference's own answer), as a constant.

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFixture } from '../reference/http/boot.js';
import { formDecoded } from '../reference/http/handler.js';
import { FLAG_BITS } from '../reference/model/model.js';

const serverSettings = process.argv[2] === undefined ? null : readFileSync(process.argv[2], 'utf8');
const users = new Map(readFixture().users.map((user, index) => [`Basic ${Buffer.from(`${user.email}:${user.api_key}`).toString('base64')}`, index + 1]));

interface Fields {
  [field: string]: unknown;
}
const drafts: Fields[] = [];
const scheduled: Array<Fields | undefined> = [];
const profileFields: Fields[] = [];
const reminders: Fields[] = [];
const flags: number[] = [];
const defaults: Fields = {};

function formFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const pair of body.split('&')) {
    const equals = pair.indexOf('=');
    if (equals > 0) fields.set(pair.slice(0, equals), formDecoded(pair.slice(equals + 1)));
  }
  return fields;
}

function answer(request: IncomingMessage, params: Map<string, string>): Fields | null {
  const url = request.url!;
  const id = Number(url.slice(url.lastIndexOf('/') + 1));
  switch (`${request.method} ${url.startsWith('/api/v1/scheduled_messages/') ? '/api/v1/scheduled_messages/{id}' : url}`) {
    case 'PATCH /api/v1/realm/user_settings_defaults':
      for (const [name, value] of params) defaults[name] = name === 'web_home_view' ? value : JSON.parse(value);
      return {};
    case 'PATCH /api/v1/scheduled_messages/{id}':
      scheduled[id] = { content: params.get('content'), topic: params.get('topic'), deliveryTimestamp: Number(params.get('scheduled_delivery_timestamp')) };
      return {};
    case 'DELETE /api/v1/scheduled_messages/{id}':
      scheduled[id] = undefined;
      return {};
    case 'POST /api/v1/realm/profile_fields':
      profileFields.push({ name: params.get('name'), hint: params.get('hint'), type: Number(params.get('field_type')) });
      return { id: profileFields.length };
    case 'POST /api/v1/drafts': {
      const ids: number[] = [];
      for (const draft of JSON.parse(params.get('drafts') ?? '[]') as Fields[]) {
        drafts.push({ id: drafts.length + 1, type: draft.type, to: draft.to, topic: draft.topic, content: draft.content, timestamp: Date.now() / 1000 });
        ids.push(drafts.length);
      }
      return { ids };
    }
    case 'POST /api/v1/messages/flags': {
      const bit = FLAG_BITS[params.get('flag') as keyof typeof FLAG_BITS];
      const add = params.get('op') === 'add';
      const modified: number[] = [];
      for (const message of JSON.parse(params.get('messages')!) as number[]) {
        const bits = flags[message] ?? 0;
        if (((bits & bit) !== 0) === add) continue;
        flags[message] = add ? bits | bit : bits & ~bit;
        modified.push(message);
      }
      return { messages: modified };
    }
    case 'POST /api/v1/reminders':
      reminders.push({ messageId: Number(params.get('message_id')), deliveryTimestamp: Number(params.get('scheduled_delivery_timestamp')), note: params.get('note') });
      return { reminder_id: reminders.length };
    default:
      return null;
  }
}

/** Answers go out together at the end of the event loop's turn, as the reference's do: one wake-up of the client serves them all. */
function send(response: ServerResponse, status: number, fields: Fields): void {
  const body = JSON.stringify(fields) + '\n';
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  setImmediate(end, response, body);
}

function end(response: ServerResponse, body: string): void {
  response.end(body);
}

function respond(request: IncomingMessage, response: ServerResponse, body: string): void {
  if (serverSettings !== null && request.method === 'GET' && request.url === '/api/v1/server_settings') {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(serverSettings) });
    return void setImmediate(end, response, serverSettings);
  }
  if (!users.has(request.headers.authorization ?? '')) return send(response, 401, { result: 'error', msg: 'Invalid API key' });
  const fields = answer(request, formFields(body));
  if (fields) send(response, 200, { result: 'success', msg: '', ...fields });
  else send(response, 404, { result: 'error', msg: 'Not Found: the least server serves the bench only' });
}

const server = createServer((request, response) => {
  // A request that declares no body (the deletion) is answered at once.
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) return respond(request, response, '');
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => respond(request, response, Buffer.concat(chunks).toString('utf8')));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`http://127.0.0.1:${address.port}`);
});
