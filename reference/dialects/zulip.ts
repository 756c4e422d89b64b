// Zulip's dialect: at each point where the spec is silent, what the real Zulip server does
// (../shared/research/), as the rule catalog's decisions record it.

import { draftDict } from '../operations/drafts.js';
import { ASCII_NAME, realmEmojiDict } from '../operations/emoji.js';
import { SELECT, namesInUse, profileFieldDict, profileFieldsInOrder } from '../operations/fields.js';
import { messageDetails } from '../operations/flags.js';
import { has } from '../model/levels.js';
import { checkChannelTopic, doSendMessage, mentionedUser, messageIsAccessible } from '../model/messaging.js';
import { renderContent, renderZulipMarkdown } from '../model/rendering.js';
import type { DialectDecisions, MessageId, User, UserId } from '../model/model.js';
import { JsonError, missingArgument } from '../model/params.js';
import { messageUrl, reminderContent } from '../operations/reminders.js';
import { characterLength, normalizeContent, truncateTopic } from '../model/text.js';

const person = (user: User) => ({ user_id: user.id, email: user.email });

export const zulip: DialectDecisions = {
  // ---- general ----
  realmSettings: (fixture) => fixture,
  nextId: (_kind, last) => last + 1,
  // Zulip has no clock to move: the time its Date header tells is the time it stamps.
  httpDateTime: (realm) => realm.clock.now(),
  channelHistoryReadable: () => true,
  errorResponse(realm, error) {
    // Zulip's texts said "stream" until it renamed streams to channels.
    const msg = has(realm.featureLevel, 'channelWording') ? error.msg : error.msg.replace(/channel/g, 'stream').replace(/Channel/g, 'Stream');
    const headers: Record<string, string> = error.status === 401 ? { 'WWW-Authenticate': 'Basic realm="zulip"' } : {};
    return { status: error.status, headers, body: { result: 'error', msg, code: error.code, ...error.extra } };
  },
  renderContent: (realm, content) => renderZulipMarkdown(realm, content, mentionedUser),
  // Zulip's dispatch: HEAD goes to GET's view, OPTIONS is answered 204 with Allow, and a method the
  // path lacks is a 405 with Allow and allowed_methods.
  headAnsweredAsGet: () => true,
  optionsAnswered: () => true,
  methodNotAllowed: (path, allowed) => ({ error: new JsonError(`Method Not Allowed: the reference server implements only ${allowed.join(', ')} on ${path}`, 405, 'BAD_REQUEST', { allowed_methods: [...allowed] }), allow: true }),

  // ---- drafts ----
  draftsReadableWhileSynchronizationOff: () => false,
  rejectsUnknownDraftKeys: () => true,
  draftContent(realm, given, name) {
    const stripped = given.trim();
    if (stripped === '') throw new JsonError(`${name} cannot be blank`);
    return normalizeContent(stripped, realm.settings.maxMessageLength);
  },
  checkDraftTimestamp(_realm, given) {
    if (given < 0) throw new JsonError('Timestamp must not be negative.');
  },
  draftTopic: (realm, topic) => truncateTopic(topic, realm.settings.maxTopicLength),
  draftChannels: (to) => to,
  // A direct draft lists the other participants, sorted and once each, or [self]; with no one it is unaddressed.
  directDraftAddress(user, to) {
    if (to.length === 0) return { type: '', to: [], topic: '' };
    const recipients = [...new Set(to)].sort((a, b) => a - b);
    const others = recipients.filter((id) => id !== user.id);
    return { type: 'private', to: others.length > 0 ? others : recipients, topic: '' };
  },
  checkDraftChannel(realm, user, id) {
    const channel = realm.channels.get(id as never);
    if (channel === undefined || !realm.channelIsAccessible(user, channel)) throw new JsonError('Invalid channel ID');
  },
  checkDraftUsers(realm, ids) {
    for (const id of ids) if (!realm.users.has(id as UserId)) throw new JsonError(`Invalid user ID ${id}`);
  },
  draftsEvent(op, drafts) {
    if (op === 'add') return { type: 'drafts', op, drafts: drafts.map(draftDict) };
    if (op === 'update') return { type: 'drafts', op, draft: draftDict(drafts[0]!) };
    return { type: 'drafts', op, draft_id: drafts[0]!.id };
  },
  draftsListed: (drafts) => drafts,
  draftNotFound: () => new JsonError('Draft does not exist', 404),

  // ---- scheduled messages ----
  editedTopic: (given) => given.trim(),
  // A new message's topic, as a sent message's.
  newMessageTopic: checkChannelTopic,
  fitScheduledToLimit(realm, text, what) {
    return what === 'topic' ? truncateTopic(text, realm.settings.maxTopicLength) : normalizeContent(text, realm.settings.maxMessageLength);
  },
  checkDeliveryTimeInFuture(realm, timestamp) {
    if (timestamp <= realm.clock.now()) throw new JsonError('Scheduled delivery time must be in the future.');
  },
  scheduledEditLooksUpMessageFirst: () => false,
  emptyScheduledEdit() {
    throw new JsonError('Nothing to change');
  },
  othersScheduledMessage: (notFound) => notFound,
  scheduledMessageDict(realm, scheduled) {
    const base = {
      scheduled_message_id: scheduled.id,
      content: scheduled.content,
      rendered_content: renderContent(realm, scheduled.content),
      scheduled_delivery_timestamp: scheduled.deliveryTimestamp,
      failed: scheduled.failed,
    };
    if (scheduled.recipient.type === 'stream') return { ...base, type: 'stream', to: scheduled.recipient.channelId, topic: scheduled.recipient.topic };
    // The other participants; a message to oneself lists the sender.
    const others = scheduled.recipient.userIds.filter((id) => id !== scheduled.senderId);
    return { ...base, type: 'private', to: others.length > 0 ? others : [scheduled.senderId] };
  },
  scheduledMessagesListed: (list) => list,
  scheduledMessageUpdateEvent: (dict) => ({ op: 'update', scheduled_message: dict }),
  scheduledMessageRemoveEvent: (id) => ({ op: 'remove', scheduled_message_id: id }),
  // A message edited with a new time is pending again.
  rescheduleFailedMessage(scheduled) {
    scheduled.failed = false;
    scheduled.failureMessage = null;
  },
  latestScheduledDeliverySeconds: () => 10 * 60,
  // The notification bot tells the sender.
  noticeFailedScheduledMessage(realm, sender, scheduled, reason, failedAt) {
    const time = new Date(scheduled.deliveryTimestamp * 1000).toISOString();
    const notice = `The message you scheduled for <time:${time}> was not sent because of the following error:\n\n> ${reason}\n\n[View scheduled messages](#scheduled)`;
    const bot = realm.notificationBot!;
    doSendMessage(realm, bot, { type: 'private', userIds: [bot.id, sender.id].sort((a, b) => a - b) }, notice, false, 'Internal', failedAt);
  },
  // The delivered row stays, marked delivered.
  forgetDeliveredScheduledMessage: () => {},
  // Zulip's worker wakes each minute and sends the first due row by ID, again and again: what
  // comes due in the same minute goes in the order it was made (observed at level 384; Zulip's
  // main branch since orders by delivery time, at a level not examined).
  deliveryOrder: (a, b) => Math.ceil(a.deliveryTimestamp / 60) - Math.ceil(b.deliveryTimestamp / 60) || a.id - b.id,

  // ---- custom profile fields ----
  checksFieldTypeFirst: () => false,
  checkSelectHasChoices(data) {
    if (Object.keys(data).length === 0) throw new JsonError('Field must have at least one choice.');
  },
  checkSelectChoiceUnique(texts, text) {
    if (texts.has(text)) throw new JsonError('Field must not have duplicate choices.');
  },
  externalAccountData(data) {
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
  },
  // As a JSON text for a List of options, else "".
  storedFieldData: (type, data) => (type === SELECT ? JSON.stringify(data) : ''),
  // Stripped; a given name may not be blank; name and hint bounded.
  profileFieldName(given, hint) {
    const name = (given ?? '').trim();
    if (name === '' && given !== undefined) throw new JsonError('Label cannot be blank.');
    if (characterLength(hint) > 80) throw new JsonError('hint is too long (limit: 80 characters)');
    if (characterLength(name) > 40) throw new JsonError('name is too long (limit: 40 characters)');
    return name;
  },
  checkFieldNameFree(realm, name) {
    if (namesInUse(realm).has(name)) throw new JsonError('A field with that label already exists.');
  },
  listsUnsetSummaryFlag: () => false,
  profileFieldsListed: (fields) => fields,
  // The whole list, on every change.
  profileFieldsEvent: (realm) => ({ type: 'custom_profile_fields', fields: profileFieldsInOrder(realm).map((field) => profileFieldDict(realm, field)) }),

  // ---- message flags ----
  flagsChecksOpFirst: () => false,
  checkHistoryAccess(realm, user, ids) {
    for (const id of ids) {
      const message = realm.messages.get(id as MessageId);
      if (!message || (!message.userFlags.has(user.id) && !messageIsAccessible(realm, user, message))) throw new JsonError('Invalid message(s)');
    }
  },
  silentMentionsSetNothing: () => true,
  alertWordsInAnyCase: () => true,
  alertWordsStandApart: () => true,
  flagsEvent(realm, user, op, flag, modified) {
    const event: Record<string, unknown> & { type: string } = { type: 'update_message_flags', op, operation: op, flag, messages: modified, all: false };
    if (flag === 'read' && op === 'remove') event.message_details = messageDetails(realm, user, modified);
    return event;
  },

  // ---- reminders ----
  checkReminderParametersGiven(messageId, timestamp) {
    if (messageId === undefined) throw missingArgument('message_id');
    if (timestamp === undefined) throw missingArgument('scheduled_delivery_timestamp');
  },
  checkReminderTimeInFuture(when, now) {
    if (when <= now) throw new JsonError('Scheduled delivery time must be in the future.');
  },
  reminderContent(realm, user, reminder, note) {
    const message = reminder.messageId === null ? undefined : realm.messages.get(reminder.messageId);
    const kind = message?.recipient.type === 'private' ? 'direct message' : 'message';
    const head = `You requested a reminder for the following ${kind}.${note !== '' ? ` Note:\n > ${note}` : ''}`;
    if (!message || !messageIsAccessible(realm, user, message)) return head;
    const sender = realm.users.get(message.senderId)!;
    const where = message.recipient.type === 'stream'
      ? `in #**${realm.channels.get(message.recipient.channelId)!.name}>${message.recipient.topic}**`
      : `to ${message.recipient.userIds.filter((id) => id !== sender.id).map((id) => `@_**${realm.users.get(id)!.fullName}|${id}**`).join(', ')}`;
    const fence = '`'.repeat(Math.max(3, ...(message.content.match(/`+/g) ?? []).map((run) => run.length + 1)));
    return `${head}\n\n@_**${sender.fullName}|${sender.id}** [said](${messageUrl(realm, message)}) ${where}:\n${fence}quote\n${message.content}\n${fence}`;
  },
  // Late reminders are sent too.
  latestReminderDeliverySeconds: () => Infinity,
  reminderDict(realm, reminder) {
    const content = reminderContent(realm, realm.users.get(reminder.userId)!, reminder);
    return {
      reminder_id: reminder.id, type: 'private', to: [reminder.userId], content, rendered_content: renderContent(realm, content),
      scheduled_delivery_timestamp: reminder.deliveryTimestamp, failed: reminder.failed, reminder_target_message_id: reminder.messageId,
    };
  },
  remindersListed: (list) => list,
  remindersEvent: (realm, op, reminder) => (op === 'add' ? { op, reminders: [zulip.reminderDict(realm, reminder)] } : { op, reminder_id: reminder.id }),
  othersReminder: () => new JsonError('Reminder does not exist', 404),

  // ---- custom emoji ----
  emojiName: (given) => given.trim(),
  emojiNameLetters: () => ASCII_NAME,
  checkEmojiNameLength: () => {},
  // Lower case, spaces as underscores.
  storedEmojiName: (_realm, name) => name.replace(/ /g, '_').toLowerCase(),
  checkEmojiNameFree() {
    throw new JsonError('A custom emoji with this name already exists.');
  },
  checkDeclaredImageType: () => {},
  emojiUploaders: () => 'members',
  mayRemoveEmoji: (realm, user, emoji) => realm.isAdministrator(user) || emoji.authorId === user.id,
  emojiListed: (emoji) => emoji,
  // The whole list, on every change.
  emojiEvent: (realm) => ({ type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiDict(realm) }),
  // By the name exactly as stored.
  emojiToRemove: (found, name) => (found?.name === name ? found : undefined),

  // ---- typing notifications ----
  directTypingEvent(realm, sender, op, userIds) {
    const recipients = userIds.map((id) => realm.users.get(id)!);
    return { event: { type: 'typing', op, message_type: realm.featureLevel >= 215 ? 'direct' : 'private', sender: person(sender), recipients: recipients.map(person) }, audience: userIds };
  },
  // To the channel's other subscribers, on queues that declared they understand channel typing.
  channelTypingEvent(_realm, sender, op, channel, topic) {
    const audience = [...channel.subscribers].filter((id) => id !== sender.id);
    return { event: { type: 'typing', op, message_type: 'stream', sender: person(sender), stream_id: channel.id, topic }, audience, capability: 'stream_typing_notifications' };
  },

  // ---- settings defaults ----
  defaultsEvents: (changed) => changed.map(([property, value]) => ({ type: 'realm_user_settings_defaults', op: 'update', property, value })),
  // Only the batching period is bounded: a second to a week.
  checkIntegerSetting(name, value) {
    if (name === 'email_notifications_batching_period_seconds' && (value < 1 || value > 7 * 86_400)) throw new JsonError(`Invalid email batching period: ${value} seconds`);
  },
};
