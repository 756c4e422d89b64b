// The annotated spec: one self-contained HTML page (docs/annotated.html, served by the reference
// at GET /) with the spec's text section by section, and beside each statement the rules that
// check it, a passing and a failing exchange of each rule recorded from the reference, the open
// points side by side (Zulip's dialect, the alternate dialect, Zulip itself), and the support of
// each rule: the reference at the rule's edge levels, the alternate dialect and any report given.
//
// npm run docs records the exchanges and the support into docs/annotated.json, and renders the
// page from it; `--with report.json` adds a report's column, `--reuse` renders without recording.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RULES, READINGS, STATEMENTS, type Rule, type RuleId } from '../conformance/rules.js';
import { slug, specStatement } from '../conformance/spec.js';
import type { Expectations } from '../conformance/suite.js';
import type { Report } from '../conformance/report/json.js';
import { exampleLevel, recordExamples, type RuleExamples } from '../conformance/examples.js';
import type { Exchange } from '../conformance/run/client.js';
import { runSuite } from '../conformance/suite.js';
import { FAULTS } from '../reference/faults.js';
import { MAX_FEATURE_LEVEL } from '../reference/levels.js';
import { startReference } from '../reference/server.js';
import { targetProfile } from '../reference/fixture.js';

/** Recording runs beside other work (npm test, a build): an event is given time to come, so that what is recorded does not depend on the load. */
const EVENT_WAIT_MS = 1500;

const SPEC_FILE = fileURLToPath(new URL('../../docs/spec.md', import.meta.url));

/** An exchange as the page keeps it: the path under the base URL, no credentials, no file bytes. */
export interface StoredExchange {
  readonly as: string;
  readonly method: string;
  readonly path: string;
  readonly form: ReadonlyArray<readonly [string, string]>;
  readonly files?: ReadonlyArray<{ readonly field: string; readonly filename: string; readonly bytes: number }>;
  readonly status: number;
  readonly body: unknown;
}

export interface SupportCell {
  /** What the column is: `level N` of the reference in Zulip's dialect, or `alternate`. */
  readonly column: string;
  readonly status: string;
  readonly message: string;
}

export interface RecordedRule {
  readonly input: string | null;
  readonly passing: StoredExchange[];
  readonly failing: { readonly message: string; readonly fault: string; readonly exchanges: StoredExchange[] } | null;
  readonly support: SupportCell[];
}

export interface AnnotatedData {
  readonly note: string;
  readonly rules: Record<string, RecordedRule>;
}

const store = (exchange: Exchange): StoredExchange => {
  const files = Object.entries(exchange.files ?? {}).map(([field, file]) => ({ field, filename: file.filename, bytes: file.data.length }));
  return {
    as: typeof exchange.as === 'string' ? exchange.as : exchange.as === null ? 'nobody' : 'forged credentials',
    method: exchange.method, path: new URL(exchange.url).pathname + new URL(exchange.url).search, form: exchange.form,
    ...(files.length > 0 ? { files } : {}), status: exchange.status, body: exchange.body,
  };
};

/** The levels a rule is shown at: one below where it starts, where it starts, its last, one past its end, and the newest. */
export function edgeLevels(rule: Rule): number[] {
  const levels = [rule.since - 1, rule.since, rule.before !== undefined ? rule.before - 1 : MAX_FEATURE_LEVEL, rule.before ?? MAX_FEATURE_LEVEL];
  return [...new Set(levels.filter((level) => level >= 1 && level <= MAX_FEATURE_LEVEL))].sort((a, b) => a - b);
}

async function serveInProcess(level: number | undefined, faults: string[], dialect?: 'alternate') {
  const reference = await startReference({ port: 0, ...(level !== undefined ? { featureLevel: level } : {}), faults: new Set(faults as RuleId[]), ...(dialect ? { dialect } : {}) });
  return { url: reference.url, credentials: targetProfile(reference.fixture, reference.url).users, close: () => reference.close() };
}

/** The rule's status against one reference (a fresh one, seed 1, ten cases). */
async function supportOf(rule: Rule, level: number, dialect?: 'alternate'): Promise<SupportCell> {
  const reference = await serveInProcess(level, [], dialect);
  try {
    const report = await runSuite({
      target: reference.url, credentials: reference.credentials, embedded: true, seed: 1, runs: 10, only: rule.id, replayPath: null,
      decisions: true, rate: 0, timeoutMs: 15_000, eventWaitMs: EVENT_WAIT_MS, expectations: null, createUsers: true,
    });
    const result = report.rules.find((entry) => entry.id === rule.id);
    return { column: dialect ? 'alternate' : `level ${level}`, status: result?.status ?? 'skip', message: result?.message ?? 'not selected' };
  } finally {
    await reference.close();
  }
}

