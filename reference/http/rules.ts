// The spec's rules, by name: each area module states its rules as functions named after them
// (the catalog's IDs are in their comments), and calls them through its realm's table, so
// that a seeded fault (faults/faults.ts) can replace one rule from one place. The table's
// shape is the model's (SpecRules), so that faults plug in without reading the HTTP layer.

import { CHANNEL_RULES } from '../support/channels.js';
import { DEFAULTS_RULES } from '../operations/defaults.js';
import { DRAFT_RULES } from '../operations/drafts.js';
import { EMOJI_RULES } from '../operations/emoji.js';
import { FIELD_RULES } from '../operations/fields.js';
import { FLAG_RULES } from '../operations/flags.js';
import { HTTP_RULES } from './handler.js';
import { MESSAGE_RULES } from '../model/messaging.js';
import { REMINDER_RULES } from '../operations/reminders.js';
import { SCHEDULED_RULES } from '../operations/scheduled.js';
import { SETTINGS_RULES } from '../operations/settings.js';
import { TYPING_RULES } from '../operations/typing.js';
import { USER_RULES } from '../support/users.js';
import type { SpecRules } from '../model/model.js';

export const SPEC_RULES: SpecRules = {
  ...HTTP_RULES, ...USER_RULES, ...SETTINGS_RULES, ...DEFAULTS_RULES, ...DRAFT_RULES, ...SCHEDULED_RULES, ...MESSAGE_RULES, ...CHANNEL_RULES,
  ...FLAG_RULES, ...FIELD_RULES, ...REMINDER_RULES, ...EMOJI_RULES, ...TYPING_RULES,
};
