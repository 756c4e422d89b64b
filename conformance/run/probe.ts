// What the suite learns about the target before it checks anything: its feature level, its
// limits and empty-topic display name (from /register), who the profile's users are, and
// which capabilities it offers. A target that cannot be reached, or that refuses a credential,
// ends the run (exit 2).

import { HarnessError, ROLES, type Client, type Role } from './client.js';
import { DEFAULT_DELIVERY_WAIT, type Capability } from './harness.js';

export interface ProbedUser {
  readonly id: number;
  readonly email: string;
  readonly fullName: string;
  /** /users/me's is_admin. */
  readonly isAdmin: boolean;
}

export interface Probe {
  readonly featureLevel: number;
  readonly zulipVersion: string;
  readonly users: Readonly<Record<Role, ProbedUser>>;
  /** The IDs of every user of the organization the member can see, from /register. */
  readonly userIds: readonly number[];
  readonly maxMessageLength: number;
  readonly maxTopicLength: number;
  readonly emptyTopicDisplayName: string;
  /** Channels the member is subscribed to when the run starts. */
  readonly memberChannels: ReadonlyArray<{ readonly id: number; readonly name: string }>;
  /** The newest message ID when the run starts (GET /users/me's max_message_id), if the target says it. */
  readonly startMessageId: number | null;
  /** MAX_EMOJI_FILE_SIZE_MIB, and where the suite learnt it. */
  readonly emojiLimit: { readonly mib: number; readonly from: string };
  /** For each capability the target lacks, why. */
  readonly missing: Partial<Record<Capability, string>>;
}

export class ProbeFailure extends Error {}

async function unreachable<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // The client's message names the request already.
    if (error instanceof HarnessError) throw new ProbeFailure(`target unreachable: ${error.message.startsWith(what) ? '' : `${what}: `}${error.message}`);
    throw error;
  }
}

/** An answer in one line: its status and its JSON msg (or the JSON, cut), or what kind of page it is. */
export function briefly(response: { readonly status: number; readonly headers?: Record<string, unknown>; readonly body: any; readonly text: string }): string {
  if (response.body !== null && typeof response.body === 'object') {
    const json = typeof response.body.msg === 'string' && response.body.msg !== '' ? response.body.msg : JSON.stringify(response.body);
    return `${response.status} ${json.length > 160 ? `${json.slice(0, 160)}…` : json}`;
  }
  const type = String(response.headers?.['content-type'] ?? '').split(';')[0] || 'no content type';
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(response.text)?.[1]?.replace(/\s+/g, ' ').trim();
  return `${response.status} with a page that is not JSON (${type}, ${response.text.length} bytes${title ? `, titled ${JSON.stringify(title)}` : ''})`;
}

export interface ProbeOptions {
  readonly createUsers: boolean;
  readonly emojiLimitMib?: number;
  /** --delivery-wait: seconds ahead deliveries are scheduled on real time; 0 checks none. */
  readonly deliveryWait?: number;
  /** A smoke run checks deliveries on real time only when asked (--deliveries). */
  readonly smoke?: boolean;
  readonly deliveries?: boolean;
}

