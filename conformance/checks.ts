// Every check of the suite, in the order they run.

import { DRAFTS_CHECKS } from './drafts.js';
import type { Check } from './harness.js';

export const CHECKS: readonly Check[] = [...DRAFTS_CHECKS];
