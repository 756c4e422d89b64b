// Checks of custom profile fields (spec "Resources: Custom profile field", "Endpoints 4. Create
// a custom profile field", "Limits"). The run's fields carry its prefix and are deleted at the
// end; fields the organization had are counted, never changed.

import fc from 'fast-check';
import { TransientError, type ParamList, type Response } from '../run/client.js';
import { check, expect, modelRun, refused, refusedExactly, sharing, succeeded, Skip, type Check, type Context } from '../run/harness.js';
import { sameJson, SHAPES } from '../run/shape.js';
import { MARKED, MARKED_SHORT, text } from './generators.js';
import { fetchState, pollEvents, registerQueue, type SpecOperation } from './world.js';

interface Listed {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data?: unknown;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
}

const LONG_TEXT = 2;
const SELECT = 3;
const USER = 6;
const EXTERNAL_ACCOUNT = 7;

/** The field types of the level: Pronouns (8) from 151. */
const typesAt = (level: number) => (level >= 151 ? [1, 2, 3, 4, 5, 6, 7, 8] : [1, 2, 3, 4, 5, 6, 7]);
/**
 * Types a must check can create: External account (7) has a field_data whose shape the spec
 * leaves unstabilized, so no request for it is one the spec makes valid.
 */
const creatableTypes = (level: number) => typesAt(level).filter((type) => type !== EXTERNAL_ACCOUNT);
const summaryTypes = (level: number) => creatableTypes(level).filter((type) => type !== LONG_TEXT && type !== USER);

/** The flags of the spec with their levels. */
const FLAGS = [['display_in_profile_summary', 146], ['required', 244], ['editable_by_user', 296]] as const;

async function listFields(context: Context): Promise<Listed[]> {
  const body = succeeded(await context.call('member', 'GET', '/realm/profile_fields'), 'GET /realm/profile_fields', SHAPES.profileFields);
  expect(Array.isArray(body.custom_fields), `GET /realm/profile_fields: no custom_fields list: ${JSON.stringify(body).slice(0, 300)}`);
  return body.custom_fields;
}

const ours = (context: Context, fields: readonly Listed[]) => fields.filter((field) => String(field.name).includes(context.prefix) || String(field.hint ?? '').includes(context.prefix));
const summaryCount = (fields: readonly Listed[]) => fields.filter((field) => field.display_in_profile_summary === true).length;

async function removeFields(context: Context, ids: readonly number[]): Promise<void> {
  for (const id of ids) await context.cleanup.request(`delete profile field ${id}`, () => context.call('admin', 'DELETE', `/realm/profile_fields/${id}`));
}

/**
 * The organization's fields with none of the run's left in them: a create whose answer was lost
 * (a reset connection) may have left one, which a count must not take for someone else's.
 */
async function fieldsWithoutOurs(context: Context): Promise<Listed[]> {
  const list = await listFields(context);
  const left = ours(context, list);
  if (left.length === 0) return list;
  await removeFields(context, left.map((field) => field.id));
  return listFields(context);
}

/** A name of the run's: the prefix and a serial, well inside any server's limit. */
const fieldName = (context: Context) => `${context.prefix} f${context.serial('field')}`;

/** Options of a List of options field: keyed by identifier, each with text and order strings. */
const options = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z ]{0,10}[a-z]$/), { minLength: 1, maxLength: 4 })
  .map((texts) => Object.fromEntries(texts.map((text, index) => [String(index), { text, order: String(index + 1) }])));

/** A create the spec makes valid, out of the summary: of a creatable type, with the flags of the level. */
function validCreate(context: Context): fc.Arbitrary<ParamList> {
  const flags = FLAGS.filter(([name, since]) => name !== 'display_in_profile_summary' && context.level >= since);
  return fc.record({
    field_type: fc.constantFrom(...creatableTypes(context.level)),
    hint: text(40),
    options,
    flags: fc.tuple(...flags.map(() => fc.option(fc.boolean(), { nil: undefined }))),
  }).map(({ field_type, hint, options: data, flags: values }) => {
    const params: ParamList = { name: fieldName(context), hint, field_type };
    if (field_type === SELECT) params.field_data = data;
    flags.forEach(([name], index) => {
      if (values[index] !== undefined) params[name] = values[index];
    });
    return params;
  });
}