export async function probeTarget(client: Client, options: ProbeOptions): Promise<Probe> {
  // A target that accepts connections and never answers is said after one timeout, not after every retry's.
  const settings = await unreachable('GET /server_settings', () => client.call(null, 'GET', '/server_settings', {}, { timeoutEnds: true }));
  // What is needed to run, not the envelope: a server whose answers lack `result` is still
  // checked, and fails general.envelope.
  const succeededEnough = (response: { status: number; body: any }) => response.status >= 200 && response.status < 300 && response.body !== null && typeof response.body === 'object' && response.body.result !== 'error';
  if (!succeededEnough(settings) || typeof settings.body.zulip_version !== 'string') {
    throw new ProbeFailure(`not a Zulip-compatible server: GET /server_settings answered ${briefly(settings)}`);
  }
  const users = {} as Record<Role, ProbedUser>;
  let startMessageId: number | null = null;
  for (const role of ROLES) {
    const me = await unreachable('GET /users/me', () => client.call(role, 'GET', '/users/me'));
    if (!succeededEnough(me) || !Number.isInteger(me.body.user_id)) {
      throw new ProbeFailure(`the credentials of '${role}' were refused: GET /users/me answered ${briefly(me)}`);
    }
    users[role] = { id: me.body.user_id, email: me.body.email, fullName: me.body.full_name, isAdmin: me.body.is_admin === true };
    if (Number.isInteger(me.body.max_message_id)) startMessageId = Math.max(startMessageId ?? 0, me.body.max_message_id);
    if (role === 'admin' && me.body.is_admin !== true) throw new ProbeFailure(`'admin' (${me.body.email}) is not an organization administrator`);
  }
  if (users.member.id === users.other.id) throw new ProbeFailure(`'member' and 'other' are the same user; the profile needs two distinct members`);

  const registered = await unreachable('POST /register', () =>
    client.call('member', 'POST', '/register', { event_types: ['heartbeat'], fetch_event_types: ['realm', 'realm_user'] }),
  );
  const missing: Partial<Record<Capability, string>> = {};
  const state = registered.body ?? {};
  if (!succeededEnough(registered)) throw new ProbeFailure(`POST /register failed: ${briefly(registered)}`);
  await client.call('member', 'DELETE', '/events', { queue_id: state.queue_id }, { repeatable: true }).catch(() => undefined);
  if (typeof state.max_message_length !== 'number' || typeof state.max_topic_length !== 'number') {
    throw new ProbeFailure('POST /register carries no max_message_length or max_topic_length');
  }
  const level = Number(settings.body.zulip_feature_level ?? 0);
  if (settings.body.reference_clock !== true) {
    missing['reference-clock'] = 'a delivery the worker finds late cannot be made on real time: this needs the reference clock (server_settings.reference_clock), which the target does not offer';
    const wait = options.deliveryWait ?? DEFAULT_DELIVERY_WAIT;
    if (wait === 0) missing.deliveries = 'the target offers no reference clock, and --delivery-wait 0 checks no delivery on real time';
    else if (options.smoke && !options.deliveries) missing.deliveries = `a smoke run checks deliveries on real time only with --deliveries (the run then waits up to ${wait} s for them, --delivery-wait)`;
  }
  if (!options.createUsers) missing['create-users'] = 'creating users was not allowed (users cannot be deleted): pass --create-users to check this';
  else if (settings.body.reference_api_keys !== true) missing['create-users'] = 'the target offers no way to act as a user the run creates (server_settings.reference_api_keys)';

  // Reminders can be created from level 381; Zulip lists and deletes them only from a later level.
  // What the target has is asked, not assumed from its level.
  if (level >= 381) {
    const listing = await unreachable('GET /reminders', () => client.call('member', 'GET', '/reminders'));
    if (!(succeededEnough(listing) && Array.isArray(listing.body.reminders))) {
      missing['reminder-listing'] = `the target lists no reminders (GET /reminders answered ${listing.status}${listing.body === null ? ', not JSON' : ''}): Zulip lists them only from level 399`;
    }
    // A missing reminder and a missing route can both be a 404: a target that lists no reminders
    // is taken to delete none (Zulip added both at once).
    const deletion = await unreachable('DELETE /reminders/{id}', () => client.call('member', 'DELETE', '/reminders/2000000000', {}, { repeatable: true }));
    if (missing['reminder-listing'] || deletion.body === null || typeof deletion.body !== 'object' || deletion.status === 405) {
      missing['reminder-deletion'] = `the target deletes no reminders (DELETE /reminders/2000000000 answered ${deletion.status}${deletion.body === null ? ', not JSON' : ''}${missing['reminder-listing'] ? ', and it lists none' : ''}): Zulip deletes them only from level 399`;
    }
  }

  const subscriptions = await unreachable('GET /users/me/subscriptions', () => client.call('member', 'GET', '/users/me/subscriptions'));
  const memberChannels = succeededEnough(subscriptions) && Array.isArray(subscriptions.body.subscriptions)
    ? (subscriptions.body.subscriptions as Array<{ stream_id: number; name: string }>).filter((sub) => Number.isInteger(sub?.stream_id)).map((sub) => ({ id: sub.stream_id, name: sub.name }))
    : [];
  if (memberChannels.length === 0) missing.channel = `'member' is subscribed to no channel (GET /users/me/subscriptions: ${subscriptions.status})`;

  return {
    featureLevel: level,
    zulipVersion: settings.body.zulip_version,
    users,
    userIds: Array.isArray(state.realm_users) ? state.realm_users.map((user: any) => user?.user_id).filter(Number.isInteger) : Object.values(users).map((user) => user.id),
    maxMessageLength: state.max_message_length,
    maxTopicLength: state.max_topic_length,
    // Servers below feature level 334 have no empty topics, and no display name for them.
    emptyTopicDisplayName: typeof state.realm_empty_topic_display_name === 'string' ? state.realm_empty_topic_display_name : '',
    memberChannels,
    startMessageId,
    emojiLimit: typeof settings.body.max_emoji_file_size_mib === 'number'
      ? { mib: settings.body.max_emoji_file_size_mib, from: 'the target (server_settings.max_emoji_file_size_mib)' }
      : options.emojiLimitMib !== undefined ? { mib: options.emojiLimitMib, from: 'the option --emoji-limit-mib' } : { mib: 5, from: 'the spec\'s default, 5 MiB' },
    missing,
  };
}