/** Everything the page shows of one rule that comes from running the reference. */
export async function recordRule(id: string): Promise<RecordedRule> {
  const rule = (RULES as readonly Rule[]).find((candidate) => candidate.id === id)!;
  const fault = FAULTS[id as RuleId];
  const place = { level: fault?.level, dialect: fault?.dialects?.[0] };
  const examples: RuleExamples = await recordExamples(rule, fault?.does ?? null, (faults) => serveInProcess(exampleLevel(rule, place), faults, place.dialect === 'alternate' ? 'alternate' : undefined), EVENT_WAIT_MS);
  const support: SupportCell[] = [];
  for (const level of edgeLevels(rule)) support.push(await supportOf(rule, level));
  support.push(await supportOf(rule, exampleLevel(rule) ?? MAX_FEATURE_LEVEL, 'alternate'));
  return {
    input: examples.input,
    passing: examples.passing.map(store),
    failing: examples.failing ? { message: examples.failing.message, fault: examples.failing.fault, exchanges: examples.failing.exchanges.map(store) } : null,
    support,
  };
}

/** What differs between two recordings only because time, the run's prefix and queue IDs differ: made equal. */
export function normalised(value: unknown): unknown {
  if (typeof value === 'string') {
    return value
      // The run's prefix, also where a rule puts a character into it.
      .replace(/(tc(?:%[0-9A-F]{2}|\\[a-z]|\\u[0-9a-f]{4}|[^a-z0-9]){0,3}?c)[0-9a-f]{8}/g, '$100000000').replace(/TCC[0-9A-F]{8}/g, 'TCC00000000')
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, '{base_url}')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\b(1[5-9]|2[0-4])\d{8}(\.\d+)?\b/g, '<unix time>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g, '<date>')
      .replace(/<time:[^>]*>/g, '<time:…>');
  }
  if (typeof value === 'number') return value >= 1.5e9 && value < 2.5e9 ? '<unix time>' : value;
  if (Array.isArray(value)) return value.map(normalised);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, normalised(entry)]));
  return value;
}

