// The differences of a differential run (--compare): the same rules, the same seed, against the target and a second
// server, each in a run of its own (its prefix, its IDs, its clock, its lease), and every way the
// two behave differently, each named by the catalog:
//
// - must: a must rule one side breaks (which side, the rule, its counterexample);
// - decision: an open point the two decide differently (a decision's verdicts differ, or the
//   exchanges differ where a decision governs: each side's choice, and which is Zulip's);
// - level: a rule that applies at one side's feature level and not the other's;
// - unclassified: a difference no rule covers, with both exchanges: a candidate for the spec
//   discussion (docs/ambiguities.md).
//
// Exchanges are compared as a reader would (report/compare.ts): the run's prefix and times aside,
// one side's IDs read as the other's. Noise is learnt, as Twitter's Diffy learns it: the target is
// checked a second time, with the same seed, on the rules whose exchanges differ, and a difference
// it shows between its own two runs is not reported between the servers.

import type { Exchange } from '../run/client.js';
import { alignedSteps, learnSequences, pairCache, pairSequences, requestKey, type Difference as FieldDifference, type Ids } from './compare.js';
import type { Report } from './json.js';
import { GOVERNS, ruleById, type RuleId } from '../rules.js';
import type { RuleResult } from '../run/harness.js';

export type DifferenceClass = 'must' | 'decision' | 'level' | 'unclassified';
export const CLASSES: readonly DifferenceClass[] = ['must', 'decision', 'level', 'unclassified'];

/** Which server: the target (`--target`, or the embedded reference) or the second one (`--compare`). */
export type SideName = 'target' | 'compare';

export interface Difference {
  readonly class: DifferenceClass;
  /** The rule whose verdict or whose check's exchanges differ. */
  readonly rule: RuleId;
  /** Of a must difference: the side that breaks the rule. */
  readonly side?: SideName;
  /** Of a must difference the breaking side's expectations file lists (--expect): its entry, why that server is known to fail it. */
  readonly expected?: string;
  /** Of a decision difference: the open points that govern it. */
  readonly decisions?: RuleId[];
  /** Each side's verdict of the rule, or its behaviour where the exchanges differ. */
  readonly target: string;
  readonly compare: string;
  /** Of a decision: which side decides as Zulip at its level ('neither' where both differ from it, 'unknown' where no verdict tells). */
  readonly zulip?: SideName | 'neither' | 'unknown';
  /** Where the exchanges part: the fields that differ, as `status`, `body.msg`, `form.to`. */
  readonly at?: string[];
  /** Both servers' exchanges: up to the step where they part, and that step. */
  readonly exchanges: { readonly target: Exchange[]; readonly compare: Exchange[] };
}

export interface DifferentialReport extends Report {
  readonly compare: {
    readonly target: string;
    readonly feature_level: number | null;
    readonly zulip_version: string | null;
    readonly run_prefix: string;
    readonly reference: Report['reference'];
    readonly summary: Report['summary'];
    readonly requests: number;
    readonly rules: ReadonlyArray<{ readonly id: string; readonly status: string; readonly message: string }>;
  };
  readonly differences: Difference[];
  /** What the target's second run told apart as noise, and the requests it took. */
  readonly noise: { readonly rules_checked_again: string[]; readonly differences_ignored: number; readonly requests?: number };
}


