// One model of the organization, as QuickCheck's state machines and Jepsen's checkers see a
// system: every profile actor (member, other, admin) issues the spec's operations, valid and
// refused, in random order across the areas, with arguments from small pools (so that objects
// collide: the same texts, topics, messages and names), sometimes two requests at once; after
// every step the whole world is read (each actor's drafts, scheduled messages and flags, the
// organization's profile fields and, after a change of them, the defaults and each actor's own
// settings) and compared with the model. Two requests at once must leave what some serial order
// of them leaves (linearizability); the model decides each request by the spec's statements, and
// where the spec leaves a point open (a profile field's name in use), it allows either outcome.
// Every prediction names the rules whose statements it comes from: a difference fails the model
// with those rules named, and the shrunk sequence of commands as the counterexample.

import fc from 'fast-check';
import { cleanedUp } from '../run/cleanup.js';
import type { FilePart, Forged, ParamList, Response, Role } from '../run/client.js';
import { check, expect, modelRun, noServerError, succeeded, Violation, type Check, type Context } from '../run/harness.js';
import type { RuleId } from '../rules.js';
import { exists, settingsAt, SPEC_SETTINGS, validValuesAt } from './settings.js';
import { characterLength, MARKED, MISSING_ID } from './generators.js';
import { gif, gif87, listEmoji, png, sameName, uploaders } from './uploads.js';
import { advancedAlone, ON_TIME_SECONDS } from './deliveries.js';
import { aboutDrafts, advanceClock, createChannel, fetchState, flagTable, isTyping, linksToMessage, namesId, pollEvents, readConversation, recentMessages, registerQueue, send, sendSurely, targetNow, type Channel, type Queue } from './world.js';

const ACTORS: readonly Role[] = ['member', 'other', 'admin'];
const FLAGS = ['read', 'starred', 'collapsed'] as const;
/** Names of the flag table that cannot be changed, and names outside it. */
const NOT_CHANGEABLE = ['mentioned', 'historical', 'has_alert_word', 'READ', 'unread', ''] as const;
/** The flags of the spec's table the operation may not change (the wildcard ones of level 224 are outside the table before it: refused all the same). */
const FIXED_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'has_alert_word', 'historical', 'wildcard_mentioned'] as const;
type Flag = (typeof FLAGS)[number];
/** The flags a new message is given by what it says: read as the spec's table means them on each user's copy. */
const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned'] as const;
/** Every flag the model predicts and reads. */
const OBSERVED: readonly string[] = [...FLAGS, ...MENTION_FLAGS, 'has_alert_word', 'historical'];
const DAY = 86_400;

/** Small pools: equal texts within a batch and across actors, two topics, three settings. */
// The texts hold what must come back as sent: characters that mean something in Markdown, HTML
// and URLs, a backslash, a character outside the Basic Multilingual Plane, a combining mark.
const TEXTS = ['one <b>&amp;</b> *a*', 'two `c` [d](https://e.invalid/?f=x&g=y) \\ 😀 e\u0301', 'one <b>&amp;</b> *a*'] as const;
const TOPICS = ['pool a', '<&> *b* 😀 e\u0301'] as const;
const FIELD_NAMES = ['Pool', 'pool', 'Other pool', 'Fourth', 'Fifth'] as const;
/**
 * Settings of every level from 96 on: two booleans and an enumeration, each with its values and
 * values outside them (the enumeration's neighbours and the ends of the integers, a boolean's
 * integer), which the spec makes invalid.
 */
const SETTINGS: ReadonlyArray<readonly [string, readonly unknown[], readonly unknown[]]> = [
  ['enter_sends', [true, false], [0, 1, 2, 'yes']],
  ['left_side_userlist', [true, false], [-1]],
  ['color_scheme', [1, 2, 3], [0, 4, -2147483648, 2147483647]],
  // A string setting: the spec's list of emoji sets, and names outside it (another case among them).
  ['emojiset', ['google', 'twitter', 'text'], ['google-blob', 'Twitter', 'x']],
  // From level 253: who receives typing notifications (a boolean; a number or its name in a string is not one).
  ['receives_typing_notifications', [true, false], [2, 'yes']],
];
const TYPING_SETTING = 'receives_typing_notifications';
/** Field types of the spec: 1 to 8 (Pronouns from level 151), and numbers outside them. */
const FIELD_TYPES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
const NOT_FIELD_TYPES = [0, 9, -1, 8, 1.5] as const;
/** How an option of a List of options is spoilt: each makes the create refused. */
type Spoiler = 'no text' | 'no order' | 'text not a string' | 'order not a string';
const SPOILERS: readonly Spoiler[] = ['no text', 'no order', 'text not a string', 'order not a string'];
function spoilt(option: { readonly text: string; readonly order: string }, spoiler: Spoiler | null): Record<string, unknown> {
  if (spoiler === 'no text') return { order: option.order };
  if (spoiler === 'no order') return { text: option.text };
  return spoiler === 'text not a string' ? { ...option, text: 7 } : spoiler === 'order not a string' ? { ...option, order: 1 } : option;
}
/** A List of options' field_data as JSON, its options in the order of their keys: a listing gives it as a JSON string or an object. */
function optionsOf(data: unknown): string {
  let parsed = data;
  if (typeof data === 'string') {
    try {
      parsed = JSON.parse(data);
    } catch {
      return data;
    }
  }
  if (parsed === null || typeof parsed !== 'object') return JSON.stringify(parsed);
  return JSON.stringify(Object.keys(parsed).sort().map((key) => [key, (parsed as any)[key]?.text, (parsed as any)[key]?.order]));
}

// ---- The model ------------------------------------------------------------------------------

interface Draft { readonly id: number; readonly type: '' | 'stream' | 'private'; readonly to: readonly number[]; readonly topic: string; readonly content: string; readonly timestamp?: unknown }
interface Scheduled {
  readonly id: number; readonly type: 'stream' | 'private'; readonly to: number | readonly number[]; readonly topic: string; readonly content: string; readonly at: number;
  /** Fields the spec leaves open within their limits (a text over one, stored cut in some way): any value of at most so many characters, then what the server keeps. */
  readonly within?: Partial<Record<'content' | 'topic', number>>;
}
/** A profile field of the model's: a List of options with its options too, as JSON of its field_data (keys in order). */
interface Field { readonly id: number; readonly name: string; readonly summary: boolean; readonly options?: string }

/** The organization as far as the run's own objects go, and each actor's flags on the pool's messages. */
interface Organization {
  drafts: Record<Role, Draft[]>;
  scheduled: Record<Role, Scheduled[]>;
  flags: Record<Role, Map<number, Set<string>>>;
  /** Flags of a message the spec leaves open for a user (the sender's own wildcard flags): not compared. */
  openFlags: Record<Role, Map<number, Set<string>>>;
  /** The messages whose flags the model follows: the pool's, then those its steps sent, oldest first. */
  messages: number[];
  /** The actors not subscribed to the pool's third channel (they left it). */
  left: Role[];
  fields: Field[];
  /** Fields with display_in_profile_summary that are not the run's (the organization's own). */
  summaryElsewhere: number;
  /** The defaults of SETTINGS, and each actor's own values of them: read where a step may change them. */
  defaults: Record<string, unknown>;
  own: Record<Role, Record<string, unknown>>;
  /** IDs the run's objects had before they were deleted: asked for again, they are missing. */
  deletedScheduled: number[];
  /** The sequence's active custom emoji: each name as the spec reads it (case ignored, underscores as spaces) and as uploaded. */
  emoji: Map<string, string>;
  /** What the sequence's emoji names begin with (letters and digits): no other sequence's or run's name does. */
  emojiBase: string;
  /** The sequence's topic, in the pool's channel and the third: its messages, and those its steps send. */
  topic: string;
}

/** What one run of the model works with: its channels, the users' IDs, its marker (each sequence sends its own messages). */
interface Pool {
  readonly channel: Channel;
  readonly ids: Record<Role, number>;
  /** Every text the model makes carries it: its objects are told from everything else's by it. */
  readonly marker: string;
  /** The hint of the model's profile fields: an event of the organization's fields names it, never the drafts' marker. */
  readonly fieldMarker: string;
  /** The target's feature level. */
  readonly level: number;
  /** A second channel: a channel draft to both is refused. */
  readonly second: Channel;
  /** A third channel, which actors leave and join again, and the run's messages in it (found as sent, and as read). */
  readonly third: Channel;
  readonly thirdMessages: Set<number>;
  /** The run's direct messages among the three actors (one a sequence, sent by other): read in their conversation. */
  readonly directMessages: Set<number>;
  /** The earliest time a draft of the model can be stamped with: a message's, sent before the model began. */
  readonly since: number;
  /** Each actor's event queue, opened before the model's first step. */
  readonly queues: Record<Role, Queue>;
  /** The organization's name for the empty topic, where it has one. */
  readonly emptyTopicDisplayName: string;
  /** Who of the profile may upload custom emoji, as the organization's configuration says (and whom it places for certain). */
  readonly uploaders: { readonly may: ReadonlySet<Role>; readonly known: ReadonlySet<Role> };
  /** The organization's limits, in characters. */
  readonly maxMessageLength: number;
  readonly maxTopicLength: number;
  /** Messages the run saw delivered (scheduled messages, reminders): a later delivery is another one. */
  readonly delivered: Set<number>;
  /**
   * Scheduled messages a lost step left due soon or failed (its request's outcome unknown): whether
   * they are listed, sent or failed is no longer the model's to say. Deleted at the end of the sequence.
   */
  readonly openScheduled: Set<number>;
  /** Each actor's alert words of letters and digits, as POST /register gives them (the organization's own: the run adds none). */
  readonly alertWords: Record<Role, readonly string[]>;
  /** Each actor's enable_drafts_synchronization when the run began (put back at its end). */
  readonly synchronization: Record<Role, unknown>;
  /** Whether an actor switched drafts synchronization off in this run (a step left out where the user had another client's drafts). */
  switchedSynchronization: boolean;
}

const clone = (state: Organization): Organization => ({
  drafts: { member: [...state.drafts.member], other: [...state.drafts.other], admin: [...state.drafts.admin] },
  scheduled: { member: [...state.scheduled.member], other: [...state.scheduled.other], admin: [...state.scheduled.admin] },
  flags: Object.fromEntries(ACTORS.map((as) => [as, new Map([...state.flags[as]].map(([id, flags]) => [id, new Set(flags)]))])) as Organization['flags'],
  openFlags: Object.fromEntries(ACTORS.map((as) => [as, new Map([...state.openFlags[as]].map(([id, flags]) => [id, new Set(flags)]))])) as Organization['openFlags'],
  messages: [...state.messages],
  left: [...state.left],
  fields: [...state.fields],
  summaryElsewhere: state.summaryElsewhere,
  defaults: { ...state.defaults },
  own: { member: { ...state.own.member }, other: { ...state.own.other }, admin: { ...state.own.admin } },
  deletedScheduled: [...state.deletedScheduled],
  emoji: new Map(state.emoji),
  emojiBase: state.emojiBase,
  topic: state.topic,
});

/** A difference between the model and the world, with the rules whose statements predicted otherwise. */
interface Problem {
  readonly rules: readonly RuleId[];
  readonly text: string;
}

// ---- Commands: what an actor asks, what the spec says of the answer and of the world --------

type Answer = Response;

/** The parts of the world a read takes: each user's drafts, scheduled messages and flags, the fields, the emoji, the settings. */
type Part = 'drafts' | 'scheduled' | 'flags' | 'direct' | 'fields' | 'emoji' | 'settings';
const EVERY_PART: readonly Part[] = ['drafts', 'scheduled', 'flags', 'direct', 'fields', 'emoji', 'settings'];

/** One request of one actor: sent, then its answer judged and the model moved on by the spec. */
interface Step {
  readonly label: string;
  /** Whose own data the step changes when it succeeds (drafts, scheduled messages, flags), for its events. */
  readonly owner?: Role;
  /** The step creates drafts: their IDs must reach the owner's queue. */
  readonly createsDrafts?: boolean;
  /** Whether the target and the model can take it (feature levels; a position into an empty list). */
  applies(state: Organization, context: Context): boolean;
  send(context: Context, state: Organization, pool: Pool): Promise<Answer>;
  /** The model after this answer, and what in the answer the spec does not allow. */
  apply(state: Organization, answer: Answer, pool: Pool): Problem[];
  /** Whether the step may change the defaults or users' own settings (they are read after it). */
  readonly settings?: boolean;
  /**
   * The parts of the world its operation writes, whether the spec lets it or refuses it (none given:
   * every part). A smoke round reads only these, and the whole world after a command's last round.
   */
  readonly parts?: readonly Part[];
  /** A typing notification the step sends: to whom, and whether directly (else in the pool's topic). */
  readonly typing?: { readonly to: readonly Role[]; readonly direct: boolean };
  /** The actor whose receives_typing_notifications the step sets: its queue is not judged on typing in that command. */
  readonly switchesTyping?: Role;
  /** The step moves the clock: it is never sent at once with another of the model's steps. */
  readonly alone?: boolean;
  /** The drafts synchronization the step switched off and on again, and the drafts it deleted: no event may speak of them. */
  switched?(): { readonly as: Role; readonly drafts: readonly Draft[] } | null;
  /**
   * What of the world the step changes, where an earlier step may have changed it too (an object, a
   * user's flags on a message, a setting), as the state names it when the step goes: a round of
   * packed steps, judged together, never changes one thing twice, so that no step hides another's effect.
   * A name that begins with ? is only read: the step is judged by it as it was before the round (a
   * user's setting of typing notifications). One that begins with ~ is a step the spec refuses: it
   * changes nothing, and a later step of the round may not change it either (a server that took the
   * refused request would not be seen).
   */
  touches?(state: Organization, pool: Pool): readonly string[];
}

const succeededAnswer = (answer: Answer) => answer.status >= 200 && answer.status < 300 && answer.body?.result === 'success';
const refusedAnswer = (answer: Answer) => answer.status >= 400 && answer.status < 500 && answer.body?.result === 'error';
const told = (answer: Answer) => `${answer.status} ${answer.text.slice(0, 200)}`;
/**
 * A scheduled message a step named by its place before the command, which a step before it in
 * the order ended (sent or deleted): what is asked of it must be refused as missing, with
 * BAD_REQUEST (the spec's error table). One a step of the clock's left to the server (open) may be
 * there or not: any answer.
 */
const missingScheduled = (label: string, asked: string, rule: RuleId, id: number, answer: Answer, pool: Pool): Problem[] =>
  pool.openScheduled.has(id) || (refusedAnswer(answer) && answer.body?.code === 'BAD_REQUEST') ? [] : [{ rules: [rule], text: `${label}: scheduled message ${id} no longer exists, yet ${asked} was answered ${told(answer)}` }];
/** The item at a position, counted around the list; a negative position counts from its end (-1: the newest). */
const at = <T>(list: readonly T[], position: number): T | undefined => (list.length === 0 ? undefined : list[((position % list.length) + list.length) % list.length]);

/** How the last draft of a batch breaks the spec, where it does; each makes the whole batch refused. */
type DraftFault = 'channels' | 'nul' | 'nul-topic' | 'type' | 'missing' | 'missing-topic' | 'missing-type' | 'missing-to' | 'number' | 'boolean';
const DRAFT_FAULTS: Record<DraftFault, { readonly says: string; readonly rule: RuleId }> = {
  channels: { says: 'a channel draft with no channel, or two', rule: 'drafts.channel-draft-needs-one-channel' },
  nul: { says: 'a NUL byte in its content', rule: 'drafts.null-bytes-rejected' },
  'nul-topic': { says: 'a NUL byte in its topic', rule: 'drafts.null-bytes-rejected' },
  type: { says: 'a type the spec does not list', rule: 'drafts.type-must-be-listed' },
  missing: { says: 'no content', rule: 'drafts.required-fields' },
  'missing-topic': { says: 'no topic', rule: 'drafts.required-fields' },
  'missing-type': { says: 'no type', rule: 'drafts.required-fields' },
  'missing-to': { says: 'no to', rule: 'drafts.required-fields' },
  number: { says: 'a number for its content', rule: 'drafts.field-types' },
  boolean: { says: 'a boolean for its topic', rule: 'drafts.field-types' },
};
const DRAFT_FAULT_NAMES = Object.keys(DRAFT_FAULTS) as DraftFault[];

/** A parameter no server supports: a success lists it in ignored_parameters_unsupported, from the level it does. */
const UNSUPPORTED = 'teamchat_conformance_unsupported';

/** What an answer's ignored_parameters_unsupported says of a request that carried UNSUPPORTED (or none), at this level. */
function ignoredListed(answer: Answer, carried: boolean, level: number, since = 167): Problem[] {
  const listed = answer.body?.ignored_parameters_unsupported;
  if (level < since) return listed === undefined ? [] : [{ rules: ['general.ignored-parameters-absent-before-167'], text: `below level ${since} the answer carries ignored_parameters_unsupported ${JSON.stringify(listed)}` }];
  if (!carried) return listed === undefined || (Array.isArray(listed) && listed.length === 0) ? [] : [{ rules: ['general.ignored-parameters-listed'], text: `a request without unsupported parameters was answered with ignored_parameters_unsupported ${JSON.stringify(listed)}` }];
  return Array.isArray(listed) && listed.length === 1 && listed[0] === UNSUPPORTED ? [] : [{ rules: ['general.ignored-parameters-listed'], text: `the request carried ${UNSUPPORTED}, and ignored_parameters_unsupported is ${JSON.stringify(listed)}` }];
}

function createDrafts(as: Role, items: ReadonlyArray<{ kind: number; text: number; topic: number; audience: number }>, invalid: DraftFault | null, extra = false): Step {
  const drafts = (pool: Pool) => items.map((item, index): Record<string, unknown> & Omit<Draft, 'id'> => {
    const content = `${pool.marker} ${TEXTS[item.text % TEXTS.length]}`;
    const others = ACTORS.filter((role) => role !== as);
    if (invalid !== null && index === items.length - 1) {
      const draft = { type: 'stream' as const, to: [pool.channel.id], topic: TOPICS[item.topic % TOPICS.length]!, content };
      // Not exactly one channel: none, or two distinct ones.
      if (invalid === 'channels') return { ...draft, to: item.audience % 2 === 0 ? [] : [pool.channel.id, pool.second.id] };
      if (invalid === 'nul') return { ...draft, content: `${content}\u0000` };
      if (invalid === 'nul-topic') return { ...draft, topic: `${draft.topic}\u0000` };
      if (invalid === 'type') return { ...draft, type: 'topic' as never };
      if (invalid === 'number') return { ...draft, content: 5 as never };
      if (invalid === 'boolean') return { ...draft, topic: true as never };
      const left = invalid === 'missing' ? 'content' : invalid.slice('missing-'.length);
      const { [left as 'content']: _missing, ...rest } = draft;
      return rest as never;
    }
    // An unaddressed draft's `to` is ignored: one with a user in it is taken all the same.
    if (item.kind % 3 === 0) return { type: '' as const, to: item.audience % 2 === 0 ? [] as number[] : [pool.ids[as]], topic: '', content };
    if (item.kind % 3 === 1) return { type: 'stream' as const, to: [pool.channel.id], topic: TOPICS[item.topic % TOPICS.length]!, content };
    return { type: 'private' as const, to: item.audience % 2 === 0 ? [pool.ids[others[0]!]] : others.map((role) => pool.ids[role]), topic: '', content };
  });
  return {
    label: `${as} creates ${items.length} draft${items.length === 1 ? '' : 's'}${invalid ? `, the last with ${DRAFT_FAULTS[invalid].says}` : ''}${extra ? `, with ${UNSUPPORTED}` : ''}`,
    parts: ['drafts'],
    owner: as,
    createsDrafts: true,
    applies: () => items.length > 0,
    touches: () => [`?${as}'s drafts`],
    send: (context, _state, pool) => context.call(as, 'POST', '/drafts', { drafts: drafts(pool), ...(extra ? { [UNSUPPORTED]: 'x' } : {}) }, { repeatable: invalid !== null }),
    apply(state, answer, pool) {
      if (invalid !== null) {
        return refusedAnswer(answer) ? [] : [{ rules: [DRAFT_FAULTS[invalid].rule], text: `${this.label}: the batch was answered ${told(answer)}, not refused` }];
      }
      const ids = answer.body?.ids;
      if (!succeededAnswer(answer) || !Array.isArray(ids) || ids.length !== items.length || new Set(ids).size !== ids.length || !ids.every(Number.isInteger)) {
        return [{ rules: ['drafts.create-returns-ids-in-order'], text: `${this.label}: answered ${told(answer)}, not success with ${items.length} distinct integer IDs` }];
      }
      // An unaddressed draft's audience is ignored: the model keeps it empty.
      drafts(pool).forEach((draft, index) => state.drafts[as].push({ id: ids[index], type: draft.type, to: draft.type === '' ? [] : draft.to, topic: draft.topic, content: draft.content }));
      return ignoredListed(answer, extra, pool.level).map((problem) => ({ ...problem, text: `${this.label}: ${problem.text}` }));
    },
  };
}

/** A create without the drafts parameter: it is optional, so the request succeeds and makes nothing. */
function noDrafts(as: Role): Step {
  return {
    label: `${as} creates drafts without the drafts parameter`,
    parts: ['drafts'],
    owner: as,
    applies: () => true,
    send: (context) => context.call(as, 'POST', '/drafts', {}, { repeatable: true }),
    apply(_state, answer) {
      return succeededAnswer(answer) ? [] : [{ rules: ['drafts.drafts-parameter-optional'], text: `${this.label}: answered ${told(answer)}, not success` }];
    },
  };
}

function deleteDraft(as: Role, whose: Role, position: number): Step {
  // Which draft is named when the request goes: a step sent at once with another is applied in either order.
  let draft: Draft;
  return {
    label: `${as} deletes ${whose === as ? 'its' : `${whose}'s`} draft #${position}`,
    parts: ['drafts'],
    owner: as,
    applies: (state) => state.drafts[whose].length > 0,
    touches: (state) => [`${whose === as ? '' : '~'}draft ${at(state.drafts[whose], position)!.id}`, `?${whose}'s drafts`],
    send: (context, state) => {
      draft = at(state.drafts[whose], position)!;
      return context.call(as, 'DELETE', `/drafts/${draft.id}`);
    },
    apply(state, answer) {
      // Gone already (the other request of a pair took it): the delete changes nothing, whatever it answers.
      if (!state.drafts[whose].some((held) => held.id === draft.id)) return [];
      if (whose !== as) {
        // Another user's draft: the spec's operations act on one's own data; the model keeps it as it was.
        return succeededAnswer(answer) ? [{ rules: ['general.own-data-only'], text: `${this.label}: draft ${draft.id} is ${whose}'s, yet the delete succeeded: ${told(answer)}` }] : [];
      }
      if (!succeededAnswer(answer)) return [{ rules: ['drafts.created-drafts-read-back'], text: `${this.label}: deleting its own draft ${draft.id} was answered ${told(answer)}` }];
      state.drafts[as] = state.drafts[as].filter((other) => other.id !== draft.id);
      return [];
    },
  };
}

