// The suite as a library: check a target from code and get the report object back.
//
//   const { checkTarget } = await import('teamchat-conformance');
//   const report = await checkTarget({ target, users: { admin, member, other }, runs: 10 });

import { isLoopback, type Credentials, type Role } from './run/client.js';
import type { Report } from './report/json.js';
import { DEFAULT_RUNS } from './run/harness.js';
import { runSuite, type Expectations } from './suite.js';

export { RULES, READINGS, ruleAppliesAt, type Rule, type RuleId } from './rules.js';
export { runSuite, type Expectations, type SuiteOptions } from './suite.js';
export type { Report } from './report/json.js';
export type { RuleResult, Status } from './run/harness.js';
export type { Credentials, Role } from './run/client.js';

export interface CheckOptions {
  /** The server's base URL. */
  readonly target: string;
  /** An organization administrator and two distinct regular members. */
  readonly users: Readonly<Record<Role, Credentials>>;
  readonly seed?: number;
  /** Random cases per property besides its boundaries (default 15; 1 with smoke). */
  readonly runs?: number;
  /** Only the rules whose ID contains this, or matches it with * globs. */
  readonly only?: string;
  readonly decisions?: boolean;
  readonly smoke?: boolean;
  /** Requests per second at most (default 20; 0 for no bound). */
  readonly rate?: number;
  readonly retries?: number;
  readonly expectations?: Expectations;
  readonly createUsers?: boolean;
}

/** Runs the suite against the target with the CLI's defaults. */
export function checkTarget(options: CheckOptions): Promise<Report> {
  return runSuite({
    target: options.target, credentials: options.users, embedded: false,
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 31), runs: options.runs ?? (options.smoke ? 1 : DEFAULT_RUNS), only: options.only ?? null, replayPath: null,
    // The CLI's defaults: no rate bound on this machine, 20 requests per second elsewhere.
    decisions: options.decisions ?? false, rate: options.rate ?? (isLoopback(options.target) ? 0 : 20), timeoutMs: 15_000, eventWaitMs: 2_000,
    expectations: options.expectations ?? null, createUsers: options.createUsers ?? false, smoke: options.smoke ?? false, retries: options.retries ?? 0,
  });
}
