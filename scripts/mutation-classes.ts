// What each top-level declaration of an area module is, decided by where it stands and what it
// serves, never by what a mutation run found: a mutant's class is the class of the declaration it
// is in. scripts/mutation.test.ts holds the table to the modules: every declaration is in it; a
// function of the area's rule table that names a must rule in its comment, and the handler of a
// spec operation, are spec code; code outside the spec is not called from spec code.
//
// - spec: what the spec states (its operations, their rules, the deliveries it speaks of);
// - open: what serves only points the spec leaves open, each named with the decisions it serves;
// - outside: what serves only the Zulip endpoints the suite uses to set up and observe, each named
//   with the endpoints it serves.

import type { DecisionId } from '../conformance/rules.js';

export type MutantClass = 'spec' | 'open' | 'outside';

export interface AreaClasses {
  readonly spec: readonly string[];
  readonly open: Readonly<Record<string, readonly DecisionId[]>>;
  readonly outside: Readonly<Record<string, string>>;
}

/** The spec's operations, as the reference's routes write them: their handlers are spec code. */
export const SPEC_OPERATIONS: readonly string[] = [
  'PATCH /realm/user_settings_defaults', 'PATCH /scheduled_messages/{id}', 'DELETE /scheduled_messages/{id}', 'POST /realm/profile_fields',
  'POST /drafts', 'POST /messages/flags', 'POST /reminders', 'POST /realm/emoji/{id}',
];

