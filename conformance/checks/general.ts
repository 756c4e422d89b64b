// Checks of the rules every operation keeps (spec "Conventions", "Authentication", "Errors",
// "Versioning"), over the operations each area describes, and of the decisions the reference
// takes for all operations alike.

import fc from 'fast-check';
import { ROLES, type Forged, type ParamList, type Response, type Role } from '../run/client.js';
import { check, expect, noServerError, refused, succeeded, type Check, type Context, type Shared } from '../run/harness.js';
import { SHAPES } from '../run/shape.js';
import { advanceClock, createChannel, fetchMessage, fetchState, pollEvents, readConversation, registerQueue, send, targetNow, type PreparedOperation, type SpecOperation } from './world.js';


/** The operations the target has, and whose requests the run can observe and undo there. */
const present = (context: Context, operations: readonly SpecOperation[]) => operations.filter((operation) => context.level >= operation.since && !(operation.needs ?? []).some((capability) => context.probe.missing[capability]));

/** Runs `use` on a freshly prepared operation and undoes what it made, whatever happens. */
/** One case of an operation: its set-up, what `use` sends, and the set-up undone; made again from a fresh set-up where a transient fault hid what a request did. */
function withPrepared<T>(context: Context, operation: SpecOperation, use: (prepared: PreparedOperation) => Promise<T>): Promise<T> {
  return context.oneCase(async () => {
    const prepared = await operation.prepare(context);
    try {
      return await use(prepared);
    } finally {
      await prepared.undo();
    }
  });
}

/** How a JSON answer breaks the spec's envelope (result and a string msg, empty exactly on success), or null. */
export function envelopeProblem(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return `the answer is not a JSON object`;
  const { result, msg } = body as { result?: unknown; msg?: unknown };
  if (result !== 'success' && result !== 'error') return `result is ${JSON.stringify(result)}, neither "success" nor "error"`;
  if (typeof msg !== 'string') return `msg is ${JSON.stringify(msg)}, not a string`;
  if (result === 'success' && msg !== '') return `msg is ${JSON.stringify(msg)}; it must be empty on success`;
  if (result === 'error' && msg === '') return 'msg is empty; an error must say what went wrong';
  return null;
}

/** The spec's envelope on an answer the check expects to be `result`. */
function expectEnvelope(response: Response, what: string, result: 'success' | 'error'): void {
  noServerError(response, what);
  const problem = envelopeProblem(response.body);
  expect(problem === null, `${what}: ${problem}: ${response.status} ${JSON.stringify(response.text.slice(0, 200))}`);
  expect(response.body.result === result, `${what}: result is ${JSON.stringify(response.body.result)}, expected ${JSON.stringify(result)} (HTTP ${response.status})`);
}

/**
 * Credentials that name no account: none, a profile user's email with a made-up key, an email of
 * the run's own, and each profile user's email with another's real API key.
 */
function forgedCallers(context: Context): Array<Forged | null> {
  const key = `${context.prefix}${'Q'.repeat(32)}`.slice(0, 32);
  const mixed = ROLES.flatMap((email) => ROLES.filter((owner) => owner !== email).map((keyOf): Forged => ({ forged: true, email, api_key: '', keyOf })));
  // member's own email and key, sent other than as the spec's HTTP Basic.
  const notBasic = (['Bearer', 'no colon'] as const).map((how): Forged => ({ forged: true, email: 'member', api_key: '', keyOf: 'member', notBasic: how }));
  return [null, { forged: true, email: 'member', api_key: key }, { forged: true, email: `${context.prefix}@nobody.invalid`, api_key: key }, ...mixed, ...notBasic];
}

const describeCaller = (caller: Forged | null) => (caller === null ? 'no credentials'
  : caller.notBasic === 'Bearer' ? "member's own email and API key under the scheme Bearer, not Basic"
  : caller.notBasic === 'no colon' ? "member's own email and API key in Basic without the colon between them"
  : caller.keyOf !== undefined ? `${caller.email}'s email with ${caller.keyOf}'s API key`
  : caller.email === 'member' ? "member's email with a wrong API key" : 'an unknown email');

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

/** member's enter_sends as it is now. */
async function enterSends(context: Context): Promise<boolean> {
  const registered = await fetchState(context, 'member', ['user_settings']);
  // Servers below level 89 have the settings at the top level of the state.
  const value = registered.user_settings?.enter_sends ?? registered.enter_sends;
  expect(typeof value === 'boolean', `POST /register: no enter_sends setting: ${JSON.stringify(registered.user_settings ?? registered).slice(0, 300)}`);
  return value;
}