/** Creates as an administrator and reads the list before and after; what the request made is removed by the caller or the sweep. */
async function create(context: Context, params: ParamList, repeatable = false): Promise<{ response: Response; before: Listed[]; after: Listed[]; made: Listed[] }> {
  const before = await listFields(context);
  const response = await context.call('admin', 'POST', '/realm/profile_fields', params, { repeatable }).catch(async (error: unknown) => {
    // The answer was lost, not the request: what it made is found by the state and removed, so
    // that the case drawn in its place meets the organization as this one did.
    if (error instanceof TransientError) await removeFields(context, (await listFields(context)).filter((field) => !before.some((old) => old.id === field.id)).map((field) => field.id)).catch(() => undefined);
    throw error;
  });
  const after = await listFields(context);
  const made = after.filter((field) => !before.some((old) => old.id === field.id));
  return { response, before, after, made };
}

/** The create must be refused and leave the organization's fields as they were. */
async function refusedCreatingNothing(context: Context, params: ParamList, what: string) {
  const { response, made } = await create(context, params, true);
  await removeFields(context, made.map((field) => field.id));
  expect(made.length === 0, `${what} was answered ${response.status} ${response.text.slice(0, 200)}, yet it created ${JSON.stringify(made)}`);
  return refused(response, what);
}

/** field_data as listed: Zulip lists a JSON string, others may list the object. */
function fieldData(field: Listed): unknown {
  if (typeof field.field_data !== 'string') return field.field_data;
  try {
    return field.field_data === '' ? {} : JSON.parse(field.field_data);
  } catch {
    return field.field_data;
  }
}


// ---- Checks of what the spec states ---------------------------------------------------------

