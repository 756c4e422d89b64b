// Checks of the rules every operation keeps (spec "Conventions", "Authentication", "Errors",
// "Versioning"), over the operations each area describes, and of the decisions the reference
// takes for all operations alike.

import fc from 'fast-check';
import type { Forged, ParamList, Response } from '../run/client.js';
import { check, expect, noServerError, refused, succeeded, type Check, type Context, type Shared } from '../run/harness.js';
import { advanceClock, createChannel, fetchMessage, fetchState, readConversation, recentMessages, send, targetNow, type PreparedOperation, type SpecOperation } from './world.js';


/** The operations a server at the target's level has. */
/** The operations the target has, and whose requests the run can observe and undo there. */
const present = (context: Context, operations: readonly SpecOperation[]) => operations.filter((operation) => context.level >= operation.since && !(operation.needs ?? []).some((capability) => context.probe.missing[capability]));

/** Runs `use` on a freshly prepared operation and undoes what it made, whatever happens. */
async function withPrepared<T>(context: Context, operation: SpecOperation, use: (prepared: PreparedOperation) => Promise<T>): Promise<T> {
  const prepared = await operation.prepare(context);
  try {
    return await use(prepared);
  } finally {
    await prepared.undo();
  }
}

/** The spec's envelope: a JSON object with result and a string msg, empty exactly on success. */
function expectEnvelope(response: Response, what: string, result: 'success' | 'error'): void {
  const body = response.body;
  noServerError(response, what);
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), `${what}: the answer is not a JSON object: ${response.status} ${JSON.stringify(response.text.slice(0, 200))}`);
  expect(body.result === result, `${what}: result is ${JSON.stringify(body.result)}, expected ${JSON.stringify(result)} (HTTP ${response.status})`);
  expect(typeof body.msg === 'string', `${what}: msg is ${JSON.stringify(body.msg)}, not a string`);
  expect(result === 'success' ? body.msg === '' : body.msg !== '', `${what}: msg is ${JSON.stringify(body.msg)}; it must be ${result === 'success' ? 'empty on success' : 'a message on an error'}`);
}

/** Credentials no server issued: a profile user's email with a made-up key, or an email of the run's own. */
function forgedCallers(context: Context): Array<Forged | null> {
  const key = `${context.prefix}${'Q'.repeat(32)}`.slice(0, 32);
  return [null, { forged: true, email: 'member', api_key: key }, { forged: true, email: `${context.prefix}@nobody.invalid`, api_key: key }];
}

const describeCaller = (caller: Forged | null) => (caller === null ? 'no credentials' : caller.email === 'member' ? "member's email with a wrong API key" : 'an unknown email');

/** Names no server supports: the run's prefix and a word. */
const unsupportedNames = (context: Context, minLength = 0) =>
  fc.uniqueArray(fc.constantFrom('alpha', 'beta', 'gamma', 'delta'), { minLength, maxLength: 3 }).map((words) => words.map((word) => `${context.prefix}_${word}`));

const withExtras = (params: ParamList, names: readonly string[]): ParamList => ({ ...params, ...Object.fromEntries(names.map((name) => [name, 'x'])) });

/** The listed ignored parameters are exactly `names`; none listed when there are none. */
function expectIgnoredExactly(body: any, names: readonly string[], what: string): void {
  const listed = body.ignored_parameters_unsupported;
  if (names.length === 0) {
    expect(listed === undefined, `${what} without unsupported parameters: ignored_parameters_unsupported is ${JSON.stringify(listed)}`);
    return;
  }
  expect(Array.isArray(listed), `${what} with unsupported parameters ${JSON.stringify(names)}: ignored_parameters_unsupported is ${JSON.stringify(listed)}, not a list`);
  expect(JSON.stringify([...listed].sort()) === JSON.stringify([...names].sort()), `${what}: ignored_parameters_unsupported is ${JSON.stringify(listed)}, not ${JSON.stringify(names)}`);
}

