// The spec's statements: docs/spec.md (a copy of the spec) cut into sections, the anchor a rule
// cites, and the statement a rule comes from. The catalog's rules name their sections; the
// harness, --explain and the docs all read the statement from here, so they cannot disagree.

import { readFileSync } from 'node:fs';
import type { Rule } from './rules.js';

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

/** The annotated spec (docs/annotated.html, which npm run docs writes and every running reference serves at GET /): this installation's copy. */
export const ANNOTATED_SPEC = new URL('../../docs/annotated.html', import.meta.url);

/** The name under which an HTML report ships the annotated spec beside itself, so that its links work wherever the two are opened. */
export const ANNOTATED_BESIDE = 'teamchat-annotated-spec.html';

/** A rule's place on the annotated spec: this installation's copy, or (`beside`) the copy an HTML report ships next to itself. */
export const annotatedLink = (id: string, beside = false) => `${beside ? ANNOTATED_BESIDE : ANNOTATED_SPEC.href}#rule-${id}`;

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
  const pinned = PINNED[rule.id];
  if (pinned) {
    const at = pinned.map((text) => lines.findIndex((line) => line.includes(text))).filter((index) => index >= 0);
    const section = sections.find((candidate) => at.every((index) => index > candidate.start && index < candidate.end)) ?? sections[0]!;
    if (at.length === pinned.length) return { anchor: `docs/spec.md#${slug(section.heading)}`, lines: withTableHeaders(lines, at) };
  }
  const wanted = words(`${rule.title} ${rule.section}`);
  const scored = sections.flatMap((section) => lines.slice(section.start + 1, section.end).map((line, offset) => {
    const shared = [...words(line)].filter((word) => wanted.has(word)).length;
    return { section, at: section.start + 1 + offset, score: /^\|[- |]+\|$/.test(line) ? 0 : shared };
  })).filter((line) => line.score > 0).sort((a, b) => b.score - a.score || a.at - b.at);
  const best = scored[0];
  if (!best) return { anchor: `docs/spec.md#${slug(sections[0]!.heading)}`, lines: [sections[0]!.heading] };
  const picked = [best, ...scored.slice(1, 2).filter((line) => line.score >= best.score * 0.75 && line.section === best.section)].sort((a, b) => a.at - b.at);
  return { anchor: `docs/spec.md#${slug(best.section.heading)}`, lines: withTableHeaders(lines, picked.map(({ at }) => at)) };
}

/** The lines, each table row with its table's header and separator, in the spec's order. */
function withTableHeaders(lines: readonly string[], picked: readonly number[]): string[] {
  const shown = new Set<number>();
  for (const at of picked) {
    if (lines[at]!.startsWith('|')) {
      let header = at;
      while (header > 0 && lines[header - 1]!.startsWith('|')) header--;
      shown.add(header).add(header + 1);
    }
    shown.add(at);
  }
  return [...shown].sort((a, b) => a - b).map((index) => lines[index]!);
}

/**
 * The statements that words alone do not find: for these rules, the spec's lines (each named by
 * words only it holds) are the statement, whatever else the section says.
 */
const PINNED: Readonly<Record<string, readonly string[]>> = {
  'flags.op-add-or-remove': ['| op | string |'],
  'flags.required-parameters': ['| messages | JSON-encoded array of integers |', '| op | string |', '| flag | string |'],
  'fields.field-type-values': ['| field_type | integer | 1 Short text;'],
  'scheduled.to-required-on-type-change': ['| to | integer or array of integers |'],
  'scheduled.delete-missing-error': ['| Delete scheduled message | no scheduled message has the given ID |'],
  'scheduled.own-messages-only': ["act on the authenticated user's own data"],
  'defaults.new-users-get-defaults': ['that are copied to new users', 'The change affects only users created afterwards'],
  'defaults.string-values': ['| web_home_view (feature level 219) |', '| emojiset |', '| web_animate_image_previews', '| resolved_topic_notice_auto_read_policy', '| notification_sound |'],
};
