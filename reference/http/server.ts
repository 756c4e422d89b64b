// The route table and the server: node:http, one Realm, nothing else.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as channels from '../support/channels.js';
import * as core from '../support/core.js';
import * as defaults from '../operations/defaults.js';
import * as drafts from '../operations/drafts.js';
import * as emoji from '../operations/emoji.js';
import * as fields from '../operations/fields.js';
import * as flags from '../operations/flags.js';
import * as messages from '../support/messages.js';
import * as pages from './pages.js';
import * as reminders from '../operations/reminders.js';
import * as scheduled from '../operations/scheduled.js';
import * as settings from '../operations/settings.js';
import * as typing from '../operations/typing.js';
import * as users from '../support/users.js';
import type { Dialect } from '../dialects/dialect.js';
import type { FaultSet } from '../faults/faults.js';
import { buildRealm, readFixture, type Fixture } from './boot.js';
import { createHandler, type House, type Route } from './handler.js';
import { BEHAVIOURS, MAX_FEATURE_LEVEL } from '../model/levels.js';
import type { Realm } from '../model/model.js';

const api = (path: string) => `/api/v1${path}`;

/**
 * The routes a server at a feature level has, each with only the methods Zulip had at that level
 * (a route's `since`); a route without any then is left out. The spec states no level for its
 * operations: which endpoints a level has is Zulip's history, kept here with the table.
 */
export function routesAt(routes: readonly Route[], featureLevel: number): Route[] {
  return routes.flatMap((route) => {
    const methods = Object.fromEntries(Object.entries(route.methods).filter(([method]) => featureLevel >= (route.since?.[method] ?? 0)));
    return Object.keys(methods).length === 0 ? [] : [{ ...route, methods }];
  });
}

export const ROUTES: readonly Route[] = [
  { path: api('/server_settings'), methods: { GET: core.getServerSettings }, unauthenticated: true },
  { path: api('/register'), methods: { POST: core.register } },
  { path: api('/events'), methods: { GET: core.getEvents, DELETE: core.deleteQueue } },
  { path: api('/users/me'), methods: { GET: core.getOwnUser } },
  { path: api('/users'), methods: { POST: users.createUser } },
  { path: api('/typing'), methods: { POST: typing.setTypingStatus } },
  {
    path: api('/realm/user_settings_defaults'), methods: { PATCH: defaults.updateRealmUserDefaults },
    since: { PATCH: BEHAVIOURS.realmUserSettingsDefaults }, ignoredParametersSince: BEHAVIOURS.realmUserSettingsDefaults,
  },
  { path: api('/realm/profile_fields'), methods: { GET: fields.getProfileFields, POST: fields.createProfileField } },
  { path: api('/realm/profile_fields/{field_id:int}'), methods: { DELETE: fields.deleteProfileField } },
  { path: api('/realm/emoji'), methods: { GET: emoji.getRealmEmoji } },
  { path: api('/realm/emoji/{emoji_name}'), methods: { POST: emoji.uploadEmoji, DELETE: emoji.deleteEmoji } },
  { path: '/user_avatars/1/emoji/images/{file}', methods: { GET: emoji.serveEmojiImage }, unauthenticated: true },
  { path: api('/reminders'), methods: { GET: reminders.getReminders, POST: reminders.createReminder }, since: { GET: BEHAVIOURS.remindersListed, POST: BEHAVIOURS.reminders } },
  { path: api('/reminders/{reminder_id:int}'), methods: { DELETE: reminders.deleteReminder }, since: { DELETE: BEHAVIOURS.remindersListed } },
  // ignored_parameters_unsupported was introduced for this one settings operation at level 78.
  { path: api('/settings'), methods: { PATCH: settings.updateSettings }, ignoredParametersSince: 78 },
  { path: api('/users/me/subscriptions'), methods: { GET: channels.getSubscriptions, POST: channels.subscribe, DELETE: channels.unsubscribe } },
  { path: api('/streams/{stream_id:int}'), methods: { DELETE: channels.archiveChannel } },
  { path: api('/messages'), methods: { GET: messages.getMessages, POST: messages.sendMessage } },
  { path: api('/messages/flags'), methods: { POST: flags.updateMessageFlags } },
  { path: api('/messages/{message_id:int}'), methods: { GET: messages.getMessage } },
  { path: api('/drafts'), methods: { GET: drafts.getDrafts, POST: drafts.createDrafts } },
  { path: api('/drafts/{draft_id:int}'), methods: { PATCH: drafts.editDraft, DELETE: drafts.deleteDraft } },
  {
    path: api('/scheduled_messages'),
    methods: { GET: scheduled.getScheduledMessages, POST: scheduled.createScheduledMessage },
    since: { GET: BEHAVIOURS.deleteScheduledMessage, POST: BEHAVIOURS.deleteScheduledMessage },
  },
  {
    path: api('/scheduled_messages/{scheduled_message_id:int}'),
    methods: { PATCH: scheduled.editScheduledMessage, DELETE: scheduled.deleteScheduledMessage },
    since: { PATCH: BEHAVIOURS.editScheduledMessage, DELETE: BEHAVIOURS.deleteScheduledMessage },
  },
  { path: '/reference/clock', methods: { POST: core.advanceClock } },
  { path: '/reference/api_key', methods: { POST: users.referenceApiKey } },
  { path: '/', methods: { GET: pages.annotatedSpec }, unauthenticated: true },
  { path: '/rules.json', methods: { GET: pages.ruleCatalog }, unauthenticated: true },
  { path: '/annotated.json', methods: { GET: pages.recordedExamples }, unauthenticated: true },
  { path: '/reference/try', methods: { POST: pages.tryRequest }, unauthenticated: true },
  { path: '/reference/reset', methods: { POST: pages.resetOrganization }, unauthenticated: true },
];