export const CLASSES: Readonly<Record<string, AreaClasses>> = {
  defaults: {
    spec: ['storeDefaults', 'DEFAULTS_RULES', 'doSetRealmUserDefaults', 'updateRealmUserDefaults'],
    open: { changedDefaults: ['defaults.event-shape'], announceDefaults: ['defaults.event-shape'] },
    outside: { realmUserSettingsDefaultsState: 'POST /register (realm_user_settings_defaults)' },
  },
  drafts: {
    spec: [
      'DRAFT_TYPES', 'DRAFT_KEYS', 'draftTextField', 'REQUIRED_DRAFT_KEYS', 'checkRequiredDraftKeys', 'checkDraftType', 'draftTimestampNow', 'checkTopicWithoutNullBytes',
      'checkOneChannel', 'unaddressedDraft', 'draftsParameter', 'storeDraft', 'idsOfCreatedDrafts', 'announceCreatedDrafts', 'deleteDraftsSilently', 'DRAFT_RULES',
      'channelAddresses', 'channelAddress', 'checkDraft', 'checkChannelDraft', 'checkDirectDraft',
      'doCreateDrafts', 'doDeleteAllDrafts', 'createDrafts',
    ],
    open: {
      checkDraftsSynchronizationEnabled: ['drafts.sync-off-endpoints-refuse'], removeDraft: ['drafts.edit-delete-follow-model'],
      fieldName: ['drafts.error-texts'], UNADDRESSED_TOPIC: ['drafts.topic-normalized'], DRAFTS_EVENT: ['drafts.event-shapes'],
      checkGivenTimestamp: ['drafts.negative-timestamp-rejected'], namesOf: ['drafts.error-texts'], batchNames: ['drafts.error-texts'], editNames: ['drafts.error-texts'], namesInBatch: ['drafts.error-texts'],
    },
    outside: {
      draftDict: 'GET /drafts; POST /register (drafts)', draftsByEditTime: 'GET /drafts; POST /register (drafts)', findDraft: 'PATCH and DELETE /drafts/{id}',
      doEditDraft: 'PATCH /drafts/{id}', doDeleteDraft: 'DELETE /drafts/{id}', getDrafts: 'GET /drafts', editDraft: 'PATCH /drafts/{id}', deleteDraft: 'DELETE /drafts/{id}',
    },
  },
  emoji: {
    spec: [
      'ASCII_NAME', 'UNICODE_NAME', 'MIB', 'emojiNameKey', 'checkEmojiNameCharacters', 'filePartsAllowed', 'checkOneFile', 'isImageOrGif', 'largestEmojiFile',
      'mayUploadEmojiByConfiguration', 'storeEmoji', 'EMOJI_RULES', 'PNG_SIGNATURE', 'activeByKey', 'activeIndex', 'activeEmoji', 'uploadEmoji',
    ],
    open: {
      isOtherImage: ['emoji.image-bytes'], isWholeImage: ['emoji.images-only'], deactivateEmoji: ['emoji.listing-shape'], checkEmojiName: ['emoji.name-rules'],
      mayUploadEmoji: ['emoji.permission'], isWhole: ['emoji.images-only'], IHDR: ['emoji.images-only'], IEND: ['emoji.images-only'], isWholePng: ['emoji.images-only'],
      EXTENSIONS: ['emoji.listing-shape'], extension: ['emoji.listing-shape'], realmEmojiDict: ['emoji.listing-shape'], emojiDict: ['emoji.listing-shape'],
      sendEmojiEvent: ['emoji.listing-shape'], refuseGuests: ['emoji.permission'], checkNameFree: ['emoji.name-rules'], checkOtherImage: ['emoji.image-bytes'],
      checkWholeImage: ['emoji.images-only'], notPermittedToUpload: ['emoji.permission'], invalidImageFormat: ['emoji.image-bytes', 'emoji.images-only'], replaceEmoji: ['emoji.listing-shape'],
    },
    outside: {
      getRealmEmoji: 'GET /realm/emoji', deleteEmoji: 'DELETE /realm/emoji/{name}', TYPES: 'GET /user_avatars/1/emoji/images/{file} (the image served at source_url)',
      serveEmojiImage: 'GET /user_avatars/1/emoji/images/{file}',
    },
  },
  fields: {
    spec: [
      'LONG_TEXT', 'SELECT', 'USER', 'EXTERNAL_ACCOUNT', 'MAX_SUMMARY_FIELDS', 'fieldTypeParameter', 'checkFieldType', 'readsSummaryFlag', 'summaryFieldCount', 'checkSummaryRoom',
      'checkSummaryType', 'checkSelectOption', 'checkFieldNameOptional', 'idOfCreatedField', 'removeProfileField', 'FIELD_RULES', 'checkFieldData', 'createProfileField',
    ],
    open: {
      listedFieldData: ['fields.listing-shape'], fieldNames: ['fields.name-rules'], namesInUse: ['fields.name-rules'], countName: ['fields.name-rules'],
      profileFieldDict: ['fields.listing-shape'], profileFieldsInOrder: ['fields.listing-shape'], sendProfileFieldsEvent: ['fields.listing-shape'],
      fieldTypeGiven: ['fields.error-texts'], optionName: ['fields.error-texts'], checkOptionKey: ['fields.field-data-rules'], checkOptionHas: ['fields.field-data-rules'],
      checkOptionValue: ['fields.field-data-rules'], checkOnlyTextAndOrder: ['fields.field-data-rules'], otherFieldData: ['fields.field-data-rules'],
      FIELD_DEFAULTS: ['fields.listing-shape'], givenOr: ['fields.listing-shape'], FIELD_DATA_NAME: ['fields.error-texts'], checkTypeFirstInDialect: ['fields.error-texts'],
      announceCreatedField: ['fields.listing-shape'],
    },
    outside: { getProfileFields: 'GET /realm/profile_fields', deleteProfileField: 'DELETE /realm/profile_fields/{id}' },
  },
  flags: {
    spec: [
      'CHANGEABLE_FLAGS', 'HISTORICAL_DEFAULT', 'unsubscribedChannelOf', 'withoutRepeats', 'flagParameter', 'checkFlagOperation', 'checkChangeableFlag',
      'messagesToChange', 'flagsOfHistoricalMessage', 'changeFlag', 'listedMessages', 'listsIgnoredChannels', 'FLAG_RULES', 'doUpdateMessageFlags', 'checkMessages', 'checkOp', 'checkFlag',
      'updateMessageFlags',
    ],
    open: {
      flagTableAt: ['flags.error-texts'], checkFlagInTable: ['flags.error-texts'], missingNamed: ['flags.error-texts'], checkHistoryAccess: ['flags.inaccessible-messages'], announceFlags: ['flags.event-shape'],
      messageDetails: ['flags.event-shape'], flagsParameters: ['flags.error-texts'], MESSAGES_NAMED: ['flags.error-texts'],
    },
    outside: {},
  },
  reminders: {
    spec: ['readsReminderNote', 'deliveredNote', 'reminderSender', 'idOfCreatedReminder', 'dueReminders', 'REMINDER_RULES', 'deliverReminders', 'reminderSeenAt', 'createReminder', 'noteAsGiven'],
    open: {
      MAX_NOTE_LENGTH: ['reminders.parameters'], HOUR: ['reminders.parameters'], hashEncode: ['reminders.delivery'], messageUrl: ['reminders.delivery'], reminderContent: ['reminders.delivery'],
      reminderDict: ['reminders.listing-shape'], sendRemindersEvent: ['reminders.listing-shape'], failLateReminders: ['reminders.delivery'], withoutBlankEdges: ['reminders.delivery'],
      REMINDER_CLIENT: ['reminders.delivery'], inOrderOfTime: ['reminders.delivery'], inIdOrder: ['reminders.delivery'], noNote: ['reminders.delivery'],
      deliveryTimeOf: ['reminders.parameters'], checkMessageReadable: ['reminders.parameters'], checkNoteLength: ['reminders.parameters'],
    },
    outside: { remindersOf: 'GET /reminders; POST /register (reminders)', getReminders: 'GET /reminders', deleteReminder: 'DELETE /reminders/{id}' },
  },
  scheduled: {
    spec: [
      'typeIsChange', 'messageTypeNames', 'checkMessageType', 'channelIdOfTo', 'userIdsOfTo', 'checkScheduledRecipientIds', 'checkScheduledChannel', 'checkRequiredTopic', 'emptyTopicNamesMeanEmpty',
      'emptyTopicsValid', 'fitTopicToLimit', 'fitContentToLimit', 'ignoreTopicOfDirectMessage', 'checkToGivenOnTypeChange', 'checkTopicGivenOnChangeToChannel',
      'checkFailedMessageGetsTimestamp', 'isOwnScheduledMessage', 'scheduledMessageNotFound', 'applyScheduledEdit', 'deleteScheduledMessageById', 'removeScheduledMessage',
      'scheduledMessageToSend', 'dueScheduledMessages', 'SCHEDULED_RULES', 'parseTo', 'checkRecipient', 'checkEditedTopic', 'topicRequired', 'findScheduledMessage',
      'doEditScheduledMessage', 'doDeleteScheduledMessage', 'deliverScheduledMessages', 'seenAt', 'editScheduledMessage', 'deleteScheduledMessage',
    ],
    open: {
      scheduledMessageSender: ['scheduled.delivery'], scheduledMessageDict: ['scheduled.event-shapes', 'scheduled.listing-shape'], sendScheduledMessagesEvent: ['scheduled.event-shapes'],
      rescheduleOnNewTime: ['scheduled.edit-clears-failed'], failUnsendable: ['scheduled.late-delivery-fails'], doFailScheduledMessage: ['scheduled.late-delivery-fails'],
      forgetDelivered: ['scheduled.delivery'], lookedUpFirst: ['scheduled.error-texts'], checkSomethingGiven: ['scheduled.error-texts'], typeGivenBeforeLookUp: ['scheduled.error-texts'],
      checkNewTimeInFuture: ['scheduled.future-timestamp'], checkNotDelivered: ['scheduled.delivery'], checkNotAList: ['scheduled.error-texts'], awaitingDelivery: ['scheduled.delivery'],
      TO_ITEM_NAME: ['scheduled.error-texts'], checkTopicWithoutNullBytes: ['scheduled.error-texts'], inDeliveryOrder: ['scheduled.delivery'], DELIVERY_CLIENT: ['scheduled.delivery'],
    },
    outside: {
      undeliveredScheduledMessages: 'GET /scheduled_messages; POST /register (scheduled_messages)', doScheduleMessage: 'POST /scheduled_messages', createScheduledMessage: 'POST /scheduled_messages',
      getScheduledMessages: 'GET /scheduled_messages',
    },
  },
  // The modules of spec code the operations share: the settings tables, messages and their flags,
  // users, channels, and the HTTP layer.
  settings: {
    spec: ['bool', 'int', 'str', 'SETTINGS', 'allowedValues', 'settingsAt', 'settingsOfLevel', 'readBooleanSetting', 'checkSettingValue', 'SETTINGS_RULES', 'settingsByName', 'settingsOfRealm', 'readSettings', 'doChangeUserSetting'],
    open: { valueOutsideListText: ['defaults.error-texts'], inTableOrder: ['defaults.error-texts', 'defaults.event-shape'], announceUserSetting: ['drafts.event-shapes'] },
    outside: {
      INITIAL_VALUES: 'the settings a new organization starts with (the reference\'s own start: the spec states no initial values)',
      initialSettings: 'the settings a new organization starts with (the reference\'s own start: the spec states no initial values)', updateSettings: 'PATCH /settings',
    },
  },
  messages: {
    spec: [
      'isInHistory', 'flagNames', 'STREAM_WILDCARDS', 'findMentions', 'containsAlertWord', 'splitsWildcardFlags',
      'flagsOfNewMessage', 'MESSAGE_RULES', 'recipientUserIds', 'doSendMessage',
    ],
    open: {
      messageIsAccessible: ['flags.inaccessible-messages', 'general.channel-history-read', 'reminders.parameters'], userFlagBits: ['flags.inaccessible-messages'],
      announceMessage: ['flags.event-shape'], rendersByDefault: ['general.message-rendering'], mentionedUser: ['general.message-rendering'],
      mentionName: ['general.message-rendering'], isLaterChannelWildcard: ['general.message-rendering'], countsAt: ['flags.alert-word-matching'], alertWordForm: ['flags.alert-word-matching'], isSenderUnalerted: ['flags.alert-word-matching'], isSilentMention: ['flags.silent-mentions'], mentioningOnly: ['flags.silent-mentions'],
      API_CLIENT: ['general.message-rendering'],
    },
    outside: { findAccessibleMessage: 'GET /messages/{id}' },
  },
  addresses: {
    spec: ['isEmptyTopicName', 'checkChannelId', 'channelDoesNotExist', 'checkDirectRecipientIds'],
    open: { checkChannelTopic: ['scheduled.topic-normalized'], refuseChannelHiddenFrom: ['scheduled.error-texts'], participantsInOrder: ['scheduled.listing-shape'] },
    outside: {},
  },
  users: {
    spec: ['checkAdministrator', 'settingsOfNewUser', 'ownDataAudience', 'USER_RULES'],
    open: { NOT_ADMINISTRATOR: ['general.error-statuses'] },
    outside: { createdUsers: 'POST /users; POST /reference/api_key', createUser: 'POST /users', referenceApiKey: 'POST /reference/api_key' },
  },
  channels: {
    spec: ['doUnsubscribe', 'markReadOnLeaving', 'unreadMessagesIn', 'CHANNEL_RULES'],
    open: { announceMarkedRead: ['flags.event-shape'] },
    outside: {
      streamDict: 'POST /register (streams, subscriptions); GET and POST /users/me/subscriptions', subscriptionDict: 'POST /register (subscriptions); GET and POST /users/me/subscriptions',
      firstMessageId: 'POST /register (streams)', subscribedChannels: 'POST /register (subscriptions); GET /users/me/subscriptions', unsubscribedChannels: 'POST /register (unsubscribed)',
      neverSubscribedChannels: 'POST /register (never_subscribed)', getSubscriptions: 'GET /users/me/subscriptions', findChannelByName: 'POST and DELETE /users/me/subscriptions',
      principals: 'POST and DELETE /users/me/subscriptions', audience: 'POST and DELETE /users/me/subscriptions (peer events)', sendPeerEvent: 'POST and DELETE /users/me/subscriptions (peer events)',
      subscribe: 'POST /users/me/subscriptions', unsubscribe: 'DELETE /users/me/subscriptions', archiveChannel: 'DELETE /streams/{}',
    },
  },
  general: {
    spec: [
      'MIB', 'fileLimit', 'bodyLimit', 'compileRoutes', 'NO_MATCH', 'findRoute', 'createHandler', 'finish', 'answerFailure', 'NO_QUERY', 'dispatch', 'decodedPath',
      'envelopedOnce', 'textOnce', 'envelope', 'sendError', 'successEnvelope', 'listsIgnoredParameters', 'ignoredParametersListed', 'userOfCredentials', 'HTTP_RULES', 'send', 'answerWith', 'finishAnswer',
      'authenticated', 'authenticate', 'checkBasicCredentials', 'authenticateIfPresent', 'readBody', 'formFields', 'formDecoded',
      'multipartLimitsByRealm', 'multipartLimits', 'readMultipart',
    ],
    open: {
      lastDate: ['general.date-header'], httpDate: ['general.date-header'], routedMethod: ['general.unknown-endpoints'], answerBody: ['general.unknown-endpoints'],
      unknownPath: ['general.unknown-endpoints'], malformedPath: ['general.unknown-endpoints'], otherMethod: ['general.unknown-endpoints'],
      NOTHING: ['general.unknown-endpoints'], refuseMethod: ['general.unknown-endpoints'],
      unauthorized: ['general.error-statuses'], CREDENTIALS_REFUSED: ['general.error-statuses'], refusedKey: ['general.error-statuses'],
      methodsInOrder: ['general.unknown-endpoints'], spellingsOf: ['general.unknown-endpoints'],
    },
    outside: {},
  },
  typing: {
    spec: ['receivesTyping', 'TYPING_RULES', 'doSendTypingNotification'],
    open: {},
    outside: { channelOfTo: 'POST /typing (a channel named by its one ID in to)', setTypingStatus: 'POST /typing' },
  },
};

