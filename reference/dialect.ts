// The reference's two dialects. `zulip` makes Zulip's choice wherever the spec is silent;
// `alternate` keeps every rule the spec states and makes each of those choices differently,
// so that the suite can be shown to judge the spec and not Zulip. Every branch on the dialect
// names the decision of the catalog it takes (Realm.alternate), and the catalog says what
// each dialect does.

import type { JsonError } from './params.js';

export type Dialect = 'zulip' | 'alternate';
export const DIALECTS: readonly Dialect[] = ['zulip', 'alternate'];

/** general.realm-limits: the alternate dialect's own limits and empty-topic display name. */
export const ALTERNATE_REALM_SETTINGS = { emptyTopicDisplayName: '(sans sujet)', maxMessageLength: 4321, maxTopicLength: 47 };

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
