// Every check of the suite, in the order they run.

import { DRAFTS_CHECKS } from './drafts.js';
import { FLAGS_CHECKS } from './flags.js';
import type { Check } from './harness.js';
import { SCHEDULED_CHECKS } from './scheduled.js';

export const CHECKS: readonly Check[] = [...DRAFTS_CHECKS, ...FLAGS_CHECKS, ...SCHEDULED_CHECKS];
