// The two sides of a rule's example, one case each: the exchanges of the check's set-up the case
// needs, then the case's own, each step in its role (set-up, the request the rule is about, the
// observation its verdict turns on), and the step where the two sides part.

import type { Exchange } from '../run/client.js';
import { ID_KEY, formValue, pathOf, pairSequences, type PairedStep } from './compare.js';
import type { Rule } from '../rules.js';
import { isSpecOperation } from '../spec.js';

/** One side: the exchanges of the check's set-up the case needs, then the case's own. */
export interface Side {
  readonly prelude: Exchange[];
  /** Exchanges of the check's set-up left out: they made nothing the case uses. */
  readonly preludeLeftOut: number;
  readonly steps: Exchange[];
  /** Steps of the case after those shown, left out (the annotated spec keeps a few past the parting). */
  readonly stepsLeftOut?: number;
}

export interface RuleExamples {
  /** The case, as fast-check prints it, that the failing side shrank to. */
  readonly input: string | null;
  readonly passing: Side | null;
  readonly failing: (Side & { readonly message: string; readonly fault: string }) | null;
}

/** Where a rule's fault shows, when not everywhere: a level, a dialect. */
export interface FaultPlace {
  readonly level?: number;
  readonly dialect?: string;
}

/** The level a rule is shown at: its fault's, else the last it applies at, else the reference's own. */
export const exampleLevel = (rule: Rule, fault: FaultPlace = {}): number | undefined => fault.level ?? (rule.before !== undefined ? rule.before - 1 : undefined);

/** What an exchange is to the rule: making what the case needs, the request the rule is about, or reading what came of it. */
export type StepRole = 'set-up' | 'request' | 'observation';

/** The path of each area's operations, whose requests a rule of the area is about. */
const AREA_PATHS: Record<string, string> = {
  drafts: '/drafts', flags: '/messages/flags', scheduled: '/scheduled_messages', reminders: '/reminders',
  emoji: '/realm/emoji', fields: '/realm/profile_fields', defaults: '/realm/user_settings_defaults', typing: '/typing',
};

/** The spec's operations by the number its Endpoints section gives them. */
const ENDPOINTS: Record<string, string> = {
  1: 'PATCH /realm/user_settings_defaults', 2: 'PATCH /scheduled_messages/', 3: 'DELETE /scheduled_messages/', 4: 'POST /realm/profile_fields',
  5: 'POST /drafts', 6: 'POST /messages/flags', 7: 'POST /reminders', 8: 'POST /realm/emoji/',
};

/**
 * The requests a rule is about: the spec's operations its section names ("Endpoints 3"), else
 * the spec's operations of its area, else its area's requests that change something (typing),
 * else any request that changes something.
 */
export function operationsOf(rule: Rule, exchanges: readonly Exchange[]): Exchange[] {
  const changes = exchanges.filter((item) => item.method !== 'GET' && !/\/(register|events)$/.test(pathOf(item.url)) && !pathOf(item.url).startsWith('/reference/'));
  const path = AREA_PATHS[rule.id.split('.')[0]!];
  const area = path ? changes.filter((item) => pathOf(item.url).startsWith(path)) : changes;
  const spec = area.filter((item) => isSpecOperation(item.method, item.url));
  const named = [...rule.section.matchAll(/Endpoints (\d)/g)].map((match) => ENDPOINTS[match[1]!]!);
  const ofSection = spec.filter((item) => named.some((operation) => `${item.method} ${pathOf(item.url)}`.startsWith(operation)));
  for (const found of [ofSection, spec, area, changes]) if (found.length > 0) return found;
  return [];
}

/** Each step's role: the rule's operations are the request; what comes before the first is set-up, what comes after, observation. */
export function rolesOf(rule: Rule, steps: readonly Exchange[]): StepRole[] {
  const operations = new Set(operationsOf(rule, steps));
  const first = steps.findIndex((step) => operations.has(step));
  return steps.map((step, index) => (operations.has(step) ? 'request' : first < 0 || index < first ? 'set-up' : 'observation'));
}

