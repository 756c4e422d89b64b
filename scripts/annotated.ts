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
import { exampleLevel, recordExamples, type RuleExamples, type Side } from '../conformance/examples.js';
import { exampleSteps, neededPrelude, rolesOf, type StepRole } from '../conformance/report/sides.js';
import type { Exchange } from '../conformance/run/client.js';
import { runSuite } from '../conformance/suite.js';
import { FAULTS } from '../reference/faults/faults.js';
import { MAX_FEATURE_LEVEL } from '../reference/model/levels.js';
import { startReference } from '../reference/http/server.js';
import { buildRealm, readFixture, targetProfile } from '../reference/http/boot.js';

/** Recording runs beside other work (npm test, a build): an event is given time to come, so that what is recorded does not depend on the load. */
const EVENT_WAIT_MS = 1500;

const SPEC_FILE = fileURLToPath(new URL('../../docs/spec.md', import.meta.url));

/** An exchange as the page keeps it: the path under the base URL, no credentials, no file bytes. */
export interface StoredExchange {
  /** What a step of the case is to the rule (the check's set-up carries none). */
  readonly role?: StepRole;
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

/** One side of a rule's example: the check's set-up the case needs, then the case's exchanges. */
export interface StoredSide {
  readonly prelude: StoredExchange[];
  readonly preludeLeftOut: number;
  readonly steps: StoredExchange[];
  /** Steps of the case after those shown, left out. */
  readonly stepsLeftOut?: number;
}

export interface RecordedRule {
  readonly input: string | null;
  readonly passing: StoredSide | null;
  readonly failing: (StoredSide & { readonly message: string; readonly fault: string }) | null;
  readonly support: SupportCell[];
}

export interface AnnotatedData {
  readonly note: string;
  readonly rules: Record<string, RecordedRule>;
}

/** The longest answer kept whole, in characters of JSON; a longer one keeps its first fields. */
const BODY_KEPT = 3000;

/** A long answer kept in its shape: each long text cut to its start and its length, long lists to their first items, then its first fields. */
function kept(body: unknown): unknown {
  const shorten = (value: unknown): unknown => {
    if (typeof value === 'string') return value.length > 300 ? `${value.slice(0, 120)}… (${value.length} characters)` : value;
    if (Array.isArray(value)) return value.length > 40 ? [...value.slice(0, 40).map(shorten), `… ${value.length - 40} more`] : value.map(shorten);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, shorten(entry)]));
    return value;
  };
  const short = shorten(body);
  if (JSON.stringify(short ?? null).length <= BODY_KEPT || short === null || typeof short !== 'object' || Array.isArray(short)) return short;
  const out: Record<string, unknown> = {};
  let size = 0;
  for (const [name, value] of Object.entries(short)) {
    size += JSON.stringify(value ?? null).length + name.length;
    if (size > BODY_KEPT) {
      out['…'] = `${Object.keys(short).length - Object.keys(out).length} more fields not kept`;
      break;
    }
    out[name] = value;
  }
  return out;
}

const store = (exchange: Exchange): StoredExchange => {
  const files = Object.entries(exchange.files ?? {}).map(([field, file]) => ({ field, filename: file.filename, bytes: file.data.length }));
  return {
    as: typeof exchange.as === 'string' ? exchange.as : exchange.as === null ? 'nobody' : 'forged credentials',
    method: exchange.method, path: new URL(exchange.url).pathname + new URL(exchange.url).search, form: exchange.form,
    ...(files.length > 0 ? { files } : {}), status: exchange.status, body: kept(exchange.body),
  };
};

const storeSide = (rule: Rule, side: Side): StoredSide => {
  const roles = rolesOf(rule, side.steps);
  return { prelude: side.prelude.map(store), preludeLeftOut: side.preludeLeftOut, steps: side.steps.map((step, index) => ({ role: roles[index]!, ...store(step) })), ...(side.stepsLeftOut ? { stepsLeftOut: side.stepsLeftOut } : {}) };
};

/** Steps shown after the one where the two sides part; without a parting, steps shown at most. */
const STEPS_AFTER_PARTING = 3;
const STEPS_AT_MOST = 24;

