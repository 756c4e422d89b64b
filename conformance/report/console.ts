// The run's report on the console: each failure with its requests and answers and a replay line,
// a table by area, and the totals.

import { resolve as resolvePath } from 'node:path';
import { answerLine } from '../run/client.js';
import type { RuleResult } from '../run/harness.js';
import { counted, outcome, type Report, type Summary } from './json.js';

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
  // An embedded reference with seeded faults is replayed with the same faults, or the replay passes.
  const parts = [...(report.reference?.faults ? [`TEAMCHAT_FAULTS=${shellWord(report.reference.faults)}`] : []), String(config.command ?? 'npm run conformance --')];
  if (report.reference) {
    parts.push(`--reference-level ${report.reference.feature_level}`, `--reference-dialect ${report.reference.dialect}`);
    if (report.reference.dialect_seed !== undefined) parts.push(`--reference-dialect-seed ${report.reference.dialect_seed}`);
  } else {
    if (typeof config.profile === 'string') parts.push(`--profile ${shellWord(config.profile)}`);
    parts.push(`--target ${shellWord(report.target)}`);
  }
  parts.push(`--seed ${rule.counterexample?.seed ?? report.seed}`, `--runs ${report.runs}`, `--only ${shellWord(rule.counterexample?.alongside ? `${rule.id},${rule.counterexample.alongside}` : rule.id)}`);
  if (rule.counterexample?.path) parts.push(`--replay ${shellWord(rule.counterexample.path)}`);
  if (rule.severity === 'decision') parts.push('--decisions');
  if (report.smoke) parts.push('--smoke');
  if (typeof config.emoji_limit_option === 'number') parts.push(`--emoji-limit-mib ${config.emoji_limit_option}`);
  if (config.create_users === true && !report.reference) parts.push('--create-users');
  if (typeof config.delivery_wait === 'number') parts.push(`--delivery-wait ${config.delivery_wait}`);
  if (config.deliveries === true) parts.push('--deliveries');
  return parts.join(' ');
}

/** The report with each failure's replay command beside its counterexample, as the JSON report carries it. */
export function withReplays(report: Report): Report {
  return { ...report, rules: report.rules.map((rule) => (rule.status === 'fail' && rule.counterexample ? { ...rule, counterexample: { ...rule.counterexample, replay: replayCommand(report, rule) } } : rule)) };
}

export const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/**
 * How to give the curl lines their credentials, which they read from TEAMCHAT_* variables: from
 * the profile the run read, by a line that runs as printed; the embedded reference has stopped.
 */
export function curlCredentials(report: Report): string[] {
  const config = report.config;
  const script = 'const p=require(process.argv[1]);for(const r in p.users)console.log(`export TEAMCHAT_${r.toUpperCase()}_EMAIL=${p.users[r].email} TEAMCHAT_${r.toUpperCase()}_API_KEY=${p.users[r].api_key}`)';
  const fromProfile = (path: string) => `  eval "$(node -e '${script}' ${shellWord(path)})"`;
  if (report.reference) {
    return [
      'the curl lines went to the embedded reference, which stopped with the run: `npm start -- --profile-out profile.json` serves the same organization (put its port in the lines), and this sets their credentials:',
      fromProfile('profile.json'),
    ];
  }
  if (typeof config.profile !== 'string') {
    const users = (config.users ?? {}) as Record<string, { email: string }>;
    return [`the curl lines read credentials from TEAMCHAT_{ADMIN,MEMBER,OTHER}_{EMAIL,API_KEY}, as this run did (${Object.entries(users).map(([role, user]) => `${role}: ${user.email}`).join(', ')})`];
  }
  return ['the curl lines read credentials from TEAMCHAT_* variables; this sets them from the profile:', fromProfile(resolvePath(config.profile))];
}

export function consoleSummary(report: Report): string {
  const lines: string[] = [];
  const failing = report.rules.filter((rule) => rule.status === 'fail' || rule.status === 'error');
  if (failing.some((rule) => (rule.counterexample?.requests.length ?? 0) > 0)) lines.push('', ...curlCredentials(report));
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
  // The embedded reference ends with the run: nothing of it is left anywhere.
  if ((report.cleanup.left ?? []).length > 0 && !report.reference) lines.push('', `left on the target (the API cannot delete them): ${report.cleanup.left!.join('; ')}`);
  if ((report.cleanup.conflicts ?? []).length > 0) {
    lines.push('', 'changed by someone else since the run changed it, so left as they made it:', ...report.cleanup.conflicts!.map((conflict) => `  ${conflict}`));
  }
  if (report.cleanup.problems.length > 0) {
    // One line each: a problem's text may carry an error page's line breaks.
    lines.push('', 'cleanup problems (not rule results):', ...report.cleanup.problems.map((problem) => `  ${problem.trim().replace(/\s*\n\s*/g, ' ')}`));
  }
  const s = report.summary;
  const flaky = report.rules.filter((rule) => rule.flaky).map((rule) => rule.id);
  lines.push(
    '',
    `target ${report.target} (feature level ${report.feature_level}), seed ${report.seed}, ${counted(report.requests, 'request')} in ${(report.duration_ms / 1000).toFixed(1)} s${report.transients ? `, ${counted(report.transients, 'transient fault')} met` : ''}${report.smoke ? ' (smoke)' : ''}`,
    `rules: ${s.pass} pass, ${s.fail} fail, ${s.skip} skip, ${s.error} error, ${s.xfail} xfail${flaky.length ? ` (${flaky.length} flaky: ${flaky.join(', ')})` : ''}${report.interrupted ? ' (interrupted)' : ''}`,
  );
  return lines.join('\n');
}