/** The class a table gives a declaration, or undefined where it does not name it. */
export function classIn(classes: AreaClasses | undefined, name: string): MutantClass | undefined {
  if (!classes) return undefined;
  if (classes.spec.includes(name)) return 'spec';
  if (name in classes.open) return 'open';
  if (name in classes.outside) return 'outside';
  return undefined;
}

/** The class of a declaration of an area module, or undefined where the table does not name it. */
export const classOf = (area: string, name: string): MutantClass | undefined => classIn(CLASSES[area], name);

/** The top-level declarations of a module's text (tsc keeps them at the first column), by the line each begins on. */
export function declarationsOf(source: string): Array<{ readonly name: string; readonly line: number }> {
  return source.split('\n').flatMap((text, index) => {
    const match = /^(?:export )?(?:async )?(?:function\*? |const |let |class )([A-Za-z_$][\w$]*)/.exec(text);
    return match ? [{ name: match[1]!, line: index + 1 }] : [];
  });
}

/** The declaration a line of the module stands in: the last one to begin at or above it. */
export function declarationAt(declarations: ReadonlyArray<{ readonly name: string; readonly line: number }>, line: number): string | undefined {
  let found: string | undefined;
  for (const declaration of declarations) {
    if (declaration.line > line) break;
    found = declaration.name;
  }
  return found;
}