/**
 * The example as the page keeps it: each side's steps up to a few past the one where the two sides
 * part (or the first ones, where they do not), and of the check's set-up what those steps use.
 */
export function trimmedExample(rule: Rule, passing: Side | null, failing: Side | null): { passing: Side | null; failing: Side | null } {
  const { steps, at } = exampleSteps(rule, passing, failing);
  const end = Math.min(steps.length, at === null ? STEPS_AT_MOST : at + 1 + STEPS_AFTER_PARTING);
  const cut = (side: Side | null, which: 'a' | 'b'): Side | null => {
    if (!side) return null;
    const kept = new Set(steps.slice(0, end).map((step) => step[which]).filter((step) => step !== null));
    const stepsKept = side.steps.filter((step) => kept.has(step));
    const prelude = neededPrelude(side.prelude, stepsKept);
    return { prelude, preludeLeftOut: side.prelude.length + side.preludeLeftOut - prelude.length, steps: stepsKept, stepsLeftOut: side.steps.length - stepsKept.length };
  };
  return { passing: cut(passing, passing ? 'a' : 'b'), failing: cut(failing, passing ? 'b' : 'a') };
}

/** A stored exchange as the comparisons read exchanges: its path under a base URL. */
export const asExchange = (stored: StoredExchange): Exchange => ({ ...stored, url: `http://reference${stored.path}` }) as unknown as Exchange;
export const asSide = (stored: StoredSide): Side => ({ prelude: stored.prelude.map(asExchange), preludeLeftOut: stored.preludeLeftOut, steps: stored.steps.map(asExchange) });

/** The organization the reference boots with, as the page introduces it: who and what each ID it has from the start names. */
export function organization(): { readonly users: Array<{ id: number; name: string; email: string; role: string }>; readonly channels: Array<{ id: number; name: string }>; readonly ids: Set<string> } {
  const fixture = readFixture();
  const realm = buildRealm(fixture, MAX_FEATURE_LEVEL, new Set());
  const roles = Object.fromEntries(Object.entries(fixture.profile).map(([role, email]) => [email, role]));
  const users = [...realm.users.values()].map((user) => ({ id: user.id, name: user.fullName, email: user.email, role: roles[user.email] ?? (user.isBot ? 'bot' : user.role) }));
  const channels = [...realm.channels.values()].map((channel) => ({ id: channel.id, name: channel.name }));
  const ids = new Set([...users.map((user) => user.id), ...channels.map((channel) => channel.id), ...realm.profileFields.keys(), ...realm.userGroups.map((group) => group.id)].map(String));
  return { users, channels, ids };
}

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
  const shown = trimmedExample(rule, examples.passing, examples.failing);
  return {
    input: examples.input,
    passing: shown.passing ? storeSide(rule, shown.passing) : null,
    failing: shown.failing && examples.failing ? { message: examples.failing.message, fault: examples.failing.fault, ...storeSide(rule, shown.failing) } : null,
    support,
  };
}

export { normalised } from '../conformance/report/compare.js';

// ---- The page -------------------------------------------------------------------------------

/** Who and what the IDs of the organization every reference starts with name: the examples use them. */
function organizationHtml(): string {
  const { users, channels } = organization();
  return `<details class="organization"><summary>The organization every reference starts with, whose IDs the examples use</summary>`
    + `<table><tr><th>user ID</th><th>name</th><th>email</th><th>in the profile</th></tr>${users.map((user) => `<tr><td>${user.id}</td><td>${escape(user.name)}</td><td>${escape(user.email)}</td><td>${escape(user.role)}</td></tr>`).join('')}</table>`
    + `<table><tr><th>channel ID</th><th>name</th></tr>${channels.map((channel) => `<tr><td>${channel.id}</td><td>${escape(channel.name)}</td></tr>`).join('')}</table></details>`;
}

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

const clip = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text);

