// Where the reference says it is Zulip, it is: every response and event of every implemented
// operation, validated against Zulip's own OpenAPI description at the feature level that
// description states, the way Zulip's tests validate Zulip (../shared/oracles/README.md).
//
// The descriptions are Zulip's files, not ours: they are read from ../shared/oracles (or the
// directory TEAMCHAT_ORACLES names) and never copied into the project. Where they are absent,
// these tests are skipped, and say so.

import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { png } from '../../conformance/checks/uploads.js';
import { TestServer } from './test-helpers.js';

const ORACLES = process.env.TEAMCHAT_ORACLES ?? new URL('../../../../shared/oracles/', import.meta.url).pathname;
const DESCRIPTIONS = [
  { file: 'zulip-openapi-fl218.yaml', level: 218 },
  { file: 'zulip-openapi-fl378.yaml', level: 378 },
  { file: 'zulip-openapi-fl384.yaml', level: 384 },
];

type Schema = Record<string, any>;

/** Every {$ref: '#/…'} replaced by what it points at (the file has no recursive references). */
function resolveRefs(node: unknown, root: Schema, depth = 0): any {
  if (depth > 64) throw new Error('reference chain too deep');
  if (Array.isArray(node)) return node.map((item) => resolveRefs(item, root, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Schema).$ref;
  if (typeof ref === 'string') {
    const target = ref.slice(2).split('/').reduce((at: any, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);
    if (target === undefined) throw new Error(`unresolved ${ref}`);
    return resolveRefs(target, root, depth + 1);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolveRefs(value, root, depth + 1)]));
}

/**
 * allOf merged as Zulip's tests merge it (the file is written for this, not for strict allOf):
 * the later part's keys are added to the earlier's, nested objects merged the same way, lists
 * concatenated, an example replaced.
 */
function mergeAllOf(node: unknown): any {
  if (Array.isArray(node)) return node.map(mergeAllOf);
  if (!node || typeof node !== 'object') return node;
  const { allOf, ...rest } = node as Schema;
  let merged: Schema = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, mergeAllOf(value)]));
  for (const part of (allOf as unknown[] | undefined) ?? []) merged = mergeInto(merged, mergeAllOf(part));
  return merged;
}

function mergeInto(a: Schema, b: Schema): Schema {
  const merged = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (key === 'example' || !(key in merged)) merged[key] = value;
    else if (Array.isArray(value)) merged[key] = [...merged[key], ...value];
    else if (value && typeof value === 'object') merged[key] = mergeInto(merged[key], value);
  }
  return merged;
}

/** OpenAPI 3.0's nullable, in JSON Schema's terms: null is one more value the schema allows. */
function jsonSchema(node: unknown): any {
  if (Array.isArray(node)) return node.map(jsonSchema);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Schema;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, jsonSchema(value)]));
  if (nullable !== true) return converted;
  return { anyOf: [{ type: 'null' }, converted] };
}

interface Exchange {
  method: string;
  path: string;
  status: number;
  body: any;
}

class Description {
  readonly paths: Schema;
  private readonly validators = new Map<string, ValidateFunction>();
  // The merge may repeat a required name; the schema is the file's, so it is not itself validated.
  private readonly ajv = new Ajv({ strict: false, validateFormats: false, validateSchema: false, allErrors: true });

  /** Every error shape the file defines (components/schemas/…Error). */
  readonly errors: Schema[];

  constructor(text: string) {
    const root = parse(text) as Schema;
    this.paths = mergeAllOf(resolveRefs(root.paths, root));
    const schemas = root.components.schemas as Schema;
    this.errors = Object.keys(schemas).filter((name) => name.endsWith('Error')).map((name) => mergeAllOf(resolveRefs(schemas[name], root)));
  }

  /** The file's path for a request path, as Zulip's tests find it: exact, else by pattern. */
  endpoint(path: string): string | undefined {
    if (path in this.paths) return path;
    return Object.keys(this.paths).find((endpoint) => {
      if (!endpoint.includes('{')) return false;
      const source = endpoint
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{[^}]*id\}/g, '[0-9]*')
        .replace(/\{[^}]*\}/g, '[^/]*');
      return new RegExp(`^${source}$`).test(path);
    });
  }

  /** The schema of a response, or why the file has none. */
  schema(method: string, path: string, status: number): { schema: Schema } | { missing: string } {
    const endpoint = this.endpoint(path);
    if (!endpoint) return { missing: `${method} ${path.replace(/\/[0-9]+(?=\/|$)/g, '/{id}')} is not in the file` };
    const operation = this.paths[endpoint][method.toLowerCase()];
    if (!operation) return { missing: `${method} ${endpoint} is not in the file` };
    const response = operation.responses?.[String(status)];
    const schema = response?.content?.['application/json']?.schema;
    if (!schema) return { missing: `${method} ${endpoint} documents no ${status} answer` };
    return { schema };
  }

  validate(schema: Schema, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validator = this.validators.get(key);
    if (!validator) this.validators.set(key, (validator = this.ajv.compile(jsonSchema(schema))));
    return validator(value) ? [] : (validator.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
  }
}