const mustChecks: Check[] = [
  check('fields.create-returns-id', async (context) => {
    // The boundary: a name and a hint with every kind of character that must come back as sent.
    const marked = validCreate(context).map((params) => ({ ...params, name: `${params.name} ${MARKED_SHORT}`, hint: MARKED }));
    await context.property(validCreate(context), async (params) => {
      const { response, made } = await create(context, params);
      try {
        const body = succeeded(response, `POST /realm/profile_fields ${JSON.stringify(params)}`);
        expect(Number.isInteger(body.id), `the create answered without an integer id: ${JSON.stringify(body)}`);
        const field = made.find((candidate) => candidate.id === body.id);
        expect(field, `the create answered id ${body.id}, but GET /realm/profile_fields lists no such new field (new: ${JSON.stringify(made)})`);
        const wrong: string[] = [];
        for (const key of ['name', 'hint'] as const) if (field[key] !== params[key]) wrong.push(`${key} ${JSON.stringify(field[key])}, sent ${JSON.stringify(params[key])}`);
        if (field.type !== params.field_type) wrong.push(`type ${field.type}, sent ${params.field_type}`);
        for (const [name] of FLAGS) if (params[name] !== undefined && field[name] !== params[name]) wrong.push(`${name} ${JSON.stringify(field[name])}, sent ${params[name]}`);
        expect(wrong.length === 0, `field ${body.id} is listed with ${wrong.join('; ')}`);
        // Through the other path the target offers: the state a client of another user registers with.
        const registered = (await fetchState(context, 'other', ['custom_profile_fields'])).custom_profile_fields;
        if (!Array.isArray(registered)) return;
        const there = registered.find((candidate: Listed) => candidate.id === body.id);
        expect(there && there.name === field.name && there.hint === field.hint && there.type === field.type, `POST /register gives other field ${body.id} as ${JSON.stringify(there)}, GET /realm/profile_fields as ${JSON.stringify(field)}`);
      } finally {
        await removeFields(context, made.map((field) => field.id));
      }
    }, { runs: context.runsSmokeAtMost(16), boundaries: [marked] });
  }),

  check('fields.name-optional', async (context) => {
    // The run's prefix goes in the hint, so that a sweep finds the field if the run is killed.
    await context.property(validCreate(context), async ({ name: _dropped, ...params }) => {
      const tagged = { ...params, hint: `${context.prefix} ${String(params.hint)}` };
      const before = await listFields(context);
      // A server may keep names unique (a decision): an existing field without a name would refuse ours.
      if (before.some((field) => !field.name)) throw new Skip('the organization already has a field without a name, and a server may keep names unique');
      const { response, made } = await create(context, tagged);
      try {
        const body = succeeded(response, `POST /realm/profile_fields without name ${JSON.stringify(tagged)}`);
        expect(Number.isInteger(body.id) && made.some((field) => field.id === body.id), `the create without name answered ${JSON.stringify(body)}, and GET /realm/profile_fields lists as new ${JSON.stringify(made)}`);
      } finally {
        await removeFields(context, made.map((field) => field.id));
      }
    }, context.runsSmokeAtMost(4));
  }),

  check('fields.field-type-required', async (context) => {
    await context.property(validCreate(context), async ({ field_type: _dropped, field_data: _data, ...params }) => {
      await refusedCreatingNothing(context, params, `POST /realm/profile_fields without field_type ${JSON.stringify(params)}`);
    }, context.runsSmokeAtMost(5));
  }),

  check('fields.field-type-values', async (context) => {
    const valid = typesAt(context.level);
    // The neighbours of the range every time, then generated values.
    const edges = [0, valid.length + 1, ...(context.level < 151 ? [8] : [])];
    for (const type of edges) await refusedCreatingNothing(context, { name: fieldName(context), field_type: type }, `field_type ${type}`);
    const outside = fc.oneof(fc.constantFrom<unknown>(-1, 100, 1.5, '"1"', 'one', true), fc.integer({ min: -1000, max: 1000 }))
      .filter((type) => !valid.includes(type as number));
    await context.property(fc.tuple(validCreate(context), outside), async ([params, type]) => {
      await refusedCreatingNothing(context, { ...params, field_type: type as number }, `field_type ${JSON.stringify(type)}`);
    }, context.runsSmokeAtMost(10));
  }),

  check('fields.summary-limit', async (context) => {
    await context.property(fc.array(fc.constantFrom(...summaryTypes(context.level)), { minLength: 3, maxLength: 3 }), async (types) => {
      const made: number[] = [];
      try {
        const start = summaryCount(await fieldsWithoutOurs(context));
        for (const type of types.slice(0, Math.max(0, 2 - start))) {
          const { response, made: now } = await create(context, { name: fieldName(context), field_type: type, display_in_profile_summary: true, ...(type === SELECT ? { field_data: { 0: { text: 'one', order: '1' } } } : {}) });
          made.push(...now.map((field) => field.id));
          succeeded(response, `a summary field of type ${type} with ${made.length - 1 + start} of 2 places taken`);
        }
        const type = types[2]!;
        const full = summaryCount(await listFields(context));
        await refusedCreatingNothing(context, { name: fieldName(context), field_type: type, display_in_profile_summary: true, ...(type === SELECT ? { field_data: { 0: { text: 'one', order: '1' } } } : {}) }, `a summary field of type ${type} with ${full} summary fields in the organization`);
      } finally {
        await removeFields(context, made);
      }
    }, context.runsSmokeAtMost(4));
  }),

  check('fields.summary-types', async (context) => {
    const count = summaryCount(await fieldsWithoutOurs(context));
    if (count >= 2) throw new Skip(`the organization has ${count} summary fields the run did not make: a refusal could not tell the type rule from the limit`);
    await context.property(fc.tuple(fc.constantFrom(LONG_TEXT, USER), validCreate(context)), async ([type, params]) => {
      await refusedCreatingNothing(context, { ...params, field_type: type, field_data: undefined, display_in_profile_summary: true }, `a summary field of type ${type}`);
    }, { runs: context.runsSmokeAtMost(6), boundaries: [LONG_TEXT, USER].map((type) => fc.tuple(fc.constant(type), validCreate(context))) });
  }),

  check('fields.select-options', async (context) => {
    const spoilers = fc.constantFrom(...SPOILERS);
    await context.property(fc.tuple(options, spoilers, fc.nat()), async ([data, spoiler, at]) => {
      const { response, made } = await create(context, { name: fieldName(context), field_type: SELECT, field_data: data });
      try {
        const body = succeeded(response, `a List of options with ${JSON.stringify(data)}`);
        const field = made.find((candidate) => candidate.id === body.id);
        expect(field && sameJson(fieldData(field), data), `the List of options ${JSON.stringify(data)} is listed with field_data ${JSON.stringify(field?.field_data)}`);
      } finally {
        await removeFields(context, made.map((field) => field.id));
      }
      const keys = Object.keys(data);
      const key = keys[at % keys.length]!;
      const option: Record<string, unknown> = { ...data[key] };
      if (spoiler === 'no text') delete option.text;
      else if (spoiler === 'no order') delete option.order;
      else if (spoiler === 'text not a string') option.text = 7;
      else option.order = 1;
      await refusedCreatingNothing(context, { name: fieldName(context), field_type: SELECT, field_data: { ...data, [key]: option } }, `a List of options whose option ${key} has ${spoiler}`);
    }, { runs: context.runsSmokeAtMost(8), boundaries: SPOILERS.map((spoiler) => fc.tuple(options, fc.constant(spoiler), fc.nat())) });
  }),

  check('fields.flags-at-their-levels', async (context) => {
    // Every flag the level lacks, true: below 146 display_in_profile_summary on a Long text field is no reason to refuse.
    const flags = FLAGS.filter(([, since]) => context.level < since);
    await context.property(fc.constantFrom(...creatableTypes(context.level).filter((type) => type !== SELECT)), async (type) => {
      const params: ParamList = { name: fieldName(context), field_type: type, ...Object.fromEntries(flags.map(([name]) => [name, true])) };
      if (context.level < 146) params.field_type = LONG_TEXT;
      const { response, made } = await create(context, params);
      try {
        const body = succeeded(response, `POST /realm/profile_fields at level ${context.level} with ${flags.map(([name]) => name).join(', ')}`);
        expect(made.length === 1, `the create succeeded but ${made.length} fields were made`);
        if (context.level >= 167) {
          const listed = body.ignored_parameters_unsupported;
          const names = flags.map(([name]) => name).sort();
          expect(Array.isArray(listed) && names.every((name) => listed.includes(name)), `at level ${context.level}, ${names.join(', ')} should be named in ignored_parameters_unsupported: ${JSON.stringify(listed)}`);
        }
      } finally {
        await removeFields(context, made.map((field) => field.id));
      }
    }, context.runsSmokeAtMost(6));
  }),

  check('fields.summary-count-follows-model', async (context) => {
    const create = fc.tuple(fc.constantFrom(...creatableTypes(context.level)), fc.boolean()).map(([type, summary]) => new CreateField(type, summary));
    const remove = fc.nat().map((position) => new DeleteField(position));
    // The boundary: a summary field made and deleted, then the limit reached and passed.
    const SHORT_TEXT = 1;
    const boundaries = [fc.constant([new CreateField(SHORT_TEXT, true), new DeleteField(0), new CreateField(SHORT_TEXT, true), new CreateField(SHORT_TEXT, true), new CreateField(SHORT_TEXT, true)])];
    await context.property(fc.commands([create, create, remove], { maxCommands: 8 }), async (commands) => {
      const model: FieldsModel = { foreign: summaryCount(await fieldsWithoutOurs(context)), ours: [] };
      try {
        // After a transient fault the run's fields are what the server lists (other checks remove theirs).
        await modelRun(context, model, commands, async (state) => {
          state.ours = ours(context, await listFields(context)).map((field) => ({ id: field.id, summary: field.display_in_profile_summary === true }));
        });
      } finally {
        await removeFields(context, model.ours.map((field) => field.id));
      }
    }, { runs: context.runsSmokeAtMost(8), boundaries: boundaries as never });
  }),
];

