// npm run docs [-- --with REPORT.json … | --reuse | --out FILE | --jobs N]: writes docs/rules.md and
// docs/rules.json from the rule catalog, with the seeded fault of each rule, docs/ambiguities.md
// from its readings and decisions, docs/coverage.md and docs/zulip-differences.md; then records
// from the reference what the annotated spec shows of each rule (docs/annotated.json) and writes
// the page, docs/annotated.html (with --with, beside the reference each report's column, into
// reports/annotated.html unless --out says where). --reuse renders without recording. A test
// keeps the committed files in step with the catalog and the reference.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Report } from '../conformance/report/json.js';
import type { DifferentialReport } from '../conformance/report/differences.js';
import { annotatedHtml, recordRule, type AnnotatedData, type RecordedRule, type ReportColumn } from './annotated.js';
import { inProcesses, serveTasks } from './workers.js';
import { specAnchor, specStatement } from '../conformance/spec.js';
import type { Expectations } from '../conformance/suite.js';
import { FAULTS } from '../reference/faults/faults.js';
import { READINGS, RULES, STATEMENTS, ruleById, type Rule } from '../conformance/rules.js';

export function rulesJson(): string {
  return JSON.stringify(RULES.map((rule) => {
    const fault = FAULTS[rule.id];
    // Where the fault shows when not everywhere: --explain runs it there.
    return { ...rule, spec: specAnchor(rule), fault: fault?.does ?? null, ...(fault?.level !== undefined ? { fault_level: fault.level } : {}), ...(fault?.dialects ? { fault_dialect: fault.dialects[0] } : {}) };
  }), null, 2) + '\n';
}

/** A rule's section, linked to its place in spec.md (docs/ links are relative to docs/). */
const sectionLink = (rule: Rule) => {
  const anchor = specAnchor(rule);
  return anchor ? `[${rule.section}](${anchor.replace(/^docs\//, '')})` : rule.section;
};

/** docs/zulip-differences.md: where the real Zulip server and the spec differ, from its expectations file. */
export function zulipDifferencesMarkdown(): string {
  const file = new URL('../../fixtures/expectations/zulip.json', import.meta.url);
  const expectations = JSON.parse(readFileSync(file, 'utf8')) as Expectations & { notes?: string };
  const lines = [
    '# Where Zulip differs from the spec',
    '',
    'Generated from `fixtures/expectations/zulip.json` by `npm run docs`; do not edit by hand. The reference follows the spec;',
    'a Zulip server is expected to fail these rules, and `--expect fixtures/expectations/zulip.json` counts those failures as',
    '`xfail` instead of failing the run. Each entry: the rule, what the spec says (quoted from [spec.md](spec.md)), and what',
    'Zulip does instead.',
    '',
    `Versions: ${expectations.server ?? 'Zulip'}.`,
    '',
  ];
  for (const [id, entry] of Object.entries(expectations.expected_failures)) {
    const rule = ruleById(id as never)!;
    const why = typeof entry === 'string' ? entry : entry.why;
    const levels = typeof entry === 'object' && entry.levels ? ` Only at feature levels ${entry.levels[0]}${entry.levels[1] !== undefined ? `–${entry.levels[1]}` : ' and above'}.` : '';
    const statement = specStatement(rule);
    lines.push(`## \`${id}\` (${rule.severity})`, '', `**The rule:** ${rule.title}`, '');
    if (statement) lines.push(`**The spec** ([${statement.anchor.replace(/^docs\/spec\.md/, 'spec.md')}](${statement.anchor.replace(/^docs\//, '')})):`, '', ...statement.lines.map((line) => `> ${line}`), '');
    lines.push(`**Zulip:** ${why}${levels}`, '');
  }
  return lines.join('\n');
}