for (const { file, level } of DESCRIPTIONS) {
  const at = `${ORACLES}${file}`;
  // Under CI=true the descriptions are beside the clone (../shared): a missing one is a failure.
  if (!existsSync(at) && process.env.CI !== 'true') {
    console.log(`  SKIPPED: the OpenAPI test of level ${level}: Zulip's description is not at ${at} (set TEAMCHAT_ORACLES to its directory)`);
    test.skip(`level ${level}: Zulip's OpenAPI description (${at} is absent)`, () => {});
    continue;
  }
  test(`level ${level}: every response and event conforms to Zulip's own description of level ${level}`, async () => {
    const description = new Description(readFileSync(at, 'utf8'));
    const server = await TestServer.start({ featureLevel: level, maxEmojiFileSizeMib: 1 });
    try {
      const exchanges = await drive(server, level);
      const problems: string[] = [];
      const unchecked = new Set<string>();
      const seen: string[] = [];
      for (const exchange of exchanges) {
        const found = description.schema(exchange.method, exchange.path, exchange.status);
        if ('missing' in found) {
          if (exchange.status < 400) unchecked.add(found.missing);
          else problems.push(...description.validate(errorSchema(ERROR, exchange.body, description.errors), exchange.body).map((error) => `${exchange.method} ${exchange.path} (${exchange.status}): ${error}`));
          continue;
        }
        let { body } = exchange;
        let { schema } = found;
        if (exchange.method === 'GET' && exchange.path === '/events' && exchange.status === 200) {
          // Each event against the file's objects of its type and op, so that a problem is told
          // by that object's terms; a type the file does not document yet is listed instead.
          const kinds = eventSchemas(schema);
          for (const event of body.events) {
            const candidates = kinds.filter((kind) => kind.type === event.type && (kind.op === undefined || kind.op === event.op));
            const name = `${event.type}${event.op ? ` ${event.op}` : ''}`;
            if (candidates.length === 0) {
              unchecked.add(`event ${name} is not in the file`);
              continue;
            }
            seen.push(name);
            const verdicts = candidates.map((kind) => description.validate(kind.schema, event));
            if (verdicts.every((errors) => errors.length > 0)) problems.push(...verdicts.sort((a, b) => a.length - b.length)[0]!.map((error) => `event ${name}: ${error}`));
          }
          body = { ...body, events: [] };
        }
        if (exchange.status >= 400) schema = errorSchema(schema, body, description.errors);
        if (exchange.path === '/server_settings') schema = withOwnKeys(schema);
        for (const error of description.validate(schema, body)) problems.push(`${exchange.method} ${exchange.path} (${exchange.status}): ${error}`);
      }
      assert.ok(problems.length === 0, `${problems.length} answers do not conform:\n${problems.join('\n')}`);
      // What the file does not describe is the reference's own (the clock, API keys), or a
      // Zulip endpoint the file had not documented yet at that level.
      assert.equal([...unchecked].sort(), UNDOCUMENTED[level], [...unchecked].join('\n'));
      // The scenario did cause the events it is there to cause.
      for (const event of EXPECTED_EVENTS) assert.ok(seen.includes(event), `no ${event} event among ${[...new Set(seen)].join(', ')}`);
    } finally {
      await server.close();
    }
  });
}

/** An error the file does not document for an operation: Zulip's envelope of an error. */
const ERROR: Schema = { type: 'object', required: ['result', 'msg'], properties: { result: { enum: ['error'] }, msg: { type: 'string' }, code: { type: 'string' } } };

/**
 * An error the file documents, with the gaps of the file itself that Zulip's tests avoid by not
 * validating errors at all: its unions list alternatives that a plain coded error matches more
 * than once (read as "any of"); an operation lists only some of the coded errors the file
 * defines (POST /messages lists a channel unknown by name, not by ID), so every error the file
 * defines is one more alternative; and its missing-argument errors omit the var_name a missing
 * argument gets.
 */
function errorSchema(schema: Schema, body: any, errors: Schema[]): Schema {
  const relaxed = { anyOf: [...(schema.oneOf ?? [schema]), ...errors] };
  if (body?.code !== 'REQUEST_VARIABLE_MISSING') return relaxed;
  const allowVarName = (part: Schema): Schema => ({ ...part, properties: { ...part.properties, var_name: { type: 'string' } } });
  return { anyOf: relaxed.anyOf.map(allowVarName) };
}

/**
 * The reference's own keys in /server_settings, which a Zulip client ignores: reference_clock
 * (CONTRACT.md), reference_api_keys and max_emoji_file_size_mib (what the suite may learn there).
 */
