// The spec's rules, by name: each area module states its rules as functions named after them
// (the catalog's IDs are in their comments), and calls them through its realm's table, so
// that a seeded fault (faults.ts) can replace one rule from one place.

import { CHANNEL_RULES } from './channels.js';
import { DEFAULTS_RULES } from './defaults.js';
import { DRAFT_RULES } from './drafts.js';
import { EMOJI_RULES } from './emoji.js';
import { FIELD_RULES } from './fields.js';
import { FLAG_RULES } from './flags.js';
import { HTTP_RULES } from './http.js';
import { MESSAGE_RULES } from './messages.js';
import { REMINDER_RULES } from './reminders.js';
import { SCHEDULED_RULES } from './scheduled.js';
import { SETTINGS_RULES } from './settings.js';
import { TYPING_RULES } from './typing.js';
import { USER_RULES } from './users.js';

export const SPEC_RULES = {
  ...HTTP_RULES, ...USER_RULES, ...SETTINGS_RULES, ...DEFAULTS_RULES, ...DRAFT_RULES, ...SCHEDULED_RULES, ...MESSAGE_RULES, ...CHANNEL_RULES,
  ...FLAG_RULES, ...FIELD_RULES, ...REMINDER_RULES, ...EMOJI_RULES, ...TYPING_RULES,
};

export type SpecRules = typeof SPEC_RULES;