/** PATCH /settings with one setting at its present value (so nothing changes) and the extra names. */
async function patchSettingsWith(context: Context, names: readonly string[]): Promise<any> {
  const registered = await fetchState(context, 'member', ['user_settings']);
  // Servers below level 89 have the settings at the top level of the state.
  const current = registered.user_settings?.enter_sends ?? registered.enter_sends;
  expect(typeof current === 'boolean', `POST /register: no enter_sends setting: ${JSON.stringify(registered.user_settings ?? registered).slice(0, 300)}`);
  return succeeded(await context.call('member', 'PATCH', '/settings', withExtras({ enter_sends: current }, names)), 'PATCH /settings');
}

/** Zulip endpoints the suite reads with, for the authentication rule. */
const READ_ENDPOINTS: ReadonlyArray<readonly [string, string, number]> = [
  ['GET', '/users/me', 1], ['POST', '/register', 1], ['GET', '/users/me/subscriptions', 1], ['GET', '/drafts', 1], ['GET', '/messages', 1], ['GET', '/scheduled_messages', 173],
];

/** The rules that try every operation change the organization's defaults and profile fields too. */
const OPERATIONS_SHARE: readonly Shared[] = ['organization defaults', 'profile fields'];

export function generalChecks(operations: readonly SpecOperation[]): Check[] {
  const mustChecks: Check[] = [
    // Every operation, with a request the spec makes valid and one it refuses.
    check('general.envelope', async (context) => {
      for (const operation of present(context, operations)) {
        await withPrepared(context, operation, async (prepared) => {
          expectEnvelope(await context.call(operation.as ?? 'member', prepared.method, prepared.path, prepared.valid), `${operation.name} (a valid request)`, 'success');
        });
        await withPrepared(context, operation, async (prepared) => {
          if (!prepared.invalid) return;
          expectEnvelope(await context.call(operation.as ?? 'member', prepared.method, prepared.invalid.path, prepared.invalid.params), `${operation.name} (a request the spec refuses)`, 'error');
        });
      }
    }, [], OPERATIONS_SHARE),

    // Every operation with every kind of refused credentials, then the endpoints the suite reads with.
    check('general.authentication-required', async (context) => {
      const callers = forgedCallers(context);
      // A smoke run tries one caller on each operation, a different one on the next, so that every
      // kind of caller is tried at every seed.
      const operationsPresent = present(context, operations);
      for (const [index, operation] of operationsPresent.entries()) {
        for (const caller of context.options.smoke ? [callers[(context.options.seed + index) % callers.length]!] : callers) {
          await withPrepared(context, operation, async (prepared) => {
            const before = await prepared.observe();
            const response = await context.call(caller, prepared.method, prepared.path, prepared.valid);
            const after = await prepared.observe();
            const what = `${operation.name} with ${describeCaller(caller)}`;
            expect(response.status >= 400 && response.status < 500 && (response.body === null || response.body.result === 'error'), `${what} was not refused: ${response.status} ${response.text.slice(0, 200)}`);
            expect(before === after, `${what} was refused, yet it changed ${before} into ${after}`);
          });
        }
      }
      for (const [method, path, since] of READ_ENDPOINTS) {
        if (context.level < since) continue;
        for (const caller of context.some(callers)) {
          const response = await context.call(caller, method, path);
          expect(response.status >= 400 && response.status < 500, `${method} ${path} with ${describeCaller(caller)} was not refused: ${response.status} ${response.text.slice(0, 200)}`);
        }
      }
    }, [], OPERATIONS_SHARE),

    // The operations an administrator makes (endpoints 1 and 4), tried by a regular member.
    check('general.admin-only', async (context) => {
      for (const operation of present(context, operations).filter((candidate) => candidate.adminOnly)) {
        await withPrepared(context, operation, async (prepared) => {
          const before = await prepared.observe();
          const response = await context.call('member', prepared.method, prepared.path, prepared.valid);
          const after = await prepared.observe();
          refused(response, `${operation.name} as a regular member`);
          expect(before === after, `${operation.name} as a regular member was refused, yet it changed ${before} into ${after}`);
        });
      }
    }, [], OPERATIONS_SHARE),

    // Every operation: without unsupported parameters, then with generated ones.
    check('general.ignored-parameters-listed', async (context) => {
      for (const operation of present(context, operations)) {
        const listed = async (names: readonly string[]) => withPrepared(context, operation, async (prepared) => {
          const body = succeeded(await context.call(operation.as ?? 'member', prepared.method, prepared.path, withExtras(prepared.valid, names)), operation.name);
          expectIgnoredExactly(body, names, operation.name);
        });
        await listed([]);
        await context.property(unsupportedNames(context, 1), listed, context.runsSmokeAtMost(3));
      }
    }, [], OPERATIONS_SHARE),

    // PATCH /settings from 78; the spec operations that had it before 167, from their level.
    check('general.ignored-parameters-on-settings', async (context) => {
      expectIgnoredExactly(await patchSettingsWith(context, []), [], 'PATCH /settings');
      await context.property(unsupportedNames(context, 1), async (names) => {
        expectIgnoredExactly(await patchSettingsWith(context, names), names, 'PATCH /settings');
      }, context.runsSmokeAtMost(3));
      // The operations that list them before 167 (the settings-defaults one); from 167 every
      // operation is general.ignored-parameters-listed's.
      for (const operation of present(context, operations).filter((candidate) => candidate.ignoredParametersSince !== undefined && context.level >= candidate.ignoredParametersSince)) {
        await context.property(unsupportedNames(context, 1), (names) => withPrepared(context, operation, async (prepared) => {
          const body = succeeded(await context.call(operation.as ?? 'member', prepared.method, prepared.path, withExtras(prepared.valid, names)), operation.name);
          expectIgnoredExactly(body, names, operation.name);
        }), context.runsSmokeAtMost(2));
      }
    }, [], [...OPERATIONS_SHARE, 'profile users\' settings']),

    check('general.ignored-parameters-absent-before-167', async (context) => {
      for (const operation of present(context, operations).filter((candidate) => context.level < (candidate.ignoredParametersSince ?? 167))) {
        await context.property(unsupportedNames(context, 1), (names) => withPrepared(context, operation, async (prepared) => {
          const body = succeeded(await context.call(operation.as ?? 'member', prepared.method, prepared.path, withExtras(prepared.valid, names)), operation.name);
          expect(!('ignored_parameters_unsupported' in body), `${operation.name} at level ${context.level} carries ignored_parameters_unsupported: ${JSON.stringify(body)}`);
        }), context.runsSmokeAtMost(2));
      }
      // The settings operation has it from level 78.
      if (context.level >= 78) return;
      const body = await patchSettingsWith(context, [`${context.prefix}_alpha`]);
      expect(!('ignored_parameters_unsupported' in body), `PATCH /settings at level ${context.level} carries ignored_parameters_unsupported`);
    }),
  ];

  const decisionChecks: Check[] = [
    check('general.error-statuses', async (context) => {
      const missing = await context.call('member', 'POST', '/messages/flags', { op: 'add', flag: 'read' });
      const body = refused(missing, 'POST /messages/flags without messages');
      expect(missing.status === 400 && body.code === 'REQUEST_VARIABLE_MISSING' && body.var_name === 'messages', `a missing parameter: ${missing.status} ${JSON.stringify(body)}, expected 400 REQUEST_VARIABLE_MISSING with var_name "messages"`);
      const invalid = await context.call('member', 'POST', '/messages/flags', { messages: [], op: 'toggle', flag: 'read' });
      expect(invalid.status === 400 && refused(invalid, 'op toggle').code === 'BAD_REQUEST', `an invalid value: ${invalid.status} ${invalid.text.slice(0, 200)}, expected 400 BAD_REQUEST`);
      for (const caller of forgedCallers(context)) {
        const response = await context.call(caller, 'GET', '/users/me');
        expect(response.status === 401 && response.headers['www-authenticate'] !== undefined, `GET /users/me with ${describeCaller(caller)}: ${response.status}, www-authenticate ${JSON.stringify(response.headers['www-authenticate'])}; expected 401 with WWW-Authenticate`);
      }
    }),

    check('general.realm-limits', async (context) => {
      const state = await fetchState(context, 'member', ['realm']);
      expect(state.max_message_length === 10000 && state.max_topic_length === 60, `max_message_length ${state.max_message_length}, max_topic_length ${state.max_topic_length}; Zulip's are 10000 and 60`);
      if (context.level >= 334) expect(state.realm_empty_topic_display_name === 'general chat', `realm_empty_topic_display_name is ${JSON.stringify(state.realm_empty_topic_display_name)}, not "general chat"`);
    }),

    check('general.ids-ascend', async (context) => {
      const ascending = (ids: number[]) => ids.every((id, index) => index === 0 || ids[index - 1]! < id);
      // Eight in a batch: scattered IDs fall in order by chance once in 40,320 batches.
      const drafts = Array.from({ length: 8 }, (_, n) => ({ type: '', to: [], topic: '', content: `${context.prefix} order ${n}` }));
      const created = succeeded(await context.call('member', 'POST', '/drafts', { drafts }), 'POST /drafts').ids as number[];
      for (const id of created ?? []) await context.cleanup.request(`delete draft ${id}`, () => context.call('member', 'DELETE', `/drafts/${id}`));
      expect(ascending(created), `draft IDs of one batch, in order: ${JSON.stringify(created)}`);
      const messages = [await send(context, 'other', [context.probe.users.member.id], `${context.prefix} order 1`), await send(context, 'other', [context.probe.users.member.id], `${context.prefix} order 2`)];
      expect(ascending(messages), `message IDs in the order sent: ${JSON.stringify(messages)}`);
      if (context.level < 173) return;
      const at = (await targetNow(context)) + 40 * 86_400;
      const scheduled: number[] = [];
      for (const n of [1, 2]) {
        const body = succeeded(await context.call('member', 'POST', '/scheduled_messages', { type: 'private', to: [context.probe.users.member.id], content: `${context.prefix} order ${n}`, scheduled_delivery_timestamp: at }), 'POST /scheduled_messages');
        scheduled.push(body.scheduled_message_id);
      }
      for (const id of scheduled) await context.cleanup.request(`delete scheduled message ${id}`, () => context.call('member', 'DELETE', `/scheduled_messages/${id}`));
      expect(ascending(scheduled), `scheduled message IDs in the order made: ${JSON.stringify(scheduled)}`);
    }),

    check('general.date-header', async (context) => {
      // An hour on, delivering what came due as the worker would: the Date header tells that time.
      const now = await advanceClock(context, 3600);
      const response = await context.call(null, 'GET', '/server_settings');
      const dated = Date.parse(String(response.headers.date ?? '')) / 1000;
      expect(Number.isFinite(dated), `GET /server_settings has no Date header: ${JSON.stringify(response.headers.date)}`);
      expect(Math.abs(dated - now) <= 5, `the Date header tells ${new Date(dated * 1000).toISOString()}, the reference clock ${new Date(now * 1000).toISOString()}`);
    }, ['reference-clock']),

    check('general.channel-history-read', async (context) => {
      const channel = await createChannel(context, 'history', ['other']);
      const id = await send(context, 'other', channel, `${context.prefix} history`, 'history');
      const read = await readConversation(context, 'member', { channel: channel.id, topic: 'history' }, 10);
      expect(read.some((message) => message.id === id), `GET /messages narrowed to ${channel.name}, a public channel member never joined, does not give its message ${id}: ${JSON.stringify(read.map((message) => message.id))}`);
    }),

    check('general.message-rendering', async (context) => {
      const text = `${context.prefix} plain words`;
      const id = await send(context, 'other', [context.probe.users.member.id], text);
      const rendered = (await fetchMessage(context, 'member', id)).content;
      expect(rendered === `<p>${text}</p>`, `message ${id} read rendered has content ${JSON.stringify(rendered)}, not <p>${text}</p>`);
      const raw = (await fetchMessage(context, 'member', id, { apply_markdown: false })).content;
      expect(raw === text, `message ${id} read with apply_markdown=false has content ${JSON.stringify(raw)}`);
      const listed = (await recentMessages(context, 'member', 5)).find((message) => message.id === id);
      expect(listed?.content === text, `GET /messages with apply_markdown=false lists ${JSON.stringify(listed?.content)}`);
    }),
  ];
  return [...mustChecks, ...decisionChecks];
}