function withOwnKeys(schema: Schema): Schema {
  const own = { reference_clock: { enum: [true] }, reference_api_keys: { enum: [true] }, max_emoji_file_size_mib: { type: 'number' } };
  return { ...schema, properties: { ...schema.properties, ...own } };
}

/** The event objects the file documents for GET /events, each with its type and op. */
function eventSchemas(schema: Schema): Array<{ type: string; op?: string; schema: Schema }> {
  const items = schema.properties?.events?.items ?? {};
  return (items.oneOf ?? [items]).flatMap((event: Schema) =>
    (event.properties?.type?.enum ?? []).flatMap((type: string) => (event.properties?.op?.enum ?? [undefined]).map((op: string | undefined) => ({ type, op, schema: event }))));
}

/** The events the scenario must have caused, as "type op". */
const EXPECTED_EVENTS = [
  'subscription add', 'subscription remove', 'message', 'update_message_flags add', 'update_message_flags remove', 'typing start', 'typing stop',
  'drafts add', 'drafts update', 'drafts remove', 'scheduled_messages add', 'scheduled_messages update', 'scheduled_messages remove',
  'user_settings update', 'realm_user_settings_defaults update', 'custom_profile_fields', 'realm_emoji update', 'realm_user add',
  'subscription peer_add', 'subscription peer_remove', 'stream create', 'stream delete',
];

/** What each description lacks, each with its reason. */
const UNDOCUMENTED: Record<number, string[]> = {
  // Zulip has this endpoint (zproject/urls.py) but its file did not document it at either level.
  218: ['DELETE /realm/profile_fields/{id} is not in the file'],
  378: ['DELETE /realm/profile_fields/{id} is not in the file'],
  384: ['DELETE /realm/profile_fields/{id} is not in the file'],
};

/**
 * Every operation the reference implements at this level, as a client would use it: each
 * success, the errors a client meets, and the events they cause. Returns every exchange.
 */
