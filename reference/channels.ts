// Channels and subscriptions, in Zulip's shapes.

import type { Request } from './http.js';
import type { Channel, Realm, User } from './model.js';

export function subscriptionDict(realm: Realm, channel: Channel): Record<string, unknown> {
  return {
    stream_id: channel.id,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.description ? `<p>${channel.description}</p>` : '',
    date_created: channel.dateCreated,
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: false,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    is_archived: channel.isArchived,
    message_retention_days: null,
    first_message_id: firstMessageId(realm, channel),
    stream_weekly_traffic: null,
    color: '#76ce90',
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: null,
    audible_notifications: null,
    wildcard_mentions_notify: null,
    subscribers: [...channel.subscribers].sort((a, b) => a - b),
  };
}

function firstMessageId(realm: Realm, channel: Channel): number | null {
  for (const message of realm.messages.values()) {
    if (message.recipient.type === 'stream' && message.recipient.channelId === channel.id) return message.id;
  }
  return null;
}

export function subscribedChannels(realm: Realm, user: User): Channel[] {
  return [...realm.channels.values()].filter((channel) => !channel.isArchived && channel.subscribers.has(user.id));
}

export function getSubscriptions({ realm, user, params }: Request) {
  params.has('include_subscribers');
  return { subscriptions: subscribedChannels(realm, user).map((channel) => subscriptionDict(realm, channel)) };
}