function schedule(as: Role, channel: boolean, text: number, topic: number, audience: number): Step {
  const made = (pool: Pool, now: number): Omit<Scheduled, 'id'> => {
    const content = `${pool.marker} ${TEXTS[text % TEXTS.length]}`;
    const others = ACTORS.filter((role) => role !== as);
    return channel
      ? { type: 'stream', to: pool.channel.id, topic: TOPICS[topic % TOPICS.length]!, content, at: now }
      : { type: 'private', to: audience % 2 === 0 ? [pool.ids[others[0]!]] : others.map((role) => pool.ids[role]), topic: '', content, at: now };
  };
  let sent: Omit<Scheduled, 'id'> | null = null;
  return {
    label: `${as} schedules a ${channel ? 'channel' : 'direct'} message`,
    parts: ['scheduled'],
    owner: as,
    applies: (_state, context) => context.level >= 173,
    async send(context, _state, pool) {
      // Far ahead: nothing of the model is delivered while it runs, whoever moves the clock.
      sent = made(pool, (await targetNow(context)) + 30 * DAY + text);
      const names = typeNames(sent.type, context.level);
      const params: ParamList = { type: names[text % names.length]!, to: sent.to as never, content: sent.content, scheduled_delivery_timestamp: sent.at, ...(channel ? { topic: sent.topic } : {}) };
      return context.call(as, 'POST', '/scheduled_messages', params);
    },
    apply(state, answer) {
      const id = answer.body?.scheduled_message_id;
      // Scheduling is outside the spec (Zulip's endpoint), needed to make what the spec's operations act on.
      if (!succeededAnswer(answer) || !Number.isInteger(id)) return [{ rules: ['scheduled.edits-follow-model'], text: `${this.label}: answered ${told(answer)}, no scheduled_message_id` }];
      state.scheduled[as].push({ id, ...sent! });
      return [];
    },
  };
}

/** The spec's names of the two kinds of message at a level: `direct` and `private` always, `channel` beside `stream` from 248. */
const typeNames = (kind: 'stream' | 'private', level: number) => (kind === 'stream' ? (level >= 248 ? ['stream', 'channel'] : ['stream']) : ['private', 'direct']);

interface Change {
  readonly text?: number;
  readonly topic?: number;
  readonly later?: number;
  /** Moves the message to the other kind: a type name (by position), with `to` (and a topic for a channel) unless left out. */
  readonly move?: { readonly name: number; readonly leaveOut?: 'to' | 'topic' };
  /** An edit the spec refuses: a type it does not list, a `to` of the other kind's form, a channel or a user that does not exist. */
  readonly bad?: BadEdit;
  /** A topic of the empty topic's names (by position in emptyNames), or another case of them: what it means depends on the level. */
  readonly emptyTopic?: number;
  /** A content or topic past the organization's limit by 1 to 3 characters of one kind (by position in LONG_UNITS). */
  readonly long?: { readonly field: 'content' | 'topic'; readonly over: number; readonly unit: number; readonly atLimit?: boolean };
}

/** Characters of one, two and four bytes, and one outside the Basic Multilingual Plane: the limits count characters. */
const LONG_UNITS = ['a', 'é', '日', '𝒜'] as const;

type BadEdit = 'type-name' | 'to-kind' | 'missing-channel' | 'missing-user' | 'empty-required';
const BAD_EDITS: Record<BadEdit, RuleId> = { 'type-name': 'scheduled.type-values', 'to-kind': 'scheduled.to-matches-type', 'missing-channel': 'scheduled.missing-channel-error', 'missing-user': 'scheduled.invalid-user-error', 'empty-required': 'scheduled.required-topic-not-empty' };
const BAD_EDIT_NAMES = Object.keys(BAD_EDITS) as BadEdit[];
/** Type names the spec does not list at this level: `channel` below 248, and names that are none. */
const notTypeNames = (level: number) => [...(level < 248 ? ['channel'] : []), 'Stream', 'dm', 'group', ''];

/** The names of the empty topic at this level's reading, then other cases of them (ordinary topics). */
function emptyNames(displayName: string): string[] {
  return ['', '(no topic)', ...(displayName ? [displayName] : []), '(No Topic)'];
}

/**
 * A channel message's topic edited alone to one of the empty topic's names, by the spec: from
 * level 370 "(no topic)" and the display name mean the empty topic; the empty topic is valid from
 * 334 and refused below; another case of a name is an ordinary topic. 'refused', or the topic stored.
 */
function editedTopic(given: string, level: number, displayName: string): string | 'refused' {
  const meansEmpty = given === '' || (level >= 370 && (given === '(no topic)' || (displayName !== '' && given === displayName)));
  if (!meansEmpty) return given;
  return level < 334 ? 'refused' : '';
}

/** A scheduled message with these fields given: a field given is no longer open. */
function withGiven(item: Scheduled, fields: Partial<Scheduled>): Scheduled {
  const { within, ...rest } = item;
  const open = Object.entries(within ?? {}).filter(([field]) => !(field in fields));
  return { ...rest, ...fields, ...(open.length > 0 ? { within: Object.fromEntries(open) } : {}) };
}

function editScheduled(as: Role, whose: Role, position: number, change: Change): Step {
  const params = (target: Scheduled, pool: Pool, level: number): ParamList => {
    const kind = change.move ? (target.type === 'stream' ? 'private' : 'stream') : target.type;
    const names = typeNames(kind, level);
    const others = ACTORS.filter((role) => role !== as);
    if (change.bad !== undefined) {
      const bad = change.bad;
      const otherKind = target.type === 'stream' ? 'private' : 'stream';
      // With the kind's `to` (and a channel's topic): a listed name would make a whole edit of it.
      if (bad === 'type-name') return { type: notTypeNames(level)[(change.text ?? 0) % notTypeNames(level).length]!, to: (target.type === 'stream' ? pool.channel.id : [pool.ids[others[0]!]]) as never, ...(target.type === 'stream' ? { topic: TOPICS[1] } : {}), content: `${pool.marker} refused` };
      // The kind's `to` in the other kind's form: a channel's ID in a list, users' IDs as one integer.
      if (bad === 'to-kind') return target.type === 'stream' ? { to: [pool.channel.id] as never } : { to: pool.ids[others[0]!] };
      if (bad === 'missing-channel') return { ...(target.type === 'stream' ? {} : { type: typeNames(otherKind, level)[0]!, topic: TOPICS[0] }), to: MISSING_ID + (change.text ?? 0) };
      if (bad === 'empty-required') return { type: typeNames('stream', level)[0]!, to: pool.channel.id, topic: emptyNames(pool.emptyTopicDisplayName).slice(0, -1)[(change.text ?? 0) % (emptyNames(pool.emptyTopicDisplayName).length - 1)]! };
      return { ...(target.type === 'private' ? {} : { type: typeNames(otherKind, level)[0]! }), to: [pool.ids[others[0]!], MISSING_ID + (change.text ?? 0)] as never };
    }
    if (change.long !== undefined) {
      const { field, over, unit, atLimit } = change.long;
      const max = field === 'content' ? pool.maxMessageLength : pool.maxTopicLength;
      const head = field === 'content' ? `${pool.marker} ` : '';
      return { [field]: head + LONG_UNITS[unit % LONG_UNITS.length]!.repeat((atLimit ? max : max + 1 + (over % 3)) - Array.from(head).length) };
    }
    if (change.emptyTopic !== undefined) return { topic: emptyNames(pool.emptyTopicDisplayName)[change.emptyTopic % emptyNames(pool.emptyTopicDisplayName).length]! };
    return {
      ...(change.move ? { type: names[change.move.name % names.length]! } : {}),
      ...(change.move && change.move.leaveOut !== 'to' ? { to: (kind === 'stream' ? pool.channel.id : [pool.ids[others[change.move.name % 2]!]]) as never } : {}),
      ...(change.text !== undefined ? { content: `${pool.marker} ${TEXTS[change.text % TEXTS.length]} edited` } : {}),
      // A topic is given to a direct message too: the spec says it is then ignored.
      ...((change.topic !== undefined || (change.move && kind === 'stream')) && change.move?.leaveOut !== 'topic' ? { topic: TOPICS[(change.topic ?? 0) % TOPICS.length]! } : {}),
      ...(change.later !== undefined ? { scheduled_delivery_timestamp: target.at + 60 * (1 + change.later) } : {}),
    };
  };
  const what = change.bad !== undefined ? `refused: ${change.bad}` : change.long !== undefined ? `a ${change.long.field} ${change.long.atLimit ? 'at' : 'past'} its limit` : change.emptyTopic !== undefined ? `topic of the empty topic's names #${change.emptyTopic}` : [...Object.keys(change).filter((key) => key !== 'move'), ...(change.move ? [`move to the other kind${change.move.leaveOut ? ` without ${change.move.leaveOut}` : ''}`] : [])].join(', ');
  let target: Scheduled;
  return {
    label: `${as} edits ${whose === as ? 'its' : `${whose}'s`} scheduled message #${position} (${what || 'nothing'})`,
    parts: ['scheduled'],
    owner: as,
    // A required topic is one of a move to a channel: of a direct message. A topic past its limit is a channel message's.
    // What the spec refuses changes nothing: it only reads the message.
    touches: (state) => [`${whose !== as || change.bad !== undefined || change.move?.leaveOut !== undefined ? '~' : ''}scheduled ${at(state.scheduled[whose], position)!.id}`],
    applies: (state, context) => context.level >= 184 && state.scheduled[whose].length > 0 && what !== ''
      && (change.bad !== 'empty-required' || at(state.scheduled[whose], position)!.type === 'private')
      && (change.long?.field !== 'topic' || at(state.scheduled[whose], position)!.type === 'stream'),
    send: (context, state, pool) => {
      target = at(state.scheduled[whose], position)!;
      return context.call(as, 'PATCH', `/scheduled_messages/${target.id}`, params(target, pool, context.level), { repeatable: whose !== as || change.move?.leaveOut !== undefined || change.bad !== undefined });
    },
    apply(state, answer, pool) {
      // Deleted already (the other request of a pair): no scheduled message has the ID any more.
      if (whose === as && !state.scheduled[as].some((held) => held.id === target.id)) return missingScheduled(this.label, 'the edit', 'scheduled.missing-message-error', target.id, answer, pool);
      if (whose !== as) return refusedAnswer(answer) ? [] : [{ rules: ['scheduled.own-messages-only'], text: `${this.label}: scheduled message ${target.id} is ${whose}'s, yet the edit was answered ${told(answer)}` }];
      if (change.bad !== undefined) {
        if (!refusedAnswer(answer)) return [{ rules: [BAD_EDITS[change.bad]], text: `${this.label}: answered ${told(answer)}, not refused` }];
        const given = params(target, pool, pool.level);
        // The spec's error table: a missing channel says which (STREAM_DOES_NOT_EXIST, stream_id); a missing user is BAD_REQUEST.
        if (change.bad === 'missing-channel' && (answer.body?.code !== 'STREAM_DOES_NOT_EXIST' || answer.body?.stream_id !== given.to)) return [{ rules: ['scheduled.missing-channel-error'], text: `${this.label}: the refusal is ${told(answer)}, not STREAM_DOES_NOT_EXIST with stream_id ${given.to}` }];
        if (change.bad === 'missing-user' && answer.body?.code !== 'BAD_REQUEST') return [{ rules: ['scheduled.invalid-user-error'], text: `${this.label}: the refusal is ${told(answer)}, not BAD_REQUEST` }];
        return [];
      }
      if (change.long !== undefined) {
        // Past the limit: refused, or kept within the limit in some way the spec leaves open.
        const { field, atLimit } = change.long;
        const rule: RuleId = field === 'content' ? 'scheduled.content-limit' : 'scheduled.topic-limit';
        if (atLimit) {
          // At the limit, counted in characters: kept whole.
          if (!succeededAnswer(answer)) return [{ rules: [rule], text: `${this.label}: answered ${told(answer)}` }];
          const value = String(params(target, pool, pool.level)[field]);
          state.scheduled[as] = state.scheduled[as].map((one) => (one.id === target.id ? withGiven(one, { [field]: value }) : one));
          return [];
        }
        if (refusedAnswer(answer)) return [];
        if (!succeededAnswer(answer)) return [{ rules: [rule], text: `${this.label}: answered ${told(answer)}` }];
        const max = field === 'content' ? pool.maxMessageLength : pool.maxTopicLength;
        state.scheduled[as] = state.scheduled[as].map((one) => (one.id === target.id ? { ...one, within: { ...one.within, [field]: max } } : one));
        return [];
      }
      if (change.emptyTopic !== undefined) {
        const given = String(params(target, pool, pool.level).topic);
        const outcome = target.type === 'stream' ? editedTopic(given, pool.level, pool.emptyTopicDisplayName) : null;
        const rules: RuleId[] = target.type === 'private' ? ['scheduled.topic-ignored-for-direct'] : given === '' ? ['scheduled.empty-topic-valid-since-334', 'scheduled.empty-topic-invalid-before-334'] : ['scheduled.empty-topic-names', 'scheduled.no-topic-ordinary-before-370'];
        if (outcome === 'refused') return refusedAnswer(answer) ? [] : [{ rules, text: `${this.label}: ${JSON.stringify(given)} is refused at level ${pool.level}, yet answered ${told(answer)}` }];
        if (!succeededAnswer(answer)) return [{ rules, text: `${this.label}: the topic ${JSON.stringify(given)} was answered ${told(answer)}` }];
        if (outcome !== null) state.scheduled[as] = state.scheduled[as].map((one) => (one.id === target.id ? { ...one, topic: outcome } : one));
        return [];
      }
      // A move needs `to`, and a move to a channel its topic: without them the edit is refused and changes nothing.
      if (change.move?.leaveOut === 'to') return refusedAnswer(answer) ? [] : [{ rules: ['scheduled.to-required-on-type-change'], text: `${this.label}: the type changed without \`to\`, yet the edit was answered ${told(answer)}` }];
      if (change.move?.leaveOut === 'topic' && target.type === 'private') return refusedAnswer(answer) ? [] : [{ rules: ['scheduled.topic-required-on-change-to-channel'], text: `${this.label}: moved to a channel without a topic, yet the edit was answered ${told(answer)}` }];
      if (!succeededAnswer(answer)) return [{ rules: change.move ? ['scheduled.edits-follow-model', 'scheduled.type-synonyms'] : target.type === 'private' && change.topic !== undefined ? ['scheduled.topic-ignored-for-direct'] : ['scheduled.edits-follow-model'], text: `${this.label}: answered ${told(answer)}` }];
      // The message as this order finds it: an edit sent at once with another edit builds on whichever went first.
      const current = state.scheduled[as].find((held) => held.id === target.id)!;
      const given = params(target, pool, pool.level);
      const kind = change.move ? (target.type === 'stream' ? 'private' : 'stream') : target.type;
      const edited: Scheduled = withGiven(current, {
        type: kind,
        ...(given.to !== undefined ? { to: given.to as Scheduled['to'] } : {}),
        ...(given.content !== undefined ? { content: String(given.content) } : {}),
        ...(kind === 'stream' && given.topic !== undefined ? { topic: String(given.topic) } : {}),
        ...(given.scheduled_delivery_timestamp !== undefined ? { at: Number(given.scheduled_delivery_timestamp) } : {}),
      });
      state.scheduled[as] = state.scheduled[as].map((one) => (one.id === target.id ? edited : one));
      return [];
    },
  };
}

function deleteScheduled(as: Role, whose: Role | 'deleted', position: number): Step {
  let id: number;
  return {
    label: whose === 'deleted' ? `${as} deletes a scheduled message deleted before (#${position})` : `${as} deletes ${whose === as ? 'its' : `${whose}'s`} scheduled message #${position}`,
    parts: ['scheduled'],
    owner: as,
    applies: (state, context) => context.level >= 173 && (whose === 'deleted' ? state.deletedScheduled.length > 0 : state.scheduled[whose].length > 0),
    touches: (state) => [`${whose === as ? '' : '~'}scheduled ${whose === 'deleted' ? at(state.deletedScheduled, position)! : at(state.scheduled[whose], position)!.id}`],
    send: (context, state) => {
      id = whose === 'deleted' ? at(state.deletedScheduled, position)! : at(state.scheduled[whose], position)!.id;
      return context.call(as, 'DELETE', `/scheduled_messages/${id}`, {}, { repeatable: whose !== as });
    },
    apply(state, answer, pool) {
      const owned = whose !== 'deleted' && state.scheduled[whose].some((held) => held.id === id);
      if (whose === 'deleted' || (whose === as && !owned)) return missingScheduled(this.label, 'the delete', 'scheduled.delete-missing-error', id, answer, pool);
      if (whose !== as) return refusedAnswer(answer) ? [] : [{ rules: ['scheduled.own-messages-only'], text: `${this.label}: scheduled message ${id} is ${whose}'s, yet the delete was answered ${told(answer)}` }];
      const target = state.scheduled[as].find((held) => held.id === id)!;
      if (!succeededAnswer(answer)) return [{ rules: ['scheduled.delete-removes'], text: `${this.label}: answered ${told(answer)}` }];
      state.scheduled[as] = state.scheduled[as].filter((one) => one.id !== target.id);
      state.deletedScheduled.push(target.id);
      return [];
    },
  };
}

// ---- Deliveries: the reference clock moves, and what comes due is sent -------------------------

/** How far ahead a delivery of the model is due: far enough that no other run's moves of the clock pass it while the step sets up. */
const DUE_IN = 600;
/** How late the worker finds a message it is to fail: as the scheduled checks, ten minutes past its time (how a message fails is not shown). */
const LATE = 10 * 60;

/**
 * With the reference clock: what a look finds three seconds before `due`, kept only where the clock
 * (read again after the look: another run may move it) was still short of it, and what it finds once
 * the clock has passed it.
 */
async function aroundDue<T>(context: Context, due: number, look: () => Promise<T[]>): Promise<{ early: T[]; then: number; after: T[]; late: (timestamp: number) => boolean }> {
  const read = await advanceClock(context, 0);
  if (read < due - 3) await advanceClock(context, due - 3 - read);
  const seen = await look();
  const then = await advanceClock(context, 0);
  const { alone } = await advancedAlone(context, 120);
  // Stamped over a minute after its time, where the clock carried the run across it alone (deliveries.ts: ON_TIME_SECONDS).
  const late = (timestamp: number) => alone && then < due && !(timestamp <= due + ON_TIME_SECONDS);
  return { early: then < due ? seen : [], then, after: await look(), late };
}

/** Whether a message the actor sees is in the conversation a scheduled message names. */
function inConversation(message: any, item: Scheduled, self: number, pool: Pool): boolean {
  if (item.type === 'stream') {
    // The empty topic may read as its display name, where the organization has one.
    const topics = item.topic === '' || item.topic === pool.emptyTopicDisplayName ? ['', pool.emptyTopicDisplayName] : [item.topic];
    return message.type === 'stream' && message.stream_id === item.to && topics.includes(message.subject);
  }
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient.map((user: any) => user.id) : [];
  return message.type === 'private' && audience(recipients, self) === audience(item.to, self);
}

/**
 * What comes due for one of the actor's scheduled messages, with the reference clock: its time is
 * moved to ten minutes ahead and its content given a token of its own (by one edit), then
 * - `sent`: the clock goes to three seconds before it (nothing sent yet: scheduled.sent-at-its-time)
 *   and past it: the message is sent once, as last edited (content, topic, recipients), stamped not
 *   before its time (scheduled.delivered-as-edited), and the listing no longer holds it;
 * - `deleted`: it is deleted, and the clock goes past its time: nothing is sent
 *   (scheduled.deleted-never-sent);
 * - `failed`: the clock passes it with the worker down and then up, late; where the server then
 *   lists it failed, an edit without a new time is refused and one with a time is accepted
 *   (scheduled.failed-needs-timestamp); whether it is still failed then is not shown, and the model leaves it.
 */
