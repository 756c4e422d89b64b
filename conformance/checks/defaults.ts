// Checks of the realm-level defaults of user settings (spec "Endpoints 1", "Resources: User
// settings defaults", "Versioning"), by the suite's own copy of the spec's tables (settings.ts).

import fc from 'fast-check';
import type { ParamList } from '../run/client.js';
import { check, expect, modelRun, refused, refusedExactly, sharing, succeeded, Skip, type Check, type Context } from '../run/harness.js';
import { sameJson } from '../run/shape.js';
import { exists, settingsAt, SPEC_SETTINGS, validValuesAt, type SpecSetting, type Value } from './settings.js';
import { fetchState, pollEvents, registerQueue, type SpecOperation } from './world.js';

/** The valid values of a setting at the level; for free ones, a few the suite makes (settings.ts). */
const validValues = (context: Context, setting: SpecSetting): readonly Value[] => validValuesAt(setting, context.level);

function validValue(context: Context, setting: SpecSetting): fc.Arbitrary<Value> {
  return fc.constantFrom(...validValues(context, setting));
}

/** A value of the setting's own type that the spec makes invalid: outside its set. */
function outOfSet(context: Context, setting: SpecSetting): fc.Arbitrary<Value> | null {
  const kind = setting.kind;
  if (kind.type === 'int') {
    const valid = kind.values(context.level);
    const later = [3, 4].filter((value) => !valid.includes(value));
    return fc.oneof(fc.constantFrom(0, -1, ...later, valid.length + 1), fc.integer({ min: -1000, max: 1000 })).filter((value) => !valid.includes(value));
  }
  if (kind.type === 'string') {
    // google-blob, which Zulip accepts though the spec does not list it, is tried in defaults.string-values alone.
    const near = kind.values.flatMap((value) => [value.toUpperCase(), ` ${value}`, `${value}x`]);
    return fc.oneof(fc.constantFrom('', ...near), fc.string({ maxLength: 12 })).filter((value) => !kind.values.includes(value) && value !== 'google-blob');
  }
  return null;
}

/** A value of another type than the setting's, as it goes into the form. */
function wrongType(setting: SpecSetting): fc.Arbitrary<string> | null {
  if (setting.kind.type === 'bool') return fc.constantFrom('0', '1', '"true"', 'yes', '[]', '{}', 'True');
  if (setting.kind.type === 'int' || setting.kind.type === 'free-int') return fc.constantFrom('1.5', '"3"', 'true', 'abc', '[1]', '1e400');
  return null;
}

// ---- Observation and restoration --------------------------------------------------------------

/** The organization's defaults, as /register shows them. */
export async function readDefaults(context: Context): Promise<Record<string, unknown>> {
  const state = await fetchState(context, 'member', ['realm_user_settings_defaults']);
  const defaults = state.realm_user_settings_defaults;
  expect(defaults && typeof defaults === 'object', `POST /register: no realm_user_settings_defaults: ${JSON.stringify(state).slice(0, 300)}`);
  return defaults;
}

/** The defaults as the run found them; the end of the run puts back every one it may have changed. */
function originalDefaults(context: Context): Promise<Record<string, unknown>> {
  return context.memo('defaults-original', async () => {
    const original = await readDefaults(context);
    const restore: ParamList = {};
    for (const setting of settingsAt(context.level)) if (setting.name in original) restore[setting.name] = original[setting.name] as Value;
    context.putBack('restore the organization\'s settings defaults', { as: 'admin', method: 'PATCH', path: '/realm/user_settings_defaults', params: restore });
    return original;
  });
}

function update(context: Context, changes: ParamList, as: 'admin' | 'member' = 'admin') {
  return context.call(as, 'PATCH', '/realm/user_settings_defaults', changes);
}

