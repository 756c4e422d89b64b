// --explain RULE: the rule, the spec's words it comes from, its levels and severity, why a
// decision was taken (and what the alternate dialect does instead), and a request that passes
// and one that fails, taken from the reference run without and with the rule's seeded fault.

import { readFileSync } from 'node:fs';
import { answerLine, curlLine, type Exchange } from './client.js';
import { RULES, type Rule } from './rules.js';

const SPEC = new URL('../../docs/spec.md', import.meta.url);

let spec: string[] | null = null;
function specLines(): string[] {
  try {
    spec ??= readFileSync(SPEC, 'utf8').split('\n');
  } catch {
    spec = [];
  }
  return spec;
}

/** A heading's anchor as GitHub and most Markdown renderers make it: stable while the heading is. */
export const slug = (heading: string) => heading.replace(/^#+\s*/, '').toLowerCase().replace(/[^a-z0-9 _-]/g, '').trim().replace(/ /g, '-');

interface Section {
  readonly heading: string;
  readonly start: number;
  readonly end: number;
}

/** The spec's sections a rule's `section` names ("Endpoints 5. Create drafts; Errors"). */
function sectionsOf(rule: Rule, lines: readonly string[]): Section[] {
  const found: Section[] = [];
  for (const part of rule.section.split(';')) {
    const name = part.replace(/\(.*?\)/g, '').replace(/^\s*(Endpoints|Resources:)\s*/, '').replace(/ (and|with) .*$/, '').trim().toLowerCase();
    if (!name) continue;
    // "Limits: Channel draft audience" is the section Limits.
    const heading = (wanted: string) => lines.findIndex((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '').toLowerCase().includes(wanted));
    const at = heading(name) >= 0 ? heading(name) : heading(name.split(':')[0]!.trim());
    if (at < 0 || found.some((section) => section.start === at)) continue;
    const depth = /^#+/.exec(lines[at]!)![0].length;
    const end = lines.findIndex((line, index) => index > at && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= depth);
    found.push({ heading: lines[at]!, start: at, end: end < 0 ? lines.length : end });
  }
  return found;
}

/** Where in docs/spec.md the rule comes from: its first section's anchor. */
export function specAnchor(rule: Rule): string | null {
  const [section] = sectionsOf(rule, specLines());
  return section ? `docs/spec.md#${slug(section.heading)}` : null;
}

const STOP = new Set(['with', 'that', 'this', 'from', 'when', 'each', 'every', 'their', 'which', 'into', 'than', 'then', 'does', 'only', 'nothing', 'refused', 'created', 'level', 'feature', 'server']);
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z_]{4,}/g)?.filter((word) => !STOP.has(word)) ?? []);

/**
 * The statement the rule comes from: the line (a table row with its header, a sentence, a
 * bullet) of its sections that shares most words with the rule, and the next best if close.
 */
export function specStatement(rule: Rule): { anchor: string; lines: string[] } | null {
  const lines = specLines();
  const sections = sectionsOf(rule, lines);
  if (sections.length === 0) return null;
  const wanted = words(`${rule.title} ${rule.section}`);
  const scored = sections.flatMap((section) => lines.slice(section.start + 1, section.end).map((line, offset) => {
    const shared = [...words(line)].filter((word) => wanted.has(word)).length;
    return { section, at: section.start + 1 + offset, score: /^\|[- |]+\|$/.test(line) ? 0 : shared };
  })).filter((line) => line.score > 0).sort((a, b) => b.score - a.score || a.at - b.at);
  const best = scored[0];
  if (!best) return { anchor: `docs/spec.md#${slug(sections[0]!.heading)}`, lines: [sections[0]!.heading] };
  const picked = [best, ...scored.slice(1, 2).filter((line) => line.score >= best.score * 0.75 && line.section === best.section)].sort((a, b) => a.at - b.at);
  // A table row comes with its table's header and separator, in the spec's order.
  const shown = new Set<number>();
  for (const { at } of picked) {
    if (lines[at]!.startsWith('|')) {
      let header = at;
      while (header > 0 && lines[header - 1]!.startsWith('|')) header--;
      shown.add(header).add(header + 1);
    }
    shown.add(at);
  }
  const quoted = [...shown].sort((a, b) => a - b).map((index) => lines[index]!);
  return { anchor: `docs/spec.md#${slug(best.section.heading)}`, lines: quoted };
}