async function drive(server: TestServer, level: number): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  const call = async (as: 'admin' | 'member' | 'other' | null, method: string, path: string, params: Record<string, unknown> = {}, init: RequestInit = {}) => {
    const { status, body } = await server.call(as, method, path, params, init);
    exchanges.push({ method, path: path.split('?')[0]!, status, body });
    return body;
  };
  const upload = async (name: string, data: Buffer) => {
    const boundary = 'oracle';
    const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="e.png"\r\nContent-Type: image/png\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const response = await fetch(`${server.url}/api/v1/realm/emoji/${name}`, { method: 'POST', body: new Uint8Array(body), headers: { authorization: server.credentials('member'), 'content-type': `multipart/form-data; boundary=${boundary}` } });
    exchanges.push({ method: 'POST', path: `/realm/emoji/${name}`, status: response.status, body: await response.json() });
  };
  const other = server.userId('other');

  await call(null, 'GET', '/server_settings');
  const { queue_id: queue } = await call('member', 'POST', '/register');
  const { queue_id: adminQueue } = await call('admin', 'POST', '/register', { apply_markdown: true, client_gravatar: false });
  await call('member', 'GET', '/users/me');

  // Channels, messages and flags.
  await call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'oracle' }] });
  await call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'oracle' }], principals: [other] });
  const subscriptions = await call('member', 'GET', '/users/me/subscriptions');
  const channel = subscriptions.subscriptions.find((subscription: any) => subscription.name === 'oracle').stream_id;
  const sent = await call('member', 'POST', '/messages', { type: 'stream', to: channel, topic: 'oracle', content: 'Hello @**Othello, the Moor of Venice**' });
  await call('member', 'POST', '/messages', { type: 'direct', to: [other], content: 'direct' });
  await call('member', 'POST', '/messages', { type: 'private', to: [other], content: 'private' });
  await call('member', 'POST', '/messages', { type: 'stream', to: 999999, topic: 'oracle', content: 'nowhere' });
  await call('member', 'GET', '/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'stream', operand: channel }] });
  await call('member', 'GET', '/messages', { anchor: sent.id, num_before: 0, num_after: 5, apply_markdown: false });
  await call('member', 'GET', `/messages/${sent.id}`);
  await call('member', 'GET', '/messages/999999');
  await call('member', 'POST', '/messages/flags', { messages: [sent.id], op: 'add', flag: 'starred' });
  await call('member', 'POST', '/messages/flags', { messages: [sent.id], op: 'remove', flag: 'starred' });
  await call('member', 'POST', '/messages/flags', { messages: [sent.id], op: 'add', flag: 'unknown' });

  // Typing.
  await call('member', 'POST', '/typing', { op: 'start', to: [other] });
  await call('member', 'POST', '/typing', { op: 'stop', type: 'direct', to: [other] });
  if (level >= 248) await call('member', 'POST', '/typing', { op: 'start', type: 'stream', stream_id: channel, topic: 'oracle' });

  // Drafts.
  const created = await call('member', 'POST', '/drafts', { drafts: [{ type: 'stream', to: [channel], topic: 'oracle', content: 'draft', timestamp: 1_600_000_000 }, { type: 'private', to: [other], topic: '', content: 'draft' }] });
  await call('member', 'GET', '/drafts');
  await call('member', 'PATCH', `/drafts/${created.ids[0]}`, { draft: { type: '', to: [], topic: '', content: 'edited' } });
  await call('member', 'DELETE', `/drafts/${created.ids[1]}`);
  await call('member', 'DELETE', '/drafts/999999');
  await call('member', 'POST', '/drafts', { drafts: [{ type: 'stream', to: [], topic: 'oracle', content: 'draft' }] });

  // Scheduled messages.
  const inAnHour = Math.floor(Date.now() / 1000) + 3600;
  const scheduled = await call('member', 'POST', '/scheduled_messages', { type: 'stream', to: channel, topic: 'oracle', content: 'later', scheduled_delivery_timestamp: inAnHour });
  await call('member', 'POST', '/scheduled_messages', { type: 'direct', to: [other], content: 'later', scheduled_delivery_timestamp: inAnHour });
  await call('member', 'GET', '/scheduled_messages');
  await call('member', 'PATCH', `/scheduled_messages/${scheduled.scheduled_message_id}`, { content: 'later still', scheduled_delivery_timestamp: inAnHour + 60 });
  await call('member', 'PATCH', '/scheduled_messages/999999', { content: 'nothing' });
  await call('member', 'DELETE', `/scheduled_messages/${scheduled.scheduled_message_id}`);
  await call('member', 'POST', '/scheduled_messages', { type: 'stream', to: channel, topic: 'oracle', content: 'past', scheduled_delivery_timestamp: 1 });

  // Reminders, from level 381 (created only: Zulip at 381 to 384 neither lists nor deletes them).
  if (level >= 381) {
    await call('member', 'POST', '/reminders', { message_id: sent.id, scheduled_delivery_timestamp: inAnHour });
    await call('member', 'POST', '/reminders', { message_id: 999999, scheduled_delivery_timestamp: inAnHour });
  }

  // Settings, defaults, profile fields.
  await call('member', 'PATCH', '/settings', { enter_sends: true, no_such_setting: 1 });
  await call('admin', 'PATCH', '/realm/user_settings_defaults', { enter_sends: true, color_scheme: 2 });
  await call('member', 'PATCH', '/realm/user_settings_defaults', { enter_sends: false });
  const field = await call('admin', 'POST', '/realm/profile_fields', { name: 'Oracle', hint: 'A hint', field_type: 1 });
  await call('admin', 'POST', '/realm/profile_fields', { name: 'Choice', field_type: 3, field_data: { a: { text: 'A', order: '1' } } });
  await call('admin', 'POST', '/realm/profile_fields', { name: 'Oracle', field_type: 1 });
  await call('member', 'GET', '/realm/profile_fields');
  await call('admin', 'DELETE', `/realm/profile_fields/${field.id}`);

  // Custom emoji.
  await upload('oracle_emoji', png());
  await upload('oracle_emoji', png());
  await upload('not!allowed', png());
  await call('member', 'GET', '/realm/emoji');
  await call('member', 'DELETE', '/realm/emoji/oracle_emoji');
  await call('member', 'DELETE', '/realm/emoji/no_such_emoji');

  // Users, and leaving and archiving the channel.
  await call('admin', 'POST', '/users', { email: 'oracle@example.com', password: 'a long oracle password', full_name: 'Oracle' });
  await call('member', 'POST', '/users', { email: 'oracle2@example.com', password: 'a long oracle password', full_name: 'Oracle' });
  await call('member', 'DELETE', '/users/me/subscriptions', { subscriptions: ['oracle'], principals: [other] });
  await call('member', 'DELETE', '/users/me/subscriptions', { subscriptions: ['oracle'] });
  await call('admin', 'DELETE', `/streams/${channel}`);

  // Authentication, and the events all of this caused.
  await call(null, 'GET', '/users/me');
  await call('member', 'GET', '/users/me', {}, { headers: { authorization: 'Basic ' + Buffer.from(`${server.reference.fixture.profile.member}:${'x'.repeat(32)}`).toString('base64') } });
  await call('member', 'GET', '/events', { queue_id: queue, last_event_id: -1, dont_block: true });
  await call('member', 'GET', '/events', { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true });
  await call('admin', 'GET', '/events', { queue_id: adminQueue, last_event_id: -1, dont_block: true });
  await call('member', 'DELETE', '/events', { queue_id: queue });
  return exchanges;
}

test.run();
