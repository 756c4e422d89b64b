// Every check of the suite, in the order they run: the rules of every operation first, then
// each area's. The general checks are given every area's operations.

import { DRAFTS_CHECKS, DRAFTS_OPERATIONS } from './drafts.js';
import { FLAGS_CHECKS, FLAGS_OPERATIONS } from './flags.js';
import { generalChecks } from './general.js';
import type { Check } from './harness.js';
import { SCHEDULED_CHECKS, SCHEDULED_OPERATIONS } from './scheduled.js';

export const CHECKS: readonly Check[] = [
  ...generalChecks([...DRAFTS_OPERATIONS, ...FLAGS_OPERATIONS, ...SCHEDULED_OPERATIONS]),
  ...DRAFTS_CHECKS,
  ...FLAGS_CHECKS,
  ...SCHEDULED_CHECKS,
];
