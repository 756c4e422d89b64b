// The run's report: JSON (CONTRACT.md, with a few more fields), JUnit XML, and the console.

import { answerLine } from './client.js';
import type { RuleResult, Status } from './harness.js';

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
  /** Problems removing what the run created; never a rule result. */
  /** problems: what could not be cleaned up; swept: leftovers of earlier runs removed; left: what the API can only deactivate or archive. */
  cleanup: { problems: string[]; swept: string[]; left?: string[] };
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
  reference: { feature_level: number; dialect: string; dialect_seed?: number } | null;
}

export type Outcome = Status | 'xfail';
export type Summary = Record<Outcome, number>;

/** A rule's outcome as the report counts it: an expected failure is an xfail. */
export const outcome = (rule: RuleResult): Outcome => (rule.status === 'fail' && rule.expected ? 'xfail' : rule.status);

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


const xml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // XML 1.0 cannot carry most control characters at all.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function junit(report: Report): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="teamchat-conformance" tests="${report.rules.length}" failures="${report.summary.fail}" errors="${report.summary.error}" skipped="${report.summary.skip + report.summary.xfail}" time="${report.duration_ms / 1000}">`,
    `  <testsuite name="${xml(report.target)}" tests="${report.rules.length}" failures="${report.summary.fail}" errors="${report.summary.error}" skipped="${report.summary.skip + report.summary.xfail}" timestamp="${xml(report.started_at)}">`,
    '    <properties>',
    `      <property name="seed" value="${report.seed}"/>`,
    `      <property name="feature_level" value="${report.feature_level ?? ''}"/>`,
    `      <property name="replay_command" value="${xml(report.config.command as string ?? '')}"/>`,
    '    </properties>',
  ];
  for (const rule of report.rules) {
    const area = rule.id.split('.')[0];
    lines.push(`    <testcase classname="${xml(area!)}" name="${xml(rule.id)}" time="${rule.duration_ms / 1000}">`);
    if (rule.flaky) lines.push('      <properties><property name="flaky" value="true"/></properties>');
    if (rule.status === 'fail' && rule.expected) {
      lines.push(`      <skipped message="${xml(`expected failure (xfail): ${rule.message}`)}"/>`);
    } else if (rule.status === 'fail') {
      lines.push(`      <failure type="${rule.severity}" message="${xml(`${rule.severity === 'must' ? 'must' : 'decision (Zulip\'s choice)'}: ${rule.message}`)}">${xml(describeFailure(rule))}</failure>`);
    } else if (rule.status === 'error') {
      lines.push(`      <error message="${xml(rule.message)}"/>`);
    } else if (rule.status === 'skip') {
      lines.push(`      <skipped message="${xml(rule.message)}"/>`);
    }
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

export function describeFailure(rule: RuleResult): string {
  const lines = [`${rule.id} (${rule.severity}, ${rule.section})`, `  ${rule.title}`, `  ${rule.message}`];
  const example = rule.counterexample;
  if (example) {
    if (example.input !== null) lines.push(`  counterexample: ${example.input}`);
    lines.push('  requests, each with its answer:');
    example.requests.forEach((request, index) => {
      lines.push(`    ${request}`);
      const exchange = example.exchanges?.[index];
      if (exchange) lines.push(`      ${answerLine(exchange)}`);
    });
  }
  if (rule.expected) lines.push('  (expected: the expectations file lists this failure)');
  return lines.join('\n');
}

/**
 * The command that runs this rule again with the same cases: the command the user ran, against
 * the same target (or the same embedded reference), with the seed, runs, path and options.
 */
export function replayCommand(report: Report, rule: RuleResult): string {
  const config = report.config;
  const parts = [String(config.command ?? 'npm run conformance --')];
  if (report.reference) {
    parts.push(`--reference-level ${report.reference.feature_level}`, `--reference-dialect ${report.reference.dialect}`);
    if (report.reference.dialect_seed !== undefined) parts.push(`--reference-dialect-seed ${report.reference.dialect_seed}`);
  } else {
    if (typeof config.profile === 'string') parts.push(`--profile ${shellWord(config.profile)}`);
    parts.push(`--target ${shellWord(report.target)}`);
  }
  parts.push(`--seed ${rule.counterexample?.seed ?? report.seed}`, `--runs ${report.runs}`, `--only ${shellWord(rule.id)}`);
  if (rule.counterexample?.path) parts.push(`--replay ${shellWord(rule.counterexample.path)}`);
  if (rule.severity === 'decision') parts.push('--decisions');
  if (report.smoke) parts.push('--smoke');
  if (typeof config.emoji_limit_option === 'number') parts.push(`--emoji-limit-mib ${config.emoji_limit_option}`);
  if (config.create_users === true && !report.reference) parts.push('--create-users');
  if (typeof config.delivery_wait === 'number') parts.push(`--delivery-wait ${config.delivery_wait}`);
  if (config.deliveries === true) parts.push('--deliveries');
  return parts.join(' ');
}

const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

export function consoleSummary(report: Report): string {
  const lines: string[] = [];
  const failing = report.rules.filter((rule) => rule.status === 'fail' || rule.status === 'error');
  for (const rule of failing) {
    lines.push('', `${outcome(rule).toUpperCase()} ${describeFailure(rule)}`);
    if (rule.status === 'fail') lines.push(`  replay: ${replayCommand(report, rule)}`);
  }
  const areas = new Map<string, Summary>();
  for (const rule of report.rules) {
    const area = rule.id.split('.')[0]!;
    const counts = areas.get(area) ?? { pass: 0, fail: 0, skip: 0, error: 0, xfail: 0 };
    counts[outcome(rule)]++;
    areas.set(area, counts);
  }
  lines.push('', 'area                  pass  fail  skip  error xfail');
  for (const [area, counts] of areas) {
    lines.push(`${area.padEnd(20)} ${[counts.pass, counts.fail, counts.skip, counts.error, counts.xfail].map((n) => String(n).padStart(5)).join(' ')}`);
  }
  const broken = report.rules.filter((rule) => rule.status === 'fail' && !rule.expected || rule.status === 'error');
  if (broken.length >= 5 && report.summary.pass === 0) {
    lines.push('', `every rule that ran failed or ended in error (${broken.length}): the server may be failing every request; the first said: ${broken[0]!.message.slice(0, 200)}`);
  }
  if ((report.cleanup.left ?? []).length > 0) lines.push('', `left on the target (the API cannot delete them): ${report.cleanup.left!.join('; ')}`);
  if (report.cleanup.problems.length > 0) {
    lines.push('', 'cleanup problems (not rule results):', ...report.cleanup.problems.map((problem) => `  ${problem}`));
  }
  const s = report.summary;
  const flaky = report.rules.filter((rule) => rule.flaky).map((rule) => rule.id);
  lines.push(
    '',
    `target ${report.target} (feature level ${report.feature_level}), seed ${report.seed}, ${report.requests} requests in ${(report.duration_ms / 1000).toFixed(1)} s${report.transients ? `, ${report.transients} transient faults met` : ''}${report.smoke ? ' (smoke)' : ''}`,
    `rules: ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error, ${s.xfail} xfail${flaky.length ? ` (${flaky.length} flaky: ${flaky.join(', ')})` : ''}${report.interrupted ? ' (interrupted)' : ''}`,
  );
  return lines.join('\n');
}
