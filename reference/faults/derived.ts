// Derived faults: instead of faults written one by one for bugs someone thought of, generic
// operators applied to every rule function of the spec (the SpecRules table, http/rules.ts) where
// each fits the function's result: a check that lets everything through or refuses everything, a
// predicate negated or made constant, a number off by one, a text cut or cased, a list short of an
// item, reversed or with one twice, a record short of a field. Each derived fault breaks one rule
// function in one way, so each violates the statement that function carries out (or, where no
// request can show it, is equivalent: `npm run derived` lists every miss with its reason).
// Named `derived:<function>:<operator>` and switched on as seeded faults are (TEAMCHAT_FAULTS).

import type { SpecRules } from '../model/model.js';
import { JsonError } from '../model/params.js';

/** What a rule function gives back, as its declaration in SpecRules says (scripts/derived.test.ts holds this to model.ts). */
export type ResultKind = 'void' | 'boolean' | 'number' | 'string' | 'list' | 'optional' | 'record' | 'value';

export const RESULT_KINDS: Readonly<Record<keyof SpecRules, ResultKind>> = {
  successEnvelope: 'record', listsIgnoredParameters: 'boolean', ignoredParametersListed: 'list', userOfCredentials: 'optional', checkAdministrator: 'void',
  settingsOfNewUser: 'record', ownDataAudience: 'list', settingsOfLevel: 'list', readBooleanSetting: 'boolean', checkSettingValue: 'void', storeDefaults: 'void',
  changedDefaults: 'list', checkRequiredDraftKeys: 'void', draftTextField: 'string', checkDraftType: 'value', draftTimestampNow: 'number',
  checkTopicWithoutNullBytes: 'void', checkOneChannel: 'number', unaddressedDraft: 'record', draftsParameter: 'list', storeDraft: 'void', idsOfCreatedDrafts: 'list',
  announceCreatedDrafts: 'void', removeDraft: 'void', deleteDraftsSilently: 'void', messageTypeNames: 'record', checkMessageType: 'value', channelIdOfTo: 'number',
  userIdsOfTo: 'list', checkScheduledRecipientIds: 'list', checkScheduledChannel: 'value', checkRequiredTopic: 'void', emptyTopicNamesMeanEmpty: 'boolean',
  emptyTopicsValid: 'boolean', fitTopicToLimit: 'string', fitContentToLimit: 'string', ignoreTopicOfDirectMessage: 'void', checkToGivenOnTypeChange: 'void',
  checkTopicGivenOnChangeToChannel: 'void', checkFailedMessageGetsTimestamp: 'void', isOwnScheduledMessage: 'boolean', scheduledMessageNotFound: 'value',
  applyScheduledEdit: 'void', deleteScheduledMessageById: 'void', removeScheduledMessage: 'void', dueScheduledMessages: 'list', scheduledMessageSender: 'value',
  scheduledMessageToSend: 'record', splitsWildcardFlags: 'boolean', isSilentMention: 'boolean', alertWordForm: 'string', flagsOfNewMessage: 'number',
  rendersByDefault: 'boolean', markReadOnLeaving: 'void', flagParameter: 'string', checkFlagOperation: 'value', checkFlagInTable: 'void', checkChangeableFlag: 'value',
  messagesToChange: 'record', flagsOfHistoricalMessage: 'number', changeFlag: 'boolean', listedMessages: 'list', listsIgnoredChannels: 'boolean',
  fieldTypeParameter: 'number', checkFieldType: 'value', readsSummaryFlag: 'boolean', summaryFieldCount: 'number', checkSummaryRoom: 'void', checkSummaryType: 'void',
  checkSelectOption: 'string', checkFieldNameOptional: 'void', idOfCreatedField: 'number', removeProfileField: 'void', listedFieldData: 'value',
  readsReminderNote: 'boolean', deliveredNote: 'string', reminderSender: 'value', idOfCreatedReminder: 'number', dueReminders: 'list', emojiNameKey: 'string',
  checkEmojiNameCharacters: 'void', filePartsAllowed: 'number', checkOneFile: 'value', isImageOrGif: 'boolean', isOtherImage: 'boolean', isWholeImage: 'boolean',
  largestEmojiFile: 'number', mayUploadEmojiByConfiguration: 'boolean', storeEmoji: 'void', deactivateEmoji: 'void', receivesTyping: 'boolean',
};