export function rulesMarkdown(): string {
  const lines = [
    '# Rule catalog',
    '',
    'Generated from `conformance/rules.ts` by `npm run docs`; do not edit by hand.',
    '`must`: what the spec states. `decision`: a choice where the spec says "not shown", made as the real Zulip',
    'server does (the reference\'s alternate dialect decides otherwise); the suite checks decisions only with `--decisions`.',
    'Readings of ambiguous statements, and both dialects\' choices side by side: [ambiguities.md](ambiguities.md).',
    '',
  ];
  let area = '';
  for (const rule of RULES as readonly Rule[]) {
    const [name] = rule.id.split('.');
    if (name !== area) {
      area = name!;
      lines.push(`## ${area}`, '', '| ID | severity | since | section | rule |', '|---|---|---|---|---|');
    }
    const why = (rule.why ? ` *Why:* ${rule.why}` : '') + (rule.alternate ? ` *Alternate dialect:* ${rule.alternate}` : '');
    const levels = rule.before !== undefined ? `${rule.since}–${rule.before - 1}` : String(rule.since);
    lines.push(`| \`${rule.id}\` | ${rule.severity} | ${levels} | ${sectionLink(rule)} | ${rule.title.replace(/\|/g, '\\|')}${why.replace(/\|/g, '\\|')} |`);
  }
  return lines.join('\n') + '\n';
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function ambiguitiesMarkdown(): string {
  const lines = [
    '# Ambiguities and open points of the spec',
    '',
    'Generated from `conformance/rules.ts` by `npm run docs`; do not edit by hand. For spec discussions: where the',
    'spec can be read more than one way, and where it leaves the choice to the server, with what Zulip does (and so',
    'the reference, `--dialect zulip`), what the reference\'s alternate dialect does (`--dialect alternate`, every',
    'open point decided otherwise), and what the conformance suite accepts.',
    '',
    '## Readings of what the spec states',
    '',
  ];
  for (const reading of READINGS) {
    lines.push(`### ${reading.topic}`, '', `> ${reading.spec}`, '');
    reading.readings.forEach((text, index) => lines.push(`${index + 1}. ${text}`));
    lines.push(
      '',
      `- **Zulip:** ${reading.zulip}.`,
      `- **The reference:** ${reading.reference ?? 'as Zulip'}.`,
      `- **Alternate dialect:** ${reading.alternate}.`,
      `- **The suite accepts:** ${reading.suite}.`,
      `- **Rules:** ${reading.rules.map((id) => `\`${id}\``).join(', ')}`,
      '',
    );
  }
  lines.push(
    '## Points the spec leaves open',
    '',
    'Each is a `decision` of the catalog. The suite\'s must checks accept any answer on these points; `--decisions`',
    'checks Zulip\'s choice, which a server that chose otherwise fails.',
    '',
    '| decision | spec section | Zulip, and the reference | why | alternate dialect |',
    '|---|---|---|---|---|',
  );
  for (const rule of RULES as readonly Rule[]) {
    if (rule.severity !== 'decision') continue;
    lines.push(`| \`${rule.id}\` | ${cell(rule.section)} | ${cell(rule.title)} | ${cell(rule.why ?? '')} | ${cell(rule.alternate ?? '')} |`);
  }
  return lines.join('\n') + '\n';
}

export function coverageMarkdown(): string {
  const lines = [
    '# Coverage of the spec',
    '',
    'Generated from `conformance/rules.ts` by `npm run docs`; do not edit by hand. For each section of the spec',
    '(`docs/spec.md`), the statements it makes and the rules that check each, with the rule\'s severity, the',
    'feature levels where it applies, where its check lives, and the seeded fault the self-test catches it by.',
    'A statement no rule checks is marked **gap**.',
    '',
  ];
  let section = '';
  for (const statement of STATEMENTS) {
    if (statement.section !== section) {
      if (section !== '') lines.push('');
      section = statement.section;
      lines.push(`## ${section}`, '');
    }
    lines.push(`- ${statement.says}${statement.rules.length === 0 ? ' **gap**: no rule checks it.' : ''}`);
    for (const id of statement.rules) {
      const rule = ruleById(id)!;
      const levels = rule.before !== undefined ? `${rule.since}–${rule.before - 1}` : `${rule.since}+`;
      lines.push(`  - \`${id}\` (${rule.severity}, levels ${levels}): check in \`conformance/checks/${id.split('.')[0]}.ts\`; fault: ${FAULTS[id as keyof typeof FAULTS]?.does ?? 'none'}`);
      // The spec's own words, as --explain quotes them: both take them from spec.ts.
      const quoted = specStatement(rule);
      const words = quoted?.lines.filter((line) => !/^\|[- |]+\|$/.test(line) && !/^\| *(Field|Parameter|Operation|Setting) *\|/.test(line)).map((line) => line.replace(/^- /, '')) ?? [];
      if (quoted && words.length > 0) lines.push(`    - quoted by \`--explain\` from [${quoted.anchor.replace('docs/', '')}](${quoted.anchor.replace('docs/', '')}): ${words.map((line) => `\`${line.replace(/`/g, "'")}\``).join(' ')}`);
    }
  }
  const gaps = STATEMENTS.filter((statement) => statement.rules.length === 0).length;
  lines.push('', `${STATEMENTS.length} statements, ${gaps} gap${gaps === 1 ? '' : 's'}; ${RULES.length} rules, each checking at least one statement.`);
  return lines.join('\n') + '\n';
}

interface RecordTask { readonly id: string }
interface RecordFinding { readonly id: string; readonly recorded: RecordedRule | null; readonly problem?: string }

/** Records what the page shows of every rule from the reference, in two processes of their own. */
async function recordAll(jobs: number): Promise<AnnotatedData> {
  const rules: Record<string, RecordedRule> = {};
  const problems: string[] = [];
  let done = 0;
  await inProcesses<RecordTask, RecordFinding>(fileURLToPath(import.meta.url), RULES.map((rule) => ({ id: rule.id })), jobs, (finding) => {
    done++;
    if (finding.recorded) rules[finding.id] = finding.recorded;
    else problems.push(`${finding.id}: ${finding.problem}`);
    if (process.stdout.isTTY) process.stdout.write(`\rrecording the reference's exchanges and support: ${done} of ${RULES.length} rules`);
  });
  if (process.stdout.isTTY) process.stdout.write('\n');
  if (problems.length > 0) throw new Error(`could not record ${problems.join('; ')}`);
  const ordered = Object.fromEntries(RULES.map((rule) => [rule.id, rules[rule.id]!]));
  return {
    note: 'Recorded with seed 1 and ten random cases per property; IDs, times and the run\'s prefix are those of that build.',
    rules: ordered,
  };
}