// ---- The page -------------------------------------------------------------------------------

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The spec's inline Markdown: code, bold, italics, links. */
function inline(text: string): string {
  const parts = text.split(/(`[^`]*`)/);
  return parts.map((part) => part.startsWith('`') && part.endsWith('`') && part.length > 1
    ? `<code>${escape(part.slice(1, -1))}</code>`
    : escape(part).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/(^|[^*])\*([^*]+)\*/g, '$1<em>$2</em>').replace(/\[([^\]]+)\]\(([^)]+)\)/g, '<a href="$2">$1</a>')).join('');
}

const levelsOf = (rule: Rule) => (rule.before !== undefined ? `levels ${rule.since}–${rule.before - 1}` : `level ${rule.since}+`);
export const ruleAnchor = (id: string) => `rule-${id}`;

interface Block {
  readonly kind: 'heading' | 'paragraph' | 'list' | 'table';
  /** Line indices in the spec. */
  readonly lines: number[];
  readonly depth?: number;
}

function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let at = 0;
  while (at < lines.length) {
    const line = lines[at]!;
    if (line.trim() === '') {
      at++;
      continue;
    }
    const heading = /^(#+) /.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', lines: [at], depth: heading[1]!.length });
      at++;
      continue;
    }
    const kind = line.startsWith('|') ? 'table' : /^(\s*[-*] |\d+\. )/.test(line) ? 'list' : 'paragraph';
    const taken: number[] = [];
    while (at < lines.length && lines[at]!.trim() !== '' && !/^#+ /.test(lines[at]!)) {
      const next = lines[at]!;
      const nextKind = next.startsWith('|') ? 'table' : /^(\s*[-*] |\d+\. )/.test(next) ? 'list' : 'paragraph';
      if (nextKind !== kind && taken.length > 0) break;
      taken.push(at++);
    }
    blocks.push({ kind, lines: taken });
  }
  return blocks;
}

const isSeparator = (line: string) => /^\|[- :|]+\|$/.test(line.trim());
const cells = (line: string) => line.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((cell) => cell.trim());

/** Where in the spec each rule's statement stands: the line indices of what --explain quotes, headers left out. */
export function ruleLines(spec: readonly string[]): Map<number, string[]> {
  const at = new Map<number, string[]>();
  for (const rule of RULES as readonly Rule[]) {
    const statement = specStatement(rule);
    if (!statement) continue;
    const section = statement.anchor.split('#')[1]!;
    const start = spec.findIndex((line) => /^#+ /.test(line) && slug(line) === section);
    const indices = statement.lines.map((text) => {
      const index = spec.findIndex((line, position) => position >= start && line === text);
      return index >= 0 ? index : spec.indexOf(text);
    }).filter((index) => index >= 0 && !isSeparator(spec[index]!) && !(spec[index]!.startsWith('|') && isSeparator(spec[index + 1] ?? '')));
    for (const index of indices.length > 0 ? indices : [start]) at.set(index, [...(at.get(index) ?? []), rule.id]);
  }
  return at;
}

function exchangeHtml(exchange: StoredExchange): string {
  const clip = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text);
  const form = exchange.form.map(([name, value]) => `<tr><th>${escape(name)}</th><td><code>${escape(clip(value, 300))}</code></td></tr>`).join('');
  const files = (exchange.files ?? []).map((file) => `<tr><th>${escape(file.field)}</th><td>file <code>${escape(file.filename)}</code>, ${file.bytes} bytes</td></tr>`).join('');
  const body = typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body);
  return `<div class="exchange"><div class="request"><code>${escape(exchange.method)} ${escape(exchange.path)}</code> <span class="as">as ${escape(exchange.as)}</span></div>${form || files ? `<table class="form">${form}${files}</table>` : ''}<div class="answer">→ <b>${exchange.status}</b> <code>${escape(clip(body, 600))}</code></div></div>`;
}

export interface ReportColumn {
  readonly label: string;
  readonly report: Report;
}

function supportHtml(rule: Rule, recorded: RecordedRule | undefined, reports: readonly ReportColumn[]): string {
  const cellsHtml = (recorded?.support ?? []).map((cell) => `<td class="${cell.status}" title="${escape(cell.message)}">${cell.status}</td>`);
  const heads = (recorded?.support ?? []).map((cell) => `<th>${cell.column === 'alternate' ? 'alternate dialect' : `reference ${cell.column}`}</th>`);
  for (const column of reports) {
    const result = column.report.rules.find((entry) => entry.id === rule.id);
    heads.push(`<th>${escape(column.label)}<br><small>level ${column.report.feature_level ?? '?'}</small></th>`);
    cellsHtml.push(result ? `<td class="${result.status}" title="${escape(result.message)}">${result.status}</td>` : '<td class="none">not run</td>');
  }
  if (heads.length === 0) return '';
  return `<table class="support"><tr>${heads.join('')}</tr><tr>${cellsHtml.join('')}</tr></table>`;
}

function ruleCard(rule: Rule, data: AnnotatedData, reports: readonly ReportColumn[], expectations: Expectations): string {
  const recorded = data.rules[rule.id];
  const zulip = expectations.expected_failures[rule.id];
  const zulipText = zulip === undefined ? null : typeof zulip === 'string' ? zulip : `${zulip.why} (levels ${zulip.levels?.[0]}–${zulip.levels?.[1] ?? ''})`;
  const parts = [
    `<article class="rule ${rule.severity}" id="${ruleAnchor(rule.id)}" data-search="${escape(`${rule.id} ${rule.title} ${rule.section}`.toLowerCase())}">`,
    `<header><a class="id" href="#${ruleAnchor(rule.id)}">${escape(rule.id)}</a> <span class="severity">${rule.severity}</span> <span class="levels">${levelsOf(rule)}</span></header>`,
    `<p>${inline(rule.title)}</p>`,
    supportHtml(rule, recorded, reports),
  ];
  if (rule.severity === 'decision' || zulipText) {
    parts.push('<table class="sides"><tr><th>Zulip\'s dialect (the reference)</th><th>alternate dialect</th><th>Zulip itself</th></tr><tr>',
      `<td>${inline(rule.severity === 'decision' ? `${rule.title}${rule.why ? ` ${rule.why}` : ''}` : 'keeps the rule')}</td>`,
      `<td>${inline(rule.severity === 'decision' ? rule.alternate ?? 'decides otherwise' : 'keeps the rule')}</td>`,
      `<td>${zulipText ? inline(zulipText) : rule.severity === 'decision' ? 'as Zulip\'s dialect: no difference recorded in <code>fixtures/expectations/zulip.json</code>' : 'keeps the rule'}</td></tr></table>`);
  }
  if (recorded && (recorded.passing.length > 0 || recorded.failing)) {
    parts.push('<details class="exchanges"><summary>A passing and a failing exchange</summary>');
    if (recorded.input) parts.push(`<p class="input">The case: <code>${escape(recorded.input.length > 400 ? `${recorded.input.slice(0, 400)}…` : recorded.input)}</code></p>`);
    if (recorded.passing.length > 0) parts.push('<h4 class="pass">The reference as it is</h4>', ...recorded.passing.map(exchangeHtml));
    if (recorded.failing) parts.push(`<h4 class="fail">With the seeded fault: ${inline(recorded.failing.fault)}</h4><p class="message">${escape(recorded.failing.message)}</p>`, ...recorded.failing.exchanges.map(exchangeHtml));
    parts.push('</details>');
  }
  parts.push('</article>');
  return parts.join('');
}

function readingCard(reading: (typeof READINGS)[number]): string {
  return `<aside class="reading"><h4>Open reading: ${inline(reading.topic)}</h4><blockquote>${inline(reading.spec)}</blockquote><ol>${reading.readings.map((text) => `<li>${inline(text)}</li>`).join('')}</ol>`
    + `<table class="sides"><tr><th>Zulip</th><th>the reference</th><th>alternate dialect</th><th>the suite accepts</th></tr><tr><td>${inline(reading.zulip)}</td><td>${inline(reading.reference ?? 'as Zulip')}</td><td>${inline(reading.alternate)}</td><td>${inline(reading.suite)}</td></tr></table>`
    + `<p class="rules">Rules: ${reading.rules.map((id) => `<a href="#${ruleAnchor(id)}">${id}</a>`).join(', ')}</p></aside>`;
}

const STYLE = `
:root { --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; --error: #8250df; --code: #f6f8fa; --note: #f6f8fa; --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --pass: #3fb950; --fail: #f85149; --skip: #d29922; --error: #a371f7; --code: #161b22; --note: #151b23; --accent: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; font: 17px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header.top { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); padding: .6rem 1.2rem; display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
header.top h1 { font-size: 1.1rem; margin: 0; }
#search { font: inherit; padding: .3rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); width: min(28rem, 100%); }
#results { max-width: 90rem; margin: 0 auto; padding: 0 1.2rem; }
#results:empty { display: none; }
#results a { display: block; padding: .1rem 0; }
main { max-width: 90rem; margin: 0 auto; padding: 1rem 1.2rem 4rem; }
.row { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1.5rem; border-top: 1px solid transparent; }
.row.annotated { border-top-color: var(--line); padding-top: .4rem; }
@media (max-width: 1000px) { .row { grid-template-columns: minmax(0, 1fr); } }
.spec { overflow-wrap: anywhere; }
.spec table { border-collapse: collapse; font-size: .9rem; width: 100%; }
.spec td, .spec th { border: 1px solid var(--line); padding: .2rem .4rem; vertical-align: top; }
.spec tr:target, .spec li:target, .spec p:target { outline: 2px solid var(--accent); }
.marks a { font-size: .75rem; margin-right: .3rem; white-space: nowrap; }
code { font: .88em ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--code); padding: 0 .2em; border-radius: 4px; overflow-wrap: anywhere; }
.notes { display: flex; flex-direction: column; gap: .6rem; min-width: 0; }
.rule, .reading, .statements { border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 6px; padding: .5rem .7rem; background: var(--note); font-size: .92rem; }
.rule.decision { border-left-color: var(--skip); }
.rule:target { outline: 3px solid var(--accent); }
.rule header { display: flex; gap: .6rem; flex-wrap: wrap; align-items: baseline; }
.rule .id { font-family: ui-monospace, monospace; font-weight: 600; overflow-wrap: anywhere; }
.severity, .levels { color: var(--muted); font-size: .85rem; }
.rule p { margin: .3rem 0; }
table.support, table.sides, table.form { border-collapse: collapse; margin: .3rem 0; font-size: .85rem; width: 100%; table-layout: fixed; }
table.support th, table.support td, table.sides th, table.sides td, table.form th, table.form td { border: 1px solid var(--line); padding: .15rem .35rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
table.form th { width: 9rem; font-weight: 500; }
td.pass { color: var(--pass); font-weight: 600; } td.fail { color: var(--fail); font-weight: 600; } td.skip, td.none { color: var(--skip); } td.error { color: var(--error); }
h4.pass { color: var(--pass); margin: .5rem 0 .2rem; } h4.fail { color: var(--fail); margin: .5rem 0 .2rem; }
.exchange { border-left: 2px solid var(--line); padding-left: .5rem; margin: .3rem 0; }
.answer code { white-space: pre-wrap; }
.as { color: var(--muted); font-size: .85rem; }
summary { cursor: pointer; color: var(--accent); }
blockquote { margin: .3rem 0; padding-left: .6rem; border-left: 3px solid var(--line); color: var(--muted); }
.statements ul { margin: .2rem 0; padding-left: 1.2rem; }
.gap { color: var(--fail); font-weight: 600; }
a { color: var(--accent); }
h1 a, h2 a, h3 a, h4 a { color: inherit; text-decoration: none; }
h1 a:hover, h2 a:hover, h3 a:hover { text-decoration: underline; }
nav.contents { columns: 3 16rem; font-size: .9rem; border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem; margin: 1rem 0; }
nav.contents a { display: block; }
nav.contents .sub { padding-left: 1rem; }
@media print { header.top { position: static; } #search, #results { display: none; } .row { grid-template-columns: 1fr 1fr; break-inside: avoid-page; } body { font-size: 11pt; } .rule, .reading { break-inside: avoid; } }
`;

const SCRIPT = `
const search = document.getElementById('search');
const results = document.getElementById('results');
const rules = [...document.querySelectorAll('article.rule')];
const lines = [...document.querySelectorAll('[data-line]')];
search.addEventListener('input', () => {
  const query = search.value.trim().toLowerCase();
  results.textContent = '';
  if (query.length < 2) return;
  const found = [];
  for (const rule of rules) if (rule.dataset.search.includes(query)) found.push(['#' + rule.id, rule.querySelector('.id').textContent + ': ' + rule.querySelector('p').textContent]);
  for (const line of lines) if (line.textContent.toLowerCase().includes(query)) found.push(['#' + line.id, 'spec: ' + line.textContent.slice(0, 140)]);
  for (const [href, text] of found.slice(0, 60)) {
    const link = document.createElement('a');
    link.href = href;
    link.textContent = text;
    results.append(link);
  }
  if (found.length === 0) results.textContent = 'Nothing matches ' + JSON.stringify(search.value) + '.';
});
search.addEventListener('keydown', (event) => { if (event.key === 'Enter') results.querySelector('a')?.click(); });
const openTarget = () => { const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1))); if (target) target.querySelectorAll('details').forEach((details) => (details.open = true)); };
addEventListener('hashchange', openTarget);
openTarget();
addEventListener('beforeprint', () => document.querySelectorAll('details').forEach((details) => (details.open = true)));
`;

/** The page, from the spec, the catalog, the recorded data, Zulip's expectations file and any reports. */
export function annotatedHtml(data: AnnotatedData, reports: readonly ReportColumn[] = [], spec: readonly string[] = readFileSync(SPEC_FILE, 'utf8').split('\n')): string {
  const expectations = JSON.parse(readFileSync(new URL('../../fixtures/expectations/zulip.json', import.meta.url), 'utf8')) as Expectations;
  const byLine = ruleLines(spec);
  const rules = new Map((RULES as readonly Rule[]).map((rule) => [rule.id, rule]));
  const readingsBySection = new Map<string, (typeof READINGS)[number][]>();
  for (const reading of READINGS) {
    const anchor = specStatement(rules.get(reading.rules[0]!)!)?.anchor.split('#')[1] ?? '';
    readingsBySection.set(anchor, [...(readingsBySection.get(anchor) ?? []), reading]);
  }
  const body: string[] = [];
  const contents: string[] = [];
  let section = '';
  let statementCount = 0;
  for (const block of blocksOf(spec)) {
    const noted = block.lines.flatMap((index) => byLine.get(index) ?? []);
    const id = (index: number) => `${section || 'top'}.${index + 1}`;
    const marks = (index: number) => (byLine.get(index) ?? []).map((ruleId) => `<a href="#${ruleAnchor(ruleId)}">${ruleId}</a>`).join('');
    let html = '';
    const extra: string[] = [];
    if (block.kind === 'heading') {
      const line = spec[block.lines[0]!]!;
      section = slug(line);
      const depth = Math.min(block.depth!, 4);
      html = `<h${depth} id="${section}"><a href="#${section}">${inline(line.replace(/^#+ /, ''))}</a></h${depth}>`;
      if (depth >= 2 && depth <= 3) contents.push(`<a${depth === 3 ? ' class="sub"' : ''} href="#${section}">${inline(line.replace(/^#+ /, ''))}</a>`);
      const heading = line.replace(/^#+ /, '').toLowerCase();
      const statements = STATEMENTS.filter((statement) => heading.includes(statement.section.replace(/^(Resources: |Endpoints )/, '').toLowerCase()) && statement.section.replace(/^(Resources: |Endpoints )/, '').length > 0 && block.depth! >= 2);
      if (statements.length > 0) {
        statementCount += statements.length;
        extra.push(`<details class="statements"><summary>${statements.length} statement${statements.length === 1 ? '' : 's'} of this section and their rules</summary><ul>${statements.map((statement) => `<li>${inline(statement.says)} ${statement.rules.length === 0 ? '<span class="gap">gap: no rule checks it</span>' : statement.rules.map((ruleId) => `<a href="#${ruleAnchor(ruleId)}">${ruleId}</a>`).join(', ')}</li>`).join('')}</ul></details>`);
      }
      extra.push(...(readingsBySection.get(section) ?? []).map(readingCard));
    } else if (block.kind === 'table') {
      const [head, ...rows] = block.lines;
      const headCells = cells(spec[head!]!).map((cell) => `<th>${inline(cell)}</th>`).join('');
      html = `<table><tr>${headCells}</tr>${rows.filter((index) => !isSeparator(spec[index]!)).map((index) => `<tr id="${id(index)}" data-line>${cells(spec[index]!).map((cell) => `<td>${inline(cell)}</td>`).join('')}${marks(index) ? `<td class="marks">${marks(index)}</td>` : ''}</tr>`).join('')}</table>`;
    } else if (block.kind === 'list') {
      const ordered = /^\d+\. /.test(spec[block.lines[0]!]!);
      html = `<${ordered ? 'ol' : 'ul'}>${block.lines.map((index) => `<li id="${id(index)}" data-line>${inline(spec[index]!.replace(/^\s*([-*]|\d+\.) /, ''))} <span class="marks">${marks(index)}</span></li>`).join('')}</${ordered ? 'ol' : 'ul'}>`;
    } else {
      html = block.lines.map((index) => `<p id="${id(index)}" data-line>${inline(spec[index]!)} <span class="marks">${marks(index)}</span></p>`).join('');
    }
    const cards = [...new Set(noted)].map((ruleId) => ruleCard(rules.get(ruleId)!, data, reports, expectations));
    const notes = [...extra, ...cards];
    body.push(`<div class="row${notes.length > 0 ? ' annotated' : ''}"><div class="spec">${html}</div><div class="notes">${notes.join('')}</div></div>`);
  }
  const shown = new Set([...byLine.values()].flat());
  const unplaced = (RULES as readonly Rule[]).filter((rule) => !shown.has(rule.id));
  if (unplaced.length > 0) body.push(`<div class="row annotated"><div class="spec"><h2 id="other-rules">Rules quoting no single statement</h2></div><div class="notes">${unplaced.map((rule) => ruleCard(rule, data, reports, expectations)).join('')}</div></div>`);
  const columns = reports.length > 0 ? ` Beside the reference: ${reports.map((column) => escape(column.label)).join(', ')}.` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>The team-chat API, annotated: teamchat-conformance</title><style>${STYLE}</style></head><body>
<header class="top"><h1>The team-chat API, annotated</h1><input id="search" type="search" placeholder="Find a rule ID, a parameter, an error code" aria-label="Search"><span class="as">${RULES.length} rules, ${statementCount} statements.${columns}</span></header>
<div id="results" role="list"></div>
<main>
<p class="as">The spec's text on the left; on the right, for each statement, the rules of <code>teamchat-conformance</code> that check it: their severity (<b>must</b>: the spec states it; <b>decision</b>: where the spec is silent, Zulip's choice), the feature levels they apply at, how the reference fares at each edge level and in its alternate dialect, and a passing and a failing exchange recorded from the reference when the page was built (the failing one with the rule's seeded fault). ${escape(data.note)}</p>
<nav class="contents" aria-label="Contents">${contents.join('')}</nav>
${body.join('\n')}
</main><script>${SCRIPT}</script></body></html>
`;
}