/** The defaults of the spec's settings that differ from `expected`. */
function differences(context: Context, expected: Record<string, unknown>, actual: Record<string, unknown>): string[] {
  return settingsAt(context.level)
    .filter((setting) => setting.name in expected && JSON.stringify(actual[setting.name]) !== JSON.stringify(expected[setting.name]))
    .map((setting) => `${setting.name} is ${JSON.stringify(actual[setting.name])}, expected ${JSON.stringify(expected[setting.name])}`);
}

/** A valid change of some setting other than `except`: a value that differs from the current one. */
function otherChange(context: Context, current: Record<string, unknown>, except: string): fc.Arbitrary<[string, Value]> {
  const candidates = settingsAt(context.level).filter((setting) => setting.name !== except && validValues(context, setting).some((value) => value !== current[setting.name]));
  return fc.constantFrom(...candidates).chain((setting) => fc.constantFrom(...validValues(context, setting).filter((value) => value !== current[setting.name])).map((value) => [setting.name, value] as [string, Value]));
}

/** The request must be refused and change no default. */
async function refusedChangingNothing(context: Context, changes: ParamList, what: string) {
  const before = await readDefaults(context);
  const response = await update(context, changes);
  const after = await readDefaults(context);
  const changed = differences(context, before, after);
  expect(changed.length === 0, `${what} was answered ${response.status} ${response.text.slice(0, 200)}, and changed: ${changed.join('; ')}`);
  return refused(response, what);
}


// ---- Checks of what the spec states ---------------------------------------------------------