/** What the checks of the table need to know of the code: the module, its routes, the catalog. */
export interface Structure {
  /** The built module's text. */
  readonly source: string;
  /** `METHOD /path` of each route whose handler is one of the module's exports, by the export's name. */
  readonly routes: ReadonlyMap<string, readonly string[]>;
  /** The severity of every rule of the catalog. */
  readonly severities: ReadonlyMap<string, 'must' | 'decision'>;
}

export const RULE_ID = /\b(?:defaults|drafts|emoji|fields|flags|reminders|scheduled|typing|general)\.[a-z0-9-]*[a-z0-9]\b/g;
/** A route's path as the table and the spec write it: without /api/v1, each parameter `{}`. */
export const routePath = (route: string) => route.replace('/api/v1', '').replace(/\{[^}]*\}/g, '{}');

/** Each declaration's doc comment (the comment lines just above it) and body (to the next declaration, comments left out). */
export function partsOf(source: string): Map<string, { readonly comment: string; readonly body: string }> {
  const lines = source.split('\n');
  const declarations = declarationsOf(source);
  const parts = new Map<string, { comment: string; body: string }>();
  declarations.forEach((declaration, index) => {
    const comment: string[] = [];
    for (let at = declaration.line - 2; at >= 0 && /^\s*(\/\/|\/\*|\*)/.test(lines[at]!); at--) comment.unshift(lines[at]!);
    const end = (declarations[index + 1]?.line ?? lines.length + 1) - 1;
    const body = lines.slice(declaration.line - 1, end).join('\n').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    parts.set(declaration.name, { comment: comment.join('\n'), body });
  });
  return parts;
}

