// The personal flags of the run's messages put back: the API cannot delete a message, so at the
// end of a run (or by --undo after a kill) each user of the profile finds the run's messages as a
// new message leaves them: read, not starred, not collapsed.

import type { Client } from './client.js';
import { PREFIX_FORM } from './sweep.js';

/** What finds the run's messages, as the journal keeps it for --undo. */
export interface PersonalFlags {
  /** The run's token: its messages carry it in their content. */
  readonly prefix: string;
  /** The newest message ID when the run began: what a bot sent the profile's users after it is the run's doing. */
  readonly startMessageId: number | null;
  /** The profile's users' IDs. */
  readonly profile: readonly number[];
}

const CHANGES = [['remove', 'starred', true], ['remove', 'collapsed', true], ['add', 'read', false]] as const;

/**
 * Each user's copy of the run's messages (those noted, those carrying its token, and what a bot
 * sent the profile's users since the run began: delivered reminders, notices of failed scheduled
 * messages), as GET /messages lists the user's own, with only the flags that differ changed back.
 * A message the user never received is left alone: flagging it would give them a history row.
 */
export async function putBackPersonalFlags(client: Client, flags: PersonalFlags, noted: ReadonlySet<number> = new Set()): Promise<Set<number>> {
  const profile = new Set(flags.profile);
  const found = new Set<number>();
  // Another run's text is that run's, whoever sent it.
  const anotherRuns = (text: string) => (text.match(new RegExp(PREFIX_FORM.source, 'g')) ?? []).some((prefix) => prefix !== flags.prefix);
  const made = (message: any) => noted.has(message.id) || String(message.content ?? '').includes(flags.prefix)
    // The server's notices in the run's channels (a channel's creation), and its bots' messages since the run began.
    || (typeof message.display_recipient === 'string' && message.display_recipient.includes(flags.prefix))
    || (flags.startMessageId !== null && message.id > flags.startMessageId && !profile.has(message.sender_id) && !anotherRuns(String(message.content ?? '')));
  for (const as of ['admin', 'member', 'other'] as const) {
    const listed = await client.call(as, 'GET', '/messages', { anchor: 'newest', num_before: 1000, num_after: 0, apply_markdown: false });
    const messages: unknown = listed.body?.messages;
    if (!Array.isArray(messages)) throw new Error(`GET /messages as ${as}: ${listed.status} ${listed.text.slice(0, 200)}`);
    const copies = messages.filter((message) => Number.isInteger(message?.id) && Array.isArray(message.flags) && made(message));
    for (const message of copies) found.add(message.id);
    for (const [op, flag, whenSet] of CHANGES) {
      const ids = copies.filter((message) => message.flags.includes(flag) === whenSet).map((message) => message.id as number);
      for (let at = 0; at < ids.length; at += 500) {
        const response = await client.call(as, 'POST', '/messages/flags', { messages: ids.slice(at, at + 500), op, flag });
        if (response.body?.result !== 'success') throw new Error(`${op} ${flag} as ${as} on ${ids.length} messages: ${response.status} ${response.text.slice(0, 200)}`);
      }
    }
  }
  return found;
}