/** The IDs a request uses: its path's numeric segments and the numbers its parameters give under an ID's name. */
export function idsUsed(exchange: Exchange): string[] {
  const used = pathOf(exchange.url).split('/').filter((segment) => /^\d+$/.test(segment));
  const walk = (value: unknown, key: string): void => {
    if (ID_KEY.test(key) && ((typeof value === 'number' && Number.isInteger(value) && value > 0) || (typeof value === 'string' && /^\d+$/.test(value)))) used.push(String(value));
    else if (Array.isArray(value)) value.forEach((entry) => walk(entry, key));
    else if (value !== null && typeof value === 'object') {
      // An unaddressed draft's `to` names nothing: the spec has it ignored.
      for (const [name, entry] of Object.entries(value)) if (!(name === 'to' && (value as { type?: unknown }).type === '')) walk(entry, name);
    }
  };
  // last_event_id is a place in a queue, which the queue's own answers gave, not an object's ID.
  for (const [name, text] of exchange.form) if (name !== 'last_event_id') walk(formValue(text), name);
  return used;
}

/** The numbers an answer gives, as text. */
const idsGiven = (exchange: Exchange) => new Set(JSON.stringify(exchange.body ?? '').match(/(?<![\w.])\d+(?![\w.])/g) ?? []);

/**
 * The exchanges of the check's set-up the case needs: those whose answers give an ID a later
 * exchange uses (the case's, or a set-up's kept before it).
 */
export function neededPrelude(prelude: readonly Exchange[], steps: readonly Exchange[]): Exchange[] {
  const wanted = new Set(steps.flatMap(idsUsed));
  const kept: Exchange[] = [];
  for (let index = prelude.length - 1; index >= 0; index--) {
    const exchange = prelude[index]!;
    const given = idsGiven(exchange);
    if (exchange.method === 'GET' || ![...wanted].some((id) => given.has(id))) continue;
    kept.unshift(exchange);
    for (const id of idsUsed(exchange)) wanted.add(id);
  }
  return kept;
}

export const sideOf = (prelude: readonly Exchange[], steps: readonly Exchange[]): Side => {
  const kept = neededPrelude(prelude, steps);
  return { prelude: kept, preludeLeftOut: prelude.length - kept.length, steps: [...steps] };
};

/**
 * The two sides step by step, and the first step where they part (null when they do not): the
 * first request or observation that differs, a step of one side alone that only reads aside. Set-up
 * may differ (one side made once what the other had made before) without the sides parting.
 */
export function parting(passing: Side, failing: Side, rule?: Rule): { readonly steps: PairedStep[]; readonly at: number | null } {
  const ids = new Map<string, string>();
  pairSequences(passing.prelude, failing.prelude, ids);
  const steps = pairSequences(passing.steps, failing.steps, ids);
  const roles = new Map<Exchange, StepRole>();
  if (rule) for (const side of [passing, failing]) rolesOf(rule, side.steps).forEach((role, index) => roles.set(side.steps[index]!, role));
  const at = steps.findIndex((step) => step.differences.length > 0 && roles.get((step.a ?? step.b)!) !== 'set-up'
    && !((step.a === null || step.b === null) && (isRead(step.a) || isRead(step.b))));
  return { steps, at: at < 0 ? null : at };
}

/** A step of one side alone that only reads (a listing, a queue, the reference clock's time): the other side read it earlier, or needed not. */
const isRead = (exchange: Exchange | null) => exchange !== null && (exchange.method === 'GET' || /\/(register|events)$/.test(pathOf(exchange.url))
  || (pathOf(exchange.url) === '/reference/clock' && exchange.form.some(([name, value]) => name === 'advance_seconds' && Number(value) === 0)));


/** Each step of the example, the two sides paired where they are alike, with its role and how the sides differ there. */
export function exampleSteps(rule: Rule, passing: Side | null, failing: Side | null): { readonly steps: Array<PairedStep & { readonly role: StepRole }>; readonly at: number | null } {
  const roleMap = new Map<Exchange, StepRole>();
  for (const side of [passing, failing]) {
    if (!side) continue;
    const roles = rolesOf(rule, side.steps);
    side.steps.forEach((step, index) => roleMap.set(step, roles[index]!));
  }
  const paired = passing && failing ? parting(passing, failing, rule) : { steps: (passing ?? failing)!.steps.map((step) => ({ a: passing ? step : null, b: passing ? null : step, differences: [] })), at: null };
  return { steps: paired.steps.map((step) => ({ ...step, role: roleMap.get((step.a ?? step.b)!) ?? 'observation' })), at: paired.at };
}
