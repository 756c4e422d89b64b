// Custom profile fields: spec "Resources: Custom profile field" and "Endpoints 4. Create a
// custom profile field", with Zulip's GET and DELETE /realm/profile_fields to read and remove them.

import { everyone } from './defaults.js';
import { listening, sendEvent } from './events.js';
import type { Request } from './http.js';
import { has } from './levels.js';
import type { ProfileField, ProfileFieldType, Realm } from './model.js';
import { JsonError, checkDict, missingArgument, pathId } from './params.js';
import { characterLength } from './text.js';
import { checkAdministrator } from './users.js';

const LONG_TEXT = 2;
const SELECT = 3;
const USER = 6;
const EXTERNAL_ACCOUNT = 7;
const MAX_SUMMARY_FIELDS = 2;

/** fields.field-type-values: 1 to 8, Pronouns (8) from level 151. */
function checkFieldType(realm: Realm, type: number): ProfileFieldType {
  const last = has(realm.featureLevel, 'pronounsFieldType') ? 8 : 7;
  if ((type >= 1 && type <= last) || (realm.fault('fields.field-type-values') && type === 9)) return type as ProfileFieldType;
  throw new JsonError(realm.fault('fields.error-texts') ? 'Unknown field type.' : 'Invalid field type.');
}

/** fields.summary-limit: at most two summary fields in the organization. */
function checkSummaryRoom(realm: Realm): void {
  const count = [...realm.profileFields.values()].filter((field) => field.displayInProfileSummary).length + (realm.fault('fields.summary-count-follows-model') ? deletedSummaryFields(realm) : 0);
  if (count >= MAX_SUMMARY_FIELDS && !realm.fault('fields.summary-limit')) throw new JsonError('Only 2 custom profile fields can be displayed in the profile summary.');
}

/** fields.summary-types: Long text and Person picker fields cannot be in the summary. */
function checkSummaryType(realm: Realm, type: ProfileFieldType): void {
  if ((type === LONG_TEXT && !realm.fault('fields.summary-types')) || type === USER) throw new JsonError('Field type not supported for display in profile summary.');
}

/** fields.select-options; fields.field-data-rules: what each type's field_data holds, as stored. */
function checkFieldData(realm: Realm, type: ProfileFieldType, data: Record<string, unknown>): unknown {
  const lenient = realm.alternate('fields.field-data-rules');
  if (type === SELECT) {
    if (Object.keys(data).length === 0 && !lenient && !realm.fault('fields.field-data-rules')) throw new JsonError('Field must have at least one choice.');
    const texts = new Set<string>();
    for (const [key, option] of Object.entries(data)) {
      if (key.trim() === '') throw new JsonError("'value' cannot be blank.");
      const dict = checkDict(option, `field_data["${key}"]`);
      for (const name of ['text', 'order']) {
        if (name === 'order' && realm.fault('fields.select-options')) continue;
        if (!(name in dict)) throw new JsonError(`${name} key is missing from field_data`);
        if (typeof dict[name] !== 'string') throw new JsonError(`field_data["${key}"]["${name}"] is not a string`);
        if ((dict[name] as string).trim() === '') throw new JsonError(`field_data["${name}"] cannot be blank.`);
      }
      const extra = Object.keys(dict).filter((name) => name !== 'text' && name !== 'order');
      if (extra.length > 0) throw new JsonError(`Unexpected arguments: ${extra.join(', ')}`);
      if (texts.has(dict.text as string) && !lenient) throw new JsonError('Field must not have duplicate choices.');
      texts.add(dict.text as string);
    }
    return lenient ? data : JSON.stringify(data);
  }
  if (type === EXTERNAL_ACCOUNT) {
    if (lenient) return data;
    const subtype = data.subtype;
    if (subtype === undefined) throw new JsonError('subtype key is missing from field_data');
    if (typeof subtype !== 'string' || subtype.trim() === '') throw new JsonError('field_data["subtype"] cannot be blank.');
    if (!['github', 'twitter', 'custom'].includes(subtype)) throw new JsonError('Invalid external account type');
    if (subtype === 'custom') {
      const pattern = data.url_pattern;
      if (typeof pattern !== 'string') throw new JsonError('Custom external account must define URL pattern');
      if (pattern.split('%(username)s').length !== 2) throw new JsonError("URL pattern must contain '%(username)s'.");
      if (!/^https?:\/\/[^\s/]+/.test(pattern)) throw new JsonError('field_data["url_pattern"] is not a URL');
    }
    return JSON.stringify(subtype === 'custom' ? { subtype, url_pattern: data.url_pattern } : { subtype });
  }
  return lenient ? data : '';
}

/**
 * fields.name-optional: the spec's table does not require `name`; a field created without one
 * has the empty name. fields.name-rules: Zulip strips a given name, refuses a blank one, bounds
 * name and hint, and keeps names unique.
 */
function checkNameAndHint(realm: Realm, given: string | undefined, hint: string): string {
  if (given === undefined && realm.fault('fields.name-optional')) throw new JsonError('Label cannot be blank.');
  if (realm.alternate('fields.name-rules')) {
    if (characterLength(given ?? '') > 60) throw new JsonError('name is longer than 60 characters');
    if (characterLength(hint) > 120) throw new JsonError('hint is longer than 120 characters');
    return given ?? '';
  }
  const name = (given ?? '').trim();
  if (name === '' && given !== undefined) throw new JsonError('Label cannot be blank.');
  if (characterLength(hint) > 80) throw new JsonError('hint is too long (limit: 80 characters)');
  if (characterLength(name) > 40) throw new JsonError('name is too long (limit: 40 characters)');
  return name;
}

