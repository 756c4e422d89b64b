// Custom profile fields: spec "Resources: Custom profile field" and "Endpoints 4. Create a
// custom profile field", with Zulip's GET and DELETE /realm/profile_fields to read and remove them.

import { everyone, listening, sendEvent } from '../model/events.js';
import type { Request } from '../model/request.js';
import { has } from '../model/levels.js';
import type { ProfileField, ProfileFieldsChange, ProfileFieldType, Realm } from '../model/model.js';
import { JsonError, checkDict, missingArgument, pathId, type Params } from '../model/params.js';

export const LONG_TEXT = 2;
export const SELECT = 3;
const USER = 6;
export const EXTERNAL_ACCOUNT = 7;
const MAX_SUMMARY_FIELDS = 2;

// ---- Rules ------------------------------------------------------------------------------

/** fields.field-type-required */
function fieldTypeParameter(params: Params): number {
  return fieldTypeGiven(params.int('field_type'));
}

/** fields.error-texts: a request without field_type is refused in its own words (the check of the type's values would refuse it anyway). */
function fieldTypeGiven(type: number | undefined): number {
  if (type === undefined) throw missingArgument('field_type');
  return type;
}

/** fields.field-type-values: 1 to 8, Pronouns (8) from level 151. */
function checkFieldType(realm: Realm, type: number): ProfileFieldType {
  const last = has(realm.featureLevel, 'pronounsFieldType') ? 8 : 7;
  if (type >= 1 && type <= last) return type as ProfileFieldType;
  throw new JsonError('Invalid field type.');
}

/** fields.flags-at-their-levels: display_in_profile_summary is a parameter from level 146. */
function readsSummaryFlag(realm: Realm): boolean {
  return has(realm.featureLevel, 'profileFieldSummary');
}

/** fields.summary-count-follows-model: the fields in the summary now. */
function summaryFieldCount(realm: Realm): number {
  return [...realm.profileFields.values()].filter((field) => field.displayInProfileSummary).length;
}

/** fields.summary-limit: at most two summary fields in the organization. */
function checkSummaryRoom(realm: Realm): void {
  if (realm.rules.summaryFieldCount(realm) >= MAX_SUMMARY_FIELDS) throw new JsonError('Only 2 custom profile fields can be displayed in the profile summary.');
}

/** fields.summary-types: Long text and Person picker fields cannot be in the summary. */
function checkSummaryType(type: ProfileFieldType): void {
  if (type === LONG_TEXT || type === USER) throw new JsonError('Field type not supported for display in profile summary.');
}

/** fields.select-options: each option an object with a string text and a string order; returns its text. */
function checkSelectOption(key: string, option: unknown): string {
  checkOptionKey(key);
  const dict = checkDict(option, optionName(key));
  for (const name of ['text', 'order']) {
    checkOptionHas(dict, name);
    if (typeof dict[name] !== 'string') throw new JsonError(`${optionName(key)}["${name}"] is not a string`);
    checkOptionValue(name, dict[name] as string);
  }
  checkOnlyTextAndOrder(dict);
  return dict.text as string;
}

/** fields.error-texts: an option's name in a refusal. */
const optionName = (key: string) => `field_data["${key}"]`;

/** fields.field-data-rules: an option's key is not blank. */
function checkOptionKey(key: string): void {
  if (key.trim() === '') throw new JsonError("'value' cannot be blank.");
}

/** fields.field-data-rules: an option without text or order is refused in Zulip's words (the check of its type would refuse it anyway). */
function checkOptionHas(dict: Record<string, unknown>, name: string): void {
  if (!(name in dict)) throw new JsonError(`${name} key is missing from field_data`);
}

/** fields.field-data-rules: an option's text and order are not blank. */
function checkOptionValue(name: string, value: string): void {
  if (value.trim() === '') throw new JsonError(`field_data["${name}"] cannot be blank.`);
}