function comeDue(as: Role, position: number, mode: 'sent' | 'deleted' | 'failed'): Step {
  let target: Scheduled;
  let due = 0;
  let later = 0;
  let content = '';
  const found: Problem[] = [];
  let outcome: 'sent' | 'deleted' | 'failed' | 'open' | 'kept' = 'kept';
  // What is sent of it carries the token its last edit gave it, which no other text holds (other
  // clients may send the run's very texts, in any conversation): found by identity, never resemblance.
  let token = '';
  const newOnes = (messages: any[], pool: Pool) => messages.filter((message) => !pool.delivered.has(message.id) && String(message.content).includes(token));
  return {
    label: `${as}'s scheduled message #${position} comes due: ${mode === 'sent' ? 'it is sent at its time' : mode === 'deleted' ? 'deleted, it is never sent' : 'the worker finds it late'}`,
    owner: as,
    alone: true,
    // Its time is moved by an edit, an operation from level 184.
    applies: (state, context) => context.deliveryState.mode === 'clock' && context.level >= 184 && state.scheduled[as].length > 0 && at(state.scheduled[as], position)!.within === undefined,
    touches: (state) => [`scheduled ${at(state.scheduled[as], position)!.id}`],
    async send(context, state, pool) {
      found.length = 0;
      outcome = 'kept';
      target = at(state.scheduled[as], position)!;
      due = (await advanceClock(context, 0)) + DUE_IN;
      token = context.token('due');
      content = `${pool.marker} ${TEXTS[position % TEXTS.length]} ${token}`;
      const moved = await context.call(as, 'PATCH', `/scheduled_messages/${target.id}`, { scheduled_delivery_timestamp: due, content });
      if (!succeededAnswer(moved)) return moved;
      const item: Scheduled = { ...target, at: due, content };
      if (mode === 'deleted') {
        const deleted = await context.call(as, 'DELETE', `/scheduled_messages/${target.id}`);
        if (!succeededAnswer(deleted)) {
          found.push({ rules: ['scheduled.delete-removes'], text: `deleting it was answered ${told(deleted)}` });
          return moved;
        }
        await advanceClock(context, DUE_IN + 60);
        const sent = newOnes(await recentMessages(context, as, 50), pool);
        for (const message of sent) pool.delivered.add(message.id);
        if (sent.length > 0) found.push({ rules: ['scheduled.deleted-never-sent'], text: `scheduled message ${target.id} was deleted before its time, and was sent once the time passed: ${JSON.stringify(sent.map((message) => message.content))}` });
        outcome = 'deleted';
        return moved;
      }
      if (mode === 'failed') {
        await advanceClock(context, DUE_IN + LATE + 60, false);
        await advanceClock(context, 0);
        const listed = succeeded(await context.call(as, 'GET', '/scheduled_messages'), 'GET /scheduled_messages').scheduled_messages;
        const now = Array.isArray(listed) ? listed.find((one: any) => one.scheduled_message_id === target.id) : undefined;
        // How a message fails is not shown: a server that sends it late, or keeps it, is left to itself.
        if (now?.failed !== true) {
          for (const message of newOnes(await recentMessages(context, as, 50), pool)) pool.delivered.add(message.id);
          outcome = 'open';
          return moved;
        }
        const refused = await context.call(as, 'PATCH', `/scheduled_messages/${target.id}`, { content: `${pool.marker} ${TEXTS[1]} failed` }, { repeatable: true });
        if (!refusedAnswer(refused)) found.push({ rules: ['scheduled.failed-needs-timestamp'], text: `the failed message ${target.id} was edited without a new scheduled_delivery_timestamp, and the edit was answered ${told(refused)}` });
        later = (await targetNow(context)) + 30 * DAY + position;
        const retimed = await context.call(as, 'PATCH', `/scheduled_messages/${target.id}`, { scheduled_delivery_timestamp: later });
        if (!succeededAnswer(retimed)) found.push({ rules: ['scheduled.failed-needs-timestamp'], text: `the failed message ${target.id} was edited with a new future time, and the edit was answered ${told(retimed)}` });
        outcome = refusedAnswer(refused) && succeededAnswer(retimed) ? 'failed' : 'open';
        return moved;
      }
      // Three seconds before its time nothing is sent yet; past it, the message.
      const { early, then, after: sent, late } = await aroundDue(context, due, async () => newOnes(await recentMessages(context, as, 50), pool));
      if (early.length > 0) found.push({ rules: ['scheduled.sent-at-its-time'], text: `scheduled message ${target.id}, due at ${due}, was sent while the clock read ${then}: ${JSON.stringify(early.map((message) => message.content))}` });
      for (const message of sent) pool.delivered.add(message.id);
      const exact = sent.filter((message) => message.sender_id === pool.ids[as] && message.content === item.content && inConversation(message, item, pool.ids[as], pool));
      if (exact.length !== 1 || sent.length !== 1) {
        found.push({ rules: ['scheduled.delivered-as-edited'], text: `scheduled message ${target.id} (${JSON.stringify({ type: item.type, to: item.to, topic: item.topic, content: item.content })}) came due; ${sent.length === 0 ? 'no message of it was sent' : `the messages sent are ${JSON.stringify(sent.map((message) => ({ type: message.type, to: message.stream_id ?? message.display_recipient?.map?.((user: any) => user.id), topic: message.subject, content: message.content })))}`}` });
      }
      for (const message of sent) {
        if (!(Number(message.timestamp) >= due)) found.push({ rules: ['scheduled.sent-at-its-time'], text: `scheduled message ${target.id}, due at ${due}, was sent stamped ${message.timestamp}` });
        if (late(Number(message.timestamp))) found.push({ rules: ['scheduled.sent-at-its-time'], text: `scheduled message ${target.id}, due at ${due}, was sent stamped ${message.timestamp}: over ${ON_TIME_SECONDS} s after its time, though the reference clock's advance delivers as a worker on time` });
      }
      outcome = 'sent';
      return moved;
    },
    apply(state, answer, pool) {
      // A step before it in its sequence (a delete, another step of the clock's) may have ended it:
      // then moving it is the edit of a scheduled message that no longer exists.
      if (!state.scheduled[as].some((one) => one.id === target.id)) return missingScheduled(this.label, 'moving its time', 'scheduled.missing-message-error', target.id, answer, pool);
      if (!succeededAnswer(answer)) return [{ rules: ['scheduled.edits-follow-model'], text: `${this.label}: moving its time to ${due} was answered ${told(answer)}` }];
      const rest = state.scheduled[as].filter((one) => one.id !== target.id);
      // Its time and content moved first (every outcome below starts from that edit).
      state.scheduled[as] = state.scheduled[as].map((one) => (one.id === target.id ? { ...one, at: due, content } : one));
      if (outcome === 'sent') state.scheduled[as] = rest;
      else if (outcome === 'open') {
        // Not listed failed: sent late, or kept as it was. How a message fails is not shown; the server keeps it or not.
        state.scheduled[as] = rest;
        pool.openScheduled.add(target.id);
      }
      else if (outcome === 'deleted') {
        state.scheduled[as] = rest;
        state.deletedScheduled.push(target.id);
      } else if (outcome === 'failed') {
        // Retimed, whether it is failed still is not shown (Zulip clears it; another server may keep it,
        // and then refuse an edit without a time): the model leaves it alone from now on.
        state.scheduled[as] = rest;
        pool.openScheduled.add(target.id);
      }
      return found.map((problem) => ({ ...problem, text: `${this.label}: ${problem.text}` }));
    },
  };
}

/** Notes of the reminders: what must come back as written, a line break inside, longer than a hundred characters. */
const NOTES = ['note *b* <i>&amp;</i> 😀 e\u0301', `two lines, the second long:\n${MARKED} ${MARKED}`] as const;

/**
 * The actor asks for a reminder of one of the pool's messages, due ten minutes ahead, with the
 * reference clock: an integer reminder_id (listed with the message and time where the target
 * lists reminders); nothing delivered three seconds before its time; past it, one direct
 * message from a bot to the actor alone, linking the message, showing the note (from level 415;
 * below, note is no parameter and is named as ignored); no other actor receives it.
 */
function remind(as: Role, position: number, note: number | null): Step {
  let message = 0;
  let due = 0;
  let text = '';
  const found: Problem[] = [];
  const fromBot = (pool: Pool) => (one: any) => !Object.values(pool.ids).includes(one.sender_id) && !pool.delivered.has(one.id) && linksToMessage(String(one.content), message);
  return {
    label: `${as} asks for a reminder of pool message #${position}${note === null ? '' : ` with note #${note}`}, and its time comes`,
    owner: as,
    alone: true,
    applies: (state, context) => context.deliveryState.mode === 'clock' && context.level >= 381 && state.messages.length > 0,
    async send(context, state, pool) {
      found.length = 0;
      message = at(state.messages, position)!;
      text = note === null ? '' : `${pool.marker} ${NOTES[note % NOTES.length]}`;
      due = (await advanceClock(context, 0)) + DUE_IN;
      const answer = await context.call(as, 'POST', '/reminders', { message_id: message, scheduled_delivery_timestamp: due, ...(note === null ? {} : { note: text }) });
      const id = answer.body?.reminder_id;
      if (!succeededAnswer(answer) || !Number.isInteger(id)) return answer;
      if (!context.probe.missing['reminder-deletion']) {
        // Delivered at once below; a step lost on its way leaves it pending, and the end of the run deletes it.
        context.cleanup.atEnd(`delete reminder ${id}`, async () => cleanedUp(await context.call(as, 'DELETE', `/reminders/${id}`)), { as, method: 'DELETE', path: `/reminders/${id}`, params: {} });
      }
      if (!context.probe.missing['reminder-listing']) {
        const listed = succeeded(await context.call(as, 'GET', '/reminders'), 'GET /reminders').reminders;
        const item = Array.isArray(listed) ? listed.find((one: any) => one.reminder_id === id) : undefined;
        if (!item || item.scheduled_delivery_timestamp !== due || !Object.values(item).includes(message)) found.push({ rules: ['reminders.create-returns-id'], text: `GET /reminders lists reminder ${id} as ${JSON.stringify(item)}, not for message ${message} at ${due}` });
        // It is the actor's own: nobody else lists it.
        for (const other of ACTORS.filter((role) => role !== as)) {
          const theirs = succeeded(await context.call(other, 'GET', '/reminders'), `GET /reminders as ${other}`).reminders;
          if (Array.isArray(theirs) && theirs.some((one: any) => one?.reminder_id === id)) found.push({ rules: ['general.own-data-only'], text: `${other}'s GET /reminders lists ${as}'s reminder ${id}` });
        }
      }
      const { early, then, after: delivered, late } = await aroundDue(context, due, async () => (await recentMessages(context, as, 50)).filter(fromBot(pool)));
      if (early.length > 0) found.push({ rules: ['reminders.sent-at-its-time'], text: `reminder ${id}, due at ${due}, was delivered while the clock read ${then}` });
      for (const one of delivered) pool.delivered.add(one.id);
      const self = pool.ids[as];
      const alone = (one: any) => one.type === 'private' && Array.isArray(one.display_recipient) && one.display_recipient.every((user: any) => user.id === self || user.id === one.sender_id);
      if (delivered.length !== 1 || !alone(delivered[0])) found.push({ rules: ['reminders.delivered-to-self'], text: `past its time, reminder ${id} of message ${message} came to ${as} as ${delivered.length} messages from a bot linking it: ${JSON.stringify(delivered.map((one) => ({ type: one.type, to: one.display_recipient?.map?.((user: any) => user.id), content: one.content })))}` });
      for (const one of delivered) {
        if (!(Number(one.timestamp) >= due)) found.push({ rules: ['reminders.sent-at-its-time'], text: `reminder ${id}, due at ${due}, was delivered stamped ${one.timestamp}` });
        if (late(Number(one.timestamp))) found.push({ rules: ['reminders.sent-at-its-time'], text: `reminder ${id}, due at ${due}, was delivered stamped ${one.timestamp}: over ${ON_TIME_SECONDS} s after its time, though the reference clock's advance delivers as a worker on time` });
        if (text !== '' && pool.level >= 415 && !String(one.content).includes(text)) found.push({ rules: ['reminders.note-delivered'], text: `the delivered reminder ${id} does not show the note ${JSON.stringify(text)}: ${JSON.stringify(one.content)}` });
      }
      for (const other of ACTORS.filter((role) => role !== as)) {
        const theirs = (await recentMessages(context, other, 50)).filter(fromBot(pool));
        if (theirs.length > 0) found.push({ rules: ['reminders.delivered-to-self'], text: `${as}'s reminder ${id} reached ${other} too: ${JSON.stringify(theirs.map((one) => one.content))}` });
      }
      return answer;
    },
    apply(_state, answer, pool) {
      if (!succeededAnswer(answer) || !Number.isInteger(answer.body?.reminder_id)) return [{ rules: ['reminders.create-returns-id'], text: `${this.label}: POST /reminders answered ${told(answer)}, no integer reminder_id` }];
      const problems = [...found];
      // Below level 415 note is no parameter: named as ignored.
      if (note !== null && pool.level < 415) {
        const listed = answer.body?.ignored_parameters_unsupported;
        if (!(Array.isArray(listed) && listed.includes('note'))) problems.push({ rules: ['reminders.note-absent-before-415'], text: `at level ${pool.level} note is no parameter, and ignored_parameters_unsupported is ${JSON.stringify(listed)}` });
      }
      return problems.map((problem) => ({ ...problem, text: `${this.label}: ${problem.text}` }));
    },
  };
}

/** How a flags request breaks the spec's parameters, where it does: a required one left out, or an op that is neither add nor remove. */
type FlagsFault = 'no messages' | 'no op' | 'no flag' | 'op';
const FLAGS_FAULTS: Record<FlagsFault, RuleId> = { 'no messages': 'flags.required-parameters', 'no op': 'flags.required-parameters', 'no flag': 'flags.required-parameters', op: 'flags.op-add-or-remove' };

/**
 * A flags request: with `nonexistent`, it also names a message that does not exist. What a server does
 * with such an ID is open (flags.inaccessible-messages: Zulip refuses the request, another server may
 * pass over the ID); either way it answers, and a refusal changes nothing.
 */
function updateFlags(as: Role, op: 'add' | 'remove', flag: Flag | (typeof NOT_CHANGEABLE)[number] | (typeof FIXED_FLAGS)[number], positions: readonly number[], extra = false, invalid: FlagsFault | null = null, nonexistent = false): Step {
  // Which messages are named when the request goes: a step sent at once with another is applied in either order.
  let named: number[] = [];
  const ids = () => named;
  const changeable = (FLAGS as readonly string[]).includes(flag);
  // Whether it named the direct message: its conversation is read after the round then.
  let direct = false;
  return {
    label: `${as} ${op === 'add' ? 'adds' : 'removes'} ${JSON.stringify(flag)} on messages ${runsOf(positions).map(([position, times]) => `${position < 0 ? 'the newest' : `#${position}`}${times > 1 ? ` ×${times}` : ''}`).join(', ')}${nonexistent ? ` and ${MISSING_ID}, which does not exist` : ''}${extra ? `, with ${UNSUPPORTED}` : ''}${invalid === null ? '' : invalid === 'op' ? ', with op "toggle"' : `, without ${invalid.slice(3)}`}`,
    get parts(): readonly Part[] {
      return direct ? ['flags', 'direct'] : ['flags'];
    },
    owner: as,
    applies: () => positions.length > 0,
    touches: (state) => positions.map((position) => `${invalid !== null || !changeable ? '~' : ''}${as}'s flags on ${at(state.messages, position)!}`),
    send: (context, state, pool) => {
      named = positions.map((position) => at(state.messages, position)!);
      direct = named.some((id) => pool.directMessages.has(id));
      const params: ParamList = { messages: nonexistent ? [...ids(), MISSING_ID] : ids(), op: invalid === 'op' ? 'toggle' : op, flag, ...(extra ? { [UNSUPPORTED]: 'x' } : {}) };
      if (invalid !== null && invalid !== 'op') delete params[invalid.slice(3)];
      return context.call(as, 'POST', '/messages/flags', params, { repeatable: !changeable || invalid !== null });
    },
    apply(state, answer, pool) {
      // All three parameters are required, and op is add or remove: else the request is refused and changes nothing.
      if (invalid !== null) return refusedAnswer(answer) ? [] : [{ rules: [FLAGS_FAULTS[invalid]], text: `${this.label}: answered ${told(answer)}, not refused` }];
      if (!changeable) return refusedAnswer(answer) ? [] : [{ rules: ['flags.only-changeable-flags'], text: `${this.label}: ${JSON.stringify(flag)} is no changeable flag, yet answered ${told(answer)}` }];
      // A message that does not exist: the request may be refused, and then it changed nothing.
      if (nonexistent && refusedAnswer(answer)) return [];
      if (!succeededAnswer(answer)) return [{ rules: [op === 'add' ? 'flags.add-sets-flag' : 'flags.remove-clears-flag'], text: `${this.label}: answered ${told(answer)}` }];
      const modified: number[] = [];
      // Where the model leaves a flag open, whether the request modified it is open too: then it is known.
      const unknown: number[] = [];
      // Removing read skips the messages of channels the user is not subscribed to: they stay read.
      const skipped: number[] = [];
      for (const id of new Set(ids())) {
        const flags = state.flags[as].get(id);
        // A message whose flags the model does not know for the actor (never seen by it): whether it changed is unknown.
        if (!flags) {
          unknown.push(id);
          continue;
        }
        if (op === 'remove' && flag === 'read' && state.left.includes(as) && pool.thirdMessages.has(id)) {
          skipped.push(id);
          continue;
        }
        const open = state.openFlags[as].get(id);
        // Starred, a message the actor did not receive enters their history: historical (the spec's table).
        if (op === 'add' && flag === 'starred' && open?.has('historical')) {
          flags.add('historical');
          open.delete('historical');
        }
        if (open?.has(flag)) {
          unknown.push(id);
          open.delete(flag);
        } else if (flags.has(flag as Flag) !== (op === 'add')) modified.push(id);
        if (op === 'add') flags.add(flag as Flag);
        else flags.delete(flag as Flag);
      }
      // `messages` holds the IDs of the modified messages: every one of them.
      const listed = answer.body?.messages;
      const missing = modified.filter((id) => !Array.isArray(listed) || !listed.includes(id));
      // And only them: a message whose flag was already so is not modified.
      const unmodified = Array.isArray(listed) ? listed.filter((id) => !modified.includes(id) && !unknown.includes(id)) : [];
      const ignored = ignoredListed(answer, extra, pool.level).map((problem) => ({ ...problem, text: `${this.label}: ${problem.text}` }));
      // The channels skipped: listed exactly for read and remove from level 355 (where none was, it may be left out); else never there.
      const channels = answer.body?.ignored_because_not_subscribed_channels;
      const readRemove = op === 'remove' && flag === 'read' && pool.level >= 355;
      const want = skipped.length > 0 ? [pool.third.id] : [];
      const listedChannels = readRemove
        ? (channels === undefined && want.length === 0) || (Array.isArray(channels) && JSON.stringify([...new Set(channels)].sort()) === JSON.stringify(want))
          ? []
          : [{ rules: ['flags.ignored-channels-listed'] as RuleId[], text: `${this.label}: ${skipped.length > 0 ? `messages ${skipped.join(', ')} of the third channel (${pool.third.id}), which ${as} left, were skipped` : 'no message was skipped'}, and ignored_because_not_subscribed_channels is ${JSON.stringify(channels)}` }]
        : channels === undefined ? [] : [{ rules: [pool.level >= 355 ? 'flags.ignored-channels-only-for-read-remove' : 'flags.ignored-channels-absent-before-355'] as RuleId[], text: `${this.label}: the answer carries ignored_because_not_subscribed_channels ${JSON.stringify(channels)}${pool.level >= 355 ? ', though the request is not read and remove' : ` at level ${pool.level}`}` }];
      return [
        ...ignored,
        ...listedChannels,
        // That they were modified is the model's prediction, from the transition: a server that did not modify them breaks that one instead.
        ...(missing.length === 0 ? [] : [{ rules: ['flags.response-lists-modified', op === 'add' ? 'flags.add-sets-flag' : 'flags.remove-clears-flag'] as RuleId[], text: `${this.label}: messages ${missing.join(', ')} were modified, and the answer's messages ${JSON.stringify(listed)} leaves them out` }]),
        ...(unmodified.length === 0 ? [] : [{ rules: ['flags.response-lists-only-modified'] as RuleId[], text: `${this.label}: the answer's messages ${JSON.stringify(listed)} list ${unmodified.join(', ')}, whose ${flag} was already ${op === 'add' ? 'set' : 'clear'}` }]),
      ];
    },
  };
}

/** An alert word as registered, in upper case, and capitalized: has_alert_word holds for the first; the others are flags.alert-word-matching's. */
const ALERT_CASINGS = ['as registered', 'upper case', 'capitalized'] as const;
function cased(word: string, casing: number): string {
  const form = ALERT_CASINGS[casing % ALERT_CASINGS.length];
  return form === 'upper case' ? word.toUpperCase() : form === 'capitalized' ? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase() : word;
}

/**
 * Whether a text holds an alert word: yes where it stands as registered and apart (no letter,
 * digit or underscore beside it), no where it is nowhere in any case, open otherwise (in another
 * case, or only inside a longer word: flags.alert-word-matching, a decision).
 */
function alertWordIn(text: string, word: string): 'yes' | 'no' | 'open' {
  const apart = (character: string | undefined) => character === undefined || !/[\p{L}\p{N}_]/u.test(character);
  for (let index = text.indexOf(word); index >= 0; index = text.indexOf(word, index + 1)) {
    if (apart(text[index - 1]) && apart(text[index + word.length])) return 'yes';
  }
  return text.toLowerCase().includes(word.toLowerCase()) ? 'open' : 'no';
}

/** A list as its runs of equal items, each with how many times it comes in a row. */
function runsOf(list: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const item of list) {
    const last = runs[runs.length - 1];
    if (last && last[0] === item && list.length > 8) last[1]++;
    else runs.push([item, 1]);
  }
  return runs;
}

/** How a message names a user: the spec's table says the three forms of a mention set `mentioned`; a silent one is Zulip's (flags.silent-mentions). */
const MENTION_FORMS = ['name', 'name|id', '|id', 'silent'] as const;

function mentionText(form: (typeof MENTION_FORMS)[number], user: { readonly id: number; readonly fullName: string }): string {
  // A name holding * or | cannot be written in the syntax: its ID alone names the user.
  const plain = !/[*|]/.test(user.fullName);
  switch (form) {
    case 'name': return plain ? `@**${user.fullName}**` : `@**|${user.id}**`;
    case 'name|id': return plain ? `@**${user.fullName}|${user.id}**` : `@**|${user.id}**`;
    case '|id': return `@**|${user.id}**`;
    default: return plain ? `@_**${user.fullName}|${user.id}**` : `@_**|${user.id}**`;
  }
}

/**
 * An actor sends a message to the pool's topic (Zulip's endpoint, outside the spec: what the
 * spec's flags are on), naming the other actors in the forms of the syntax and perhaps everyone.
 * The spec's table says each user's flags on it: unread for all (sent through the API), mentioned
 * for a user named by a mention that is not silent, the wildcard flags for its recipients.
 */
function sendMessage(as: Role, mentions: ReadonlyArray<{ readonly who: number; readonly form: number }>, wildcard: boolean, alert: { readonly who: number; readonly casing: number } | null = null, third = false): Step {
  const others = ACTORS.filter((role) => role !== as);
  const named = mentions.map(({ who, form }) => ({ role: others[who % others.length]!, form: MENTION_FORMS[form % MENTION_FORMS.length]! }));
  const alerted = alert === null ? null : others[alert.who % others.length]!;
  let content = '';
  return {
    label: `${as} sends a message to the pool's topic${third ? ' in the third channel' : ''}${named.length > 0 ? ` naming ${named.map(({ role, form }) => `${role} (${form})`).join(', ')}` : ''}${wildcard ? ', with @**all**' : ''}${alerted === null ? '' : `, with an alert word of ${alerted}'s ${ALERT_CASINGS[alert!.casing % ALERT_CASINGS.length]}`}`,
    parts: ['flags'],
    // To the third channel from an actor who left it too: the sender's own copy, where it has one, is
    // read (unread messages are only in channels one is subscribed to); the rest of its flags are open.
    applies: () => true,
    async send(context, state, pool) {
      const words = alerted === null ? [] : pool.alertWords[alerted];
      const word = words.length === 0 ? [] : [`(${cased(words[alert!.who % words.length]!, alert!.casing)})`];
      content = [pool.marker, ...named.map(({ role, form }) => mentionText(form, context.probe.users[role])), ...(wildcard ? ['@**all**'] : []), ...word].join(' ');
      const answer = await context.call(as, 'POST', '/messages', { type: 'stream', to: third ? pool.third.id : pool.channel.id, topic: state.topic, content });
      if (Number.isInteger(answer.body?.id)) context.noteMessage(answer.body.id);
      return answer;
    },
    apply(state, answer, pool) {
      const id = answer.body?.id;
      // Sending is outside the spec; the flags the spec's table gives a message need one sent.
      if (!succeededAnswer(answer) || !Number.isInteger(id)) return [{ rules: ['flags.messages-start-unread'], text: `${this.label}: POST /messages answered ${told(answer)}, no message ID` }];
      state.messages.push(id);
      if (third) pool.thirdMessages.add(id);
      const wildcardFlags = !wildcard ? [] : pool.level >= 224 ? ['stream_wildcard_mentioned', 'wildcard_mentioned'] : ['wildcard_mentioned'];
      for (const role of ACTORS) {
        const flags = new Set<string>();
        const open = new Set<string>();
        if (third && state.left.includes(role) && role === as) {
          // Its unsubscribed sender: a copy of their own, if any (historical open: none), is read, by the invariant.
          state.flags[role].set(id, new Set(['read']));
          state.openFlags[role].set(id, new Set(OBSERVED.filter((flag) => flag !== 'read')));
          continue;
        }
        if (third && state.left.includes(role)) {
          // Not received, it is in no flags of theirs until it enters their history (starring: historical, below).
          state.flags[role].set(id, flags);
          state.openFlags[role].set(id, new Set(OBSERVED));
          continue;
        }
        if (role !== as) {
          if (named.some((one) => one.role === role && one.form !== 'silent')) flags.add('mentioned');
          // What a silent mention sets is a decision (flags.silent-mentions): mentioned is open where it names the user alone silently.
          else if (named.some((one) => one.role === role)) open.add('mentioned');
          for (const flag of wildcardFlags) flags.add(flag);
          // has_alert_word: the message holds one of the recipient's words as registered; another case, or a word inside a longer one, is an open point.
          const found = pool.alertWords[role].map((word) => alertWordIn(content, word));
          if (found.includes('yes')) flags.add('has_alert_word');
          else if (found.includes('open')) open.add('has_alert_word');
        } else {
          // The sender's own wildcard and alert flags: the spec's table speaks of those mentioned and their words, and leaves the sender's open.
          for (const flag of ['stream_wildcard_mentioned', 'wildcard_mentioned', 'has_alert_word']) open.add(flag);
        }
        if (open.size > 0) state.openFlags[role].set(id, open);
        state.flags[role].set(id, flags);
      }
      return [];
    },
  };
}