/** A JSON value as HTML, the fields at the marked paths highlighted, at most about `budget.left` characters. */
function jsonHtml(value: unknown, path: string, marks: ReadonlySet<string>, budget: { left: number }): string {
  if (budget.left <= 0) return '…';
  const marked = (html: string) => (marks.has(path) || marks.has(`${path}.length`) ? `<mark>${html}</mark>` : html);
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const [index, entry] of value.entries()) {
      if (budget.left <= 0) {
        items.push(`… ${value.length - index} more`);
        break;
      }
      items.push(jsonHtml(entry, `${path}[${index}]`, marks, budget));
    }
    return marked(`[${items.join(', ')}]`);
  }
  if (value !== null && typeof value === 'object') {
    const fields: string[] = [];
    const entries = Object.entries(value);
    for (const [index, [name, entry]] of entries.entries()) {
      if (budget.left <= 0) {
        fields.push(`… ${entries.length - index} more`);
        break;
      }
      budget.left -= name.length + 3;
      // A field that differs shows its name marked too; its value marks itself.
      const key = escape(JSON.stringify(name));
      fields.push(`${marks.has(`${path}.${name}`) ? `<mark>${key}</mark>` : key}: ${jsonHtml(entry, `${path}.${name}`, marks, budget)}`);
    }
    return marked(`{${fields.join(', ')}}`);
  }
  const text = JSON.stringify(value) ?? 'null';
  const shown = clip(text, Math.max(40, budget.left));
  budget.left -= shown.length;
  return marked(escape(shown));
}

/** One exchange: the request as the user it was sent as, its parameters, and the answer; the fields at `marks` highlighted. */
function exchangeHtml(exchange: StoredExchange, marks: ReadonlySet<string> = new Set()): string {
  const formMarked = (name: string) => [...marks].some((mark) => mark === `form.${name}` || mark.startsWith(`form.${name}.`) || mark.startsWith(`form.${name}[`));
  const form = exchange.form.map(([name, value]) => `<tr${formMarked(name) ? ' class="differs"' : ''}><th>${escape(name)}</th><td><code>${escape(clip(value, 300))}</code></td></tr>`).join('');
  const files = (exchange.files ?? []).map((file) => `<tr><th>${escape(file.field)}</th><td>file <code>${escape(file.filename)}</code>, ${file.bytes} bytes</td></tr>`).join('');
  const body = typeof exchange.body === 'string' ? escape(clip(exchange.body, 600)) : jsonHtml(exchange.body, 'body', marks, { left: 700 });
  const status = marks.has('status') ? `<mark>${exchange.status}</mark>` : String(exchange.status);
  const request = marks.has('request') ? `<mark>${escape(exchange.method)} ${escape(exchange.path)}</mark>` : `${escape(exchange.method)} ${escape(exchange.path)}`;
  return `<div class="exchange"><div class="request"><code>${request}</code> <span class="as">as ${escape(exchange.as)}</span></div>${form || files ? `<table class="form">${form}${files}</table>` : ''}<div class="answer">→ <b>${status}</b> <code class="json">${body}</code></div></div>`;
}

const ROLE_WORDS: Record<StepRole, string> = { 'set-up': 'set-up', request: 'the request', observation: 'what is observed' };

