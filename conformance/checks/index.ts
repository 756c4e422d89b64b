// Every check of the suite, in the order they run: the rules of every operation first, then
// each area's. The general checks are given every area's operations.

import { DEFAULTS_CHECKS, DEFAULTS_OPERATIONS } from './defaults.js';
import { DRAFTS_CHECKS, DRAFTS_OPERATIONS } from './drafts.js';
import { EMOJI_CHECKS, EMOJI_OPERATIONS } from './emoji.js';
import { FIELDS_CHECKS, FIELDS_OPERATIONS } from './fields.js';
import { FLAGS_CHECKS, FLAGS_OPERATIONS } from './flags.js';
import { generalChecks } from './general.js';
import { ORGANIZATION_CHECKS } from './organization.js';
import type { Check } from '../run/harness.js';
import { REMINDERS_CHECKS, REMINDERS_OPERATIONS } from './reminders.js';
import { SCHEDULED_CHECKS, SCHEDULED_OPERATIONS } from './scheduled.js';
import { TYPING_CHECKS } from './typing.js';

export const CHECKS: readonly Check[] = [
  ...generalChecks([...DEFAULTS_OPERATIONS, ...FIELDS_OPERATIONS, ...DRAFTS_OPERATIONS, ...FLAGS_OPERATIONS, ...SCHEDULED_OPERATIONS, ...REMINDERS_OPERATIONS, ...EMOJI_OPERATIONS]),
  ...DEFAULTS_CHECKS,
  ...FIELDS_CHECKS,
  ...DRAFTS_CHECKS,
  ...FLAGS_CHECKS,
  ...SCHEDULED_CHECKS,
  ...REMINDERS_CHECKS,
  ...EMOJI_CHECKS,
  ...TYPING_CHECKS,
  ...ORGANIZATION_CHECKS,
];