function writeMarkdown(root: URL): void {
  writeFileSync(new URL('rules.json', root), rulesJson());
  writeFileSync(new URL('rules.md', root), rulesMarkdown());
  writeFileSync(new URL('ambiguities.md', root), ambiguitiesMarkdown());
  writeFileSync(new URL('coverage.md', root), coverageMarkdown());
  writeFileSync(new URL('zulip-differences.md', root), zulipDifferencesMarkdown());
  console.log(`wrote docs/rules.md, docs/rules.json (${RULES.length} rules) docs/ambiguities.md (${READINGS.length} readings) docs/coverage.md (${STATEMENTS.length} statements) and docs/zulip-differences.md`);
}

function fail(message: string): never {
  process.stderr.write(`teamchat docs: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { with?: string[]; reuse?: boolean; out?: string; jobs?: string };
  try {
    ({ values } = parseArgs({ options: { with: { type: 'string', multiple: true }, reuse: { type: 'boolean' }, out: { type: 'string' }, jobs: { type: 'string' } } }));
  } catch (error) {
    fail(`${(error as Error).message.split('\n')[0]}; usage: npm run docs -- [--with REPORT.json …] [--reuse] [--out FILE]`);
  }
  const reports: ReportColumn[] = (values.with ?? []).flatMap((file) => {
    let report: Report;
    try {
      report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    } catch (error) {
      fail(`--with ${file}: cannot read a JSON report there (${(error as Error).message.split('\n')[0]})`);
    }
    if (!Array.isArray(report.rules)) fail(`--with ${file}: not a report of teamchat-conformance (no "rules")`);
    const columns: ReportColumn[] = [{ label: `${report.target ?? basename(file)} (${basename(file)})`, report }];
    // A differential report (--compare) is two columns: the target and the server beside it.
    const compared = (report as Partial<DifferentialReport>).compare;
    if (compared) columns.push({ label: `${compared.target} (${basename(file)}, compared)`, report: { ...report, target: compared.target, feature_level: compared.feature_level, rules: compared.rules as Report['rules'] } });
    return columns;
  });
  const jobs = Number(values.jobs ?? 2);
  if (!Number.isInteger(jobs) || jobs < 1) fail(`--jobs ${values.jobs}: give a whole number of processes, 1 or more`);
  const root = new URL('../../docs/', import.meta.url);
  if (!values.reuse) writeMarkdown(root);
  let data: AnnotatedData;
  if (values.reuse) {
    data = JSON.parse(readFileSync(new URL('annotated.json', root), 'utf8')) as AnnotatedData;
  } else {
    const started = Date.now();
    data = await recordAll(jobs);
    writeFileSync(new URL('annotated.json', root), JSON.stringify(data, null, 1) + '\n');
    console.log(`recorded the reference's exchanges and support of ${RULES.length} rules into docs/annotated.json in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  const out = values.out ?? (reports.length > 0 ? 'reports/annotated.html' : fileURLToPath(new URL('annotated.html', root)));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, annotatedHtml(data, reports));
  console.log(`wrote ${relative(process.cwd(), out) || out}: the annotated spec${reports.length > 0 ? `, beside the reference ${reports.map((column) => column.label).join(', ')}` : ''}`);
}

if (process.argv.includes('--worker')) {
  serveTasks<RecordTask, RecordFinding>(async (task) => ({ id: task.id, recorded: await recordRule(task.id) }), (task, error) => ({ id: task.id, recorded: null, problem: (error as Error)?.stack ?? String(error) }));
} else if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((error: unknown) => {
    process.stderr.write(`teamchat docs: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  });
}