const levels = (rule: Rule) => (rule.before !== undefined ? `feature levels ${rule.since} to ${rule.before - 1}` : `feature level ${rule.since} and above`);

const exchange = (item: Exchange) => `    ${curlLine(item)}\n      ${answerLine(item)}`;

/** The path of each area's operation, whose requests a rule of the area is about. */
const AREA_PATHS: Record<string, string> = {
  drafts: '/drafts', flags: '/messages/flags', scheduled: '/scheduled_messages', reminders: '/reminders',
  emoji: '/realm/emoji', fields: '/realm/profile_fields', defaults: '/realm/user_settings_defaults', typing: '/typing',
};

/** The requests of the rule's own operation that change something (not listings, queues or set-up). */
export function operationsOf(rule: Rule, exchanges: readonly Exchange[]): Exchange[] {
  const changes = exchanges.filter((item) => item.method !== 'GET' && item.method !== 'DELETE' && !/\/(register|events)$/.test(item.url));
  const path = AREA_PATHS[rule.id.split('.')[0]!];
  const own = path ? changes.filter((item) => new URL(item.url).pathname.includes(path)) : [];
  return own.length > 0 ? own : changes;
}

/**
 * The exchange a passing run shows: an operation of the rule's own, the plainest one (fewest
 * characters outside ASCII, then the shortest), or else the last exchange.
 */
export function thatMatters(rule: Rule, exchanges: readonly Exchange[]): Exchange[] {
  const operations = operationsOf(rule, exchanges);
  if (operations.length === 0) return exchanges.slice(-1);
  const plainness = (item: Exchange) => {
    const text = JSON.stringify(item.form);
    return [text.replace(/[\x20-\x7e]/g, '').length, text.length] as const;
  };
  const [plainest] = [...operations].sort((a, b) => plainness(a)[0] - plainness(b)[0] || plainness(a)[1] - plainness(b)[1]);
  return [plainest!];
}

export interface Examples {
  readonly passing: readonly Exchange[];
  readonly failing: { readonly message: string; readonly exchanges: readonly Exchange[]; readonly fault: string } | null;
}

export function findRule(id: string): Rule | string {
  const rule = (RULES as readonly Rule[]).find((candidate) => candidate.id === id);
  if (rule) return rule;
  const near = (RULES as readonly Rule[]).filter((candidate) => candidate.id.includes(id) || id.includes(candidate.id.split('.')[0]!)).map((candidate) => candidate.id).slice(0, 12);
  return `no rule ${JSON.stringify(id)}${near.length ? `; rules that look like it: ${near.join(', ')}` : ''}`;
}

export function explanation(rule: Rule, examples: Examples | null): string {
  const lines = [
    `${rule.id}`,
    `  ${rule.title}`,
    '',
    `  severity: ${rule.severity}${rule.severity === 'must' ? ' (the spec states it: every server must keep it)' : ' (the spec is silent: Zulip\'s choice, checked only with --decisions)'}`,
    `  applies at: ${levels(rule)}`,
    `  spec section: ${rule.section}`,
  ];
  if (rule.why) lines.push(`  why this choice: ${rule.why}`);
  if (rule.alternate) lines.push(`  the alternate dialect instead: ${rule.alternate}`);
  const statement = specStatement(rule);
  if (statement) lines.push('', `  The spec says (${statement.anchor}):`, ...statement.lines.map((line) => `  | ${line}`));
  if (examples) {
    // Two or fewer: the failing run's shrunk requests sent again; else the plainest of a run.
    const passing = examples.passing.length <= 2 ? examples.passing : thatMatters(rule, examples.passing);
    if (passing.length > 0) lines.push('', '  The reference as it is: the request the rule is about, and its answer:', ...passing.map(exchange));
    if (examples.failing) {
      lines.push('', `  The reference with a seeded fault (${examples.failing.fault}): the same request, shrunk, fails the rule:`, `    ${examples.failing.message}`, ...(operationsOf(rule, examples.failing.exchanges).slice(-2).length > 0 ? operationsOf(rule, examples.failing.exchanges).slice(-2) : examples.failing.exchanges.slice(-1)).map(exchange));
    }
  }
  return lines.join('\n');
}