interface FieldsModel {
  /** Summary fields the run did not make. */
  readonly foreign: number;
  ours: Array<{ id: number; summary: boolean }>;
}

/** How an option of a List of options is spoilt: each is a boundary of fields.select-options. */
const SPOILERS = ['no text', 'no order', 'text not a string', 'order not a string'] as const;

const modelCount = (model: FieldsModel) => model.foreign + model.ours.filter((field) => field.summary).length;

async function agreeWithModel(model: FieldsModel, context: Context, after: string) {
  const count = summaryCount(await listFields(context));
  expect(count === modelCount(model), `after ${after}: the organization has ${count} summary fields, the model ${modelCount(model)}`);
}

class CreateField implements fc.AsyncCommand<FieldsModel, Context> {
  constructor(readonly type: number, readonly summary: boolean) {}
  check = () => true;
  async run(model: FieldsModel, context: Context) {
    const params: ParamList = { name: fieldName(context), field_type: this.type, display_in_profile_summary: this.summary, ...(this.type === SELECT ? { field_data: { 0: { text: 'one', order: '1' } } } : {}) };
    const { response, made } = await create(context, params);
    for (const field of made) model.ours.push({ id: field.id, summary: field.display_in_profile_summary === true });
    const allowed = !this.summary || (modelCount({ ...model, ours: model.ours.filter((field) => !made.some((m) => m.id === field.id)) }) < 2 && this.type !== LONG_TEXT && this.type !== USER);
    if (allowed) succeeded(response, String(this));
    else {
      refused(response, `${String(this)} (the spec refuses it)`);
      expect(made.length === 0, `${this} was refused, yet it created ${JSON.stringify(made)}`);
    }
    await agreeWithModel(model, context, String(this));
  }
  toString = () => `create a field of type ${this.type}${this.summary ? ' in the summary' : ''}`;
}