interface Operator {
  /** The kinds of result it applies to. */
  readonly fits: readonly ResultKind[];
  /** What the function then does wrong, in words that follow its name. */
  readonly does: string;
  /** The faulty function, from the one it replaces. */
  wrap(base: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown;
}

/** The fault an operator's refusals carry: the words of a refusal the spec has for bad input. */
const refusal = () => new JsonError('Invalid request');

/** A result changed where it has the operator's type; any other result passes unchanged. */
const onResult = (change: (value: unknown) => unknown) => (base: (...args: unknown[]) => unknown) => (...args: unknown[]) => change(base(...args));
const ifString = (change: (value: string) => string) => onResult((value) => (typeof value === 'string' ? change(value) : value));
const ifList = (change: (value: unknown[]) => unknown[]) => onResult((value) => (Array.isArray(value) ? change(value) : value));
const ifNumber = (change: (value: number) => number) => onResult((value) => (typeof value === 'number' ? change(value) : value));

export const OPERATORS: Readonly<Record<string, Operator>> = {
  'skip': { fits: ['void'], does: 'does nothing: a check lets every value through, a change is not made', wrap: () => () => undefined },
  'refuse': { fits: ['void', 'value'], does: 'refuses every request that reaches it', wrap: () => () => { throw refusal(); } },
  'negate': { fits: ['boolean'], does: 'answers the opposite', wrap: onResult((value) => (typeof value === 'boolean' ? !value : value)) },
  'always-true': { fits: ['boolean'], does: 'always answers true', wrap: () => () => true },
  'always-false': { fits: ['boolean'], does: 'always answers false', wrap: () => () => false },
  'plus-one': { fits: ['number'], does: 'answers one more', wrap: ifNumber((value) => value + 1) },
  'minus-one': { fits: ['number'], does: 'answers one less', wrap: ifNumber((value) => value - 1) },
  'zero': { fits: ['number'], does: 'answers zero', wrap: ifNumber(() => 0) },
  'drop-last-character': { fits: ['string'], does: 'gives its text without the last character', wrap: ifString((value) => Array.from(value).slice(0, -1).join('')) },
  'upper-case': { fits: ['string'], does: 'gives its text in capitals', wrap: ifString((value) => value.toUpperCase()) },
  'empty-string': { fits: ['string'], does: 'gives an empty text', wrap: ifString(() => '') },
  'drop-first': { fits: ['list'], does: 'gives its list without the first item', wrap: ifList((value) => value.slice(1)) },
  'drop-last': { fits: ['list'], does: 'gives its list without the last item', wrap: ifList((value) => value.slice(0, -1)) },
  'reverse': { fits: ['list'], does: 'gives its list in reverse order', wrap: ifList((value) => [...value].reverse()) },
  'repeat-first': { fits: ['list'], does: 'gives its list with the first item twice', wrap: ifList((value) => (value.length === 0 ? value : [value[0], ...value])) },
  'empty-list': { fits: ['list'], does: 'gives an empty list', wrap: ifList(() => []) },
  'undefined': { fits: ['optional'], does: 'finds nothing', wrap: () => () => undefined },
  'drop-last-key': {
    fits: ['record'], does: 'gives its record without its last field',
    wrap: onResult((value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const keys = Object.keys(value);
      if (keys.length === 0) return value;
      const { [keys[keys.length - 1]!]: _dropped, ...rest } = value as Record<string, unknown>;
      return rest;
    }),
  },
};

export const DERIVED_PREFIX = 'derived:';

/** Every derived fault of these functions: each operator at each function whose result it fits. */
export function derivedFaultNames(functions: Iterable<keyof SpecRules> = Object.keys(RESULT_KINDS) as Array<keyof SpecRules>): string[] {
  const names: string[] = [];
  for (const name of functions) {
    for (const [operator, { fits }] of Object.entries(OPERATORS)) if (fits.includes(RESULT_KINDS[name])) names.push(`${DERIVED_PREFIX}${name}:${operator}`);
  }
  return names;
}

/** A derived fault by its name, as the seeded faults' table gives one; undefined when the name is none. */
export function derivedFault(name: string): { readonly does: string; readonly rules: Partial<Record<keyof SpecRules, (base: never) => unknown>> } | undefined {
  if (!name.startsWith(DERIVED_PREFIX)) return undefined;
  const [member, operatorName] = name.slice(DERIVED_PREFIX.length).split(':') as [keyof SpecRules, string];
  const operator = OPERATORS[operatorName];
  if (!operator || !(member in RESULT_KINDS) || !operator.fits.includes(RESULT_KINDS[member])) return undefined;
  return { does: `${member} ${operator.does}`, rules: { [member]: operator.wrap as (base: never) => unknown } };
}
