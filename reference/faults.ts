// Seeded faults: each one breaks exactly one rule, and carries that rule's ID as its name,
// so that the suite's self-test can check that the rule catches it. Switched on by the
// environment variable TEAMCHAT_FAULTS (comma-separated) or the server options.

import type { RuleId } from './rules.js';

export const FAULTS: Partial<Record<RuleId, string>> = {
  'drafts.create-returns-ids-in-order': 'ids come back reversed for batches of two or more',
  'drafts.created-drafts-read-back': 'a channel draft is stored with its topic upper-cased',
  'drafts.timestamp-filled-when-absent': 'a missing timestamp is stored as 0',
  'drafts.channel-draft-needs-one-channel': 'a channel draft with two or more channel IDs is accepted',
  'drafts.null-bytes-rejected': 'a NUL byte in a channel topic is accepted',
  'drafts.type-must-be-listed': 'type "channel" is accepted as a channel draft',
  'drafts.required-fields': 'a draft without topic is accepted',
  'drafts.unaddressed-to-ignored': 'an unaddressed draft with a non-empty to is refused',
  'drafts.drafts-parameter-optional': 'a request without drafts gets "Missing \'drafts\' argument"',
  'drafts.event-to-other-clients': 'no drafts event is sent on create',
  'drafts.sync-off-deletes-drafts': 'turning synchronization off keeps the drafts',
  'drafts.sync-off-sends-no-event': 'turning synchronization off sends drafts remove events',
  'drafts.sync-off-endpoints-refuse': 'GET /drafts answers normally while synchronization is off',
  'drafts.error-texts': 'the one-channel error says "Exactly one channel ID is required"',
  'drafts.invalid-audience-rejected': 'a channel draft to a missing channel is accepted',
  'drafts.negative-timestamp-rejected': 'a negative timestamp is stored',
  'drafts.content-normalized': 'content is stored without stripping surrounding whitespace',
  'drafts.topic-normalized': 'the topic of a direct draft is stored',
  'drafts.audience-normalized': 'a direct draft keeps duplicate user IDs',
  'drafts.unknown-keys-rejected': 'unknown keys in a draft object are ignored',
  'drafts.event-shapes': 'the drafts add event calls its list "draft"',
  'drafts.edit-delete-follow-model': 'deleting a draft answers success but keeps it',
};

export type FaultSet = ReadonlySet<string>;

export function faultsFromEnvironment(value = process.env.TEAMCHAT_FAULTS ?? ''): Set<string> {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!(name in FAULTS)) throw new Error(`unknown fault ${JSON.stringify(name)}; known: ${Object.keys(FAULTS).join(', ')}`);
  }
  return new Set(names);
}