const mustChecks: Check[] = [
  // Every valid value of every setting, all settings at once in each round.
  check('defaults.values-stored', async (context) => {
    await originalDefaults(context);
    const settings = settingsAt(context.level);
    const rounds = Math.max(...settings.map((setting) => validValues(context, setting).length));
    for (let round = 0; round < rounds; round++) {
      const changes: Record<string, Value> = {};
      for (const setting of settings) {
        const values = validValues(context, setting);
        changes[setting.name] = values[(round + settings.indexOf(setting)) % values.length]!;
      }
      succeeded(await update(context, changes), `PATCH /realm/user_settings_defaults (round ${round + 1} of ${rounds})`);
      const wrong = differences(context, changes, await readDefaults(context));
      expect(wrong.length === 0, `after an update of every setting (round ${round + 1}): ${wrong.join('; ')}`);
    }
  }),

  check('defaults.enum-values', async (context) => {
    const current = await originalDefaults(context);
    const enums = settingsAt(context.level).filter((setting) => setting.kind.type === 'int');
    const cases = fc.constantFrom(...enums).chain((setting) => fc.tuple(fc.constant(setting), outOfSet(context, setting)!, otherChange(context, current, setting.name)));
    await context.property(cases, async ([setting, value, [other, otherValue]]) => {
      await refusedChangingNothing(context, { [other]: otherValue, [setting.name]: value }, `${setting.name}=${JSON.stringify(value)} with ${other}=${JSON.stringify(otherValue)}`);
    }, context.runsSmokeAtMost(15));
  }),

  check('defaults.string-values', async (context) => {
    const current = await originalDefaults(context);
    const strings = settingsAt(context.level).filter((setting) => setting.kind.type === 'string');
    const cases = fc.constantFrom(...strings).chain((setting) => fc.tuple(fc.constant(setting), outOfSet(context, setting)!, otherChange(context, current, setting.name)));
    await context.property(cases, async ([setting, value, [other, otherValue]]) => {
      await refusedChangingNothing(context, { [other]: otherValue, [setting.name]: value as string }, `${setting.name}=${JSON.stringify(value)} with ${other}=${JSON.stringify(otherValue)}`);
    }, context.runsSmokeAtMost(12));
    // emojiset's list is the spec's: google, twitter, text.
    await refusedChangingNothing(context, { emojiset: 'google-blob' }, 'emojiset=google-blob');
    // notification_sound is a free string.
    const sounds = fc.stringMatching(/^[a-z][a-z -]{0,14}[a-z]$/);
    await context.property(sounds, async (sound) => {
      succeeded(await update(context, { notification_sound: sound }), `notification_sound=${JSON.stringify(sound)}`);
      const stored = (await readDefaults(context)).notification_sound;
      expect(stored === sound, `notification_sound ${JSON.stringify(sound)} reads back as ${JSON.stringify(stored)}`);
    }, context.runsSmokeAtMost(5));
  }),

  check('defaults.value-types', async (context) => {
    const current = await originalDefaults(context);
    const typed = settingsAt(context.level).filter((setting) => wrongType(setting) !== null);
    const caseOf = (settings: fc.Arbitrary<SpecSetting>, text?: string) => settings.chain((setting) => fc.tuple(fc.constant(setting), text === undefined ? wrongType(setting)! : fc.constant(text), otherChange(context, current, setting.name)));
    // The boundaries: for a boolean, the numbers 0 and 1 and a quoted true; for an integer, a
    // fraction, a quoted number and a boolean.
    const first = (type: string) => typed.find((setting) => setting.kind.type === type);
    // (A smoke run: the first two of each.)
    const boundaries = ([['bool', ['0', '1', '"true"']], ['int', ['1.5', 'true', '"3"']]] as const).flatMap(([type, texts]) => {
      const setting = first(type);
      return setting === undefined ? [] : texts.slice(0, context.options.smoke ? 2 : undefined).map((text) => caseOf(fc.constant(setting), text));
    });
    await context.property(caseOf(fc.constantFrom(...typed)), async ([setting, text, [other, otherValue]]) => {
      await refusedChangingNothing(context, { [other]: otherValue, [setting.name]: text }, `${setting.name}=${text} with ${other}=${JSON.stringify(otherValue)}`);
    }, { runs: context.runsSmokeAtMost(15), boundaries });
  }),

  check('defaults.settings-at-their-levels', async (context) => {
    const current = await originalDefaults(context);
    // A setting the level has is a parameter, those whose values the spec does not give
    // (default_view, until 219) included: sent with the value the server reads back, it is read, so
    // it is accepted or refused as a value, never named as ignored. Where the server shows none,
    // with an empty value, which none of Zulip's values is: a server that reads it refuses it
    // rather than have the check change a default it could not put back.
    for (const setting of SPEC_SETTINGS.filter((one) => one.kind.type === 'unknown' && exists(one, context.level))) {
      const value = typeof current[setting.name] === 'string' ? (current[setting.name] as string) : '';
      const response = await update(context, { [setting.name]: value });
      if (response.status >= 400 && response.status < 500) continue;
      const body = succeeded(response, `PATCH /realm/user_settings_defaults with ${setting.name}=${JSON.stringify(value)}`);
      const listed = body.ignored_parameters_unsupported;
      expect(!(Array.isArray(listed) && listed.includes(setting.name)), `at level ${context.level}, ${setting.name} is a setting of the level (until ${setting.before}), yet the update names it in ignored_parameters_unsupported: ${JSON.stringify(listed)}`);
    }
    const absent = SPEC_SETTINGS.filter((setting) => !exists(setting, context.level));
    if (absent.length === 0) throw new Skip(`every setting of the spec exists at level ${context.level}`);
    const cases = fc.tuple(fc.subarray(absent, { minLength: 1 }), otherChange(context, current, ''));
    // The boundaries: each absent setting alone.
    const boundaries = absent.map((setting) => fc.tuple(fc.constant([setting] as SpecSetting[]), otherChange(context, current, '')));
    await context.property(cases, async ([names, [other, value]]) => {
      const changes: ParamList = { [other]: value, ...Object.fromEntries(names.map((setting) => [setting.name, setting.kind.type === 'bool' || setting.kind.type === 'unknown' ? 'true' : '1'])) };
      const body = succeeded(await update(context, changes), `PATCH /realm/user_settings_defaults with ${names.map((setting) => setting.name).join(', ')}`);
      const listed = body.ignored_parameters_unsupported;
      const expected = names.map((setting) => setting.name).sort();
      expect(Array.isArray(listed) && JSON.stringify([...listed].sort()) === JSON.stringify(expected), `at level ${context.level}, ${expected.join(', ')} should be ignored and named; ignored_parameters_unsupported is ${JSON.stringify(listed)}`);
      const stored = await readDefaults(context);
      expect(stored[other] === value, `the valid change ${other}=${JSON.stringify(value)} beside them reads back as ${JSON.stringify(stored[other])}`);
    }, { runs: context.runsSmokeAtMost(8), boundaries });
  }),

  check('defaults.updates-follow-model', async (context) => {
    await originalDefaults(context);
    const settings = settingsAt(context.level);
    const change = fc.constantFrom(...settings).chain((setting) => validValue(context, setting).map((value) => [setting.name, value] as [string, Value]));
    const spoiler = fc.constantFrom(...settings.filter((setting) => outOfSet(context, setting) !== null)).chain((setting) => outOfSet(context, setting)!.map((value) => [setting.name, value] as [string, Value]));
    const command = fc.tuple(fc.uniqueArray(change, { minLength: 1, maxLength: 6, selector: ([name]) => name }), fc.option(spoiler, { freq: 4, nil: undefined }))
      .map(([changes, spoilt]) => new UpdateCommand(changes, spoilt));
    // The boundary: the largest update, every setting at once, then every setting again with
    // another value.
    const everySetting = (round: number) => settings.flatMap((setting) => {
      const values = validValues(context, setting);
      return values.length === 0 ? [] : [[setting.name, values[round % values.length]!] as [string, Value]];
    });
    const largest = fc.constant([new UpdateCommand(everySetting(0), undefined), new UpdateCommand(everySetting(1), undefined)]);
    await context.property(fc.commands([command], { maxCommands: 6 }), async (commands) => {
      const model: DefaultsModel = { defaults: await readDefaults(context) };
      await modelRun(context, model, commands, async (state) => void (state.defaults = await readDefaults(context)));
    }, { runs: context.runsSmokeAtMost(10), boundaries: [largest] as never });
  }),

  check('defaults.existing-users-unchanged', async (context) => {
    const current = await originalDefaults(context);
    const own = async (as: 'member' | 'admin') => {
      const state = await fetchState(context, as, ['user_settings']);
      return (state.user_settings ?? state) as Record<string, unknown>;
    };
    // The boundaries: every setting changed at once, to each of its values in turn, so that a
    // value that leaks to existing users is sent whichever it is.
    const rounds = Math.max(...settingsAt(context.level).map((setting) => validValues(context, setting).length));
    const boundaries = Array.from({ length: rounds }, (_, round) => fc.constant(settingsAt(context.level).flatMap((setting) => {
      const values = validValues(context, setting).filter((value) => value !== current[setting.name]);
      return values.length === 0 ? [] : [[setting.name, values[round % values.length]!] as [string, Value]];
    })));
    // What the run changed of the users' own settings, put back at the end.
    const journaled = { member: new Set<string>(), admin: new Set<string>() };
    /**
     * A change of a default that the user already has could not show a leak: the user's own
     * setting is first set to another of its values (earlier rules may have left it there).
     */
    const unlike = async (as: 'member' | 'admin', mine: Record<string, unknown>, changes: Array<[string, Value]>) => {
      const moves: Record<string, Value> = {};
      for (const [name, value] of changes) {
        const setting = settingsAt(context.level).find((candidate) => candidate.name === name)!;
        const other = validValues(context, setting).find((candidate) => candidate !== value);
        // Switching one's own drafts synchronization off deletes one's drafts: that one is left be.
        if (mine[name] === value && other !== undefined && name !== 'enable_drafts_synchronization') moves[name] = other;
      }
      if (Object.keys(moves).length === 0) return;
      for (const name of Object.keys(moves)) {
        if (journaled[as].has(name)) continue;
        journaled[as].add(name);
        context.putBack(`restore ${as}'s own ${name}=${JSON.stringify(mine[name])}`, { as, method: 'PATCH', path: '/settings', params: { [name]: mine[name] as Value } });
      }
      const body = succeeded(await context.call(as, 'PATCH', '/settings', moves), `PATCH /settings ${JSON.stringify(moves)} (${as}'s own, unlike the defaults about to be sent)`);
      const ignored = new Set<string>(Array.isArray(body.ignored_parameters_unsupported) ? body.ignored_parameters_unsupported : []);
      for (const [name, value] of Object.entries(moves)) if (!ignored.has(name)) mine[name] = value;
    };
    // What each user's own settings were last read as: a case begins from where the last one ended
    // (nothing but this check changes them meanwhile, and it knows what it moved).
    const seen: Partial<Record<'member' | 'admin', Record<string, unknown>>> = {};
    await context.property(fc.uniqueArray(otherChange(context, current, ''), { minLength: 1, maxLength: 5, selector: ([name]) => name }), async (changes) => {
      // A smoke run looks at member's own settings alone, to keep its budget.
      const users = context.options.smoke ? (['member'] as const) : (['member', 'admin'] as const);
      const before: Partial<Record<'member' | 'admin', Record<string, unknown>>> = {};
      for (const as of users) {
        before[as] = { ...(seen[as] ?? await own(as)) };
        await unlike(as, before[as]!, changes);
      }
      succeeded(await update(context, Object.fromEntries(changes)), 'PATCH /realm/user_settings_defaults');
      for (const as of users) {
        seen[as] = await own(as);
        const changed = differences(context, before[as]!, seen[as]!);
        expect(changed.length === 0, `updating the defaults ${JSON.stringify(Object.fromEntries(changes))} changed ${as}'s own settings: ${changed.join('; ')}`);
      }
    }, { runs: context.runsSmokeAtMost(5), boundaries });
  }),

  check('defaults.new-users-get-defaults', async (context) => {
    const current = await originalDefaults(context);
    let made = 0;
    await context.property(fc.uniqueArray(otherChange(context, current, ''), { minLength: 1, maxLength: 5, selector: ([name]) => name }), async (changes) => {
      succeeded(await update(context, Object.fromEntries(changes)), 'PATCH /realm/user_settings_defaults');
      const defaults = await readDefaults(context);
      const email = `${context.prefix}-${made++}-${Date.now()}@example.com`;
      const created = succeeded(await context.call('admin', 'POST', '/users', { email, password: `${context.prefix}-password`, full_name: `${context.prefix} user` }), 'POST /users');
      const key = succeeded(await context.call('admin', 'POST', '/reference/api_key', { user_id: created.user_id }), 'POST /reference/api_key').api_key;
      const as = { forged: true as const, email, api_key: key, shown: '$CREATED_USER_API_KEY' };
      const state = await fetchState(context, as, ['user_settings'], 'POST /register as the new user');
      const wrong = differences(context, defaults, state.user_settings ?? state);
      expect(wrong.length === 0, `a user created after the defaults became ${JSON.stringify(Object.fromEntries(changes))} starts with other settings: ${wrong.join('; ')}`);
    }, context.runsSmokeAtMost(3));
  }, ['create-users']),
];

