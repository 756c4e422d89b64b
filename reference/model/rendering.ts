// How a message is shown to clients: its dict in GET /messages and in message events, and its
// content rendered as HTML (Zulip's Markdown, or the dialect's own markup). Reading messages is not
// among the spec's operations: all of this is general.message-rendering's, Zulip's shapes, and no
// spec code is here (so no mutation area runs it; the decision's checks read it).

import type { Message, Realm, User } from './model.js';

/** Who a mention's text names (the mention syntax's own lookup, messaging.ts's mentionedUser). */
export type MentionLookup = (realm: Realm, text: string) => User | undefined;

/** general.message-rendering: the dialect renders content as HTML. */
export function renderContent(realm: Realm, content: string): string {
  return realm.dialect.renderContent(realm, content);
}

/**
 * general.message-rendering: Zulip's HTML for the basics of its Markdown: paragraphs and line
 * breaks, **strong**, *emphasis*, ~~strike~~, `code`, links, and user mentions; anything else stays text.
 */
export function renderZulipMarkdown(realm: Realm, content: string, named: MentionLookup): string {
  return content
    .split(/\n[ \t]*\n+/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${renderInline(realm, paragraph.trim(), named).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/** general.message-rendering: text inside the HTML of rendered content. */
export const escapeHtml = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/** general.message-rendering: inline markup, code spans first (nothing inside them is markup), then the rest. */
function renderInline(realm: Realm, text: string, named: MentionLookup): string {
  return text.split(/(`[^`\n]+`)/).map((piece, index) => {
    if (index % 2 === 1) return `<code>${escapeHtml(piece.slice(1, -1))}</code>`;
    return escapeHtml(piece)
      .replace(/(^|[\s(])(https?:\/\/[^\s<"]+[^\s<".,;:!?)])/g, '$1<a href="$2">$2</a>')
      .replace(/(^|[\s'(])@(_?)\*\*([^*]+)\*\*/g, (whole, before: string, silent: string, name: string) => {
        const user = named(realm, name);
        if (!user) return whole;
        return `${before}<span class="user-mention${silent ? ' silent' : ''}" data-user-id="${user.id}">${silent ? '' : '@'}${escapeHtml(user.fullName)}</span>`;
      })
      .replace(/\*\*(?=\S)([^*]+?)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[^*\w])\*(?=\S)([^*]+?)\*(?![*\w])/g, '$1<em>$2</em>')
      .replace(/~~(?=\S)([^~]+?)~~/g, '<del>$1</del>');
  }).join('');
}

/** general.message-rendering (GET /messages is not shown): a message as Zulip's API shows it; content rendered unless the client asks for the raw text. */
export function messageDict(realm: Realm, message: Message, applyMarkdown = false): Record<string, unknown> {
  const sender = realm.users.get(message.senderId)!;
  const base = {
    id: message.id,
    sender_id: sender.id,
    sender_full_name: sender.fullName,
    sender_email: sender.email,
    sender_realm_str: '',
    content: applyMarkdown ? renderContent(realm, message.content) : message.content,
    content_type: applyMarkdown ? 'text/html' : 'text/x-markdown',
    timestamp: message.timestamp,
    client: message.client,
    is_me_message: false,
    reactions: [],
    submessages: [],
    topic_links: [],
    avatar_url: null,
  };
  if (message.recipient.type === 'stream') {
    const channel = realm.channels.get(message.recipient.channelId)!;
    return { ...base, type: 'stream', stream_id: channel.id, display_recipient: channel.name, subject: message.recipient.topic, recipient_id: channel.id };
  }
  const participants = message.recipient.userIds.map((id) => realm.users.get(id)!).sort((a, b) => a.email.localeCompare(b.email));
  return {
    ...base,
    type: 'private',
    subject: '',
    recipient_id: 0,
    display_recipient: participants.map((user) => ({ id: user.id, email: user.email, full_name: user.fullName, is_mirror_dummy: false })),
  };
}
