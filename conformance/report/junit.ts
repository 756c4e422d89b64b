// The run's report as JUnit XML, for CI systems: a testcase per rule, failures with their requests.

import { describeFailure, replayCommand } from './console.js';
import type { Report } from './json.js';

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
      lines.push(`      <properties><property name="replay_command" value="${xml(replayCommand(report, rule))}"/></properties>`);
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
