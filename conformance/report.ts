// The run's report: JSON (CONTRACT.md, with a few more fields), JUnit XML, and the console.

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
  summary: Record<Status, number>;
  /** Problems removing what the run created; never a rule result. */
  cleanup: { problems: string[]; swept: string[] };
  requests: number;
  /** Resets, timeouts and gateway errors met (retried where the request was idempotent). */
  transients: number;
  smoke: boolean;
  duration_ms: number;
  interrupted: boolean;
}

export function summarize(rules: readonly RuleResult[]): Record<Status, number> {
  const summary: Record<Status, number> = { pass: 0, fail: 0, skip: 0, error: 0 };
  for (const rule of rules) summary[rule.status]++;
  return summary;
}

/** Failures that count: those the expectations file does not list. */
export function unexpectedFailures(report: Report): RuleResult[] {
  return report.rules.filter((rule) => rule.status === 'fail' && !rule.expected);
}

const xml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // XML 1.0 cannot carry most control characters at all.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function junit(report: Report): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="teamchat-conformance" tests="${report.rules.length}" failures="${report.summary.fail}" errors="${report.summary.error}" skipped="${report.summary.skip}" time="${report.duration_ms / 1000}">`,
    `  <testsuite name="${xml(report.target)}" tests="${report.rules.length}" failures="${report.summary.fail}" errors="${report.summary.error}" skipped="${report.summary.skip}">`,
  ];
  for (const rule of report.rules) {
    const area = rule.id.split('.')[0];
    lines.push(`    <testcase classname="${xml(area!)}" name="${xml(rule.id)}" time="${rule.duration_ms / 1000}">`);
    if (rule.flaky) lines.push('      <properties><property name="flaky" value="true"/></properties>');
    if (rule.status === 'fail') {
      lines.push(`      <failure message="${xml(rule.message)}">${xml(describeFailure(rule))}</failure>`);
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
    lines.push('  requests:');
    for (const request of example.requests) lines.push(`    ${request}`);
  }
  if (rule.expected) lines.push('  (expected: the expectations file lists this failure)');
  return lines.join('\n');
}

export function replayCommand(report: Report, rule: RuleResult): string {
  const parts = ['npm run conformance --'];
  if (report.config.embedded !== true) parts.push(`--target ${report.target}`);
  parts.push(`--seed ${rule.counterexample?.seed ?? report.seed}`, `--runs ${report.runs}`, `--only '${rule.id}'`);
  if (rule.counterexample?.path) parts.push(`--replay '${rule.counterexample.path}'`);
  if (rule.severity === 'decision') parts.push('--decisions');
  return parts.join(' ');
}

export function consoleSummary(report: Report): string {
  const lines: string[] = [];
  const failing = report.rules.filter((rule) => rule.status === 'fail' || rule.status === 'error');
  for (const rule of failing) {
    lines.push('', `${rule.status.toUpperCase()} ${describeFailure(rule)}`);
    if (rule.status === 'fail') lines.push(`  replay: ${replayCommand(report, rule)}`);
  }
  const areas = new Map<string, Record<Status, number>>();
  for (const rule of report.rules) {
    const area = rule.id.split('.')[0]!;
    const counts = areas.get(area) ?? { pass: 0, fail: 0, skip: 0, error: 0 };
    counts[rule.status]++;
    areas.set(area, counts);
  }
  lines.push('', 'area                  pass  fail  skip  error');
  for (const [area, counts] of areas) {
    lines.push(`${area.padEnd(20)} ${[counts.pass, counts.fail, counts.skip, counts.error].map((n) => String(n).padStart(5)).join(' ')}`);
  }
  if (report.cleanup.problems.length > 0) {
    lines.push('', 'cleanup problems (not rule results):', ...report.cleanup.problems.map((problem) => `  ${problem}`));
  }
  const s = report.summary;
  const flaky = report.rules.filter((rule) => rule.flaky).map((rule) => rule.id);
  lines.push(
    '',
    `target ${report.target} (feature level ${report.feature_level}), seed ${report.seed}, ${report.requests} requests in ${(report.duration_ms / 1000).toFixed(1)} s${report.transients ? `, ${report.transients} transient faults met` : ''}${report.smoke ? ' (smoke)' : ''}`,
    `rules: ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error${flaky.length ? ` (${flaky.length} flaky: ${flaky.join(', ')})` : ''}${report.interrupted ? ' (interrupted)' : ''}`,
  );
  return lines.join('\n');
}
