// A message's addresses: the channel it goes to, the users of a direct message, and a channel
// message's topic, as the scheduled messages' rules state them (their error table, the topic
// rules) and as Zulip checks them for the endpoints that send (POST /messages, POST /typing).

import { has } from './levels.js';
import type { Channel, ChannelId, Realm, User, UserId } from './model.js';
import { JsonError } from './params.js';
import { truncateTopic } from './text.js';

/** scheduled.topic-normalized: a new channel message's topic as Zulip reads it: stripped; the empty topic's other names from level 370; truncated. */
export function checkChannelTopic(realm: Realm, given: string | undefined): string {
  if (given === undefined) throw new JsonError('Missing topic');
  let topic = given.trim();
  if (has(realm.featureLevel, 'noTopicMeansEmptyTopic') && isEmptyTopicName(realm, topic)) topic = '';
  if (topic === '' && !has(realm.featureLevel, 'emptyTopicNames')) throw new JsonError("Topic can't be empty!");
  if (topic.includes('\0')) throw new JsonError('Topic must not contain null bytes');
  return truncateTopic(topic, realm.settings.maxTopicLength);
}

/** scheduled.required-topic-not-empty; scheduled.empty-topic-names: "(no topic)", "" and the organization's empty-topic display name (which exists from level 334). */
export function isEmptyTopicName(realm: Realm, topic: string): boolean {
  return topic === '' || topic === '(no topic)' || (has(realm.featureLevel, 'emptyTopicNames') && topic === realm.settings.emptyTopicDisplayName);
}

/** scheduled.missing-channel-error: a channel by ID; one that does not exist is refused, STREAM_DOES_NOT_EXIST with the ID as stream_id. */
export function checkChannelId(realm: Realm, sender: User, id: number): Channel {
  const channel = realm.channels.get(id as ChannelId);
  if (!channel || channel.isArchived) throw channelDoesNotExist(id);
  refuseChannelHiddenFrom(sender, channel);
  return channel;
}

/** scheduled.missing-channel-error: "says the channel with that ID does not exist", with the ID as stream_id. */
function channelDoesNotExist(id: number): JsonError {
  return new JsonError(`Channel with ID '${id}' does not exist`, 400, 'STREAM_DOES_NOT_EXIST', { stream_id: id }).otherwise(`No channel has ID ${id}`);
}

/** scheduled.error-texts: a private channel the sender is not subscribed to is, to the sender, one that does not exist (Zulip's answer; the spec never speaks of private channels). */
function refuseChannelHiddenFrom(sender: User, channel: Channel): void {
  if (channel.inviteOnly && !channel.subscribers.has(sender.id)) throw channelDoesNotExist(channel.id);
}

/** scheduled.invalid-user-error: direct message participants by user ID, the sender included, without duplicates; an ID no user has is refused. */
export function checkDirectRecipientIds(realm: Realm, sender: User, ids: readonly number[]): UserId[] {
  for (const id of ids) {
    if (!realm.users.has(id as UserId)) throw new JsonError(`Invalid user ID ${id}`).otherwise(`There is no user with ID ${id}`);
  }
  return participantsInOrder([...new Set([sender.id, ...(ids as UserId[])])]);
}

/**
 * scheduled.listing-shape: the order a direct message's participants are kept in, which the
 * listing's `to` shows: ascending IDs. The spec states none (delivered, the recipients are a
 * set), and the suite does not judge it, for Zulip's is not known: a survivor here is expected.
 */
function participantsInOrder(ids: UserId[]): UserId[] {
  return ids.sort((a, b) => a - b);
}