/** A rule's example: the case, the check's set-up, then each step on both sides where they differ, the step where they part marked. */
function stepsHtml(rule: Rule, recorded: RecordedRule): string {
  const passing = recorded.passing;
  const failing = recorded.failing;
  const parts: string[] = [];
  if (recorded.input) parts.push(`<p class="input">The case: <code>${escape(recorded.input.length > 400 ? `${recorded.input.slice(0, 400)}…` : recorded.input)}</code></p>`);
  if (failing) parts.push(`<p class="fault">With the seeded fault, <em>${inline(failing.fault)}</em>, the rule fails: <span class="message">${escape(failing.message)}</span></p>`);
  const prelude = passing?.prelude ?? failing?.prelude ?? [];
  const leftOut = passing?.preludeLeftOut ?? failing?.preludeLeftOut ?? 0;
  if (prelude.length > 0) parts.push(`<details class="prelude"><summary>The check's set-up: ${prelude.length} request${prelude.length === 1 ? '' : 's'} that made what the case uses${leftOut > 0 ? ` (${leftOut} more made nothing it uses)` : ''}</summary>${prelude.map((exchange) => exchangeHtml(exchange)).join('')}</details>`);
  // The stored exchanges, by the exchanges the comparison reads.
  const back = new Map<Exchange, StoredExchange>();
  const read = (side: StoredSide | null): Side | null => {
    if (!side) return null;
    const made = asSide(side);
    made.steps.forEach((step, index) => back.set(step, side.steps[index]!));
    return made;
  };
  const { steps, at } = exampleSteps(rule, read(passing), read(failing));
  const items: string[] = [];
  for (const [index, step] of steps.entries()) {
    const a = step.a ? back.get(step.a)! : null;
    const b = step.b ? back.get(step.b)! : null;
    const role = `<span class="role">${ROLE_WORDS[step.role]}</span>`;
    if (step.differences.length === 0) {
      items.push(`<li class="step">${role}${passing && failing ? ' <span class="both">on both sides</span>' : ''}${exchangeHtml((a ?? b)!)}</li>`);
      continue;
    }
    const marks = new Set(step.differences.map((difference) => difference.at));
    const partsHere = at === index;
    items.push(`<li class="step differs${partsHere ? ' parts' : ''}">${role}${partsHere ? ' <span class="part">the two sides part here</span>' : ''}`
      + `<div class="pair"><div class="side pass"><h5>the reference as it is</h5>${a ? exchangeHtml(a, marks) : '<p class="none">no such step on this side</p>'}</div>`
      + `<div class="side fail"><h5>with the seeded fault</h5>${b ? exchangeHtml(b, marks) : '<p class="none">no such step on this side: the check stopped at the failure</p>'}</div></div></li>`);
  }
  const stepsLeftOut = Math.max(passing?.stepsLeftOut ?? 0, failing?.stepsLeftOut ?? 0);
  parts.push(`<ol class="steps">${items.join('')}</ol>`);
  if (stepsLeftOut > 0) parts.push(`<p class="as">${stepsLeftOut} more step${stepsLeftOut === 1 ? '' : 's'} of the case left out here (<code>--explain ${escape(rule.id)}</code> shows them all).</p>`);
  return parts.join('');
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
    `<header><a class="id" href="#${ruleAnchor(rule.id)}">${escape(rule.id).replace(/([.-])/g, '$1<wbr>')}</a> <span class="severity">${rule.severity}</span> <span class="levels">${levelsOf(rule)}</span></header>`,
    `<p>${inline(rule.title)}</p>`,
    supportHtml(rule, recorded, reports),
  ];
  if (rule.severity === 'decision' || zulipText) {
    parts.push('<table class="sides"><tr><th>Zulip\'s dialect (the reference)</th><th>alternate dialect</th><th>Zulip itself</th></tr><tr>',
      `<td>${inline(rule.severity === 'decision' ? `${rule.title}${rule.why ? ` ${rule.why}` : ''}` : 'keeps the rule')}</td>`,
      `<td>${inline(rule.severity === 'decision' ? rule.alternate ?? 'decides otherwise' : 'keeps the rule')}</td>`,
      `<td>${zulipText ? inline(zulipText) : rule.severity === 'decision' ? 'as Zulip\'s dialect: no difference recorded in <code>fixtures/expectations/zulip.json</code>' : 'keeps the rule'}</td></tr></table>`);
  }
  if (recorded && (recorded.passing || recorded.failing)) {
    parts.push(`<details class="exchanges"><summary>The rule at work: one case${recorded.failing ? ', as the reference answers it and with the rule\'s seeded fault' : ''}</summary>`, stepsHtml(rule, recorded), '</details>');
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
:root { --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; --error: #8250df; --code: #f6f8fa; --note: #f6f8fa; --accent: #0969da; --mark: #fff8c5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --pass: #3fb950; --fail: #f85149; --skip: #d29922; --error: #a371f7; --code: #161b22; --note: #151b23; --accent: #4493f8; --mark: #4a3b00; } }
* { box-sizing: border-box; }
body { margin: 0; font: 17px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header.top { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); padding: .6rem 1.2rem; display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
header.top h1 { font-size: 1.1rem; margin: 0; }
#search { font: inherit; padding: .3rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); width: min(28rem, 100%); }
#results { max-width: 90rem; margin: 0 auto; padding: 0 1.2rem; }
#results:empty { display: none; }
#results a { display: block; padding: .1rem 0; overflow-wrap: anywhere; }
main { max-width: 90rem; margin: 0 auto; padding: 1rem 1.2rem 4rem; }
.row { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1.5rem; border-top: 1px solid transparent; }
.row.annotated { border-top-color: var(--line); padding-top: .4rem; }
/* A wide table takes the whole width, its notes under it. */
.row.wide { grid-template-columns: minmax(0, 1fr); }
@media (max-width: 1000px) { .row { grid-template-columns: minmax(0, 1fr); } }
/* A short statement stays in view while its notes scroll past. */
.row > .spec { overflow-wrap: break-word; align-self: start; }
.row.annotated.short:not(.wide) > .spec { position: sticky; top: 3.6rem; }
@media (max-width: 1000px) { .row.annotated.short > .spec { position: static; } }
[id] { scroll-margin-top: 4.5rem; }
/* On a phone the bar takes too much height to stay. */
@media (max-width: 700px) { header.top { position: static; } [id] { scroll-margin-top: .5rem; } }
.table { overflow-x: auto; }
.spec table { border-collapse: collapse; font-size: .9rem; width: 100%; }
.spec td code, .spec th code { overflow-wrap: normal; word-break: normal; }
.spec td, .spec th { border: 1px solid var(--line); padding: .2rem .4rem; vertical-align: top; }
.spec tr:target, .spec li:target, .spec p:target { outline: 2px solid var(--accent); }
.marks a { font-size: .75rem; margin-right: .3rem; white-space: nowrap; }
code { font: .88em ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--code); padding: 0 .2em; border-radius: 4px; overflow-wrap: break-word; }
.exchange code { overflow-wrap: anywhere; }
.notes { display: flex; flex-direction: column; gap: .6rem; min-width: 0; }
.rule, .reading, .statements { border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 6px; padding: .5rem .7rem; background: var(--note); font-size: .92rem; }
.rule.decision { border-left-color: var(--skip); }
.rule:target { outline: 3px solid var(--accent); }
.rule header { display: flex; gap: .6rem; flex-wrap: wrap; align-items: baseline; }
.rule, .reading { overflow-wrap: anywhere; min-width: 0; }
.rule .id { font-family: ui-monospace, monospace; font-weight: 600; overflow-wrap: normal; }
.severity, .levels { color: var(--muted); font-size: .85rem; }
.rule p { margin: .3rem 0; }
table.support, table.sides, table.form { border-collapse: collapse; margin: .3rem 0; font-size: .85rem; width: 100%; table-layout: fixed; }
table.support th, table.support td, table.sides th, table.sides td, table.form th, table.form td { border: 1px solid var(--line); padding: .15rem .35rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
table.form th { width: 9rem; font-weight: 500; }
td.pass { color: var(--pass); font-weight: 600; } td.fail { color: var(--fail); font-weight: 600; } td.skip, td.none { color: var(--skip); } td.error { color: var(--error); }
h4.pass { color: var(--pass); margin: .5rem 0 .2rem; } h4.fail { color: var(--fail); margin: .5rem 0 .2rem; }
.exchange { border-left: 2px solid var(--line); padding-left: .5rem; margin: .3rem 0; min-width: 0; }
ol.steps { padding-left: 1.4rem; margin: .4rem 0; }
.step { margin: .4rem 0; }
.step .role { font-weight: 600; font-size: .85rem; }
.step .both { color: var(--muted); font-size: .8rem; }
.step.parts { outline: 2px solid var(--fail); outline-offset: 3px; border-radius: 4px; }
.step .part { color: var(--fail); font-weight: 600; font-size: .85rem; }
.pair { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: .6rem; }
@media (max-width: 700px) { .pair { grid-template-columns: minmax(0, 1fr); } }
.side h5 { margin: .2rem 0; font-size: .8rem; }
.side.pass h5 { color: var(--pass); } .side.fail h5 { color: var(--fail); }
.side .none { color: var(--muted); font-style: italic; font-size: .85rem; }
mark { background: var(--mark); color: inherit; border-radius: 3px; }
tr.differs th, tr.differs td { background: var(--mark); }
.fault .message { color: var(--fail); }
details.prelude > summary { font-size: .85rem; }
.try-bar { margin: .4rem 0; } button { font: inherit; cursor: pointer; border: 1px solid var(--line); background: var(--bg); color: var(--fg); border-radius: 6px; padding: .15rem .6rem; }
button.try-it, button.send { border-color: var(--accent); color: var(--accent); }
ol.try-steps { padding-left: 1.4rem; } .try-step { margin: .5rem 0; } .try-step.request { border-left: 3px solid var(--accent); padding-left: .4rem; }
.try-step label { display: grid; grid-template-columns: 9rem minmax(0, 1fr); gap: .4rem; margin: .15rem 0; font-size: .85rem; }
.try-step input, .try-step textarea, .try-step select { font: .85rem ui-monospace, monospace; background: var(--code); color: var(--fg); border: 1px solid var(--line); border-radius: 4px; width: 100%; min-width: 0; }
.try-step input.path { width: auto; min-width: 12rem; max-width: 100%; }
.live code { white-space: pre-wrap; overflow-wrap: anywhere; } b.differs { color: var(--fail); } b.same { color: var(--pass); }
.organization { font-size: .88rem; }
.organization table { border-collapse: collapse; } .organization td, .organization th { border: 1px solid var(--line); padding: .1rem .4rem; text-align: left; }
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
  const textOf = (line) => (line.tagName === 'TR' ? [...line.cells].map((cell) => cell.textContent.trim()).filter(Boolean).join(' | ') : line.textContent.trim());
  for (const line of lines) if (textOf(line).toLowerCase().includes(query)) found.push(['#' + line.id, 'spec: ' + textOf(line).slice(0, 140)]);
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

// Try it: on the page a reference serves, each example's steps can be sent to that reference as
// the profile's users (POST /reference/try: the page holds no API key), their parameters edited,
// each live answer beside the recorded one; IDs the reference gives now stand in for the recorded ones.
const live = document.body.dataset.live === '1';
const ID_KEY = /(^|_)ids?$|^(to|messages|stream_id|user_ids)$/;
let recorded = null;
const examples = () => (recorded ??= fetch('annotated.json').then((answer) => answer.json()));
const tryHeaders = { 'X-Teamchat-Try': '1' };
const send = (fields) => fetch('reference/try', { method: 'POST', headers: tryHeaders, body: new URLSearchParams(fields) }).then((answer) => answer.json());
// A small whole PNG (one pixel): what a tried upload sends, the recorded bytes not being kept.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const isId = (value) => (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && value.length > 0);
/** What the recorded answer and the live one give at the same places under an ID's name: recorded → live. */
function learn(a, b, ids, key) {
  if (ID_KEY.test(key || '') && isId(a) && isId(b) && typeof a === typeof b) { if (!ids.has(String(a))) ids.set(String(a), String(b)); return; }
  if (Array.isArray(a) && Array.isArray(b)) { for (let i = 0; i < Math.min(a.length, b.length); i++) learn(a[i], b[i], ids, key); return; }
  if (a && b && typeof a === 'object' && typeof b === 'object') for (const name of Object.keys(a)) if (name in b) learn(a[name], b[name], ids, name);
}
function mapValue(value, ids, key) {
  if (ID_KEY.test(key || '') && isId(value) && ids.has(String(value))) return typeof value === 'number' ? Number(ids.get(String(value))) : ids.get(String(value));
  if (Array.isArray(value)) return value.map((entry) => mapValue(entry, ids, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, mapValue(entry, ids, name)]));
  return value;
}
function mapText(text, name, ids, prefix) {
  const renamed = text.replace(/tcc[0-9a-f]{8}/g, prefix);
  if (!/^[\\[{\\d]/.test(renamed)) return renamed;
  try { return JSON.stringify(mapValue(JSON.parse(renamed), ids, name)); } catch { return renamed; }
}
const mapPath = (path, ids, prefix) => path.replace(/tcc[0-9a-f]{8}/g, prefix).split('/').map((segment) => (/^\\d+$/.test(segment) && ids.has(segment) ? ids.get(segment) : segment)).join('/');
const element = (tag, attributes, ...children) => {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
  made.append(...children);
  return made;
};
const shown = (value) => { const text = typeof value === 'string' ? value : JSON.stringify(value); return text.length > 1500 ? text.slice(0, 1500) + '… (' + text.length + ' characters)' : text; };

async function openTry(article, holder) {
  holder.textContent = 'Loading the example…';
  const data = await examples();
  const entry = data.rules[article.id.replace(/^rule-/, '')];
  const side = entry && entry.passing;
  holder.textContent = '';
  if (!side) { holder.append('This rule has no recorded example to try.'); return; }
  const steps = [...side.prelude.map((step) => ({ ...step, role: 'set-up' })), ...side.steps];
  const list = element('ol', { class: 'try-steps' });
  const rows = steps.map((step, index) => {
    const as = element('select', { 'aria-label': 'as' }, ...['admin', 'member', 'other', 'nobody', 'forged credentials'].map((name) => element('option', name === step.as ? { selected: '' } : {}, name)));
    const path = element('input', { class: 'path', value: step.path, 'aria-label': 'path' });
    const fields = step.form.map(([name, value]) => {
      const box = element(value.length > 60 ? 'textarea' : 'input', { 'aria-label': name, 'data-name': name, rows: '3' });
      box.value = value;
      return { name, value, box, label: element('label', {}, element('span', {}, name), box) };
    });
    const files = (step.files || []).map((file) => element('p', { class: 'as' }, 'file part ' + file.field + ': a one-pixel PNG is sent (the recorded ' + file.filename + ' had ' + file.bytes + ' bytes)'));
    const answer = element('div', { class: 'live' });
    const item = element('li', { class: 'try-step ' + step.role }, element('div', {}, element('b', {}, step.role === 'request' ? 'the request' : step.role === 'observation' ? 'what is observed' : 'set-up'), ' ', step.method, ' ', path, ' as ', as), ...fields.map((field) => field.label), ...files, answer);
    list.append(item);
    return { step, as, path, fields, answer, index };
  });
  const go = element('button', { type: 'button', class: 'send' }, 'Send these steps to this reference');
  holder.append(element('p', { class: 'as' }, 'The example\\'s ' + steps.length + ' steps, sent in order as the profile\\'s users; edit any path or parameter first. The reference gives new IDs: an unedited step uses the ones it gave. ', element('a', { href: '#', class: 'reset-link' }, 'Reset the organization'), ' puts it back as the reference started.'), list, go);
  go.addEventListener('click', async () => {
    go.disabled = true;
    const prefix = 'tcc' + Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, '0')).join('');
    const ids = new Map();
    for (const row of rows) {
      row.answer.textContent = '…';
      const path = row.path.value === row.step.path ? mapPath(row.step.path, ids, prefix) : row.path.value;
      const form = row.fields.map((field) => [field.name, field.box.value === field.value ? mapText(field.value, field.name, ids, prefix) : field.box.value]);
      const files = (row.step.files || []).map((file) => ({ field: file.field, filename: 'pixel.png', type: 'image/png', base64: PIXEL }));
      let result;
      try {
        result = await send({ as: row.as.value, method: row.step.method, path, form: JSON.stringify(form), files: JSON.stringify(files) });
      } catch (error) {
        row.answer.textContent = 'Could not reach the reference: ' + error.message;
        break;
      }
      if (result.result !== 'success') { row.answer.textContent = 'Try it refused: ' + result.msg; break; }
      learn(row.step.body, result.answer, ids, '');
      const same = result.status === row.step.status;
      row.answer.replaceChildren(element('div', {}, '→ now ', element('b', { class: same ? 'same' : 'differs' }, String(result.status)), ' ', element('code', { class: 'json' }, shown(result.answer))),
        element('div', { class: 'as' }, 'recorded: ' + row.step.status + ' ' + shown(row.step.body).slice(0, 300)));
    }
    go.disabled = false;
  });
}

async function resetOrganization(note) {
  const answer = await fetch('reference/reset', { method: 'POST', headers: tryHeaders }).then((response) => response.json());
  note.textContent = answer.result === 'success' ? 'The organization is as the reference started it.' : 'Reset refused: ' + answer.msg;
}

for (const details of document.querySelectorAll('article.rule details.exchanges')) {
  const article = details.closest('article.rule');
  const holder = element('div', { class: 'try' });
  if (live) {
    const button = element('button', { type: 'button', class: 'try-it' }, 'Try it');
    button.addEventListener('click', () => openTry(article, holder).catch((error) => (holder.textContent = 'Try it failed: ' + error.message)));
    details.append(element('div', { class: 'try-bar' }, button), holder);
  } else {
    details.append(element('p', { class: 'as' }, 'To try this example, start a reference (npm start) and open ', element('code', {}, 'http://127.0.0.1:9991/#' + article.id), ': its page sends the steps to it.'));
  }
}
if (live) {
  const note = element('span', { class: 'as', role: 'status' });
  const reset = element('button', { type: 'button', id: 'reset' }, 'Reset the organization');
  reset.addEventListener('click', () => resetOrganization(note));
  document.querySelector('header.top').append(reset, note);
  document.addEventListener('click', (event) => { if (event.target.classList && event.target.classList.contains('reset-link')) { event.preventDefault(); resetOrganization(note); } });
}
`;

/** The page, from the spec, the catalog, the recorded data, Zulip's expectations file and any reports. */
export function annotatedHtml(data: AnnotatedData, reports: readonly ReportColumn[] = [], spec: readonly string[] = readFileSync(SPEC_FILE, 'utf8').split('\n')): string {
  const expectations = JSON.parse(readFileSync(new URL('../../fixtures/expectations/zulip.json', import.meta.url), 'utf8')) as Expectations;
  const byLine = ruleLines(spec);
  const firstLine = new Map<string, number>();
  for (const [index, ids] of [...byLine.entries()].sort((a, b) => a[0] - b[0])) for (const id of ids) if (!firstLine.has(id)) firstLine.set(id, index);
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
      const headCells = cells(spec[head!]!).map((cell) => `<th>${inline(cell)}</th>`).join('') + (rows.some((index) => marks(index)) ? '<th class="marks">rules</th>' : '');
      html = `<div class="table"><table><tr>${headCells}</tr>${rows.filter((index) => !isSeparator(spec[index]!)).map((index) => `<tr id="${id(index)}" data-line>${cells(spec[index]!).map((cell) => `<td>${inline(cell)}</td>`).join('')}${marks(index) ? `<td class="marks">${marks(index)}</td>` : ''}</tr>`).join('')}</table></div>`;
    } else if (block.kind === 'list') {
      const ordered = /^\d+\. /.test(spec[block.lines[0]!]!);
      html = `<${ordered ? 'ol' : 'ul'}>${block.lines.map((index) => `<li id="${id(index)}" data-line>${inline(spec[index]!.replace(/^\s*([-*]|\d+\.) /, ''))} <span class="marks">${marks(index)}</span></li>`).join('')}</${ordered ? 'ol' : 'ul'}>`;
    } else {
      html = block.lines.map((index) => `<p id="${id(index)}" data-line>${inline(spec[index]!)} <span class="marks">${marks(index)}</span></p>`).join('');
    }
    // A rule's card stands beside the first line it quotes; its other lines link to it.
    const cards = [...new Set(noted)].filter((ruleId) => block.lines.includes(firstLine.get(ruleId)!)).map((ruleId) => ruleCard(rules.get(ruleId)!, data, reports, expectations));
    const notes = [...extra, ...cards];
    // A table of five columns or more (the errors, the transitions) takes the whole width.
    const wide = block.kind === 'table' && cells(spec[block.lines[0]!]!).length >= 5;
    const short = block.lines.length <= 8;
    body.push(`<div class="row${notes.length > 0 ? ' annotated' : ''}${wide ? ' wide' : ''}${short ? ' short' : ''}"><div class="spec">${html}</div><div class="notes">${notes.join('')}</div></div>`);
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
${organizationHtml()}
<nav class="contents" aria-label="Contents">${contents.join('')}</nav>
${body.join('\n')}
</main><script>${SCRIPT}</script></body></html>
`;
}