/** PATCH /settings with one setting at its present value (so nothing changes) and the extra names. */
async function patchSettingsWith(context: Context, names: readonly string[], current?: boolean): Promise<any> {
  return succeeded(await context.call('member', 'PATCH', '/settings', withExtras({ enter_sends: current ?? await enterSends(context) }, names)), 'PATCH /settings');
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
    // The refused request first: it changes nothing, so the valid one meets the set-up as made.
    check('general.envelope', async (context) => {
      for (const operation of present(context, operations)) {
        await withPrepared(context, operation, async (prepared) => {
          if (prepared.invalid) expectEnvelope(await context.call(operation.as ?? 'member', prepared.method, prepared.invalid.path, prepared.invalid.params), `${operation.name} (a request the spec refuses)`, 'error');
          expectEnvelope(await context.call(operation.as ?? 'member', prepared.method, prepared.path, prepared.valid), `${operation.name} (a valid request)`, 'success');
        });
      }
    }, [], OPERATIONS_SHARE),

    // Every operation with every kind of refused credentials, then the endpoints the suite reads with.
    check('general.authentication-required', async (context) => {
      const callers = forgedCallers(context);
      // A smoke run tries one caller on each operation, a different one on the next (every caller
      // meets GET /users/me below, in every run).
      const operationsPresent = present(context, operations);
      for (const [index, operation] of operationsPresent.entries()) {
        // A refused request changes nothing: one set-up serves every caller, looked at after each.
        await withPrepared(context, operation, async (prepared) => {
          const before = await prepared.observe();
          for (const caller of context.options.smoke ? [callers[(context.options.seed + index) % callers.length]!] : callers) {
            const response = await context.call(caller, prepared.method, prepared.path, prepared.valid);
            const after = await prepared.observe();
            const what = `${operation.name} with ${describeCaller(caller)}`;
            expect(response.status >= 400 && response.status < 500 && (response.body === null || response.body.result === 'error'), `${what} was not refused: ${response.status} ${response.text.slice(0, 200)}`);
            expect(before === after, `${what} was refused, yet it changed ${before} into ${after}`);
          }
        });
      }
      // Every caller on GET /users/me, which would say whom a request was taken for; one of them on each other endpoint the suite reads with.
      for (const [method, path, since] of READ_ENDPOINTS) {
        if (context.level < since) continue;
        for (const caller of path === '/users/me' ? callers : context.some(callers)) {
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
        const send = async (prepared: PreparedOperation, names: readonly string[]) => {
          const body = succeeded(await context.call(operation.as ?? 'member', prepared.method, prepared.path, withExtras(prepared.valid, names)), operation.name);
          expectIgnoredExactly(body, names, operation.name);
        };
        // Without unsupported parameters, then with generated ones: on one set-up where the operation allows it.
        if (operation.repeatable) {
          await withPrepared(context, operation, async (prepared) => {
            await send(prepared, []);
            await context.property(unsupportedNames(context, 1), (names) => send(prepared, names), context.runsSmokeAtMost(3));
          });
        } else {
          await withPrepared(context, operation, (prepared) => send(prepared, []));
          await context.property(unsupportedNames(context, 1), (names) => withPrepared(context, operation, (prepared) => send(prepared, names)), context.runsSmokeAtMost(3));
        }
      }
    }, [], OPERATIONS_SHARE),

    // Every operation on the caller's own data, by member: the other profile users' data of that
    // kind, their flags on the same messages among it, read before and after each; their event
    // queues, opened before them all, read once at the end (an event of one of them that told
    // them of member's objects is the operation's, by its token or an ID where one is meant).
    check('general.own-data-only', async (context) => {
      const others = ['other', 'admin'] as const;
      const queues = await Promise.all(['member', ...others].map((as) => registerQueue(context, as as Role, null)));
      const tellers: Array<{ name: string; tells: (event: any) => boolean }> = [];
      try {
        for (const [index, operation] of present(context, operations).filter((candidate) => candidate.ownData).entries()) {
          // A smoke run looks at one of the others for each operation, the other one at the next (and
          // at another seed); at both where each may hold a copy of what member changed, or not.
          const observed = context.options.smoke && operation.ownData !== 'copies' ? [others[(context.options.seed + index) % others.length]!] : others;
          await withPrepared(context, operation, async (prepared) => {
            const frame = prepared.others!;
            const before = await Promise.all(observed.map((as) => frame.observe(as)));
            succeeded(await context.call(operation.as ?? 'member', prepared.method, prepared.path, prepared.valid), `${operation.name} as member`);
            tellers.push({ name: operation.name, tells: frame.tells });
            const after = await Promise.all(observed.map((as) => frame.observe(as)));
            observed.forEach((as, at) => expect(before[at] === after[at], `${operation.name} as member changed what ${as} observes of their own: ${before[at]} became ${after[at]}`));
          });
        }
        // member's own queue hears of its operations (or the wait ends): what reached the others would be there by then.
        const [mine, ...theirs] = queues;
        await pollEvents(context, 'member', mine!, (seen) => tellers.every(({ tells }) => seen.some(tells)));
        // A message someone else sent is theirs, whatever its text: it tells nothing of member's data.
        const member = context.probe.users.member.id;
        const anothersMessage = (event: any) => event?.type === 'message' && event.message?.sender_id !== member;
        for (const [at, as] of others.entries()) {
          const told = (await pollEvents(context, as, theirs[at]!, () => true)).filter((event) => !anothersMessage(event)).flatMap((event) => tellers.filter(({ tells }) => tells(event)).map(({ name }) => `${name}: ${JSON.stringify(event)}`));
          expect(told.length === 0, `${as}'s event queue was told of what member did to its own data: ${told.join('; ')}`);
        }
      } finally {
        for (const queue of queues) await queue.remove();
      }
    }),

    // PATCH /settings from 78; the spec operations that had it before 167, from their level.
    check('general.ignored-parameters-on-settings', async (context) => {
      // Read once: each request sets it to what it is, so it stays so.
      const current = await enterSends(context);
      expectIgnoredExactly(await patchSettingsWith(context, [], current), [], 'PATCH /settings');
      await context.property(unsupportedNames(context, 1), async (names) => {
        expectIgnoredExactly(await patchSettingsWith(context, names, current), names, 'PATCH /settings');
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
        if (caller?.notBasic === 'Bearer') expect(response.status === 400 && response.body?.code === 'BAD_REQUEST', `GET /users/me with ${describeCaller(caller)}: ${response.status} ${response.text.slice(0, 200)}; expected 400 BAD_REQUEST, as for any request Zulip refuses`);
        else expect(response.status === 401 && response.headers['www-authenticate'] !== undefined, `GET /users/me with ${describeCaller(caller)}: ${response.status}, www-authenticate ${JSON.stringify(response.headers['www-authenticate'])}; expected 401 with WWW-Authenticate`);
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

    check('general.unknown-endpoints', async (context) => {
      const path = `/${encodeURIComponent(`${context.prefix}-no-such-endpoint`)}`;
      const unknown = await context.call('member', 'GET', path);
      expect(unknown.status === 404, `GET /api/v1${path}, a path no server has: ${unknown.status}, expected 404`);
      // A path under an operation's whose identifier is no integer is no path of it (Zulip's routes take integers there).
      const under = await context.call('member', 'GET', '/scheduled_messages/x');
      expect(under.status === 404, `GET /api/v1/scheduled_messages/x, no path of PATCH and DELETE /scheduled_messages/{id} (its ID is no integer): ${under.status}, expected 404`);
      // POST is the one method Zulip's /messages/flags has, at every level.
      const allows = (response: Response) => String(response.headers.allow ?? '').split(',').map((method) => method.trim()).filter(Boolean);
      const put = await context.call('member', 'PUT', '/messages/flags', { messages: [], op: 'add', flag: 'starred' });
      expect(put.status === 405, `PUT /messages/flags, a method the path does not have: ${put.status}, expected 405`);
      expect(allows(put).includes('POST') && !allows(put).includes('PUT'), `PUT /messages/flags: Allow is ${JSON.stringify(put.headers.allow)}, expected the methods the path has (POST)`);
      const options = await context.call(null, 'OPTIONS', '/messages/flags');
      expect(options.status === 204 && allows(options).includes('POST'), `OPTIONS /messages/flags without credentials: ${options.status}, Allow ${JSON.stringify(options.headers.allow)}; expected 204 naming POST`);
      // Only the status: an HTTP client reads no body after a HEAD, whatever the server writes.
      const head = await context.call('member', 'HEAD', '/users/me');
      expect(head.status === 200, `HEAD /users/me: ${head.status}; expected GET's 200`);
    }),

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
      // Read at its own ID: the newest few may be others by then (deliveries of the run reach member on real time).
      const around = succeeded(await context.call('member', 'GET', '/messages', { anchor: id, num_before: 0, num_after: 0, apply_markdown: false }), `GET /messages at message ${id}`, SHAPES.messages).messages;
      const listed = (Array.isArray(around) ? around : []).find((message: any) => message.id === id);
      expect(listed?.content === text, `GET /messages with apply_markdown=false lists ${JSON.stringify(listed?.content)}`);
    }),
  ];
  return [...mustChecks, ...decisionChecks];
}