/** fields.field-data-rules: an option has no key but text and order. */
function checkOnlyTextAndOrder(dict: Record<string, unknown>): void {
  const extra = Object.keys(dict).filter((name) => name !== 'text' && name !== 'order');
  if (extra.length > 0) throw new JsonError(`Unexpected arguments: ${extra.join(', ')}`);
}

/** fields.name-optional: the spec's table does not require `name`; a field created without one has the empty name. */
function checkFieldNameOptional(_given: string | undefined): void {}

/** fields.create-returns-id */
function idOfCreatedField(field: ProfileField): number {
  return field.id;
}

/** fields.summary-count-follows-model: a deleted field leaves the organization. */
function removeProfileField(realm: Realm, field: ProfileField): void {
  realm.profileFields.delete(field.id);
  countName(realm, field.name, -1);
}

/** fields.listing-shape: field_data as stored. */
function listedFieldData(field: ProfileField): unknown {
  return field.fieldData;
}

export const FIELD_RULES = {
  fieldTypeParameter, checkFieldType, readsSummaryFlag, summaryFieldCount, checkSummaryRoom, checkSummaryType, checkSelectOption,
  checkFieldNameOptional, idOfCreatedField, removeProfileField, listedFieldData,
};

// ---- Validation ---------------------------------------------------------------------------

/** What each type's field_data holds, as stored. */
function checkFieldData(realm: Realm, type: ProfileFieldType, data: Record<string, unknown>): unknown {
  if (type === SELECT) {
    realm.dialect.checkSelectHasChoices(data);
    const texts = new Set<string>();
    for (const [key, option] of Object.entries(data)) {
      const text = realm.rules.checkSelectOption(key, option);
      realm.dialect.checkSelectChoiceUnique(texts, text);
      texts.add(text);
    }
    return realm.dialect.storedFieldData(type, data);
  }
  return otherFieldData(realm, type, data);
}

/** fields.field-data-rules: what a field of another type stores (the spec leaves an External account's field_data unstabilized, and no other type uses it). */
function otherFieldData(realm: Realm, type: ProfileFieldType, data: Record<string, unknown>): unknown {
  if (type === EXTERNAL_ACCOUNT) return realm.dialect.externalAccountData(data);
  return realm.dialect.storedFieldData(type, data);
}

/** fields.name-rules: how many fields carry each name, so that a create looks names up without a scan. */
const fieldNames = new WeakMap<Realm, Map<string, number>>();
/** fields.name-rules */
export function namesInUse(realm: Realm): Map<string, number> {
  let names = fieldNames.get(realm);
  if (!names) {
    names = new Map();
    for (const field of realm.profileFields.values()) names.set(field.name, (names.get(field.name) ?? 0) + 1);
    fieldNames.set(realm, names);
  }
  return names;
}

/** fields.name-rules */
function countName(realm: Realm, name: string, by: 1 | -1): void {
  const names = namesInUse(realm);
  const count = (names.get(name) ?? 0) + by;
  if (count > 0) names.set(name, count);
  else names.delete(name);
}

/** fields.listing-shape */
export function profileFieldDict(realm: Realm, field: ProfileField): Record<string, unknown> {
  const level = realm.featureLevel;
  const dict: Record<string, unknown> = { id: field.id, name: field.name, type: field.type, hint: field.hint, field_data: realm.rules.listedFieldData(field), order: field.order };
  if (has(level, 'profileFieldSummary') && (field.displayInProfileSummary || realm.dialect.listsUnsetSummaryFlag())) dict.display_in_profile_summary = field.displayInProfileSummary;
  if (has(level, 'profileFieldRequired')) dict.required = field.required;
  if (has(level, 'profileFieldEditableByUser')) dict.editable_by_user = field.editableByUser;
  return dict;
}

/** fields.listing-shape: the fields in their order. */
export function profileFieldsInOrder(realm: Realm): ProfileField[] {
  return realm.dialect.profileFieldsListed([...realm.profileFields.values()].sort((a, b) => a.order - b.order));
}