const glob = (pattern: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/** The decisions that govern a difference at this field of an answer to this request. */
export function governing(request: string, at: string): RuleId[] {
  const found: RuleId[] = [];
  for (const [id, places] of Object.entries(GOVERNS)) {
    if (places!.some((place) => glob(place.requests).test(request) && glob(place.at).test(at))) found.push(id as RuleId);
  }
  return found;
}

/**
 * The decisions of the catalog that govern a field where the two runs' exchanges differ, and that
 * neither run checked (a run of some rules, --only, --shard, --smoke): the class of a difference is
 * the catalog's, so they are checked on both sides before the differences are named.
 */
export function decisionsToConsult(target: Report, compare: Report, noise: ReadonlySet<string> = new Set()): RuleId[] {
  const run = new Set(target.rules.map((result) => result.id as string));
  const theirs = new Map(compare.rules.map((result) => [result.id, result]));
  const known = correspondence(target, compare);
  const wanted = new Set<RuleId>();
  for (const ours of target.rules) {
    const other = theirs.get(ours.id);
    if (!other || ours.status !== 'pass' || other.status !== 'pass') continue;
    const parted = exchangeDifferences(ours.exchanges ?? [], other.exchanges ?? [], noise, ours.id, known)[0];
    for (const field of parted?.fields ?? []) for (const id of governing(parted!.request, field.at)) if (!run.has(id)) wanted.add(id);
  }
  return [...wanted];
}

type StepDifferences = Array<{ index: number; request: string; fields: FieldDifference[] }>;

/** Each pair of one rule's two runs, compared once: by the two lists of exchanges and the IDs known when they were. */
const compared = pairCache<readonly Exchange[], readonly Exchange[], { known: Ids; steps: StepDifferences }>();

/** The differences of two runs of one rule's check, step by step, that the noise does not explain. */
function exchangeDifferences(a: readonly Exchange[], b: readonly Exchange[], noise: ReadonlySet<string>, rule: string, known: Ids = new Map()): StepDifferences {
  let done = compared.get(a, b);
  if (!done || done.known !== known) {
    const steps: StepDifferences = [];
    pairSequences(a, b, new Map(known), { oneWait: true }).forEach((step, index) => {
      // What the suite sent follows from what it was answered before: only answers are the servers' doing.
      if (step.a === null || step.b === null) return;
      const fields = step.differences.filter((field) => field.at === 'status' || field.at.startsWith('body'));
      if (fields.length > 0) steps.push({ index, request: requestKey(step.a), fields });
    });
    done = compared.set(a, b, { known, steps });
  }
  if (noise.size === 0) return done.steps;
  return done.steps.map((step) => ({ ...step, fields: step.fields.filter((field) => !noise.has(`${rule}|${step.request}|${field.at}`)) })).filter((step) => step.fields.length > 0);
}

/** The noise of one rule: every difference between two runs of it against the same server, by request and field. */
export function noiseOf(first: RuleResult, second: RuleResult, known: Ids = new Map()): Set<string> {
  const noise = new Set<string>();
  for (const { request, fields } of exchangeDifferences(first.exchanges ?? [], second.exchanges ?? [], new Set(), first.id, known)) {
    for (const field of fields) noise.add(`${first.id}|${request}|${field.at}`);
  }
  return noise;
}

const verdict = (result: RuleResult | undefined) => (result ? `${result.status}${result.message ? `: ${result.message}` : ''}` : 'not run');

/** The exchanges shown for a difference: the step where the sides part and the two before it, of each side. */
function shownAround(a: readonly Exchange[], b: readonly Exchange[], index: number): { target: Exchange[]; compare: Exchange[] } {
  const steps = alignedSteps(a, b, true).slice(Math.max(0, index - 2), index + 1);
  return { target: steps.flatMap((step) => (step.a ? [step.a] : [])), compare: steps.flatMap((step) => (step.b ? [step.b] : [])) };
}

/**
 * Every difference between the target's run and the second server's: the verdicts first (must,
 * decision, level), then, for rules whose verdicts agree, the first step where their exchanges part
 * beyond the noise, classed by the decisions that govern it.
 */
export function differencesOf(target: Report, compare: Report, noise: ReadonlySet<string> = new Set()): Difference[] {
  const found: Difference[] = [];
  const theirs = new Map(compare.rules.map((result) => [result.id, result]));
  const known = correspondence(target, compare);
  const levelsDiffer = target.feature_level !== compare.feature_level;
  // The decisions the two decide differently by their own checks: of the ones that govern a place, those are named.
  const decidedOtherwise = new Set(target.rules.filter((ours) => ruleById(ours.id)?.severity === 'decision' && theirs.get(ours.id) !== undefined && (ours.status === 'fail') !== (theirs.get(ours.id)!.status === 'fail')).map((ours) => ours.id as string));
  for (const ours of target.rules) {
    const other = theirs.get(ours.id);
    if (!other) continue;
    const rule = ruleById(ours.id)!;
    const both = { target: verdict(ours), compare: verdict(other) };
    const atLevel = (result: RuleResult) => result.status === 'skip' && result.skipped === 'level';
    if (atLevel(ours) !== atLevel(other)) {
      found.push({ class: 'level', rule: ours.id, ...both, exchanges: { target: (ours.exchanges ?? []).slice(0, 3), compare: (other.exchanges ?? []).slice(0, 3) } });
      continue;
    }
    const fails = (result: RuleResult) => result.status === 'fail';
    if (fails(ours) !== fails(other) && ours.status !== 'error' && other.status !== 'error' && ours.status !== 'skip' && other.status !== 'skip') {
      const failing = fails(ours) ? ours : other;
      // The failing side's counterexample, and as many of the other side's first exchanges.
      const failingExchanges = (fails(ours) ? ours : other).counterexample?.exchanges ?? [];
      const passingExchanges = ((fails(ours) ? other : ours).exchanges ?? []).slice(0, Math.max(3, failingExchanges.length));
      const exchanges = { target: fails(ours) ? failingExchanges : passingExchanges, compare: fails(other) ? failingExchanges : passingExchanges };
      if (rule.severity === 'must') found.push({ class: 'must', rule: ours.id, side: failing === ours ? 'target' : 'compare', ...both, exchanges });
      else found.push({ class: 'decision', rule: ours.id, decisions: [ours.id], ...both, zulip: fails(ours) ? 'compare' : 'target', exchanges });
      continue;
    }
    if (ours.status !== 'pass' || other.status !== 'pass') continue;
    const parted = exchangeDifferences(ours.exchanges ?? [], other.exchanges ?? [], noise, ours.id, known)[0];
    if (!parted) continue;
    // Each field that differs is an open point's where a decision that governs it is one the two
    // servers decide otherwise by its own check; a field no such decision governs, no rule covers.
    // One side takes the request, the other refuses it: how the refusal is worded follows from that.
    const refusedOnOneSide = parted.fields.some((field) => field.at === 'body.result');
    const judged = refusedOnOneSide ? parted.fields.filter((field) => !['status', 'body.msg', 'body.code', 'body.var_name'].includes(field.at)) : parted.fields;
    const told = (field: FieldDifference) => governing(parted.request, field.at).filter((id) => decidedOtherwise.has(id));
    const decisions = fewestCovering(judged.map((field) => told(field)));
    const uncovered = judged.filter((field) => told(field).length === 0);
    const kind: DifferenceClass = uncovered.length === 0 ? 'decision' : levelsDiffer ? 'level' : 'unclassified';
    const described = (side: 'a' | 'b') => `${parted.request}: ${parted.fields.map((field) => `${field.at} ${JSON.stringify(field[side]).slice(0, 120)}`).join(', ')}`;
    found.push({
      class: kind, rule: ours.id, ...(kind === 'decision' ? { decisions, zulip: 'unknown' as const } : {}),
      target: described('a'), compare: described('b'), at: parted.fields.map((field) => field.at),
      exchanges: shownAround(ours.exchanges ?? [], other.exchanges ?? [], parted.index),
    });
  }
  // A decision whose own verdicts differ tells which side decides as Zulip: its exchange differences say so too.
  const zulipOf = new Map(found.filter((difference) => difference.class === 'decision' && difference.zulip !== 'unknown').map((difference) => [difference.rule, difference.zulip!]));
  return found.map((difference) => {
    if (difference.class !== 'decision' || difference.zulip !== 'unknown') return difference;
    const sides = [...new Set(difference.decisions!.map((id) => zulipOf.get(id)).filter((side) => side !== undefined))];
    return sides.length === 1 ? { ...difference, zulip: sides[0]! } : difference;
  });
}

/**
 * What corresponds in the two runs as a whole: an ID one rule's check made (a channel made once
 * for the run) is used in another's. Every rule's exchanges are paired, twice, learning as they go.
 */
export function correspondence(target: Report, compare: Report): Ids {
  // Learnt once for two runs as they are; again once a run gains rules (the decisions consulted).
  const learnt = correspondences.get(target, compare);
  if (learnt && learnt.rules === target.rules.length + compare.rules.length) return learnt.ids;
  const ids: Ids = new Map();
  const theirs = new Map(compare.rules.map((result) => [result.id, result]));
  for (let pass = 0; pass < 2; pass++) {
    for (const ours of target.rules) learnSequences(ours.exchanges ?? [], theirs.get(ours.id)?.exchanges ?? [], ids, true);
  }
  return correspondences.set(target, compare, { rules: target.rules.length + compare.rules.length, ids }).ids;
}

const correspondences = pairCache<Report, Report, { rules: number; ids: Ids }>();

/**
 * The fewest decisions that cover every field (each field a list of the decisions that govern it):
 * at each turn those that cover the most fields not yet covered, all of them where several tie.
 */
export function fewestCovering(fields: ReadonlyArray<readonly RuleId[]>): RuleId[] {
  const chosen: RuleId[] = [];
  let left = fields.filter((field) => field.length > 0);
  while (left.length > 0) {
    const counts = new Map<RuleId, number>();
    for (const field of left) for (const id of field) counts.set(id, (counts.get(id) ?? 0) + 1);
    const most = Math.max(...counts.values());
    const best = [...counts.entries()].filter(([, count]) => count === most).map(([id]) => id);
    chosen.push(...best);
    left = left.filter((field) => !field.some((id) => best.includes(id)));
  }
  return chosen;
}

/** The rules whose exchanges differ while their verdicts agree: those the noise run looks at again. */
export function rulesToCheckAgain(target: Report, compare: Report): string[] {
  return differencesOf(target, compare).filter((difference) => difference.at !== undefined).map((difference) => difference.rule);
}

/** The exit code of a differential run: 1 when either server breaks a must rule, 3 when a rule ended in error on either, else 0; decisions inform. */
export function differentialExitCode(report: DifferentialReport): 0 | 1 | 3 {
  const mustFails = (rules: ReadonlyArray<{ id: string; status: string; expected?: boolean }>) => rules.some((rule) => rule.status === 'fail' && !rule.expected && ruleById(rule.id)?.severity === 'must');
  if (mustFails(report.rules) || mustFails(report.compare.rules)) return 1;
  return report.summary.error > 0 || report.compare.summary.error > 0 ? 3 : 0;
}

/** The differences on the console: a count by class, then each, one paragraph. */
export function differencesText(report: DifferentialReport): string {
  const { differences } = report;
  const counts = CLASSES.map((kind) => `${differences.filter((difference) => difference.class === kind).length} ${kind}`).join(', ');
  const lines = ['', `differences between ${report.target} (target, level ${report.feature_level}) and ${report.compare.target} (compare, level ${report.compare.feature_level}): ${differences.length} (${counts})`];
  if (report.noise.rules_checked_again.length > 0) lines.push(`  noise: the target was checked again on ${report.noise.rules_checked_again.length} rule(s)${report.noise.requests ? ` (${report.noise.requests} requests)` : ''}; ${report.noise.differences_ignored} difference(s) it showed against itself left out`);
  for (const kind of CLASSES) {
    const ofKind = differences.filter((difference) => difference.class === kind);
    if (ofKind.length === 0) continue;
    lines.push('', `${kind.toUpperCase()} (${ofKind.length})`);
    for (const difference of ofKind) {
      const head = kind === 'must' ? `${difference.rule}: broken by the ${difference.side}${difference.expected ? `, as its expectations file lists: ${difference.expected}` : ''}`
        : kind === 'decision' ? `${difference.rule}${difference.decisions && (difference.decisions.length > 1 || difference.decisions[0] !== difference.rule) ? ` (open point${difference.decisions.length > 1 ? 's' : ''}: ${difference.decisions.join(', ')})` : ''}${difference.zulip && difference.zulip !== 'unknown' ? `; as Zulip: ${difference.zulip}` : ''}`
        : `${difference.rule}`;
      lines.push(`  ${head}`, `    target:  ${difference.target.slice(0, 300)}`, `    compare: ${difference.compare.slice(0, 300)}`);
    }
  }
  return lines.join('\n');
}

/** The unclassified differences as entries for docs/ambiguities.md: candidates for the spec discussion. */
export function ambiguityEntries(report: DifferentialReport): string {
  const entries = report.differences.filter((difference) => difference.class === 'unclassified');
  const lines = [`<!-- ${entries.length} difference(s) no rule of the catalog covers, between ${report.target} and ${report.compare.target} (seed ${report.seed}) -->`, ''];
  for (const difference of entries) {
    const rule = ruleById(difference.rule)!;
    lines.push(`### Unclassified: ${difference.at?.join(', ') ?? difference.rule} (in ${difference.rule}'s check)`, '', `Where: ${rule.section}.`, '',
      `- ${report.target}: ${difference.target}`, `- ${report.compare.target}: ${difference.compare}`, '', 'Readings: (to be written).', '');
  }
  return lines.join('\n');
}