/**
 * Why the table's classes for an area are not what its code says, one line each (none when they
 * are): every declaration classed once; one whose comment names a must rule is spec code; one
 * whose comment names decisions only is an open point, with those decisions; an open point names
 * its decisions in its comment; the handler of a spec operation is spec code, that of another
 * route is outside the spec and says so; nothing of spec code or open points uses what is outside.
 */
export function classProblems(area: string, classes: AreaClasses, structure: Structure): string[] {
  const problems: string[] = [];
  const parts = partsOf(structure.source);
  const named = [...classes.spec, ...Object.keys(classes.open), ...Object.keys(classes.outside)];
  for (const name of parts.keys()) {
    const times = named.filter((other) => other === name).length;
    if (times !== 1) problems.push(`${area}: ${name} is ${times === 0 ? 'in no class' : `named ${times} times`}`);
  }
  for (const name of named) if (!parts.has(name)) problems.push(`${area}: ${name} is classed but not declared in the module`);
  for (const [name, { comment, body }] of parts) {
    const cited = [...new Set(comment.match(RULE_ID) ?? [])];
    for (const id of cited) if (!structure.severities.has(id)) problems.push(`${area}: ${name}'s comment names ${id}, which the catalog does not have`);
    const must = cited.filter((id) => structure.severities.get(id) === 'must');
    const decisions = cited.filter((id) => structure.severities.get(id) === 'decision').sort();
    const found = classIn(classes, name);
    const routes = structure.routes.get(name) ?? [];
    for (const route of routes) {
      const spec = SPEC_OPERATIONS.map(routePath).includes(routePath(route));
      if (spec && found !== 'spec') problems.push(`${area}: ${name} serves ${route}, a spec operation: it is spec code, not ${found}`);
      if (!spec && found !== 'outside') problems.push(`${area}: ${name} serves only ${route}, which the spec does not describe: outside the spec, not ${found}`);
      if (!spec && found === 'outside' && !routePath(classes.outside[name]!).includes(routePath(route))) problems.push(`${area}: ${name} serves ${route}, which its entry does not name`);
    }
    // A route's handler is classed by its route; the rules its comment names are those its checks keep.
    if (routes.length === 0 && must.length > 0 && found !== 'spec') problems.push(`${area}: ${name} says it keeps ${must.join(', ')}, a must rule: it is spec code, not ${found}`);
    if (routes.length === 0 && must.length === 0 && decisions.length > 0 && found !== 'open') problems.push(`${area}: ${name} says it serves only ${decisions.join(', ')}: an open point, not ${found}`);
    if (found === 'open') {
      const listed = [...classes.open[name]!].sort();
      if (JSON.stringify(listed) !== JSON.stringify(decisions)) problems.push(`${area}: ${name} is an open point of ${listed.join(', ')}, and its comment names ${decisions.join(', ') || 'no decision'}`);
    }
    if (found === 'spec' || found === 'open') {
      for (const outside of Object.keys(classes.outside)) {
        if (new RegExp(`(?<![\\w$.])${outside.replace(/\$/g, '\\$')}(?![\\w$])`).test(body)) problems.push(`${area}: ${name} (${found}) uses ${outside}, which is classed outside the spec`);
      }
    }
  }
  return problems;
}