/**
 * An administrator (or another, refused) creates a profile field. `leaveOut`: without its name
 * (optional: the field is made, unnamed) or without its type (required: refused). Asked to be in
 * the summary below level 146, where the flag is not read, it is made and is not in the summary.
 */
/**
 * Names of the sequence's emoji, after its base: two equal to the spec (case, underscores), two
 * others, and two with a character the spec does not allow (a letter outside English is left out:
 * the spec says letters, Zulip English ones, an open point).
 */
/** Characters outside the spec's alphabet for an emoji name (besides . and !), each inside a name of its own. */
const REFUSED_CHARACTERS = ['*', '@', '+', '#', '%', '~', '(', ':', ',', '?', '&', '=', '$', "'", '"', '€', '😀', '\u00a0', '\t'] as const;
const EMOJI_NAMES = [' a', '_A', '-b', ' B-2', '_c_d', ' C D', ' e', ' f', '.c', '!', ...REFUSED_CHARACTERS.map((character) => `${character}z`)] as const;
const ALLOWED_EMOJI_NAMES = 8;
/** Each kind of character the spec allows, before the name's token and after it. */
const ALPHABET = ['A', '7', '-', ' ', '_'] as const;
/** A body: one image (a PNG, a GIF, a GIF87a; a PNG of exactly the size limit), or one that breaks the spec (two files, none, a byte past the limit). */
type EmojiBody = 'png' | 'gif' | 'gif87' | 'at the limit' | 'two files' | 'no file' | 'a byte past the limit';

function uploadEmoji(as: Role, name: number, body: EmojiBody, around?: (typeof ALPHABET)[number]): Step {
  const suffix = EMOJI_NAMES[name % EMOJI_NAMES.length]!;
  const allowedName = name % EMOJI_NAMES.length < ALLOWED_EMOJI_NAMES;
  const valid = allowedName && (body === 'png' || body === 'gif' || body === 'gif87' || body === 'at the limit');
  const nameOf = (base: string) => (around === undefined ? `${base}${suffix}` : `${around}b${base}${suffix}c${around}`);
  let uploaded = '';
  return {
    label: `${as} uploads a custom emoji named ${around === undefined ? '' : `${JSON.stringify(`${around}b`)}+`}base+${JSON.stringify(suffix)}${around === undefined ? '' : `+${JSON.stringify(`c${around}`)}`}${body === 'png' || body.startsWith('gif') ? ` (a ${body === 'gif87' ? 'GIF87a' : body.toUpperCase()})` : body.endsWith('limit') ? ` (a PNG ${body})` : ` with ${body}`}`,
    parts: ['emoji'],
    applies: () => true,
    touches: (state) => [`${valid ? '' : '~'}emoji ${sameName(nameOf(state.emojiBase))}`],
    async send(context, state) {
      uploaded = nameOf(state.emojiBase);
      const file = (data: Buffer, kind: string): FilePart => ({ file: true, filename: `emoji.${kind}`, type: `image/${kind}`, data });
      // The spec's limit, as the target says it (/register's max_icon_file_size_mib), in bytes.
      const limit = context.probe.emojiLimit.mib * 1024 * 1024;
      const params: ParamList = body === 'png' ? { file: file(png(), 'png') } : body === 'gif' ? { file: file(gif(), 'gif') } : body === 'gif87' ? { file: file(gif87(), 'gif') }
        : body === 'at the limit' ? { file: file(png(limit), 'png') } : body === 'a byte past the limit' ? { file: file(png(limit + 1), 'png') }
          : body === 'two files' ? { file: file(png(), 'png'), another: file(gif(), 'gif') } : { note: 'no file' };
      return context.call(as, 'POST', `/realm/emoji/${encodeURIComponent(uploaded)}`, params, { multipart: true, repeatable: !valid });
    },
    apply(state, answer, pool) {
      const key = sameName(uploaded);
      if (!valid) return refusedAnswer(answer) ? [] : [{ rules: [!allowedName ? 'emoji.name-characters' : body === 'a byte past the limit' ? 'emoji.size-limit' : 'emoji.one-file-part'], text: `${this.label}: answered ${told(answer)}, not refused` }];
      // Who may upload is the organization's configuration, read from /register; a name in use may be refused (not shown).
      const may = pool.uploaders.may.has(as);
      const known = pool.uploaders.known.has(as);
      if (known && !may) return refusedAnswer(answer) ? [] : [{ rules: ['emoji.upload-access'], text: `${this.label}: the organization does not let ${as} upload custom emoji, yet the upload was answered ${told(answer)}` }];
      if (state.emoji.has(key) || (!known && refusedAnswer(answer))) return succeededAnswer(answer) || refusedAnswer(answer) ? [] : [{ rules: ['emoji.upload-stores'], text: `${this.label}: answered ${told(answer)}` }];
      if (!succeededAnswer(answer)) return [{ rules: body === 'at the limit' ? ['emoji.size-limit'] : ['emoji.upload-stores', 'emoji.name-alphabet'], text: `${this.label}: the organization lets ${as} upload, the name is allowed and the file one image, yet the upload was answered ${told(answer)}` }];
      state.emoji.set(key, uploaded);
      return [];
    },
  };
}

/**
 * A step whose operation's request carries an unsupported parameter (or none, where `carried` is
 * false): where the spec's statements about it hold, the answer names exactly what it ignored.
 */
function withUnsupported(step: Step, operation: RegExp, carried = true): Step {
  const wrapped: Step = Object.create(step);
  return Object.assign(wrapped, {
    label: carried ? `${step.label}, with ${UNSUPPORTED}` : `${step.label} (nothing unsupported)`,
    send: (context: Context, state: Organization, pool: Pool) => step.send(carried ? unsupportedOn(context, operation) : context, state, pool),
    apply(this: Step, state: Organization, answer: Answer, pool: Pool): Problem[] {
      const problems = step.apply.call(this, state, answer, pool);
      if (problems.length > 0 || !succeededAnswer(answer)) return problems;
      return ignoredListed(answer, carried, pool.level).map((problem) => ({ ...problem, text: `${this.label}: ${problem.text}` }));
    },
  });
}