class DeleteField implements fc.AsyncCommand<FieldsModel, Context> {
  constructor(readonly position: number) {}
  check = (model: Readonly<FieldsModel>) => model.ours.length > 0;
  async run(model: FieldsModel, context: Context) {
    const [field] = model.ours.splice(this.position % model.ours.length, 1);
    succeeded(await context.call('admin', 'DELETE', `/realm/profile_fields/${field!.id}`), String(this));
    await agreeWithModel(model, context, String(this));
  }
  toString = () => `delete the run's field #${this.position} (counted round the list)`;
}

// ---- Checks of the decisions ---------------------------------------------------------------

const decisionChecks: Check[] = [
  check('fields.name-rules', async (context) => {
    const name = fieldName(context);
    refusedExactly((await create(context, { name: '  ', field_type: 1 })).response, 'a blank name', 'Label cannot be blank.');
    refusedExactly((await create(context, { name: `${name}${'x'.repeat(40)}`, field_type: 1 })).response, 'a name of over 40 characters', 'name is too long (limit: 40 characters)');
    refusedExactly((await create(context, { name, hint: 'h'.repeat(81), field_type: 1 })).response, 'a hint of 81 characters', 'hint is too long (limit: 80 characters)');
    const { response, made } = await create(context, { name: ` ${name} `, field_type: 1 });
    try {
      succeeded(response, 'a name with surrounding spaces');
      expect(made[0]?.name === name, `the name " ${name} " is listed as ${JSON.stringify(made[0]?.name)}`);
      refusedExactly((await create(context, { name, field_type: 4 })).response, 'a name in use', 'A field with that label already exists.');
    } finally {
      await removeFields(context, made.map((field) => field.id));
    }
  }),

  check('fields.field-data-rules', async (context) => {
    refusedExactly((await create(context, { name: fieldName(context), field_type: SELECT, field_data: {} })).response, 'a List of options without options', 'Field must have at least one choice.');
    refusedExactly((await create(context, { name: fieldName(context), field_type: SELECT, field_data: { 0: { text: 'a', order: '1' }, 1: { text: 'a', order: '2' } } })).response, 'two options with one text', 'Field must not have duplicate choices.');
    refusedExactly((await create(context, { name: fieldName(context), field_type: EXTERNAL_ACCOUNT, field_data: { subtype: 'myspace' } })).response, 'an unknown subtype', 'Invalid external account type');
    // Each option has exactly a non-blank text and order, under a non-blank key.
    const options: Array<[string, ParamList, string]> = [
      ['a blank option key', { ' ': { text: 'a', order: '1' } }, "'value' cannot be blank."],
      ['an option without text', { 0: { order: '1' } }, 'text key is missing from field_data'],
      ['an option without order', { 0: { text: 'a' } }, 'order key is missing from field_data'],
      ['an option with a blank text', { 0: { text: ' ', order: '1' } }, 'field_data["text"] cannot be blank.'],
      ['an option with a blank order', { 0: { text: 'a', order: '' } }, 'field_data["order"] cannot be blank.'],
      ['an option with another key', { 0: { text: 'a', order: '1', colour: 'red' } }, 'Unexpected arguments: colour'],
    ];
    for (const [what, field_data, msg] of options) refusedExactly((await create(context, { name: fieldName(context), field_type: SELECT, field_data })).response, what, msg);
    const made: number[] = [];
    try {
      // Zulip creates a github or twitter account field under its default label ("GitHub
      // username"), which names keep unique: only a subtype the organization has not used is tried.
      const existing = await listFields(context);
      const subtype = (['github', 'twitter'] as const).find((candidate) => !existing.some((field) => field.type === EXTERNAL_ACCOUNT && (fieldData(field) as any)?.subtype === candidate || String(field.name).toLowerCase().startsWith(candidate)));
      if (subtype !== undefined) {
        const external = await create(context, { name: fieldName(context), field_type: EXTERNAL_ACCOUNT, field_data: { subtype } });
        made.push(...external.made.map((field) => field.id));
        succeeded(external.response, `an External account of subtype ${subtype}`);
        expect(sameJson(fieldData(external.made[0]!), { subtype }), `listed with field_data ${JSON.stringify(external.made[0]?.field_data)}`);
      }
      const text = await create(context, { name: fieldName(context), field_type: 1, field_data: { ignored: 'yes' } });
      made.push(...text.made.map((field) => field.id));
      expect(text.made[0]?.field_data === '', `a Short text field given field_data is listed with ${JSON.stringify(text.made[0]?.field_data)}, not ""`);
    } finally {
      await removeFields(context, made);
    }
  }),

  check('fields.error-texts', async (context) => {
    refusedExactly((await create(context, { name: fieldName(context) })).response, 'without field_type', "Missing 'field_type' argument", 400, 'REQUEST_VARIABLE_MISSING');
    refusedExactly((await create(context, { name: fieldName(context), field_type: 9 })).response, 'field_type 9', 'Invalid field type.');
    refusedExactly((await context.call('member', 'POST', '/realm/profile_fields', { name: fieldName(context), field_type: 1 })), 'as a member', 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    refusedExactly(await context.call('admin', 'DELETE', '/realm/profile_fields/2000000000'), 'DELETE of a field that does not exist', 'Field id 2000000000 not found.');
    if (context.level < 146) return;
    refusedExactly((await create(context, { name: fieldName(context), field_type: LONG_TEXT, display_in_profile_summary: true })).response, 'Long text in the summary', 'Field type not supported for display in profile summary.');
    // With two summary fields, the count is checked before the type.
    const made: number[] = [];
    try {
      for (let count = summaryCount(await fieldsWithoutOurs(context)); count < 2; count++) {
        const summary = await create(context, { name: fieldName(context), field_type: 1, display_in_profile_summary: true });
        made.push(...summary.made.map((field) => field.id));
        succeeded(summary.response, 'a summary field while fewer than two exist');
      }
      refusedExactly((await create(context, { name: fieldName(context), field_type: 1, display_in_profile_summary: true })).response, 'a third summary field', 'Only 2 custom profile fields can be displayed in the profile summary.');
      refusedExactly((await create(context, { name: fieldName(context), field_type: LONG_TEXT, display_in_profile_summary: true })).response, 'a Long text field as a third summary field', 'Only 2 custom profile fields can be displayed in the profile summary.');
    } finally {
      await removeFields(context, made);
    }
  }),

  check('fields.listing-shape', async (context) => {
    const queue = await registerQueue(context, 'other', ['custom_profile_fields']);
    const made: number[] = [];
    try {
      // Without hint and flags: the listing shows their defaults.
      const { response, made: now } = await create(context, { name: fieldName(context), field_type: 1 });
      made.push(...now.map((field) => field.id));
      const id = succeeded(response, 'POST /realm/profile_fields').id;
      const list = await listFields(context);
      const orders = list.map((field: any) => field.order);
      expect(orders.every((order: number, index: number) => index === 0 || orders[index - 1] <= order), `GET /realm/profile_fields is not ordered by order: ${JSON.stringify(orders)}`);
      const field: any = list.find((candidate) => candidate.id === id);
      expect(field, `the create answered id ${id}, which GET /realm/profile_fields does not list`);
      const keys = ['id', 'name', 'type', 'hint', 'field_data', 'order', ...(context.level >= 244 ? ['required'] : []), ...(context.level >= 296 ? ['editable_by_user'] : [])].sort();
      const defaults = field && field.hint === '' && (context.level < 244 || field.required === false) && (context.level < 296 || field.editable_by_user === true);
      expect(JSON.stringify(Object.keys(field).sort()) === JSON.stringify(keys) && field.field_data === '' && field.order === id && defaults, `the new field is listed as ${JSON.stringify(field)}; expected the keys ${keys.join(', ')}, field_data "" and order ${id}, hint "", required false and editable_by_user true where the level has them`);
      const [event] = await pollEvents(context, 'other', queue, (seen) => seen.length > 0);
      expect(event?.type === 'custom_profile_fields' && sameJson(event.fields, list), `the event is ${JSON.stringify(event)}; expected {type: "custom_profile_fields", fields: the whole list}`);
    } finally {
      await removeFields(context, made);
      await queue.remove();
    }
  }, ['events']),
];

export const FIELDS_CHECKS: readonly Check[] = sharing(['profile fields'], [...mustChecks, ...decisionChecks]);

export const FIELDS_OPERATIONS: readonly SpecOperation[] = [
  {
    name: 'POST /realm/profile_fields', since: 1, as: 'admin', adminOnly: true,
    async prepare(context) {
      const before = new Set((await listFields(context)).map((field) => field.id));
      const name = fieldName(context);
      return {
        method: 'POST', path: '/realm/profile_fields',
        valid: { name, field_type: 1 },
        invalid: { path: '/realm/profile_fields', params: { name, field_type: 99 } },
        observe: async () => JSON.stringify(ours(context, await listFields(context)).map((field) => field.id).sort((a, b) => a - b)),
        undo: async () => removeFields(context, ours(context, await listFields(context)).filter((field) => !before.has(field.id)).map((field) => field.id)),
      };
    },
  },
];