/** fields.listing-shape: what a field is created with where the request does not say (the spec states no defaults; Zulip's). */
const FIELD_DEFAULTS = { hint: '', required: false, editableByUser: true } as const;

/** fields.listing-shape: a parameter as given, or its default. */
const givenOr = <T>(given: T | undefined, fallback: T): T => given ?? fallback;

/** fields.error-texts: field_data's name in a refusal. */
const FIELD_DATA_NAME = 'field_data';

/** fields.error-texts: the alternate dialect refuses an unknown type before anything else (the refusal a request with two faults gets). */
function checkTypeFirstInDialect(realm: Realm, typeNumber: number): void {
  if (realm.dialect.checksFieldTypeFirst()) realm.rules.checkFieldType(realm, typeNumber);
}

/** fields.listing-shape: the new field, to every user's clients. */
function announceCreatedField(realm: Realm, field: ProfileField): void {
  sendProfileFieldsEvent(realm, { add: field });
}

/** fields.listing-shape: the change, to every user's clients. */
function sendProfileFieldsEvent(realm: Realm, change: ProfileFieldsChange): void {
  if (listening(realm, 'custom_profile_fields', everyone(realm))) sendEvent(realm, realm.dialect.profileFieldsEvent(realm, change), everyone(realm));
}

// ---- Operations ---------------------------------------------------------------------------

/** Zulip's order of checks: summary room, field_data, name and hint, type, summary type, uniqueness; the dialect may check the type first. */
export function createProfileField({ realm, user, params }: Request) {
  realm.rules.checkAdministrator(realm, user, true);
  const level = realm.featureLevel;
  const givenName = params.string('name');
  const hint = givenOr(params.string('hint'), FIELD_DEFAULTS.hint);
  const typeNumber = realm.rules.fieldTypeParameter(params);
  const data = checkDict(params.json('field_data') ?? {}, FIELD_DATA_NAME);
  const summary = (realm.rules.readsSummaryFlag(realm) ? params.bool('display_in_profile_summary') : undefined) ?? false;
  const required = givenOr(has(level, 'profileFieldRequired') ? params.bool('required') : undefined, FIELD_DEFAULTS.required);
  const editableByUser = givenOr(has(level, 'profileFieldEditableByUser') ? params.bool('editable_by_user') : undefined, FIELD_DEFAULTS.editableByUser);
  checkTypeFirstInDialect(realm, typeNumber);
  if (summary) realm.rules.checkSummaryRoom(realm);
  const type = realm.rules.checkFieldType(realm, typeNumber);
  const fieldData = checkFieldData(realm, type, data);
  realm.rules.checkFieldNameOptional(givenName);
  const name = realm.dialect.profileFieldName(givenName, hint);
  if (summary) realm.rules.checkSummaryType(type);
  realm.dialect.checkFieldNameFree(realm, name);
  const id = realm.nextId('profileField');
  const field: ProfileField = { id, name, hint, type, fieldData, order: id, displayInProfileSummary: summary, required, editableByUser };
  namesInUse(realm); // counted before the new field is in the map
  realm.profileFields.set(id, field);
  countName(realm, name, 1);
  announceCreatedField(realm, field);
  return { id: realm.rules.idOfCreatedField(field) };
}

export function getProfileFields({ realm }: Request) {
  return { custom_fields: profileFieldsInOrder(realm).map((field) => profileFieldDict(realm, field)) };
}

export function deleteProfileField({ realm, user, path }: Request) {
  realm.rules.checkAdministrator(realm, user);
  const id = pathId(path.field_id!);
  const field = realm.profileFields.get(id);
  if (!field) throw new JsonError(`Field id ${id} not found.`);
  realm.rules.removeProfileField(realm, field);
  sendProfileFieldsEvent(realm, { remove: id });
  return {};
}