/** The context, whose requests of one operation carry an unsupported parameter. */
function unsupportedOn(context: Context, operation: RegExp): Context {
  return new Proxy(context, {
    get(target, key) {
      if (key === 'call') return (as: never, method: string, path: string, params: ParamList = {}, options?: never) => target.call(as, method as never, path, operation.test(`${method} ${path}`) ? { ...params, [UNSUPPORTED]: 'x' } : params, options);
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** An upload with an empty name (another URL, which a server may answer as any unknown path): never a success. */
function emptyEmojiName(as: Role): Step {
  return {
    label: `${as} uploads a custom emoji with an empty name`,
    parts: ['emoji'],
    applies: () => true,
    touches: () => ['~emoji (empty)'],
    send: (context) => context.call(as, 'POST', '/realm/emoji/', { file: { file: true, filename: 'emoji.png', type: 'image/png', data: png() } }, { multipart: true, repeatable: true }),
    apply(_state, answer) {
      return answer.body?.result !== 'success' ? [] : [{ rules: ['emoji.name-characters'], text: `${this.label}: answered ${told(answer)}` }];
    },
  };
}

function createField(as: Role, name: number, summary: boolean, type: number, invalidType: boolean, spoiler: Spoiler | null = null, leaveOut?: 'name' | 'type'): Step {
  const label = leaveOut === 'name' ? '' : `${FIELD_NAMES[name % FIELD_NAMES.length]}`;
  const fieldType = invalidType ? NOT_FIELD_TYPES[type % NOT_FIELD_TYPES.length]! : FIELD_TYPES[type % FIELD_TYPES.length]!;
  // A list of options needs its options, each with text and order; the spec leaves the other types' field_data unshown (type 7 is left out).
  const fieldData = fieldType === 3 ? { a: { text: 'A', order: '1' }, b: spoilt({ text: 'B', order: '2' }, spoiler) } : undefined;
  const badOptions = fieldType === 3 && spoiler !== null;
  return {
    label: `${as} creates a profile field ${leaveOut === 'type' ? 'without a type' : `of type ${fieldType}`}${badOptions ? ` (an option with ${spoiler})` : ''} ${leaveOut === 'name' ? 'without a name' : `named ${JSON.stringify(label)}`}${summary ? ' shown in the summary' : ''}`,
    parts: ['fields'],
    // 8 is a type from level 151: below it, one outside them.
    applies: (_state, context) => (fieldType !== 8 || (context.level >= 151) !== invalidType) && fieldType !== 7,
    send: (context, _state, pool) => context.call(as, 'POST', '/realm/profile_fields', { ...(leaveOut === 'name' ? {} : { name: label }), hint: pool.fieldMarker, ...(leaveOut === 'type' ? {} : { field_type: fieldType }), ...(fieldData ? { field_data: fieldData } : {}), ...(summary ? { display_in_profile_summary: true } : {}) }, { repeatable: as !== 'admin' || invalidType || badOptions || leaveOut === 'type' }),
    apply(state, answer, pool) {
      if (as !== 'admin') return refusedAnswer(answer) ? [] : [{ rules: ['general.admin-only'], text: `${this.label}: ${as} is no administrator, yet the create was answered ${told(answer)}` }];
      if (leaveOut === 'type') return refusedAnswer(answer) ? [] : [{ rules: ['fields.field-type-required'], text: `${this.label}: field_type is required, yet the create was answered ${told(answer)}` }];
      // Below level 146 display_in_profile_summary is no parameter: it is ignored.
      const shownInSummary = summary && pool.level >= 146;
      if (invalidType) return refusedAnswer(answer) ? [] : [{ rules: ['fields.field-type-values'], text: `${this.label}: ${fieldType} is no field type, yet the create was answered ${told(answer)}` }];
      if (badOptions) return refusedAnswer(answer) ? [] : [{ rules: ['fields.select-options'], text: `${this.label}: an option with ${spoiler}, yet the create was answered ${told(answer)}` }];
      // Long text and Person picker fields cannot be in the summary.
      if (shownInSummary && (fieldType === 2 || fieldType === 6)) return refusedAnswer(answer) ? [] : [{ rules: ['fields.summary-types'], text: `${this.label}: a field of type ${fieldType} cannot be in the summary, yet the create was answered ${told(answer)}` }];
      const shown = state.fields.filter((field) => field.summary).length + state.summaryElsewhere;
      if (shownInSummary && shown >= 2) return refusedAnswer(answer) ? [] : [{ rules: ['fields.summary-limit'], text: `${this.label}: ${shown} fields are in the summary already, yet the create was answered ${told(answer)}` }];
      // A name in use may be refused (a server may keep names unique): the spec is silent, the model allows it.
      const inUse = state.fields.some((field) => field.name.toLowerCase() === label.toLowerCase());
      if (inUse && refusedAnswer(answer)) return [];
      const id = answer.body?.id;
      if (!succeededAnswer(answer) || !Number.isInteger(id)) return [{ rules: [leaveOut === 'name' ? 'fields.name-optional' : summary && !shownInSummary ? 'fields.flags-at-their-levels' : 'fields.create-returns-id'], text: `${this.label}: answered ${told(answer)}, not success with an integer id` }];
      state.fields.push({ id, name: label, summary: shownInSummary, ...(fieldData ? { options: optionsOf(fieldData) } : {}) });
      return [];
    },
  };
}

function deleteField(position: number, inSummary = false): Step {
  let field: Field;
  const candidates = (state: Organization) => (inSummary ? state.fields.filter((one) => one.summary) : state.fields);
  return {
    label: `admin deletes ${inSummary ? 'summary ' : ''}profile field #${position}`,
    parts: ['fields'],
    applies: (state) => candidates(state).length > 0,
    touches: (state) => [`field ${at(candidates(state), position)!.id}`],
    send: (context, state) => {
      field = at(candidates(state), position)!;
      return context.call('admin', 'DELETE', `/realm/profile_fields/${field.id}`);
    },
    apply(state, answer) {
      if (!state.fields.some((held) => held.id === field.id)) return [];
      // Outside the spec (Zulip's endpoint), the way the model removes what it made.
      if (!succeededAnswer(answer)) return [{ rules: ['fields.create-returns-id'], text: `${this.label}: deleting field ${field.id} was answered ${told(answer)}` }];
      state.fields = state.fields.filter((other) => other.id !== field.id);
      return [];
    },
  };
}

function updateDefaults(as: Role, changes: ReadonlyArray<{ setting: number; value: number; invalid: boolean }>, extra = false): Step {
  const chosen = new Map<string, { value: unknown; invalid: boolean }>();
  for (const { setting, value, invalid } of changes) {
    const [name, values, outside] = SETTINGS[setting % SETTINGS.length]!;
    chosen.set(name, invalid ? { value: outside[value % outside.length], invalid } : { value: values[value % values.length], invalid });
  }
  const anyInvalid = [...chosen.values()].some((one) => one.invalid);
  return {
    label: `${as} sets the defaults ${[...chosen].map(([name, { value }]) => `${name}=${JSON.stringify(value)}`).join(', ')}${extra ? `, with ${UNSUPPORTED}` : ''}`,
    parts: ['settings'],
    settings: true,
    applies: (state, context) => context.level >= 96 && chosen.size > 0 && [...chosen.keys()].every((name) => name in state.defaults),
    touches: () => [...chosen.keys()].map((name) => `${as !== 'admin' || anyInvalid ? '~' : ''}default ${name}`),
    send: (context) => context.call(as, 'PATCH', '/realm/user_settings_defaults', { ...Object.fromEntries([...chosen].map(([name, { value }]) => [name, value as never])), ...(extra ? { [UNSUPPORTED]: 'x' } : {}) }, { repeatable: as !== 'admin' || anyInvalid }),
    apply(state, answer, pool) {
      if (as !== 'admin') return refusedAnswer(answer) ? [] : [{ rules: ['general.admin-only'], text: `${this.label}: ${as} is no administrator, yet the update was answered ${told(answer)}` }];
      // One value outside its setting's values makes the request invalid, and an invalid request changes nothing.
      if (anyInvalid) return refusedAnswer(answer) ? [] : [{ rules: ['defaults.enum-values', 'defaults.value-types'], text: `${this.label}: a value outside its setting's values, yet answered ${told(answer)}` }];
      if (!succeededAnswer(answer)) return [{ rules: ['defaults.updates-follow-model', 'defaults.values-stored'], text: `${this.label}: answered ${told(answer)}` }];
      for (const [name, { value }] of chosen) state.defaults[name] = value;
      // The settings-defaults operation lists what it ignores from level 96.
      return ignoredListed(answer, extra, pool.level, 96).map((problem) => ({ ...problem, rules: problem.rules.map((rule) => (rule === 'general.ignored-parameters-absent-before-167' ? 'general.ignored-parameters-on-settings' : rule)), text: `${this.label}: ${problem.text}` }));
    },
  };
}

/** Rounds of every setting at once: each setting takes each of its values (five at most) in one of them. */
const EVERY_DEFAULT_ROUNDS = 5;

/**
 * The administrator sets every setting of the level's four tables at once, each to its value of
 * the round (its values in turn, from its place in the tables), with the settings the level lacks
 * of this round beside them: each valid value is stored and read back, no user's own setting
 * changes, and the absent ones are named in ignored_parameters_unsupported, exactly (Versioning).
 */
function everyDefault(round: number): Step {
  let sent: Record<string, unknown> = {};
  let absent: string[] = [];
  return {
    label: `admin sets every default at once (values of round ${round + 1} of ${EVERY_DEFAULT_ROUNDS}), with the settings the level lacks of that round`,
    parts: ['settings'],
    settings: true,
    applies: (state, context) => context.level >= 96 && Object.keys(state.defaults).length > 0,
    touches: (state) => Object.keys(state.defaults).map((name) => `default ${name}`),
    send(context) {
      sent = Object.fromEntries(settingsAt(context.level).map((setting, index) => {
        const values = validValuesAt(setting, context.level);
        return [setting.name, values[(round + index) % values.length]];
      }));
      const lacking = absentAt(context.level);
      absent = lacking.filter((_, index) => index % EVERY_DEFAULT_ROUNDS === round).map((setting) => setting.name);
      const asText = Object.fromEntries(absent.map((name) => {
        const setting = lacking.find((one) => one.name === name)!;
        return [name, setting.kind.type === 'bool' || setting.kind.type === 'unknown' ? 'true' : '1'];
      }));
      return context.call('admin', 'PATCH', '/realm/user_settings_defaults', { ...(sent as ParamList), ...asText });
    },
    apply(state, answer) {
      if (!succeededAnswer(answer)) return [{ rules: ['defaults.values-stored', 'defaults.updates-follow-model'], text: `${this.label}: answered ${told(answer)}` }];
      for (const [name, value] of Object.entries(sent)) if (name in state.defaults) state.defaults[name] = value;
      const listed = answer.body?.ignored_parameters_unsupported;
      const exact = absent.length === 0 ? listed === undefined || (Array.isArray(listed) && listed.length === 0) : Array.isArray(listed) && JSON.stringify([...listed].sort()) === JSON.stringify([...absent].sort());
      return exact ? [] : [{ rules: ['defaults.settings-at-their-levels'], text: `${this.label}: ${absent.length === 0 ? 'no setting the level lacks was sent' : `${absent.join(', ')} are no parameters at this level`}, and ignored_parameters_unsupported is ${JSON.stringify(listed)}` }];
    },
  };
}

/**
 * The administrator sends one setting a value the spec makes invalid (a boolean's 0 or 1, an
 * integer's fraction or boolean, an enumeration's value outside it), beside a valid change of
 * another: the whole request is refused, and nothing changes.
 */
function badDefault(which: 'bool' | 'int' | 'enum', place: number, text?: string): Step {
  let name = '';
  let value: unknown = null;
  const beside = (level: number) => (name === 'enter_sends' ? 'left_side_userlist' : 'enter_sends');
  const settingOf = (level: number) => {
    const candidates = settingsAt(level).filter((setting) => setting.kind.type === (which === 'bool' ? 'bool' : 'int'));
    return which === 'enum' ? candidates[place] : candidates[0];
  };
  return {
    label: which === 'enum' ? `admin sets the defaults' enumeration #${place} to a value outside it, beside a valid change` : `admin sets the defaults' first ${which === 'bool' ? 'boolean' : 'enumeration'} to ${text}, beside a valid change`,
    parts: ['settings'],
    settings: true,
    applies: (state, context) => context.level >= 96 && settingOf(context.level) !== undefined && settingOf(context.level)!.name in state.defaults,
    touches: (_state, pool) => [`~default ${settingOf(pool.level)!.name}`, `~default ${settingOf(pool.level)!.name === 'enter_sends' ? 'left_side_userlist' : 'enter_sends'}`],
    send(context) {
      const setting = settingOf(context.level)!;
      name = setting.name;
      const valid = validValuesAt(setting, context.level) as number[];
      value = which === 'enum' ? (place % 2 === 0 ? 0 : Math.max(...valid) + 1) : text!;
      return context.call('admin', 'PATCH', '/realm/user_settings_defaults', { [name]: value as never, [beside(context.level)]: true }, { repeatable: true });
    },
    apply(_state, answer) {
      return refusedAnswer(answer) ? [] : [{ rules: [which === 'enum' ? 'defaults.enum-values' : 'defaults.value-types'], text: `${this.label}: ${name}=${JSON.stringify(value)}, yet answered ${told(answer)}` }];
    },
  };
}

/** The spec's settings a level does not have: added after it, or renamed or removed before it (Versioning). */
const absentAt = (level: number) => SPEC_SETTINGS.filter((setting) => !exists(setting, level));

/**
 * The administrator sets a default the level does not have, beside a valid change: it is no
 * parameter of the operation, so the request succeeds, names it in ignored_parameters_unsupported
 * and changes no default; the valid change is made.
 */
function absentDefault(which: number, change: { readonly setting: number; readonly value: number }): Step {
  const [other, values] = SETTINGS[change.setting % SETTINGS.length]!;
  const value = values[change.value % values.length];
  let name = '';
  return {
    label: `admin sets the default the level lacks #${which}, with ${other}=${JSON.stringify(value)}`,
    parts: ['settings'],
    settings: true,
    applies: (state, context) => context.level >= 96 && absentAt(context.level).length > 0 && other in state.defaults,
    touches: () => [`default ${other}`],
    send(context) {
      const absent = absentAt(context.level);
      const setting = absent[which % absent.length]!;
      name = setting.name;
      return context.call('admin', 'PATCH', '/realm/user_settings_defaults', { [name]: setting.kind.type === 'bool' || setting.kind.type === 'unknown' ? 'true' : '1', [other]: value as never });
    },
    apply(state, answer) {
      if (!succeededAnswer(answer)) return [{ rules: ['defaults.settings-at-their-levels'], text: `${this.label}: ${name} is no parameter at this level, and the request was answered ${told(answer)}` }];
      state.defaults[other] = value;
      const listed = answer.body?.ignored_parameters_unsupported;
      return Array.isArray(listed) && listed.length === 1 && listed[0] === name ? [] : [{ rules: ['defaults.settings-at-their-levels'], text: `${this.label}: ${name} is no parameter at this level, and ignored_parameters_unsupported is ${JSON.stringify(listed)}` }];
    },
  };
}

/**
 * An actor changes a setting of its own (Zulip's PATCH /settings, outside the spec): what the
 * defaults must then leave alone differs from them, whatever a default is set to later.
 */
function changeOwnSetting(as: Role, setting: number, value: number): Step {
  const [name, values] = SETTINGS[setting % SETTINGS.length]!;
  const chosen = values[value % values.length];
  return {
    label: `${as} sets its own ${name}=${JSON.stringify(chosen)}`,
    parts: ['settings'],
    settings: true,
    ...(name === TYPING_SETTING ? { switchesTyping: as } : {}),
    applies: (state, context) => context.level >= 96 && name in state.own[as],
    // Typing to the actor is judged by its setting before the segment: one segment never sets it and types to it.
    touches: () => [`${as}'s own ${name}`, ...(name === TYPING_SETTING ? [`typing to ${as}`] : [])],
    send: (context) => context.call(as, 'PATCH', '/settings', { [name]: chosen as never }),
    apply(state, answer) {
      if (!succeededAnswer(answer)) return [{ rules: ['defaults.existing-users-unchanged'], text: `${this.label}: PATCH /settings answered ${told(answer)}` }];
      state.own[as][name] = chosen;
      return [];
    },
  };
}

/**
 * An actor starts or stops typing to a direct audience of the others, or in the pool's topic
 * (Zulip's POST /typing, outside the spec). From level 253 the spec delivers typing
 * notifications only to users whose receives_typing_notifications is on, and a direct one
 * reaches each of those recipients (judged on the queues: judgeEvents).
 */
function typing(as: Role, channel: boolean, audience: number, op: 'start' | 'stop'): Step {
  const others = ACTORS.filter((role) => role !== as);
  const to = channel || audience % 3 === 2 ? others : [others[audience % 3]!];
  return {
    label: `${as} ${op}s typing ${channel ? 'in the pool\'s topic' : `to ${to.join(' and ')}`}`,
    parts: [],
    typing: { to, direct: !channel },
    applies: (state, context) => context.level >= 253 && to.every((role) => typeof state.own[role][TYPING_SETTING] === 'boolean'),
    touches: () => to.map((role) => `?typing to ${role}`),
    send: (context, state, pool) => context.call(as, 'POST', '/typing', channel ? { op, type: 'stream', stream_id: pool.channel.id, topic: state.topic } : { op, to: to.map((role) => pool.ids[role]) as never }, { repeatable: true }),
    apply(_state, answer) {
      return succeededAnswer(answer) ? [] : [{ rules: ['typing.reaches-receivers'], text: `${this.label}: POST /typing answered ${told(answer)}` }];
    },
  };
}

/** Who is not subscribed to the third channel, as each actor's subscriptions say (Zulip's GET /users/me/subscriptions). */
async function readLeft(context: Context, pool: Pool): Promise<Role[]> {
  const left: Role[] = [];
  for (const as of ACTORS) {
    const list = succeeded(await context.call(as, 'GET', '/users/me/subscriptions'), `GET /users/me/subscriptions as ${as}`).subscriptions;
    expect(Array.isArray(list), `GET /users/me/subscriptions as ${as}: no subscriptions list`);
    if (!list.some((one: any) => one?.stream_id === pool.third.id)) left.push(as);
  }
  return left;
}

/**
 * An actor leaves the third channel, or joins it again (Zulip's subscription endpoints, outside
 * the spec). The spec's invariant: all unread messages are in channels the user is subscribed to,
 * so that leaving leaves every message of the channel read; what joining again does to read is
 * not stated (open until a flags operation settles it).
 */
function membership(as: Role, leave: boolean): Step {
  return {
    label: `${as} ${leave ? 'leaves' : 'joins again'} the third channel`,
    parts: ['flags'],
    owner: as,
    applies: (state) => state.left.includes(as) !== leave,
    touches: (_state, pool) => [`${as}'s membership`, ...[...pool.thirdMessages].map((id) => `${as}'s flags on ${id}`)],
    send: (context, _state, pool) => (leave
      ? context.call(as, 'DELETE', '/users/me/subscriptions', { subscriptions: [pool.third.name] }, { repeatable: true })
      : context.call(as, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: pool.third.name }] }, { repeatable: true })),
    apply(state, answer, pool) {
      if (!succeededAnswer(answer)) return [{ rules: ['flags.unread-only-in-subscribed-channels'], text: `${this.label}: answered ${told(answer)}` }];
      for (const id of pool.thirdMessages) {
        // A message it never received (historical still open) is not among its unread ones: the invariant does not speak of it.
        if (state.openFlags[as].get(id)?.has('historical')) continue;
        if (leave) {
          state.flags[as].get(id)?.add('read');
          state.openFlags[as].get(id)?.delete('read');
        } else state.openFlags[as].set(id, new Set([...(state.openFlags[as].get(id) ?? []), 'read']));
      }
      state.left = leave ? [...state.left, as] : state.left.filter((role) => role !== as);
      return [];
    },
  };
}

/** A profile user's email with another's API key, or with a key no server issued: nothing opens, nothing changes. */
function forged(email: Role, keyOf: Role | null): Step {
  const caller: Forged = keyOf === null ? { forged: true, email, api_key: 'x'.repeat(32) } : { forged: true, email, api_key: '', keyOf };
  return {
    label: `${email}'s email with ${keyOf === null ? 'a key no server issued' : `${keyOf}'s API key`} creates a draft`,
    parts: ['drafts'],
    applies: () => keyOf !== email,
    send: (context, _state, pool) => context.call(caller, 'POST', '/drafts', { drafts: [{ type: '', to: [], topic: '', content: `${pool.marker} forged` }] }, { repeatable: true }),
    apply(_state, answer) {
      return refusedAnswer(answer) ? [] : [{ rules: ['general.authentication-required'], text: `${this.label}: answered ${told(answer)}, not refused` }];
    },
  };
}

/**
 * An actor switches drafts synchronization off, then on again (Zulip's PATCH /settings, outside
 * the spec's operations; the spec states what it does): every draft the server holds for the user
 * is deleted, and no drafts event is sent (judgeEvents). Taken only where the user had it on and has
 * no draft the run did not make (GET /drafts first): another client's drafts would go too.
 */
const SYNC_RULES: readonly RuleId[] = ['drafts.sync-off-deletes-drafts', 'drafts.sync-off-sends-no-event'];
function switchSynchronization(as: Role): Step {
  let outcome: { readonly drafts: readonly Draft[] } | null = null;
  const found: Problem[] = [];
  return {
    label: `${as} switches drafts synchronization off and on again`,
    parts: ['drafts'],
    owner: as,
    alone: true,
    switched: () => (outcome === null ? null : { as, drafts: outcome.drafts }),
    applies: () => true,
    touches: () => [`${as}'s drafts`],
    async send(context, state, pool) {
      outcome = null;
      found.length = 0;
      const listed = await context.call(as, 'GET', '/drafts');
      const drafts = listed.body?.drafts;
      if (!succeededAnswer(listed) || !Array.isArray(drafts) || pool.synchronization[as] !== true || drafts.some((draft: any) => !String(draft?.content).includes(context.prefix))) {
        // Left out: in a smoke run, the rules it would hold run their own checks unless another actor's switch holds them.
        const why = `${as} had drafts synchronization off, or drafts the run did not make, and the model did not switch it`;
        if (!pool.switchedSynchronization) for (const rule of SYNC_RULES) context.heldBack.set(rule, why);
        return listed;
      }
      let off: Answer;
      try {
        off = await context.call(as, 'PATCH', '/settings', { enable_drafts_synchronization: false });
      } catch (error) {
        // Its answer lost: switched on again all the same, and the world read again.
        await context.call(as, 'PATCH', '/settings', { enable_drafts_synchronization: true }, { repeatable: true }).catch(() => undefined);
        throw error;
      }
      if (!succeededAnswer(off)) return off;
      pool.switchedSynchronization = true;
      for (const rule of SYNC_RULES) context.heldBack.delete(rule);
      outcome = { drafts: state.drafts[as] };
      const on = await context.call(as, 'PATCH', '/settings', { enable_drafts_synchronization: true }, { repeatable: true });
      if (!succeededAnswer(on)) found.push({ rules: ['drafts.sync-off-deletes-drafts'], text: `${this.label}: switching it on again was answered ${told(on)}` });
      return on;
    },
    apply(state, answer) {
      if (outcome === null) return succeededAnswer(answer) ? [] : [{ rules: ['drafts.sync-off-deletes-drafts'], text: `${this.label}: answered ${told(answer)}` }];
      // Every draft of the user is gone, those this sequence made among them.
      state.drafts[as] = [];
      return [...found];
    },
  };
}

/**
 * The administrator creates a user (Zulip's POST /users, with --create-users; a user cannot be
 * deleted), who reads its own settings: each is the organization's default as the model has it.
 */
function newUser(): Step {
  let settings: Record<string, unknown> = {};
  let failed: Answer | null = null;
  return {
    label: 'admin creates a user, who reads its own settings',
    parts: ['settings'],
    applies: (state, context) => context.level >= 96 && context.probe.missing['create-users'] === undefined && Object.keys(state.defaults).length > 0,
    async send(context) {
      failed = null;
      const email = `${context.prefix}-organization-${context.serial('organization user')}@example.com`;
      const created = await context.call('admin', 'POST', '/users', { email, password: `${context.prefix}-password`, full_name: `${context.prefix} organization user` });
      if (!succeededAnswer(created)) return created;
      context.cleanup.leftBehind(`users (named with ${context.prefix}; the API deletes no user)`);
      const key = await context.call('admin', 'POST', '/reference/api_key', { user_id: created.body?.user_id });
      if (!succeededAnswer(key) || typeof key.body?.api_key !== 'string') {
        failed = key;
        return created;
      }
      const state = await fetchState(context, { forged: true, email, api_key: key.body.api_key, shown: '$CREATED_USER_API_KEY' }, ['user_settings'], 'POST /register as the new user');
      settings = pick(state.user_settings ?? {}, context.level);
      return created;
    },
    apply(state, answer) {
      if (!succeededAnswer(answer)) return [{ rules: ['defaults.new-users-get-defaults'], text: `${this.label}: POST /users answered ${told(answer)}` }];
      if (failed !== null) return [{ rules: ['defaults.new-users-get-defaults'], text: `${this.label}: POST /reference/api_key answered ${told(failed)}` }];
      const wrong = Object.entries(state.defaults).filter(([name, value]) => settings[name] !== value);
      return wrong.length === 0 ? [] : [{ rules: ['defaults.new-users-get-defaults'], text: `${this.label}: the new user's ${wrong.map(([name, value]) => `${name} is ${JSON.stringify(settings[name])}, not the default ${JSON.stringify(value)}`).join('; ')}` }];
    },
  };
}

/**
 * More than a hundred distinct messages in one request: the actor stars 101 messages of its own
 * (sent once a run, to a topic of their own, unstarred), then takes the flag away: each request
 * modifies every one, and its response lists exactly those.
 */
function moreThanAHundred(as: Role): Step {
  const found: Problem[] = [];
  const listed = (answer: Answer, ids: readonly number[], op: string) => {
    const messages = answer.body?.messages;
    if (!succeededAnswer(answer) || !Array.isArray(messages)) return [{ rules: ['flags.response-lists-modified'] as RuleId[], text: `${op} "starred" on 101 unstarred messages was answered ${told(answer)}` }];
    const missing = ids.filter((id) => !messages.includes(id));
    const extra = messages.filter((id: unknown) => !ids.includes(id as number));
    return [
      ...(missing.length > 0 ? [{ rules: ['flags.response-lists-modified', op === 'add' ? 'flags.add-sets-flag' : 'flags.remove-clears-flag'] as RuleId[], text: `${op} "starred" modified 101 messages, and the response's messages leaves out ${missing.length} of them (${missing.slice(0, 5).join(', ')}…)` }] : []),
      ...(extra.length > 0 ? [{ rules: ['flags.response-lists-only-modified'] as RuleId[], text: `${op} "starred" modified 101 messages, and the response's messages lists others: ${JSON.stringify(extra.slice(0, 5))}` }] : []),
    ];
  };
  return {
    label: `${as} stars 101 messages of its own in one request, then unstars them`,
    parts: ['flags'],
    owner: as,
    applies: () => true,
    async send(context, state, pool) {
      found.length = 0;
      const ids = await context.memo(`organization hundred ${as}`, async () => {
        const sent: number[] = [];
        for (let index = 0; index < 101; index++) sent.push(await send(context, as, pool.channel, `${pool.marker} ${index} of a hundred and one`, `${state.topic} hundred`));
        return sent;
      });
      // Unstarred first, whatever an earlier use left (a lost answer), unjudged.
      await context.call(as, 'POST', '/messages/flags', { messages: ids, op: 'remove', flag: 'starred' }, { repeatable: true });
      const add = await context.call(as, 'POST', '/messages/flags', { messages: ids, op: 'add', flag: 'starred' });
      found.push(...listed(add, ids, 'adding'));
      const remove = await context.call(as, 'POST', '/messages/flags', { messages: ids, op: 'remove', flag: 'starred' });
      found.push(...listed(remove, ids, 'removing'));
      return remove;
    },
    apply() {
      return found.map((problem) => ({ ...problem, text: `${this.label}: ${problem.text}` }));
    },
  };
}

// ---- Reading the world ------------------------------------------------------------------------

/** What a read of the world gives: the model's parts, and the settings where they were read. */
type World = Pick<Organization, 'drafts' | 'scheduled' | 'flags' | 'fields' | 'summaryElsewhere' | 'emoji'> & {
  settings?: Pick<Organization, 'defaults' | 'own'>;
  /** The parts a smoke round did not read (no step of it writes them): taken as the model has them, until the command's whole read. */
  unread?: ReadonlySet<Part>;
};

/** A private audience as a set of the others: servers may list it sorted, or with the sender. */
const audience = (to: unknown, self: number) => (Array.isArray(to) ? [...new Set(to.filter((id) => id !== self))].sort((a, b) => a - b).join(',') : String(to));
const KIND: Record<string, string> = { '': '', stream: 'stream', channel: 'stream', private: 'private', direct: 'private' };

async function readWorld(context: Context, pool: Pool, withSettings: boolean, emojiBase: string, topic: string, parts: ReadonlySet<Part> = new Set(EVERY_PART)): Promise<World> {
  const world: World = { drafts: { member: [], other: [], admin: [] }, scheduled: { member: [], other: [], admin: [] }, flags: { member: new Map(), other: new Map(), admin: new Map() }, fields: [], summaryElsewhere: 0, emoji: new Map() };
  if (parts.size < EVERY_PART.length) world.unread = new Set(EVERY_PART.filter((part) => !parts.has(part)));
  const ours = (text: unknown) => typeof text === 'string' && text.includes(pool.marker);
  for (const as of ACTORS) {
    if (parts.has('drafts')) {
      const drafts = succeeded(await context.call(as, 'GET', '/drafts'), `GET /drafts as ${as}`).drafts;
      expect(Array.isArray(drafts), `GET /drafts as ${as}: no drafts list`);
      world.drafts[as] = drafts.filter((draft: any) => ours(draft.content)).map((draft: any) => ({ id: draft.id, type: (KIND[draft.type] ?? draft.type) as Draft['type'], to: draft.type === '' ? [] : draft.to, topic: draft.topic, content: draft.content, timestamp: draft.timestamp }));
    }
    if (context.level >= 173 && parts.has('scheduled')) {
      const scheduled = succeeded(await context.call(as, 'GET', '/scheduled_messages'), `GET /scheduled_messages as ${as}`).scheduled_messages;
      expect(Array.isArray(scheduled), `GET /scheduled_messages as ${as}: no scheduled_messages list`);
      world.scheduled[as] = scheduled.filter((item: any) => ours(item.content)).map((item: any) => ({ id: item.scheduled_message_id, type: (KIND[item.type] ?? item.type) as Scheduled["type"], to: item.to, topic: item.topic, content: item.content, at: item.scheduled_delivery_timestamp }));
    }
    if (!parts.has('flags')) continue;
    // The sequence's topic holds its messages and those its steps send, each with the marker: the newest hundred hold every one the model follows.
    for (const message of await readConversation(context, as, { channel: pool.channel.id, topic }, 100)) {
      if (ours(message.content) && Array.isArray(message.flags)) world.flags[as].set(message.id, new Set(message.flags.map(String)));
    }
    // The third channel's: a public channel's history, read whether the actor is subscribed or not.
    for (const message of await readConversation(context, as, { channel: pool.third.id, topic }, 100)) {
      if (!ours(message.content) || !Array.isArray(message.flags)) continue;
      pool.thirdMessages.add(message.id);
      world.flags[as].set(message.id, new Set(message.flags.map(String)));
    }
  }
  // The three actors' direct conversation: where a step named its message, and where a command ends.
  for (const as of parts.has('direct') ? ACTORS : []) {
    for (const message of await readConversation(context, as, { dm: ACTORS.filter((one) => one !== as).map((one) => pool.ids[one]) }, 100)) {
      if (!ours(message.content) || !Array.isArray(message.flags) || !message.content.includes(`(${topic})`)) continue;
      pool.directMessages.add(message.id);
      world.flags[as].set(message.id, new Set(message.flags.map(String)));
    }
  }
  if (parts.has('fields')) {
    const fields = succeeded(await context.call('admin', 'GET', '/realm/profile_fields'), 'GET /realm/profile_fields').custom_fields;
    expect(Array.isArray(fields), 'GET /realm/profile_fields: no custom_fields list');
    world.fields = fields.filter((field: any) => field.hint === pool.fieldMarker).map((field: any) => ({ id: field.id, name: field.name, summary: field.display_in_profile_summary === true, ...(field.type === 3 ? { options: optionsOf(field.field_data) } : {}) }));
    world.summaryElsewhere = fields.filter((field: any) => field.hint !== pool.fieldMarker && field.display_in_profile_summary === true).length;
  }
  // The sequence's active emoji, by the spec's reading of a name; two under one reading are both kept apart, as a problem.
  for (const emoji of parts.has('emoji') ? (await listEmoji(context)).filter((one) => !one.deactivated && one.name.toLowerCase().includes(emojiBase)) : []) {
    const key = sameName(emoji.name);
    world.emoji.set(world.emoji.has(key) ? `${key} (again: ${emoji.id})` : key, emoji.name);
  }
  if (withSettings && parts.has('settings') && context.level >= 96) {
    const own = { member: {}, other: {}, admin: {} } as Record<Role, Record<string, unknown>>;
    let defaults: Record<string, unknown> = {};
    for (const as of ACTORS) {
      const state = await fetchState(context, as, as === 'admin' ? ['realm_user_settings_defaults', 'user_settings'] : ['user_settings']);
      if (as === 'admin') defaults = pick(state.realm_user_settings_defaults ?? {}, context.level);
      own[as] = pick(state.user_settings ?? {}, context.level);
    }
    world.settings = { defaults, own };
  }
  return world;
}

/** The settings the model follows: every one of the spec's four tables at the level, the model's own among them. */
const followed = (level: number) => [...new Set([...SETTINGS.map(([name]) => name), ...settingsAt(level).map((setting) => setting.name)])];
const pick = (settings: Record<string, unknown>, level: number, names = followed(level)) => Object.fromEntries(names.filter((name) => name in settings).map((name) => [name, settings[name]]));

/** Every difference between the model and the world, each with the rules that predicted the model's side. */
function differences(model: Organization, world: World, pool: Pool): Problem[] {
  const problems: Problem[] = [];
  const table = flagTable(pool.level);
  const key = (item: Draft | Scheduled, self: number) => JSON.stringify([item.type, item.type === 'private' ? audience(item.to, self) : Array.isArray(item.to) ? item.to.join(',') : String(item.to), item.type === 'stream' ? item.topic : '', item.content, 'at' in item ? item.at : null]);
  for (const as of ACTORS) {
    const self = pool.ids[as];
    const expected = new Map(model.drafts[as].map((draft) => [draft.id, key(draft, self)]));
    const actual = new Map(world.drafts[as].map((draft) => [draft.id, key(draft, self)]));
    for (const [id, want] of expected) {
      if (!actual.has(id)) problems.push({ rules: ['drafts.created-drafts-read-back', 'general.own-data-only'], text: `${as}'s draft ${id} (${want}) is missing from GET /drafts` });
      else if (actual.get(id) !== want) problems.push({ rules: ['drafts.created-drafts-read-back'], text: `${as}'s draft ${id} reads back as ${actual.get(id)}, not ${want}` });
    }
    // Created without a timestamp, a draft has the time of its creation: an integer of seconds, not before the pool's messages were sent.
    for (const draft of world.unread?.has('drafts') ? [] : world.drafts[as]) {
      if (!expected.has(draft.id)) continue;
      if (!Number.isInteger(draft.timestamp) || (draft.timestamp as number) < pool.since) problems.push({ rules: ['drafts.timestamp-filled-when-absent'], text: `${as}'s draft ${draft.id}, created without a timestamp after ${pool.since}, has timestamp ${JSON.stringify(draft.timestamp)}` });
    }
    for (const [id, got] of actual) if (!expected.has(id)) problems.push({ rules: ['general.own-data-only', 'drafts.channel-draft-needs-one-channel', 'general.authentication-required'], text: `${as} has a draft ${id} (${got}) that none of its own successful requests made` });
    // A field open within its limit: any value of at most its limit's characters is the model's (settled from the world after the step).
    const open = new Map(model.scheduled[as].filter((item) => item.within).map((item) => [item.id, Object.entries(item.within!) as Array<['content' | 'topic', number]>]));
    const closed = (item: Scheduled) => ({ ...item, ...Object.fromEntries((open.get(item.id) ?? []).map(([field]) => [field, ''])) });
    for (const item of world.scheduled[as]) {
      for (const [field, max] of open.get(item.id) ?? []) {
        const value = item[field];
        if (!(typeof value === 'string' && characterLength(value) <= max)) problems.push({ rules: [field === 'content' ? 'scheduled.content-limit' : 'scheduled.topic-limit'], text: `${as}'s scheduled message ${item.id} keeps a ${field} of ${typeof value === 'string' ? characterLength(value) : JSON.stringify(value)} characters, past the limit of ${max}` });
      }
    }
    const scheduled = new Map(model.scheduled[as].map((item) => [item.id, key(closed(item), self)]));
    const listed = new Map(world.scheduled[as].filter((item) => !pool.openScheduled.has(item.id)).map((item) => [item.id, key(closed(item), self)]));
    for (const [id, want] of scheduled) {
      if (!listed.has(id)) problems.push({ rules: ['scheduled.own-messages-only', 'scheduled.delete-removes'], text: `${as}'s scheduled message ${id} (${want}) is missing from GET /scheduled_messages` });
      else if (listed.get(id) !== want) problems.push({ rules: ['scheduled.edits-follow-model', 'scheduled.own-messages-only'], text: `${as}'s scheduled message ${id} is listed as ${listed.get(id)}, not ${want}` });
    }
    for (const [id, got] of listed) if (!scheduled.has(id)) problems.push({ rules: ['scheduled.delete-removes', 'scheduled.own-messages-only'], text: `${as} has a scheduled message ${id} (${got}) that the model does not: deleted, or never its own` });
    for (const [id, flags] of model.flags[as]) {
      const seen = world.flags[as].get(id);
      if (!seen) {
        // A message not received, in no history of the actor's yet: a server may not show it (reading history is not the spec's).
        if (model.openFlags[as].get(id)?.has('historical')) continue;
        // Every message the model follows is in the sequence's topic, which holds a few dozen: its recipient reads it there.
        problems.push({ rules: ['flags.messages-start-unread'], text: `${as} received message ${id} of ${pool.thirdMessages.has(id) ? pool.third.name : pool.channel.name}, and does not find it in the topic ${JSON.stringify(model.topic)}` });
        continue;
      }
      // Every name a message's flags hold is one of the spec's table at the level.
      const strange = [...seen].filter((name) => !table.includes(name));
      if (strange.length > 0) problems.push({ rules: ['flags.model-sequence'], text: `${as}'s message ${id} carries ${JSON.stringify(strange)}, no flag of the spec's table at level ${pool.level}` });
      const open = model.openFlags[as].get(id);
      for (const flag of OBSERVED) {
        if (open?.has(flag) || flags.has(flag) === seen.has(flag)) continue;
        // Read on a message of a channel the actor left: the invariant keeps it (and removing read skips it).
        const invariant = flag === 'read' && model.left.includes(as) && pool.thirdMessages.has(id);
        problems.push({ rules: invariant ? ['flags.unread-only-in-subscribed-channels', 'flags.remove-read-skips-unsubscribed'] : flagRules(flag, flags.has(flag)), text: `${as}'s message ${id} should ${flags.has(flag) ? 'have' : 'lack'} ${flag}${invariant ? ` (${as} is not subscribed to its channel)` : ''}; its flags are ${JSON.stringify([...seen])}` });
      }
    }
  }
  const fields = new Map(model.fields.map((field) => [field.id, field]));
  for (const field of world.fields) {
    const want = fields.get(field.id);
    if (!want) problems.push({ rules: ['general.admin-only', 'fields.summary-limit'], text: `profile field ${field.id} (${JSON.stringify(field)}) exists, which no successful create of the model's made` });
    else if (want.name !== field.name || want.summary !== field.summary) problems.push({ rules: ['fields.create-returns-id'], text: `profile field ${field.id} reads ${JSON.stringify(field)}, not ${JSON.stringify(want)}` });
    else if (want.options !== undefined && want.options !== field.options) problems.push({ rules: ['fields.select-options'], text: `List of options ${field.id} is listed with the options ${field.options}, not ${want.options}` });
  }
  for (const field of model.fields) if (!world.fields.some((seen) => seen.id === field.id)) problems.push({ rules: ['fields.create-returns-id'], text: `profile field ${field.id} (${JSON.stringify(field)}) is missing` });
  for (const key of model.emoji.keys()) if (!world.emoji.has(key)) problems.push({ rules: ['emoji.upload-stores'], text: `the custom emoji ${JSON.stringify(model.emoji.get(key))} was uploaded, and GET /realm/emoji lists no active emoji of that name` });
  for (const [key, name] of world.emoji) {
    if (!model.emoji.has(key)) problems.push({ rules: key.includes(' (again: ') ? ['emoji.name-case-ignored', 'emoji.underscores-are-spaces'] : ['emoji.name-characters', 'emoji.one-file-part', 'emoji.upload-access'], text: `GET /realm/emoji lists an active emoji ${JSON.stringify(name)}${key.includes(' (again: ') ? ', a second of one name as the spec reads names (case ignored, underscores as spaces)' : ', which no accepted upload of the sequence made'}` });
  }
  if (world.settings) {
    for (const [name, value] of Object.entries(model.defaults)) {
      if (world.settings.defaults[name] !== value) problems.push({ rules: ['defaults.updates-follow-model', 'general.admin-only'], text: `the default ${name} is ${JSON.stringify(world.settings.defaults[name])}, not ${JSON.stringify(value)}` });
    }
    for (const as of ACTORS) {
      for (const [name, value] of Object.entries(model.own[as])) {
        if (world.settings.own[as][name] !== value) problems.push({ rules: ['defaults.existing-users-unchanged'], text: `${as}'s own ${name} is ${JSON.stringify(world.settings.own[as][name])}, not ${JSON.stringify(value)} as before` });
      }
    }
  }
  return problems;
}

/** The rules whose statements say a flag is there, or not: a changeable one by the operation, a mention's by the table. */
function flagRules(flag: string, set: boolean): RuleId[] {
  if ((FLAGS as readonly string[]).includes(flag)) return flag === 'read' && !set ? ['flags.messages-start-unread', 'flags.remove-clears-flag', 'general.own-data-only'] : [set ? 'flags.add-sets-flag' : 'flags.remove-clears-flag', 'general.own-data-only'];
  if (flag === 'has_alert_word') return ['flags.alert-word-flag'];
  if (flag === 'historical') return ['flags.historical-flag'];
  return flag === 'mentioned' ? ['flags.mention-flags'] : ['flags.wildcard-mention-flags', 'flags.wildcard-mentioned-before-224'];
}

/** The model as the world is now: at the start, and again after a transient fault hid what a request did. */
function fromWorld(world: World, left: readonly Role[], messages: readonly number[], emojiBase: string, topic: string, deletedScheduled: number[] = [], openFlags?: Organization['openFlags']): Organization {
  return {
    emoji: new Map([...world.emoji].filter(([key]) => !key.includes(' (again: '))), emojiBase, topic,
    drafts: world.drafts, scheduled: world.scheduled, flags: world.flags, fields: world.fields, summaryElsewhere: world.summaryElsewhere,
    openFlags: openFlags ?? { member: new Map(), other: new Map(), admin: new Map() }, messages: [...messages], left: [...left],
    defaults: world.settings?.defaults ?? {}, own: world.settings?.own ?? { member: {}, other: {}, admin: {} }, deletedScheduled,
  };
}

function fail(problems: readonly Problem[], after: string): never {
  const rules = [...new Set(problems.flatMap((problem) => problem.rules))];
  // The rules a prediction came from alone: what the failure proves broken (namedByModel).
  const alone = [...new Set(problems.filter((problem) => problem.rules.length === 1).map((problem) => problem.rules[0]!))];
  throw new Violation(`after ${after}: ${problems.map((problem) => problem.text).join('; ')} (the model's prediction comes from ${rules.join(', ')}${alone.length > 0 ? `; broken alone: ${alone.join(', ')}` : ''})`);
}

// ---- Running the model ------------------------------------------------------------------------

interface ModelState {
  state: Organization;
  readonly pool: Pool;
}

type Sent = { readonly step: Step; readonly answer: Answer };

/**
 * One step, or several sequences of steps sent at once (each sequence's requests one after
 * another, the sequences side by side): the world must be what some serial order of the
 * sequences makes. Two steps at once are two sequences of one.
 */
class Command implements fc.AsyncCommand<ModelState, Context> {
  readonly sequences: ReadonlyArray<readonly Step[]>;
  /**
   * Packed in rounds (a smoke run's boundary): each sequence's steps keep their order, and the
   * sequences' steps are sent one at a time, taken in turn, for as long as none would change what
   * a step of the round changed already (`touches`); then the world is read and judged, and the
   * next round begins. No step hides another's effect, and one read serves many steps.
   */
  readonly packed: boolean;
  constructor(steps: readonly Step[], sequences?: ReadonlyArray<readonly Step[]>, packed = false) {
    this.sequences = sequences ?? steps.map((step) => [step]);
    this.packed = packed;
  }
  check = () => true;
  async run(model: ModelState, context: Context) {
    const { pool } = model;
    if (!this.packed) {
      // Each step of a sequence is decided (whether it applies, what its positions name) on the model
      // as the sequence's earlier steps leave it: the model before the command, then theirs applied.
      // Every sequence ends before the command does: after a transient fault in one, the world is
      // read again only once no request of the others is still on its way.
      const sendAll = async (sequence: readonly Step[]) => {
        const local = clone(model.state);
        const sent: Sent[] = [];
        for (const step of sequence) {
          if (!step.applies(local, context)) continue;
          const answer = await step.send(context, local, pool);
          sent.push({ step, answer });
          step.apply(local, answer, pool);
        }
        return sent;
      };
      // Side by side; in a differential run (oneAtATime), one after another in their order.
      const outcomes: PromiseSettledResult<Sent[]>[] = [];
      if (!context.options.oneAtATime) outcomes.push(...(await Promise.allSettled(this.sequences.map(sendAll))));
      else for (const sequence of this.sequences) outcomes.push(await sendAll(sequence).then((value) => ({ status: 'fulfilled', value }) as const, (reason: unknown) => ({ status: 'rejected', reason }) as const));
      const lost = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (lost) throw lost.reason;
      return this.assess(model, context, outcomes.map((outcome) => (outcome as PromiseFulfilledResult<Sent[]>).value));
    }
    const queues = this.sequences.map((sequence) => [...sequence]);
    const commandParts = new Set<Part>();
    let ended = true;
    while (queues.some((queue) => queue.length > 0)) {
      const local = clone(model.state);
      const sent: Sent[] = [];
      const written = new Set<string>();
      const read = new Set<string>();
      const full = new Set<number>();
      for (let turn = 0; full.size < queues.length; turn = (turn + 1) % queues.length) {
        const queue = queues[turn]!;
        if (full.has(turn)) continue;
        const step = queue[0];
        if (step === undefined) {
          full.add(turn);
          continue;
        }
        if (!step.applies(local, context)) {
          queue.shift();
          continue;
        }
        const touched = step.touches?.(local, pool) ?? [];
        const reads = touched.filter((name) => name.startsWith('?')).map((name) => name.slice(1));
        const refused = touched.filter((name) => name.startsWith('~')).map((name) => name.slice(1));
        const writes = touched.filter((name) => !name.startsWith('?') && !name.startsWith('~'));
        if (sent.length > 0 && (reads.some((name) => written.has(name)) || writes.some((name) => written.has(name) || read.has(name)))) {
          full.add(turn);
          continue;
        }
        for (const name of [...reads, ...refused]) read.add(name);
        for (const name of writes) written.add(name);
        queue.shift();
        const answer = await step.send(context, local, pool);
        sent.push({ step, answer });
        step.apply(local, answer, pool);
      }
      // A round reads what its steps write; the last reads all the command wrote, so that a step's effect
      // elsewhere in it is seen within the command (the model's unpacked commands read the whole world).
      const last = queues.every((queue) => queue.length === 0);
      const parts = new Set(sent.flatMap(({ step }) => partsOf(step)));
      for (const part of parts) commandParts.add(part);
      await this.assess(model, context, [sent], last ? commandParts : parts);
      if (sent.length > 0) ended = last;
    }
    if (!ended) await this.assess(model, context, [], commandParts, true);
  }
  /** The answers judged, and the world read: it must be what some serial order of the sequences makes of the model. */
  private async assess(model: ModelState, context: Context, sent: ReadonlyArray<readonly Sent[]>, parts?: ReadonlySet<Part>, atEnd = false): Promise<void> {
    const { pool } = model;
    const sequences = sent.filter((sequence) => sequence.length > 0);
    if (sequences.length === 0 && !atEnd) return;
    const steps = sequences.flat().map((one) => one.step);
    const answers = sequences.flat().map((one) => one.answer);
    const startOf = sequences.map((_, index) => sequences.slice(0, index).reduce((sum, sequence) => sum + sequence.length, 0));
    for (const [index, answer] of answers.entries()) {
      noServerError(answer, steps[index]!.label);
      const problem = envelopeOf(answer);
      if (problem !== null) fail([{ rules: ['general.envelope'], text: `${steps[index]!.label}: ${problem}: ${told(answer)}` }], steps[index]!.label);
    }
    await judgeEvents(context, pool, model.state, steps, answers);
    const world = await readWorld(context, pool, parts ? parts.has('settings') : steps.some((step) => step.settings), model.state.emojiBase, model.state.topic, parts);
    // Each order of the sequences: the first that explains every answer and the whole world is taken.
    const orders = permutations(sequences.length).map((order) => order.flatMap((which) => sequences[which]!.map((_, index) => startOf[which]! + index)));
    let closest: Problem[] | null = null;
    for (const order of orders) {
      const next = clone(model.state);
      const problems = order.flatMap((index) => steps[index]!.apply(next, answers[index]!, pool));
      // What the round did not read is as the model has it (no step of the round writes it).
      const seen: World = world.unread ? { ...world, ...asModelHas(next, world, world.unread, pool) } : world;
      if (world.settings === undefined) {
        next.defaults = model.state.defaults;
        next.own = model.state.own;
      }
      problems.push(...differences(next, seen, pool));
      if (problems.length === 0) {
        model.state = { ...settled(next, seen), ...(world.settings ? {} : { defaults: model.state.defaults, own: model.state.own }) };
        return;
      }
      if (closest === null || problems.length < closest.length) closest = problems;
    }
    fail(closest!, steps.length === 0 ? 'the command\'s rounds (the whole world, read at its end)' : steps.length === 1 ? steps[0]!.label : `${sequences.map((sequence) => sequence.map((one) => one.step.label).join(', then ')).join(' and, at once, ')}${sequences.length > 1 ? ' (in any order of them)' : ''}`);
  }
  toString = () => this.sequences.map((sequence) => sequence.map((step) => step.label).join(' ; ')).join(this.packed ? ' | in turn | ' : ' | at once | ');
}

/** The parts of the world a step's operation writes: every part where it names none (settings only where it may change them). */
const partsOf = (step: Step): readonly Part[] => step.parts ?? EVERY_PART.filter((part) => part !== 'settings' || step.settings === true);

/** The parts of the world a smoke round did not read, as the model has them. */
function asModelHas(model: Organization, world: World, unread: ReadonlySet<Part>, pool: Pool): Partial<World> {
  const flags = (): World['flags'] => {
    const taken = (id: number) => unread.has(pool.directMessages.has(id) ? 'direct' : 'flags');
    const merged = (as: Role) => new Map([...world.flags[as]].filter(([id]) => !taken(id)).concat([...model.flags[as]].filter(([id]) => taken(id))));
    return { member: merged('member'), other: merged('other'), admin: merged('admin') };
  };
  return {
    ...(unread.has('drafts') ? { drafts: model.drafts } : {}),
    ...(unread.has('scheduled') ? { scheduled: model.scheduled } : {}),
    ...(unread.has('flags') || unread.has('direct') ? { flags: flags() } : {}),
    ...(unread.has('fields') ? { fields: model.fields, summaryElsewhere: model.summaryElsewhere } : {}),
    ...(unread.has('emoji') ? { emoji: model.emoji } : {}),
  };
}

/** Every order of n things, as lists of their positions. */
function permutations(n: number): number[][] {
  if (n <= 1) return [Array.from({ length: n }, (_, index) => index)];
  return permutations(n - 1).flatMap((order) => Array.from({ length: n }, (_, at) => [...order.slice(0, at), n - 1, ...order.slice(at)]));
}

/** The model with each field it left open taken as the world keeps it (the world was found within the open bounds). */
function settled(model: Organization, world: World): Organization {
  const scheduled = { ...model.scheduled };
  for (const as of ACTORS) {
    scheduled[as] = model.scheduled[as].map((item) => {
      if (!item.within) return item;
      const seen = world.scheduled[as].find((one) => one.id === item.id);
      const { within, ...rest } = item;
      return seen ? { ...rest, ...Object.fromEntries(Object.keys(within).map((field) => [field, seen[field as 'content' | 'topic']])) } : rest;
    });
  }
  return { ...model, scheduled };
}

/** How an answer breaks the spec's envelope (result, and msg: empty exactly on success), or null. */
function envelopeOf(answer: Answer): string | null {
  const body = answer.body;
  if (body === null || typeof body !== 'object') return 'the answer is not a JSON object';
  if (body.result !== 'success' && body.result !== 'error') return `result is ${JSON.stringify(body.result)}`;
  if (typeof body.msg !== 'string') return `msg is ${JSON.stringify(body.msg)}, not a string`;
  if ((body.result === 'success') !== (body.msg === '')) return body.result === 'success' ? `a success with msg ${JSON.stringify(body.msg)}` : 'an error with an empty msg';
  return null;
}

/** Whether an event names this ID in a field of IDs (its own top-level `id` is the queue's). */
function mentionsId(event: unknown, id: number): boolean {
  const { id: _queued, ...payload } = (event ?? {}) as Record<string, unknown>;
  return namesId(payload, id, /(^|_)ids?$|^messages$/);
}

/** Whether an event names this message: in a field of message IDs, not as any object's `id` (a profile field's may equal it). */
function mentionsMessage(event: unknown, id: number): boolean {
  const { id: _queued, ...payload } = (event ?? {}) as Record<string, unknown>;
  return namesId(payload, id, /^(messages|message_ids?)$/);
}

/**
 * What the queues were told. By a step of one actor on its own data: no other actor's queue
 * hears of it (by the model's marker in a text, or a pool message's ID); and drafts made reach
 * the actor's own queue (its other clients), by one of their IDs. Of typing: a user whose
 * receives_typing_notifications is off (in the model before the command, and not set by it) gets
 * no typing notification from anyone; a direct one reaches each recipient who has it on.
 */
async function judgeEvents(context: Context, pool: Pool, before: Organization, steps: readonly Step[], answers: readonly Answer[]): Promise<void> {
  const owners = new Set(steps.map((step, index) => (succeededAnswer(answers[index]!) ? step.owner : undefined)).filter((owner): owner is Role => owner !== undefined));
  const created = steps.flatMap((step, index) => (step.owner !== undefined && step.createsDrafts === true && succeededAnswer(answers[index]!) && Array.isArray(answers[index]!.body?.ids) ? [{ owner: step.owner, ids: answers[index]!.body.ids as number[] }] : []));
  const label = steps.map((step) => step.label).join(' and ');
  const switching = new Set(steps.map((step) => step.switchesTyping).filter((role): role is Role => role !== undefined));
  const receives = (as: Role) => (switching.has(as) || pool.level < 253 ? undefined : before.own[as][TYPING_SETTING]);
  const typedTo = steps.filter((step, index) => step.typing?.direct === true && succeededAnswer(answers[index]!)).flatMap((step) => step.typing!.to);
  for (const as of ACTORS) {
    const mine = created.filter((made) => made.owner === as).flatMap((made) => made.ids);
    const typedHere = typedTo.includes(as) && receives(as) === true;
    // Event names are not shown: where the command only types, any event is what it brought (typing.reaches-receivers); beside other steps, one that speaks of typing.
    const brought = steps.every((step) => step.typing !== undefined) ? () => true : isTyping;
    // Drafts synchronization switched off and on again: the settings event of switching it on ends the wait (a server that sends none is watched for the whole wait).
    const synchronized = steps.map((step) => step.switched?.()).find((switched) => switched?.as === as);
    const switchedOn = (event: any) => event?.type === 'user_settings' && event.property === 'enable_drafts_synchronization' && event.value === true;
    const heard = (seen: any[]) => mine.every((id) => seen.some((event) => mentionsId(event, id))) && (!typedHere || seen.some(brought)) && (!synchronized || seen.some(switchedOn));
    const events = await pollEvents(context, as, pool.queues[as], heard, mine.length > 0 || typedHere || synchronized ? context.options.eventWaitMs : 0);
    if (synchronized && synchronized.drafts.length > 0) {
      // No event may speak of the drafts it deleted; before the event of switching on, none of drafts at all (switching on, of which the spec says nothing, may send one).
      // By an ID of the deleted drafts, or (where the command made none of the actor's) by the name of
      // its type; not by a text: the pool's texts repeat, in scheduled messages too. A draft the
      // command made before the switch is named by the event of its making: not judged.
      const ids = synchronized.drafts.map((draft) => draft.id).filter((id) => !mine.includes(id));
      const [named, typed] = [aboutDrafts(ids, [], false), aboutDrafts(ids, [], mine.length === 0)];
      const on = events.findIndex(switchedOn);
      const judged = (event: any, before: boolean) => !/settings/.test(String(event?.type)) && (before ? typed(event) : named(event));
      const spoken = events.filter((event, index) => judged(event, on < 0 || index < on));
      if (spoken.length > 0) fail([{ rules: ['drafts.sync-off-sends-no-event'], text: `${as} switched drafts synchronization off, and its queue (registered before) was told of its drafts: ${JSON.stringify(spoken).slice(0, 400)}` }], label);
    }
    if (mine.length > 0) {
      const unheard = mine.filter((id) => !events.some((event) => mentionsId(event, id)));
      if (unheard.length > 0) fail([{ rules: ['drafts.event-to-other-clients'], text: `${as} made drafts ${unheard.join(', ')}, and no event of its queue named them within the wait` }], label);
    }
    if (typedHere && !events.some(brought)) fail([{ rules: ['typing.reaches-receivers'], text: `${as} receives typing notifications (receives_typing_notifications on), and a direct typing notification to it brought its queue no event within the wait` }], label);
    const unwanted = events.filter(isTyping);
    if (receives(as) === false && unwanted.length > 0) fail([{ rules: ['typing.only-to-receivers'], text: `${as} turned receives_typing_notifications off, and its queue (registered before) got a typing notification: ${JSON.stringify(unwanted).slice(0, 300)}` }], label);
    // Only a step of another actor alone is judged here: in a pair, the actor's own step may tell its queue of the same messages.
    if (owners.has(as) || owners.size === 0) continue;
    // A message someone sent is theirs, whatever its text (another client may send the same words): it tells nothing of another's data.
    const told = events.filter((event) => !/message$|^typing/.test(String(event?.type)) && (JSON.stringify(event).includes(pool.marker) || before.messages.some((id) => mentionsMessage(event, id))));
    if (told.length > 0) fail([{ rules: ['general.own-data-only'], text: `${as}'s event queue was told of what ${[...owners].join(' and ')} did to its own data: ${JSON.stringify(told).slice(0, 400)}` }], label);
  }
}

const actor = fc.constantFrom<Role>(...ACTORS);
const position = fc.nat({ max: 6 });

function stepArbitrary(): fc.Arbitrary<Step> {
  const draftItem = fc.record({ kind: fc.nat(2), text: fc.nat(2), topic: fc.nat(1), audience: fc.nat(1) });
  return fc.oneof(
    fc.tuple(actor, fc.array(draftItem, { minLength: 1, maxLength: 3 }), fc.option(fc.constantFrom<DraftFault>(...DRAFT_FAULT_NAMES), { freq: 3, nil: null }), fc.boolean()).map(([as, items, bad, extra]) => createDrafts(as, items, bad, extra)),
    fc.tuple(actor, actor, position).map(([as, whose, at]) => deleteDraft(as, whose, at)),
    actor.map((as) => noDrafts(as)),
    fc.tuple(actor, fc.boolean(), fc.nat(2), fc.nat(1), fc.nat(1)).map(([as, channel, text, topic, who]) => schedule(as, channel, text, topic, who)),
    fc.tuple(actor, actor, position, fc.oneof(
      { weight: 4, arbitrary: fc.record({ text: fc.nat(2), topic: fc.nat(1), later: fc.nat(3), move: fc.record({ name: fc.nat(1), leaveOut: fc.constantFrom<'to' | 'topic' | undefined>(undefined, undefined, 'to', 'topic') }) }, { requiredKeys: [] }) },
      { weight: 1, arbitrary: fc.record({ bad: fc.constantFrom<BadEdit>(...BAD_EDIT_NAMES), text: fc.nat(4) }) },
      { weight: 1, arbitrary: fc.record({ emptyTopic: fc.nat(3) }) },
      { weight: 1, arbitrary: fc.record({ long: fc.record({ field: fc.constantFrom<'content' | 'topic'>('content', 'topic'), over: fc.nat(2), unit: fc.nat(3), atLimit: fc.boolean() }) }) },
    )).map(([as, whose, at, change]) => editScheduled(as, whose, at, change as Change)),
    fc.tuple(actor, fc.constantFrom<Role | 'deleted'>('member', 'other', 'admin', 'deleted'), position).map(([as, whose, at]) => deleteScheduled(as, whose, at)),
    fc.tuple(actor, fc.constantFrom<'add' | 'remove'>('add', 'remove'), fc.oneof({ arbitrary: fc.constantFrom(...FLAGS), weight: 4 }, { arbitrary: fc.constantFrom(...NOT_CHANGEABLE), weight: 1 }), fc.array(fc.nat(7), { minLength: 1, maxLength: 4 }), fc.boolean(), fc.option(fc.constantFrom<FlagsFault>('no messages', 'no op', 'no flag', 'op'), { freq: 6, nil: null }), fc.nat(5).map((n) => n === 0)).map(([as, op, flag, at, extra, invalid, nonexistent]) => updateFlags(as, op, flag, at, extra, invalid, nonexistent)),
    fc.tuple(actor, fc.nat(4), fc.boolean(), fc.nat(7), fc.boolean(), fc.boolean(), fc.constantFrom<'name' | 'type' | undefined>(undefined, undefined, undefined, 'name', 'type')).map(([as, name, summary, type, invalid, noOrder, leaveOut]) => createField(as, name, summary, type, invalid, noOrder ? 'no order' : null, leaveOut)),
    fc.tuple(position, fc.boolean()).map(([at, inSummary]) => deleteField(at, inSummary)),
    fc.tuple(actor, fc.array(fc.record({ setting: fc.nat(SETTINGS.length - 1), value: fc.nat(3), invalid: fc.boolean() }), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([as, changes, extra]) => updateDefaults(as, changes, extra)),
    fc.tuple(actor, fc.option(actor, { nil: null })).map(([email, key]) => forged(email, key)),
    fc.tuple(fc.nat(3), fc.nat(SETTINGS.length - 1), fc.nat(2)).map(([which, setting, value]) => absentDefault(which, { setting, value })),
    fc.tuple(actor, fc.array(fc.record({ who: fc.nat(1), form: fc.nat(3) }), { maxLength: 3 }), fc.boolean(), fc.option(fc.record({ who: fc.nat(1), casing: fc.nat(2) }), { nil: null })).map(([as, mentions, wildcard, alert]) => sendMessage(as, mentions, wildcard, alert)),
    fc.tuple(actor, fc.nat(SETTINGS.length - 1), fc.nat(2)).map(([as, setting, value]) => changeOwnSetting(as, setting, value)),
    fc.tuple(actor, fc.boolean(), fc.nat(2), fc.constantFrom<'start' | 'stop'>('start', 'stop')).map(([as, channel, who, op]) => typing(as, channel, who, op)),
    fc.tuple(actor, fc.boolean()).map(([as, leave]) => membership(as, leave)),
    fc.tuple(actor, fc.array(fc.record({ who: fc.nat(1), form: fc.nat(3) }), { maxLength: 2 })).map(([as, mentions]) => sendMessage(as, mentions, false, null, true)),
    fc.tuple(actor, position, fc.constantFrom<'sent' | 'deleted' | 'failed'>('sent', 'sent', 'deleted', 'failed')).map(([as, at, mode]) => comeDue(as, at, mode)),
    fc.tuple(actor, fc.nat(7), fc.option(fc.nat(1), { nil: null })).map(([as, at, note]) => remind(as, at, note)),
    fc.tuple(actor, fc.nat(9), fc.constantFrom<EmojiBody>('png', 'gif', 'gif87', 'png', 'two files', 'no file')).map(([as, name, body]) => uploadEmoji(as, name, body)),
    actor.map((as) => switchSynchronization(as)),
  );
}

/** Steps alone, and pairs of steps sent at once. */
const commandArbitrary = fc.oneof(
  { arbitrary: stepArbitrary().map((step) => new Command([step])), weight: 3 },
  // A step that moves the clock goes before or after the other, never at once with it.
  { arbitrary: fc.tuple(stepArbitrary(), stepArbitrary()).map((pair) => (pair.some((step) => step.alone) ? new Command([], [pair]) : new Command(pair))), weight: 1 },
);

/**
 * The boundary: every operation by every actor (the three actors' steps side by side), valid and refused, the values at the edges the
 * spec names (each changeable flag set and taken away, each value of an enumeration and values
 * outside it, equal drafts, a type moved with each name, a summary's limits), then pairs at once.
 */
/**
 * The three actors' boundary steps side by side: the n-th step of each actor's list sent at once
 * (three sequences of one), so that the world is read once for the three and every step is also a
 * request at once with the others'. Each actor's steps stay in their order.
 */
function sideBySide(perActor: ReadonlyArray<readonly Command[]>): Command[] {
  const longest = Math.max(...perActor.map((list) => list.length));
  return Array.from({ length: longest }, (_, index) => new Command([], perActor.flatMap((list) => (list[index] ? list[index]!.sequences : []))));
}

function everyOperationByEveryActor(): Command[] {
  const one = (step: Step) => new Command([step]);
  const commands: Command[] = [];
  const perActor: Command[][] = [];
  for (const as of ACTORS) {
    const another = as === 'member' ? 'other' : 'member';
    const start = commands.length;
    commands.push(
      one(createDrafts(as, [{ kind: 0, text: 0, topic: 0, audience: 0 }, { kind: 1, text: 2, topic: 1, audience: 0 }, { kind: 2, text: 0, topic: 0, audience: 1 }, { kind: 0, text: 1, topic: 0, audience: 1 }], null)),
      one(createDrafts(as, [{ kind: 1, text: 1, topic: 0, audience: 0 }, { kind: 1, text: 1, topic: 0, audience: 0 }], 'channels')),
      one(createDrafts(as, [{ kind: 2, text: 1, topic: 0, audience: 0 }, { kind: 1, text: 1, topic: 0, audience: 1 }], 'channels')),
      one(createDrafts(as, [{ kind: 0, text: 1, topic: 0, audience: 0 }, { kind: 1, text: 0, topic: 1, audience: 0 }], 'nul')),
      one(createDrafts(as, [{ kind: 1, text: 0, topic: 1, audience: 0 }], 'type')),
      one(createDrafts(as, [{ kind: 2, text: 0, topic: 0, audience: 0 }, { kind: 1, text: 0, topic: 1, audience: 0 }], 'missing')),
      one(createDrafts(as, [{ kind: 2, text: 2, topic: 0, audience: 1 }], null, true)),
      ...(as === 'member' ? DRAFT_FAULT_NAMES.filter((fault) => !['channels', 'nul', 'type', 'missing'].includes(fault)).map((fault) => one(createDrafts(as, [{ kind: 0, text: 1, topic: 0, audience: 0 }, { kind: 1, text: 0, topic: 1, audience: 0 }], fault))) : []),
      one(noDrafts(as)),
      // Every draft of the actor deleted by switching synchronization off, then new ones made.
      one(switchSynchronization(as)),
      // Equal drafts: two in one batch, and one equal to a draft made before.
      one(createDrafts(as, [{ kind: 1, text: 1, topic: 1, audience: 0 }, { kind: 1, text: 1, topic: 1, audience: 0 }], null)),
      one(createDrafts(as, [{ kind: 0, text: 0, topic: 0, audience: 0 }], null)),
      one(schedule(as, true, 0, 0, 0)),
      one(schedule(as, false, 2, 0, 1)),
      one(schedule(as, false, 1, 0, 0)),
      one(schedule(as, true, 1, 1, 0)),
    );
    // A message naming each other actor in each form, and one to everyone.
    commands.push(
      one(sendMessage(as, [{ who: 0, form: 0 }, { who: 1, form: 3 }], false)),
      one(sendMessage(as, [{ who: 1, form: 1 }, { who: 0, form: 2 }], true)),
      // Each other actor's alert word, in upper case and capitalized.
      one(sendMessage(as, [], false, { who: 0, casing: 0 })),
      one(sendMessage(as, [], false, { who: 1, casing: 1 })),
    );
    // Each flag set, then each taken away, the last first (so collapsed goes while starred and read are set), then each set again and taken away alone.
    for (const flag of FLAGS) commands.push(one(updateFlags(as, 'add', flag, [0, 1, 1, 2, 3, 5])));
    for (const flag of [...FLAGS].reverse()) commands.push(one(updateFlags(as, 'remove', flag, [3, 0, 4], true)));
    for (const flag of FLAGS) commands.push(one(updateFlags(as, 'add', flag, [4, 3])), one(updateFlags(as, 'remove', flag, [4, 3, 2])));
    for (const invalid of Object.keys(FLAGS_FAULTS) as FlagsFault[]) commands.push(one(updateFlags(as, 'add', 'starred', [1], false, invalid)));
    // A message that does not exist beside one that does: refused whole, or the other one starred.
    commands.push(one(updateFlags(as, 'add', 'starred', [2], false, null, true)));
    // More than a hundred IDs in one request (one message a hundred times, then others): every one is changed.
    commands.push(one(updateFlags(as, 'add', 'collapsed', [...Array<number>(100).fill(1), 2, 3])), one(updateFlags(as, 'remove', 'collapsed', [...Array<number>(100).fill(2), 3, 1])));
    commands.push(
      one(updateFlags(as, 'add', 'mentioned', [0])),
      one(updateFlags(as, 'remove', 'historical', [1])),
      one(createField(as, 0, false, 0, false)),
      one(updateDefaults(as, [{ setting: 2, value: 1, invalid: false }])),
      one(forged(as, another)),
      one(forged(as, null)),
      // Each name: one, the same one under another case and underscores, another, refused names, each refused body.
      ...[0, 1, 2, 3, 4, 5, 8, 9].map((name) => one(uploadEmoji(as, name, name === 2 ? 'gif' : name === 4 ? 'gif87' : 'png'))),
      one(uploadEmoji(as, 6, 'two files')),
      one(uploadEmoji(as, 7, 'no file')),
      one(uploadEmoji(as, 6, 'a byte past the limit')),
      one(uploadEmoji(as, 7, 'at the limit')),
    );
    perActor.push(commands.splice(start));
  }
  commands.push(...sideBySide(perActor.splice(0)));
  // The defaults: every value of each, three at once, and each kind of value outside them; each
  // actor's own values first set apart from what the defaults will be.
  commands.push(
    new Command(ACTORS.map((as, index) => changeOwnSetting(as, 2, index))),
    one(changeOwnSetting('member', 3, 2)),
    one(updateDefaults('admin', [{ setting: 0, value: 0, invalid: false }, { setting: 1, value: 1, invalid: false }, { setting: 2, value: 2, invalid: false }])),
    one(updateDefaults('admin', [{ setting: 2, value: 0, invalid: false }, { setting: 0, value: 1, invalid: false }], true)),
    ...[0, 1, 2, 3].map((value) => one(updateDefaults('admin', [{ setting: 0, value, invalid: true }]))),
    ...[0, 1, 2, 3].map((value) => one(updateDefaults('admin', [{ setting: 2, value, invalid: true }, { setting: 1, value: 0, invalid: false }]))),
    one(updateDefaults('admin', [{ setting: 1, value: 0, invalid: true }])),
    ...[0, 1, 2].map((value) => one(updateDefaults('admin', [{ setting: 3, value, invalid: false }]))),
    ...[0, 1].map((value) => one(updateDefaults('admin', [{ setting: 3, value, invalid: true }, { setting: 0, value, invalid: false }]))),
  );
  // The third channel: each actor leaves it (its messages read), removes read from them and others
  // (skipped, the channel listed), sets other flags on them, joins again, and leaves again.
  for (const as of ACTORS) {
    commands.push(
      one(updateFlags(as, 'add', 'starred', [4, 5])),
      one(membership(as, true)),
      one(updateFlags(as, 'remove', 'read', [4, 0, 5, 4])),
      one(updateFlags(as, 'add', 'collapsed', [5])),
      one(updateFlags(as, 'remove', 'starred', [4])),
      one(updateFlags(as, 'remove', 'read', [1])),
      // Sent by it while it is away: its own copy, where it keeps one, is read (unread messages are only in channels one is in).
      one(sendMessage(as, [], false, null, true)),
      // Sent while it is away: not received; starred, it enters its history as historical.
      one(sendMessage(ACTORS.find((role) => role !== as)!, [], false, null, true)),
      one(updateFlags(as, 'add', 'starred', [-1])),
      one(membership(as, false)),
      // Subscribed again: read is taken away from its messages, the one sent while it was away among them.
      one(updateFlags(as, 'remove', 'read', [5, -1])),
      one(membership(as, true)),
      one(membership(as, false)),
    );
  }
  // Every setting the level lacks, each beside a valid change; a user created after them starts with the defaults.
  commands.push(...[0, 1, 2, 3].map((which) => one(absentDefault(which, { setting: which, value: which }))),
    // Every setting of the four tables at once, each value in one of the rounds; the refused values of each type and enumeration.
    ...Array.from({ length: EVERY_DEFAULT_ROUNDS }, (_, round) => one(everyDefault(round))),
    new Command([badDefault('bool', 0, '0'), badDefault('int', 0, '1.5'), ...Array.from({ length: 16 }, (_, place) => badDefault('enum', place))], undefined, true),
    one(newUser()), one(moreThanAHundred('member')));
  // Typing: each actor in turn stops receiving notifications, is typed to directly (with one who
  // receives them) and in the topic, alone and with the other, and receives them again.
  const receiving = SETTINGS.findIndex(([name]) => name === TYPING_SETTING);
  for (const as of ACTORS) {
    const [first, second] = ACTORS.filter((role) => role !== as) as [Role, Role];
    commands.push(
      one(changeOwnSetting(as, receiving, 1)),
      one(typing(first, false, 2, 'start')),
      one(typing(second, true, 0, 'stop')),
      one(typing(first, false, ACTORS.filter((role) => role !== first).indexOf(as), 'stop')),
      one(changeOwnSetting(as, receiving, 0)),
      one(typing(second, false, ACTORS.filter((role) => role !== second).indexOf(as), 'start')),
    );
  }
  // Profile fields: a Long text field for the summary, bad types and options, then the summary's limit.
  commands.push(
    one(createField('admin', 2, true, 1, false)),
    one(createField('admin', 2, false, 0, true)),
    one(createField('admin', 1, false, 1, true)),
    one(createField('admin', 1, false, 2, false, 'no order')),
    one(createField('admin', 0, false, 7, false)),
    one(createField('admin', 0, true, 0, false)),
    new Command([createField('admin', 1, true, 2, false), createField('admin', 2, true, 4, false)]),
    one(createField('admin', 2, true, 0, false)),
    // A summary field deleted frees its place (names of their own: a name in use may be refused); a
    // field without a name is made, one without a type refused.
    one(createField('admin', 3, true, 0, false)),
    one(createField('admin', 4, true, 0, false)),
    one(deleteField(0, true)),
    one(createField('admin', 4, true, 0, false)),
    one(createField('admin', 0, false, 0, false, null, 'name')),
    one(createField('admin', 1, false, 0, false, null, 'type')),
  );
  for (const as of ACTORS) {
    const another = as === 'member' ? 'other' : 'member';
    const start = commands.length;
    commands.push(
      one(editScheduled(as, as, 0, { text: 1 })),
      one(editScheduled(as, as, 1, { text: 2 })),
      one(editScheduled(as, as, 1, { topic: 1, later: 0 })),
      one(editScheduled(as, as, 0, { move: { name: 1 } })),
      one(editScheduled(as, as, 0, { move: { name: 0 }, topic: 1 })),
      one(editScheduled(as, as, 2, { move: { name: 0, leaveOut: 'to' } })),
      one(editScheduled(as, as, 2, { move: { name: 1, leaveOut: 'topic' } })),
      one(editScheduled(as, another, 0, { text: 2 })),
      ...(as === 'member' ? [
        ...BAD_EDIT_NAMES.flatMap((bad) => [one(editScheduled(as, as, 0, { bad })), one(editScheduled(as, as, 1, { bad, text: 1 }))]),
        ...[0, 1, 2, 3].map((emptyTopic) => one(editScheduled(as, as, 0, { emptyTopic }))),
        // Past each limit by one character, of one byte and of four: the limits count characters.
        one(editScheduled(as, as, 0, { long: { field: 'topic', over: 0, unit: 3 } })),
        one(editScheduled(as, as, 1, { long: { field: 'content', over: 0, unit: 3 } })),
        one(editScheduled(as, as, 0, { long: { field: 'content', over: 2, unit: 0 } })),
        one(editScheduled(as, as, 0, { long: { field: 'topic', over: 0, unit: 3, atLimit: true } })),
        one(editScheduled(as, as, 1, { long: { field: 'content', over: 0, unit: 2, atLimit: true } })),
      ] : []),
      one(deleteScheduled(as, another, 1)),
      one(deleteDraft(as, another, 0)),
      one(deleteDraft(as, as, 1)),
      one(deleteScheduled(as, as, 1)),
    );
    perActor.push(commands.splice(start));
  }
  commands.push(...sideBySide(perActor.splice(0)));
  // What comes due, with the reference clock: each actor's most edited message sent, the next
  // failed, the one after deleted; a reminder of each actor's with each note and without one.
  for (const as of ACTORS) commands.push(one(comeDue(as, 0, 'sent')), one(comeDue(as, 0, 'failed')), one(comeDue(as, 0, 'deleted')));
  for (const [index, as] of ACTORS.entries()) commands.push(one(remind(as, index, index === 2 ? null : index)));
  commands.push(
    one(deleteScheduled('member', 'deleted', 0)),
    new Command([updateFlags('member', 'add', 'collapsed', [0]), updateFlags('other', 'add', 'collapsed', [0])]),
    new Command([createDrafts('member', [{ kind: 1, text: 0, topic: 0, audience: 0 }], null), deleteDraft('other', 'member', 0)]),
    new Command([editScheduled('other', 'other', 0, { text: 0 }), deleteScheduled('other', 'other', 0)]),
    one(deleteField(0)),
    one(deleteField(0)),
  );
  return commands;
}

/**
 * A smoke run's boundary: the boundary cases of the default run's, every operation by every actor,
 * in few reads of the world. Each command holds one queue of steps per actor, packed in rounds
 * (`Command.packed`): a round takes the queues' steps in turn for as long as none changes what the
 * round changed already, then the world is read and judged. Each queue is laid out so that its
 * steps of one round touch different things (messages, scheduled messages, settings); commands
 * follow one another where one actor's step needs another's before it (a message sent to the third
 * channel while the others are away).
 */
function everyOperationInSmoke(): Command[] {
  const another = (as: Role): Role => (as === 'member' ? 'other' : 'member');
  const packed = (make: (as: Role, index: number) => Step[]) => new Command([], ACTORS.map((as, index) => make(as, index)), true);
  const draft = (kind: number, text: number, topic: number, audience: number) => ({ kind, text, topic, audience });
  const receiving = SETTINGS.findIndex(([name]) => name === TYPING_SETTING);
  return [
    // What the rest acts on, made by every actor, and every refused create: every kind of draft, two
    // equal in a batch, each refused batch (the member), scheduled messages of both kinds, messages
    // naming the others in each form, everyone, and each other's alert word; keys not one's own.
    packed((as, index) => [
      createDrafts(as, [draft(0, 0, 0, 0), draft(1, 2, 1, 0), draft(2, 0, 0, 1), draft(0, 1, 0, 1)], null),
      createDrafts(as, [draft(1, 1, 1, 0), draft(1, 1, 1, 0)], null),
      createDrafts(as, [draft(2, 2, 0, 1)], null, true),
      noDrafts(as),
      ...(as === 'member'
        // The channels of the last draft: two (here), then none (in the list of faults).
        ? [createDrafts(as, [draft(2, 1, 0, 0), draft(1, 1, 0, 1)], 'channels'), ...DRAFT_FAULT_NAMES.map((fault) => createDrafts(as, [draft(0, 1, 0, 0), draft(1, 0, 1, 0)], fault))]
        : [createDrafts(as, [draft(1, 1, 0, 0), draft(2, 0, 0, 1)], (['nul', 'missing-topic'] as const)[index - 1]!)]),
      schedule(as, true, 0, 0, 0),
      schedule(as, false, 2, 0, 1),
      schedule(as, false, 1, 0, 0),
      schedule(as, true, 1, 1, 0),
      sendMessage(as, [{ who: 0, form: 0 }, { who: 1, form: 3 }], false),
      sendMessage(as, [{ who: 1, form: 1 }, { who: 0, form: 2 }], true),
      sendMessage(as, [], false, { who: 0, casing: 0 }),
      sendMessage(as, [], false, { who: 1, casing: 1 }),
      forged(as, another(as)),
      forged(as, null),
      // What only an administrator may do, by each actor (the administrator's defaults come later).
      createField(as, 0, false, 0, false),
      ...(as === 'admin' ? [] : [updateDefaults(as, [{ setting: 2, value: 1, invalid: false }])]),
      // Each refused request of the flags operation.
      ...(Object.keys(FLAGS_FAULTS) as FlagsFault[]).map((invalid) => updateFlags(as, 'add', 'starred', [1], false, invalid)),
      // Each flag of the table the operation may not change, on a channel message and the direct one (the member), refused.
      // And a name outside the table.
      ...(as === 'member' ? [...FIXED_FLAGS.map((flag, index) => updateFlags(as, index % 2 === 0 ? 'add' : 'remove', flag, [0, 6])), updateFlags(as, 'add', 'READ', [0, 6])] : [updateFlags(as, 'add', 'mentioned', [0]), updateFlags(as, 'remove', 'historical', [1])]),
      // Custom emoji: names apart, refused names and bodies, the size limit (names equal to these come next).
      ...(as === 'member'
        ? [withUnsupported(uploadEmoji(as, 0, 'png'), /^POST \/realm\/emoji\//), withUnsupported(uploadEmoji(as, 2, 'gif'), /^POST \/realm\/emoji\//, false), uploadEmoji(as, 4, 'gif87'), uploadEmoji(as, 6, 'two files'), uploadEmoji(as, 6, 'a byte past the limit'),
          // Every character outside the alphabet, each in a name of its own; an empty name; each kind of character in it, before the token and after.
          ...EMOJI_NAMES.map((_, index) => index).filter((index) => index >= ALLOWED_EMOJI_NAMES).map((index) => uploadEmoji(as, index, 'png')), emptyEmojiName(as),
          ...ALPHABET.map((around) => uploadEmoji(as, around === '_' ? 7 : 6, 'png', around))]
        : as === 'other' ? [uploadEmoji(as, 3, 'png'), uploadEmoji(as, 7, 'no file')] : [uploadEmoji(as, 7, 'at the limit')]),
      // Typing: the member stops receiving notifications (the others are typed to next); more than a hundred distinct messages in one request.
      ...(as === 'member' ? [changeOwnSetting(as, receiving, 1), moreThanAHundred(as)] : []),
    ]),
    // Each actor changes what it made, in rounds: each flag set, on messages with and without the
    // others, then each taken away while the others stay, then more than a hundred IDs in one
    // request; drafts deleted (another's refused) and one equal to an earlier one made; each edit
    // of a scheduled message (another's refused), each edit the spec refuses, the empty topic's
    // names, texts at their limits and past them; typing to users who receive notifications and to
    // one who does not; names equal to the emoji's by case and underscores; the defaults.
    packed((as) => [
      // Round 1 (message #6: the direct message, which other sent).
      updateFlags(as, 'add', 'read', [0, 1, 1, 2, 6]),
      updateFlags(as, 'add', 'starred', [3]),
      updateFlags(as, 'add', 'collapsed', [4]),
      deleteDraft(as, as, 1),
      createDrafts(as, [draft(0, 0, 0, 0)], null),
      withUnsupported(editScheduled(as, as, 0, { text: 1 }), /^PATCH \/scheduled_messages\//),
      withUnsupported(editScheduled(as, as, 1, { text: 2 }), /^PATCH \/scheduled_messages\//, false),
      // Refused: each changes nothing (after the round's changes of the same messages, so that none hides them).
      ...(as === 'member' ? BAD_EDIT_NAMES.flatMap((bad) => [editScheduled(as, as, 0, { bad }), editScheduled(as, as, 1, { bad, text: 1 })]) : []),
      editScheduled(as, as, 2, { move: { name: 0, leaveOut: 'to' } }),
      editScheduled(as, another(as), 0, { text: 2 }),
      deleteScheduled(as, another(as), 1),
      deleteDraft(as, another(as), 0),
      ...(as === 'member' ? [uploadEmoji(as, 1, 'png')] : as === 'other' ? [uploadEmoji(as, 5, 'png'), typing(as, false, 2, 'start'), typing(as, false, 0, 'stop')] : [typing(as, true, 0, 'stop')]),
      // Round 2: every draft deleted by switching synchronization off.
      switchSynchronization(as),
      updateFlags(as, 'add', 'starred', [0, 1, 5, 6]),
      updateFlags(as, 'add', 'collapsed', [2, 3]),
      updateFlags(as, 'add', 'read', [4]),
      editScheduled(as, as, 1, { topic: 1, later: 0 }),
      editScheduled(as, as, 0, { move: { name: 1 } }),
      editScheduled(as, as, 2, { move: { name: 1, leaveOut: 'topic' } }),
      ...(as === 'member' ? [editScheduled(as, as, 3, { emptyTopic: 0 }), changeOwnSetting(as, receiving, 0)] : as === 'other' ? [typing(as, false, 0, 'start')] : []),
      // Round 3: each flag taken away while the others stay.
      updateFlags(as, 'remove', 'read', [0, 5, 6], true),
      updateFlags(as, 'remove', 'starred', [3]),
      updateFlags(as, 'remove', 'collapsed', [4]),
      editScheduled(as, as, 0, { move: { name: 0 }, topic: 1 }),
      ...(as === 'member' ? [editScheduled(as, as, 3, { emptyTopic: 1 }), editScheduled(as, as, 1, { long: { field: 'content', over: 0, unit: 3 } })] : []),
      // Round 4: more than a hundred IDs (one message a hundred times, then others): every one is changed.
      updateFlags(as, 'add', 'collapsed', [...Array<number>(100).fill(1), 2, 0, 6]),
      updateFlags(as, 'remove', 'starred', [5]),
      ...(as === 'member' ? [editScheduled(as, as, 3, { emptyTopic: 2 }), editScheduled(as, as, 2, { long: { field: 'content', over: 2, unit: 0 } }), editScheduled(as, as, 0, { long: { field: 'topic', over: 0, unit: 3, atLimit: true } })] : []),
      // Round 5.
      updateFlags(as, 'remove', 'collapsed', [...Array<number>(100).fill(2), 3, 1, 6]),
      ...(as === 'member' ? [editScheduled(as, as, 3, { emptyTopic: 3 }), editScheduled(as, as, 0, { long: { field: 'topic', over: 0, unit: 3 } }), editScheduled(as, as, 1, { long: { field: 'content', over: 0, unit: 2, atLimit: true } })] : []),
      withUnsupported(deleteScheduled(as, as, 2), /^DELETE \/scheduled_messages\//, as !== 'other'),
    ]),
    // The third channel: the member and the other leave it (its messages read), remove read from
    // them (skipped, the channel listed) and from others, set and take away other flags on them;
    // the administrator sets the defaults meanwhile: every value of each, three at once, values
    // outside them, and the settings the level lacks; and makes the profile fields: each type, types
    // outside them, an option without order, the summary's limit and its types, a summary field
    // deleted and its place taken, a field without a name and one without a type.
    packed((as) => as === 'admin'
      ? [
        ...ACTORS.map((role, index) => changeOwnSetting(role, 2, index)),
        changeOwnSetting('member', 3, 2),
        // Refused, each: a value outside its setting's values (beside a valid change or alone).
        ...[0, 1, 2, 3].map((value) => updateDefaults(as, [{ setting: 0, value, invalid: true }])),
        ...[0, 1, 2, 3].map((value) => updateDefaults(as, [{ setting: 2, value, invalid: true }, { setting: 1, value: 0, invalid: false }])),
        updateDefaults(as, [{ setting: 1, value: 0, invalid: true }]),
        ...[0, 1].map((value) => updateDefaults(as, [{ setting: 3, value, invalid: true }, { setting: 0, value, invalid: false }])),
        withUnsupported(createField(as, 2, true, 1, false), /^POST \/realm\/profile_fields$/, false),
        createField(as, 2, false, 0, true),
        createField(as, 1, false, 1, true),
        // Each way an option is spoilt, each type outside them (8 below level 151), and the types no other step makes.
        ...SPOILERS.map((spoiler) => createField(as, 1, false, 2, false, spoiler)),
        ...[2, 3, 4].map((outside) => createField(as, 1, false, outside, true)),
        createField(as, 3, false, 3, false),
        createField(as, 3, false, 5, false),
        createField(as, 3, true, 5, false),
        withUnsupported(createField(as, 0, false, 7, false), /^POST \/realm\/profile_fields$/),
        createField(as, 0, true, 0, false),
        createField(as, 1, true, 2, false),
        createField(as, 2, true, 4, false),
        createField(as, 2, true, 0, false),
        createField(as, 3, true, 0, false),
        createField(as, 4, true, 0, false),
        deleteField(0, true),
        createField(as, 4, true, 0, false),
        createField(as, 0, false, 0, false, null, 'name'),
        createField(as, 1, false, 0, false, null, 'type'),
        // Refused, each beside a valid change: a boolean's 0 and 1, an integer's fraction and boolean, each enumeration's value outside it.
        badDefault('bool', 0, '0'), badDefault('bool', 0, '1'), badDefault('int', 0, '1.5'), badDefault('int', 0, 'true'),
        ...Array.from({ length: 16 }, (_, place) => badDefault('enum', place)),
        // Every setting of the four tables at once, each value of each in one of the rounds, with the settings the level lacks.
        ...Array.from({ length: EVERY_DEFAULT_ROUNDS }, (_, round) => everyDefault(round)),
        updateDefaults(as, [{ setting: 2, value: 0, invalid: false }, { setting: 0, value: 1, invalid: false }], true),
        // A user created now starts with the defaults as they are.
        newUser(),
      ]
      : [
        updateFlags(as, 'add', 'starred', [4, 5]),
        membership(as, true),
        updateFlags(as, 'remove', 'read', [4, 0, 5, 4]),
        updateFlags(as, 'remove', 'read', [1]),
        updateFlags(as, 'add', 'collapsed', [5]),
        updateFlags(as, 'remove', 'starred', [4, 6]),
      ]),
    // Sent while they are away: not received.
    packed((as) => (as === 'admin' ? [sendMessage(as, [], false, null, true)] : [])),
    // Starred by them, it enters their history as historical; they join again and remove read from
    // it and another (the administrator stays: it sent the message).
    packed((as) => (as === 'admin' ? [] : [updateFlags(as, 'add', 'starred', [-1]), membership(as, false), updateFlags(as, 'remove', 'read', [5, -1])])),
    // What comes due, with the reference clock: the member's most edited message sent, the next
    // failed, the one after deleted; each other actor's first sent; a reminder of each actor's, with
    // each note and without one; the delete of a message deleted before.
    packed((as, index) => [
      ...(as === 'member' ? [comeDue(as, 0, 'sent'), comeDue(as, 0, 'failed'), comeDue(as, 0, 'deleted'), deleteScheduled(as, 'deleted', 0)] : [comeDue(as, 0, 'sent')]),
      // (Without a note, the administrator's names only the unsupported parameter: below level 415 a note is one too.)
      index === 2 ? withUnsupported(remind(as, index, null), /^POST \/reminders$/) : remind(as, index, index),
    ]),
    // Requests at once: the same flag by two actors on one message, and an edit and a delete of one message.
    new Command([updateFlags('member', 'add', 'collapsed', [0]), updateFlags('other', 'add', 'collapsed', [0]), editScheduled('admin', 'admin', 0, { text: 0 })]),
    new Command([createDrafts('member', [draft(1, 0, 0, 0)], null), deleteDraft('other', 'member', 0), editScheduled('other', 'other', 0, { text: 0 }), deleteScheduled('other', 'other', 0)]),
  ];
}

/** The pool of one run: a channel of the three actors, and a message of each in one topic. */
function poolOf(context: Context): Promise<Pool> {
  return context.memo('organization-pool', async () => {
    const channel = await createChannel(context, 'organization', ['member', 'other', 'admin']);
    const marker = context.token('organization');
    const fieldMarker = context.token('organization-field');
    const second = await createChannel(context, 'organization-2', ['member', 'other', 'admin']);
    const third = await createChannel(context, 'organization-3', ['member', 'other', 'admin']);
    // The server's time of a message sent now: no draft of the model can be stamped before it.
    const first = await send(context, 'member', channel, `${marker} the model begins`, 'organization');
    const since = Number((await readConversation(context, 'member', { channel: channel.id, topic: 'organization' }, 10)).find((message) => message.id === first)?.timestamp);
    const ids = Object.fromEntries(ACTORS.map((as) => [as, context.probe.users[as].id])) as Record<Role, number>;
    const alertWords = {} as Record<Role, readonly string[]>;
    const synchronization = {} as Record<Role, unknown>;
    for (const as of ACTORS) {
      const state = await fetchState(context, as, ['alert_words', 'user_settings']);
      alertWords[as] = (state.alert_words ?? []).filter((word: unknown) => typeof word === 'string' && /^[\p{L}\p{N}]+$/u.test(word));
      synchronization[as] = state.user_settings?.enable_drafts_synchronization;
      // Switched off and on again by the model: put back as it was, whatever a lost answer left.
      if (typeof synchronization[as] === 'boolean') context.putBack(`restore ${as}'s enable_drafts_synchronization=${synchronization[as]}`, { as, method: 'PATCH', path: '/settings', params: { enable_drafts_synchronization: synchronization[as] as boolean } });
    }
    const queues = {} as Record<Role, Queue>;
    // Declaring channel typing notifications, which Zulip sends only to queues that understand them.
    for (const as of ACTORS) queues[as] = await registerQueue(context, as, null, { stream_typing_notifications: true });
    context.cleanup.atEnd('delete the organization model\'s event queues', async () => {
      for (const queue of Object.values(queues)) await queue.remove();
    });
    return { channel, second, third, thirdMessages: new Set<number>(), directMessages: new Set<number>(), ids, marker, fieldMarker, queues, since, level: context.level, uploaders: await uploaders(context), emptyTopicDisplayName: context.probe.emptyTopicDisplayName, maxMessageLength: context.probe.maxMessageLength, maxTopicLength: context.probe.maxTopicLength, delivered: new Set<number>(), openScheduled: new Set<number>(), alertWords, synchronization, switchedSynchronization: false };
  });
}

/** What a sequence made is removed, and the defaults it changed put back, as the end of the run would. */
async function removeWhatWasMade(context: Context, model: Organization, pool: Pool): Promise<void> {
  // Those a lost step left open, whoever's: deleting one that was sent or is another's is refused, and changes nothing.
  for (const id of pool.openScheduled) for (const as of ACTORS) await context.cleanup.request(`delete scheduled message ${id}`, () => context.call(as, 'DELETE', `/scheduled_messages/${id}`));
  pool.openScheduled.clear();
  for (const as of ACTORS) {
    for (const draft of model.drafts[as]) await context.cleanup.request(`delete draft ${draft.id}`, () => context.call(as, 'DELETE', `/drafts/${draft.id}`));
    for (const item of model.scheduled[as]) await context.cleanup.request(`delete scheduled message ${item.id}`, () => context.call(as, 'DELETE', `/scheduled_messages/${item.id}`));
  }
  for (const field of model.fields) await context.cleanup.request(`delete profile field ${field.id}`, () => context.call('admin', 'DELETE', `/realm/profile_fields/${field.id}`));
  for (const name of model.emoji.values()) {
    await context.cleanup.request(`remove custom emoji ${name}`, async () => {
      const response = await context.call('admin', 'DELETE', `/realm/emoji/${encodeURIComponent(name)}`);
      if (response.body?.result === 'success') context.cleanup.leftBehind(`custom emoji, deactivated (named with ${context.prefix}; GET /realm/emoji lists them with deactivated: true)`);
      return response;
    });
  }
}

/**
 * The rules whose smoke boundary cases the model's smoke form holds (everyOperationInSmoke): in a
 * smoke run with the model, the model's verdict is theirs, and their own checks run only where it
 * does not pass (suite.ts). A rule is here only where every boundary case its own smoke check sends
 * is among the smoke form's steps, at every level, in every dialect; one whose steps need the
 * reference clock only where the target has it.
 */
function heldInSmoke(context: Context): RuleId[] {
  const clock = context.deliveryState.mode === 'clock';
  return [
    // Each kind of draft, equal drafts in a batch, each refused batch (member), another's draft
    // refused, a draft equal to an earlier one, synchronization switched off (where it can be).
    'drafts.create-returns-ids-in-order', 'drafts.created-drafts-read-back', 'drafts.timestamp-filled-when-absent', 'drafts.channel-draft-needs-one-channel',
    'drafts.null-bytes-rejected', 'drafts.type-must-be-listed', 'drafts.required-fields', 'drafts.field-types', 'drafts.drafts-parameter-optional',
    'drafts.event-to-other-clients', 'drafts.sync-off-deletes-drafts', 'drafts.sync-off-sends-no-event',
    // Both kinds, each edit and each refused edit, another's refused, the empty topic's names, each limit at it and past it.
    'scheduled.edits-follow-model', 'scheduled.type-values', 'scheduled.type-synonyms', 'scheduled.to-required-on-type-change', 'scheduled.to-matches-type',
    'scheduled.topic-required-on-change-to-channel', 'scheduled.required-topic-not-empty', 'scheduled.topic-ignored-for-direct', 'scheduled.empty-topic-names',
    'scheduled.empty-topic-valid-since-334', 'scheduled.empty-topic-invalid-before-334', 'scheduled.no-topic-ordinary-before-370', 'scheduled.content-limit',
    'scheduled.topic-limit', 'scheduled.missing-channel-error', 'scheduled.invalid-user-error', 'scheduled.own-messages-only', 'scheduled.delete-missing-error',
    'scheduled.delete-removes', 'scheduled.missing-message-error',
    // What comes due: sent, failed, deleted before, edited before (the reference clock's).
    // (From level 184, where a scheduled message can be edited and so moved to come due soon: two of these rules begin at 173.)
    ...(clock && context.level >= 184 ? ['scheduled.sent-at-its-time', 'scheduled.delivered-as-edited', 'scheduled.deleted-never-sent', 'scheduled.failed-needs-timestamp'] as RuleId[] : []),
    ...(clock ? ['reminders.create-returns-id', 'reminders.delivered-to-self', 'reminders.sent-at-its-time', 'reminders.note-delivered', 'reminders.note-absent-before-415'] as RuleId[] : []),
    // Each refused request, flags outside the table, mentions in each form, everyone, alert words in each casing, the third channel left and joined again.
    'flags.required-parameters', 'flags.op-add-or-remove', 'flags.only-changeable-flags', 'flags.response-lists-only-modified', 'flags.ignored-channels-listed',
    'flags.ignored-channels-only-for-read-remove', 'flags.ignored-channels-absent-before-355', 'flags.mention-flags',
    'flags.wildcard-mentioned-before-224', 'flags.alert-word-flag', 'flags.historical-flag',
    // Each changeable flag set and taken away on a message of the channel, of one left, of one never received, and a direct one; more than a hundred at once.
    // (Not the wildcard mentions' flags: the smoke form sends @**all** alone, and no topic wildcard.)
    'flags.add-sets-flag', 'flags.remove-clears-flag', 'flags.response-lists-modified', 'flags.remove-read-skips-unsubscribed', 'flags.unread-only-in-subscribed-channels', 'flags.model-sequence',
    // Every setting of the four tables at once, each of its values in a round, with the settings the level lacks; a boolean's
    // 0 and 1, an integer's fraction and boolean, each enumeration's value outside it; the defaults' changes by a member refused;
    // every user's own settings after each; a user created after they changed.
    'defaults.values-stored', 'defaults.existing-users-unchanged', 'defaults.value-types', 'defaults.enum-values', 'defaults.settings-at-their-levels',
    'defaults.updates-follow-model', 'defaults.new-users-get-defaults', 'general.admin-only',
    // Each field type made, each outside them refused, each way a List of options is spoilt, the summary's limit and types and a
    // summary field deleted and its place taken, a field without a name or a type.
    'fields.create-returns-id', 'fields.field-type-required', 'fields.field-type-values', 'fields.select-options', 'fields.summary-limit', 'fields.summary-types',
    // (Not the flags a level lacks: the smoke form sends neither required nor editable_by_user.)
    'fields.summary-count-follows-model', 'fields.name-optional',
    // Names apart and equal by case and underscores, each character outside the alphabet and each kind inside it, before the
    // token and after, an empty name, each body refused, the size limit, who may upload.
    'emoji.upload-stores', 'emoji.upload-access', 'emoji.name-characters', 'emoji.name-alphabet', 'emoji.name-case-ignored', 'emoji.underscores-are-spaces',
    'emoji.one-file-part', 'emoji.size-limit',
    // Every operation, valid and refused, each answer's envelope judged; each on the actor's own data, every other actor's
    // seen through every path after it; each with an unsupported parameter and without (a reminder only where the clock lets it be made).
    ...(clock || context.level < 381 ? ['general.envelope', 'general.own-data-only', 'general.ignored-parameters-listed', 'general.ignored-parameters-absent-before-167'] as RuleId[] : []),
    // A direct message, as each actor finds it first.
    'flags.messages-start-unread',
    // Typing to those who receive it and to one who does not.
    'typing.only-to-receivers', 'typing.reaches-receivers',
  ];
}

/** The rules a failure of the model proves broken (fail): each that one of its predictions came from alone. */
export const namedByModel = (message: string): string[] => /\(the model's prediction comes from [^;)]*; broken alone: ([^)]*)\)/.exec(message)?.[1]?.split(', ') ?? [];

const mustChecks: Check[] = [
  // Its smoke form yields to the per-rule checks it does not hold: where the budget has no room for all, it is the one not begun.
  { ...check('organization.model', runModel, ['channel'], ['organization defaults', 'profile fields', 'profile users\' settings', 'typing among the profile users']), yieldsInSmoke: true, holdsInSmoke: heldInSmoke, namedBy: namedByModel },
];

async function runModel(context: Context): Promise<void> {
  const pool = await poolOf(context);
  // The defaults the model may change are put back at the end of the run, compare-and-set.
  if (context.level >= 96) {
    const original = pick((await fetchState(context, 'admin', ['realm_user_settings_defaults'])).realm_user_settings_defaults ?? {}, context.level);
    context.putBack('restore the organization\'s settings defaults', { as: 'admin', method: 'PATCH', path: '/realm/user_settings_defaults', params: original as ParamList });
    // And each actor's own values of them, which the model sets too.
    for (const as of ACTORS) {
      const own = pick((await fetchState(context, as, ['user_settings'])).user_settings ?? {}, context.level, SETTINGS.map(([name]) => name));
      context.putBack(`restore ${as}'s own settings`, { as, method: 'PATCH', path: '/settings', params: own as ParamList });
    }
  }
  const boundaries = [fc.constant(context.options.smoke ? everyOperationInSmoke() : everyOperationByEveryActor())];
  await context.property(fc.commands([commandArbitrary], { maxCommands: 12 }), async (commands) => {
    // Emoji names of this sequence alone: a name deactivated before (by an earlier sequence's clean-up) is free or not as a server decides.
    const emojiBase = `${context.prefix}o${context.serial('organization emoji')}`;
    // Messages of the sequence's own, in a topic of its own in each channel, every actor subscribed to both: what
    // earlier sequences sent (and other clients beside them) never crowds them out of the topic's newest hundred.
    const topic = `organization ${context.serial('organization topic')}`;
    for (const as of await readLeft(context, pool)) succeeded(await context.call(as, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: pool.third.name }] }, { repeatable: true }), `POST /users/me/subscriptions ${pool.third.name} as ${as}`);
    const messages: number[] = [];
    // Each told apart by its text, so that one whose answer a transient fault lost is found, not sent twice.
    for (const [index, as] of (['member', 'other', 'admin', 'other'] as const).entries()) messages.push(await sendSurely(context, as, pool.channel, `${pool.marker} message ${index} of ${as}`, topic));
    for (const as of ['member', 'admin'] as const) {
      const id = await sendSurely(context, as, pool.third, `${pool.marker} message of ${as} in the third channel`, topic);
      pool.thirdMessages.add(id);
      messages.push(id);
    }
    // And a direct message of other's to the two others: every actor's flags on it (a conversation read on its own).
    const direct = await sendSurely(context, 'other', [pool.ids.member, pool.ids.admin], `${pool.marker} direct message (${topic})`, topic);
    pool.directMessages.add(direct);
    messages.push(direct);
    const model: ModelState = { state: fromWorld(await readWorld(context, pool, true, emojiBase, topic), [], messages, emojiBase, topic), pool };
    // A message starts unread, for its recipients and for its sender alike: the direct one, as each actor finds it.
    const readAtOnce = ACTORS.filter((as) => model.state.flags[as].get(direct)?.has('read') !== false);
    if (readAtOnce.length > 0) fail([{ rules: ['flags.messages-start-unread'], text: readAtOnce.map((as) => `${as} finds the direct message ${direct} ${model.state.flags[as].has(direct) ? 'read' : 'nowhere in the conversation'}`).join('; ') }], `other sends a direct message to member and admin (${direct})`);
    // What the queues heard before (the last sequence's clean-up) is not this sequence's.
    for (const as of ACTORS) await pollEvents(context, as, pool.queues[as], () => true, 0);
    try {
      await modelRun(context, model, commands as Iterable<fc.AsyncCommand<ModelState, Context>>, async (state) => {
        // What the queues heard up to now belongs to the steps before: a lost poll leaves its events to the next.
        for (const as of ACTORS) await pollEvents(context, as, pool.queues[as], () => true, 0);
        // What a lost step of the clock's left due soon (a scheduled message, a reminder) comes due now, and
        // what is then sent is nobody's later delivery; a message it left failed, or due, is open from now on.
        let now: number | null = null;
        if (context.deliveryState.mode === 'clock') {
          now = await advanceClock(context, DUE_IN + 120, true, { orMore: true });
          for (const as of ACTORS) for (const message of await recentMessages(context, as, 50)) pool.delivered.add(message.id);
        }
        // A message a lost request may have sent is found by the marker it carries, and followed from then on.
        const world = await readWorld(context, pool, true, emojiBase, state.state.topic);
        for (const as of ACTORS) {
          for (const item of world.scheduled[as]) if (now !== null && item.at <= now + DAY) pool.openScheduled.add(item.id);
          world.scheduled[as] = world.scheduled[as].filter((item) => !pool.openScheduled.has(item.id));
        }
        state.state = fromWorld(world, await readLeft(context, pool), [...new Set([...state.state.messages, ...world.flags.member.keys()])].sort((a, b) => a - b), emojiBase, state.state.topic, state.state.deletedScheduled, state.state.openFlags);
      });
    } finally {
      await removeWhatWasMade(context, model.state, pool);
    }
  }, { runs: context.options.runs, boundaries: boundaries as never });
}

export const ORGANIZATION_CHECKS: readonly Check[] = mustChecks;