interface DefaultsModel {
  defaults: Record<string, unknown>;
}

class UpdateCommand implements fc.AsyncCommand<DefaultsModel, Context> {
  constructor(readonly changes: Array<[string, Value]>, readonly spoilt: [string, Value] | undefined) {}
  check = () => true;
  async run(model: DefaultsModel, context: Context) {
    const request: Record<string, Value> = Object.fromEntries(this.changes);
    if (this.spoilt) request[this.spoilt[0]] = this.spoilt[1];
    const response = await update(context, request);
    if (this.spoilt) refused(response, String(this));
    else {
      succeeded(response, String(this));
      Object.assign(model.defaults, request);
    }
    const wrong = differences(context, model.defaults, await readDefaults(context));
    expect(wrong.length === 0, `after ${this}: ${wrong.join('; ')}`);
  }
  toString = () => `update ${JSON.stringify(Object.fromEntries(this.changes))}${this.spoilt ? ` with ${this.spoilt[0]}=${JSON.stringify(this.spoilt[1])} (invalid)` : ''}`;
}

// ---- Checks of the decisions ---------------------------------------------------------------

const decisionChecks: Check[] = [
  check('defaults.error-texts', async (context) => {
    await originalDefaults(context);
    refusedExactly(await update(context, { color_scheme: 7 }), 'color_scheme=7', ['Invalid color_scheme: Value error, Not in the list of possible values', 'Invalid color_scheme']);
    refusedExactly(await update(context, { emojiset: 'nope' }), 'emojiset=nope', 'Invalid emojiset');
    refusedExactly(await update(context, { color_scheme: 'true' }), 'color_scheme=true', 'color_scheme is not an integer');
    refusedExactly(await update(context, { enter_sends: '1' }), 'enter_sends=1', 'enter_sends is not a boolean');
    refusedExactly(await update(context, { enter_sends: true }, 'member'), 'as a member', 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
  }),

  check('defaults.integer-ranges', async (context) => {
    await originalDefaults(context);
    for (const period of [0, -1, 604_801]) {
      refusedExactly(await update(context, { email_notifications_batching_period_seconds: period }), `batching period ${period}`, `Invalid email batching period: ${period} seconds`);
    }
    succeeded(await update(context, { email_notifications_batching_period_seconds: 604_800 }), 'batching period 604800');
    if (context.level >= 245) {
      for (const size of [1, 5000]) succeeded(await update(context, { web_font_size_px: size, web_line_height_percent: size }), `web_font_size_px and web_line_height_percent ${size}`);
    }
  }),

  check('defaults.event-shape', async (context) => {
    const current = await originalDefaults(context);
    await context.property(otherChange(context, current, ''), async ([name, value]) => {
      const queue = await registerQueue(context, 'other', ['realm_user_settings_defaults']);
      try {
        const before = (await readDefaults(context))[name];
        succeeded(await update(context, { [name]: value }), `PATCH ${name}`);
        succeeded(await update(context, { [name]: value }), `PATCH ${name} again, unchanged`);
        const events = await pollEvents(context, 'other', queue, (seen) => seen.length > 0);
        const expected = before === value ? [] : [{ type: 'realm_user_settings_defaults', op: 'update', property: name, value }];
        const seen = events.map(({ id: _id, ...event }) => event);
        expect(sameJson(seen, expected), `events ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
      } finally {
        await queue.remove();
      }
    }, context.runsSmokeAtMost(5));
  }, ['events']),
];

export const DEFAULTS_CHECKS: readonly Check[] = sharing(['organization defaults'], [...mustChecks, ...decisionChecks]);

export const DEFAULTS_OPERATIONS: readonly SpecOperation[] = [
  {
    name: 'PATCH /realm/user_settings_defaults', since: 96, as: 'admin', adminOnly: true, ignoredParametersSince: 96, repeatable: true,
    async prepare(context) {
      await originalDefaults(context);
      const before = await readDefaults(context);
      const value = before.starred_message_counts === true;
      return {
        method: 'PATCH', path: '/realm/user_settings_defaults',
        valid: { starred_message_counts: !value },
        invalid: { path: '/realm/user_settings_defaults', params: { color_scheme: 99 } },
        observe: async () => JSON.stringify((await readDefaults(context)).starred_message_counts),
        undo: async () => void (await update(context, { starred_message_counts: value })),
      };
    },
  },
];