export interface ReferenceOptions {
  host?: string;
  port?: number;
  featureLevel?: number;
  fixture?: Fixture;
  faults?: FaultSet;
  dialect?: Dialect;
  /** The random dialect's seed: which choice it draws for each decision. */
  dialectSeed?: number;
  /** MAX_EMOJI_FILE_SIZE_MIB (default 5). */
  maxEmojiFileSizeMib?: number;
  /** Behave as a real server: no reference clock; the worker delivers on real time, every second. */
  hideClock?: boolean;
}

export interface RunningReference {
  readonly url: string;
  /** The organization served now (a reset, POST /reference/reset, replaces it). */
  readonly realm: Realm;
  readonly fixture: Fixture;
  close(): Promise<void>;
}

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const fixture = options.fixture ?? readFixture();
  const organization = () => {
    const made = buildRealm(fixture, options.featureLevel ?? MAX_FEATURE_LEVEL, options.faults ?? new Set(), options.dialect, options.dialectSeed);
    made.deliveryWorkers.push(scheduled.deliverScheduledMessages, reminders.deliverReminders);
    if (options.maxEmojiFileSizeMib !== undefined) made.maxEmojiFileSizeMib = options.maxEmojiFileSizeMib;
    made.clockHidden = options.hideClock ?? false;
    return made;
  };
  const house: House = {
    realm: organization(),
    reset() {
      const old = house.realm;
      house.realm = Object.assign(organization(), { url: old.url });
      // A client polling a queue of the old organization is answered at once; its queue is gone.
      for (const queue of old.queues.values()) queue.waiter?.();
    },
  };
  let closeQueues!: () => void;
  const closed = new Promise<void>((resolve) => (closeQueues = resolve));
  const server = createServer({ keepAliveTimeout: 5000, requestTimeout: 60_000, headersTimeout: 10_000 }, createHandler(house, routesAt(ROUTES, house.realm.featureLevel), closed));
  // A request that is not even HTTP still gets a JSON error, then the connection ends.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({ result: 'error', msg: `Malformed HTTP request: ${error.code ?? error.message}`, code: 'BAD_REQUEST' }) + '\n';
    socket.end(`HTTP/1.1 ${status} Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 9991, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  house.realm.url = `http://${host}:${address.port}`;
  const timer = setInterval(() => house.realm.runDeliveries(), 1000);
  timer.unref();
  return {
    url: house.realm.url,
    get realm() {
      return house.realm;
    },
    fixture,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        closeQueues();
        // A client that keeps its connection and sends again (a poll every 100 ms) would hold the
        // server open: every answer from now on closes its connection, and what is still open
        // after a second is closed.
        // Before the handler, which may answer at once (and headers once sent take no more).
        server.prependListener('request', (_req, res) => {
          if (!res.headersSent) res.setHeader('connection', 'close');
        });
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}
