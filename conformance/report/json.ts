// The run's report as JSON (CONTRACT.md, with a few more fields), its summary and its exit code.

import type { RuleResult, Status } from '../run/harness.js';

export interface Report {
  target: string;
  feature_level: number | null;
  zulip_version: string | null;
  seed: number;
  runs: number;
  decisions: boolean;
  run_prefix: string;
  /** The configuration with credentials left out. */
  config: Record<string, unknown>;
  rules: RuleResult[];
  /** Rules by outcome; a failure the expectations file lists counts as xfail, not fail. */
  summary: Summary;
  /**
   * problems: what could not be cleaned up; swept: leftovers of earlier runs removed; left: what the
   * API cannot remove, or can only deactivate or archive; conflicts: what someone else changed after
   * the run did, left as they made it.
   */
  cleanup: { problems: string[]; swept: string[]; left?: string[]; conflicts?: string[] };
  requests: number;
  /** Resets, timeouts and gateway errors met (retried where the request was idempotent). */
  transients: number;
  smoke: boolean;
  duration_ms: number;
  interrupted: boolean;
  /** When the run started, ISO 8601. */
  started_at: string;
  /** The suite's version (package.json). */
  suite_version: string;
  /** The embedded reference the run checked, if it did: its level and dialect. */
  reference: { feature_level: number; dialect: string; dialect_seed?: number; faults?: string } | null;
  /** The part of the selected rules this run checked (--shard I/N); null for all of them. A merged report lists the shards it was made from. */
  shard: { index: number; total: number } | null;
  merged_from?: Array<{ index: number; total: number; run_prefix: string }>;
  /** The server's lease (run/lease.ts): whether it was taken, and how long the run waited for it, for whom. */
  lease: { note: string | null; waited_s: number; waited_for: string[]; held?: { from: string; until: string | null } | null } | null;
}

export type Outcome = Status | 'xfail';
export type Summary = Record<Outcome, number>;

/** A rule's outcome as the report counts it: an expected failure is an xfail. */
export const outcome = (rule: RuleResult): Outcome => (rule.status === 'fail' && rule.expected ? 'xfail' : rule.status);

/** A count with its noun: "1 request", "2 requests". */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function summarize(rules: readonly RuleResult[]): Summary {
  const summary: Summary = { pass: 0, fail: 0, skip: 0, error: 0, xfail: 0 };
  for (const rule of rules) summary[outcome(rule)]++;
  return summary;
}

/**
 * The exit code of a run (CONTRACT.md): 1 when a rule failed (not as expected), 3 when none
 * failed but one ended in error (the verdict is incomplete), else 0.
 */
export function exitCode(report: Report): 0 | 1 | 3 {
  if (report.summary.fail > 0) return 1;
  return report.summary.error > 0 ? 3 : 0;
}