/** The Zulip dialect's unique names (fields.name-rules). */
function checkNameFree(realm: Realm, name: string): void {
  if (realm.alternate('fields.name-rules') || realm.fault('fields.name-rules')) return;
  if (namesInUse(realm).has(name)) throw new JsonError('A field with that label already exists.');
}

/** How many fields carry each name, so that a create looks names up without a scan. */
const fieldNames = new WeakMap<Realm, Map<string, number>>();
function namesInUse(realm: Realm): Map<string, number> {
  let names = fieldNames.get(realm);
  if (!names) {
    names = new Map();
    for (const field of realm.profileFields.values()) names.set(field.name, (names.get(field.name) ?? 0) + 1);
    fieldNames.set(realm, names);
  }
  return names;
}

function countName(realm: Realm, name: string, by: 1 | -1): void {
  const names = namesInUse(realm);
  const count = (names.get(name) ?? 0) + by;
  if (count > 0) names.set(name, count);
  else names.delete(name);
}

/** fields.listing-shape */
export function profileFieldDict(realm: Realm, field: ProfileField): Record<string, unknown> {
  const level = realm.featureLevel;
  const alternate = realm.alternate('fields.listing-shape');
  const dict: Record<string, unknown> = { id: field.id, name: field.name, type: field.type, hint: field.hint, field_data: field.fieldData, order: field.order };
  if (realm.fault('fields.listing-shape') && typeof field.fieldData === 'string') dict.field_data = field.fieldData === '' ? {} : JSON.parse(field.fieldData);
  if (has(level, 'profileFieldSummary') && (field.displayInProfileSummary || alternate)) dict.display_in_profile_summary = field.displayInProfileSummary;
  if (has(level, 'profileFieldRequired')) dict.required = field.required;
  if (has(level, 'profileFieldEditableByUser')) dict.editable_by_user = field.editableByUser;
  return dict;
}

export function profileFieldsInOrder(realm: Realm): ProfileField[] {
  const fields = [...realm.profileFields.values()].sort((a, b) => a.order - b.order);
  return realm.alternate('fields.listing-shape') ? fields.reverse() : fields;
}

function sendProfileFieldsEvent(realm: Realm, change: { add: ProfileField } | { remove: number }): void {
  if (!listening(realm, 'custom_profile_fields', everyone(realm))) return;
  if (!realm.alternate('fields.listing-shape')) {
    sendEvent(realm, { type: 'custom_profile_fields', fields: profileFieldsInOrder(realm).map((field) => profileFieldDict(realm, field)) }, everyone(realm));
  } else if ('add' in change) {
    sendEvent(realm, { type: 'custom_profile_fields', op: 'add', field: profileFieldDict(realm, change.add) }, everyone(realm));
  } else {
    sendEvent(realm, { type: 'custom_profile_fields', op: 'remove', field_id: change.remove }, everyone(realm));
  }
}

/** The fault fields.summary-count-follows-model: deleted summary fields still count. */
const deletedSummary = new WeakMap<Realm, number>();
function deletedSummaryFields(realm: Realm): number {
  return deletedSummary.get(realm) ?? 0;
}

// ---- Operations ---------------------------------------------------------------------------

/** Zulip's order of checks: summary room, field_data, name and hint, type, summary type, uniqueness; the alternate dialect checks the type first. */
export function createProfileField({ realm, user, params }: Request) {
  checkAdministrator(realm, user, true);
  const level = realm.featureLevel;
  const givenName = params.string('name');
  const hint = params.string('hint') ?? '';
  let typeNumber = params.int('field_type');
  if (typeNumber === undefined) {
    if (!realm.fault('fields.field-type-required')) throw missingArgument('field_type');
    typeNumber = 1;
  }
  const data = checkDict(params.json('field_data') ?? {}, 'field_data');
  // fields.flags-at-their-levels: a flag is a parameter only from its level.
  const summaryParameter = has(level, 'profileFieldSummary') || realm.fault('fields.flags-at-their-levels');
  const summary = (summaryParameter ? params.bool('display_in_profile_summary') : undefined) ?? false;
  const required = (has(level, 'profileFieldRequired') ? params.bool('required') : undefined) ?? false;
  const editableByUser = (has(level, 'profileFieldEditableByUser') ? params.bool('editable_by_user') : undefined) ?? true;
  if (realm.alternate('fields.error-texts')) checkFieldType(realm, typeNumber);
  if (summary) checkSummaryRoom(realm);
  const type = checkFieldType(realm, typeNumber);
  const fieldData = checkFieldData(realm, type, data);
  const name = checkNameAndHint(realm, givenName, hint);
  if (summary) checkSummaryType(realm, type);
  checkNameFree(realm, name);
  const id = realm.nextProfileFieldId();
  const field: ProfileField = { id, name, hint, type, fieldData, order: id, displayInProfileSummary: summary, required, editableByUser };
  namesInUse(realm); // counted before the new field is in the map
  realm.profileFields.set(id, field);
  countName(realm, name, 1);
  sendProfileFieldsEvent(realm, { add: field });
  return { id: realm.fault('fields.create-returns-id') ? id + 1 : id };
}

export function getProfileFields({ realm }: Request) {
  return { custom_fields: profileFieldsInOrder(realm).map((field) => profileFieldDict(realm, field)) };
}

export function deleteProfileField({ realm, user, path }: Request) {
  checkAdministrator(realm, user);
  const id = pathId(path.field_id!);
  const field = realm.profileFields.get(id);
  if (!field) throw new JsonError(`Field id ${id} not found.`);
  realm.profileFields.delete(id);
  countName(realm, field.name, -1);
  if (field.displayInProfileSummary) deletedSummary.set(realm, deletedSummaryFields(realm) + 1);
  sendProfileFieldsEvent(realm, { remove: id });
  return {};
}
