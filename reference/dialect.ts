// The reference's dialects. `zulip` makes Zulip's choice wherever the spec is silent;
// `alternate` keeps every rule the spec states and makes each of those choices differently,
// so that the suite can be shown to judge the spec and not Zulip; `random` draws, for each
// decision, one of the two from a seed (and its own limits), so that a seed sweep meets many
// conforming servers, not two. Every branch on the dialect names the decision of the catalog
// it takes (Realm.alternate), and the catalog says what each dialect does.

import type { JsonError } from './params.js';

export type Dialect = 'zulip' | 'alternate' | 'random';
export const DIALECTS: readonly Dialect[] = ['zulip', 'alternate', 'random'];

/** general.realm-limits: the alternate dialect's own limits and empty-topic display name. */
export const ALTERNATE_REALM_SETTINGS = { emptyTopicDisplayName: '(sans sujet)', maxMessageLength: 4321, maxTopicLength: 47 };

/** A 32-bit hash of the seed and a text (FNV-1a, then mixed), for the random dialect's draws. */
function draw(seed: number, text: string): number {
  let hash = (2166136261 ^ seed) >>> 0;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> 0;
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** The random dialect's choice for a decision: the alternate dialect's (true) or Zulip's. */
export function drawnAlternate(seed: number, decision: string): boolean {
  return (draw(seed, decision) & 1) === 1;
}

/** general.realm-limits in the random dialect: limits and an empty-topic display name of its own. */
export function drawnRealmSettings(seed: number) {
  const names = ['(sans sujet)', 'general chat', '(kein Thema)', '¿sin tema?', 'no-topic'];
  return {
    emptyTopicDisplayName: names[draw(seed, 'topic name') % names.length]!,
    maxMessageLength: 1000 + (draw(seed, 'message length') % 9001),
    maxTopicLength: 20 + (draw(seed, 'topic length') % 61),
  };
}

const ALTERNATE_CODES: Readonly<Record<string, string>> = {
  BAD_REQUEST: 'INVALID_PARAMETER',
  REQUEST_VARIABLE_MISSING: 'MISSING_PARAMETER',
  UNAUTHORIZED: 'AUTHENTICATION_FAILED',
  INVALID_API_KEY: 'AUTHENTICATION_FAILED',
  UNAUTHORIZED_PRINCIPAL: 'FORBIDDEN',
};

/**
 * general.error-statuses in the alternate dialect: an error of the spec's error table keeps
 * its code and says it in the alternate's words; any other error gets the alternate's status,
 * code and text.
 */
export function alternateError(error: JsonError): { status: number; body: Record<string, unknown> } {
  if (error.alternative) {
    return { status: error.alternative.status, body: { result: 'error', msg: error.alternative.msg, code: error.code, ...error.extra } };
  }
  const missingCredentials = error.status === 401 && error.msg.startsWith('Not logged in');
  const status = error.status === 400 ? 422 : error.status === 401 && !missingCredentials ? 403 : error.code === 'UNAUTHORIZED_PRINCIPAL' ? 403 : error.status;
  const msg = `Refused: ${error.msg.charAt(0).toLowerCase()}${error.msg.slice(1)}`;
  const { var_name: _zulipOnly, ...extra } = error.extra;
  return { status, body: { result: 'error', msg, code: ALTERNATE_CODES[error.code] ?? error.code, ...extra } };
}
