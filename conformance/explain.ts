// --explain RULE: the rule, the spec's words it comes from, its levels and severity, why a
// decision was taken (and what the alternate dialect does instead), and a request that passes
// and one that fails, taken from the reference run without and with the rule's seeded fault.

import { readFileSync } from 'node:fs';
import { curlLine, type Exchange } from './client.js';
import { RULES, type Rule } from './rules.js';

const SPEC = new URL('../../docs/spec.md', import.meta.url);

/** The spec's sections a rule's `section` names ("Endpoints 5. Create drafts; Errors"), as text. */
export function specText(rule: Rule): string[] {
  let spec: string;
  try {
    spec = readFileSync(SPEC, 'utf8');
  } catch {
    return [];
  }
  const lines = spec.split('\n');
  const found: string[] = [];
  for (const part of rule.section.split(';')) {
    const name = part.replace(/\(.*?\)/g, '').replace(/^\s*(Endpoints|Resources:)\s*/, '').replace(/ (and|with) .*$/, '').trim().toLowerCase();
    if (!name) continue;
    // "Limits: Channel draft audience" is the section Limits.
    const heading = (wanted: string) => lines.findIndex((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '').toLowerCase().includes(wanted));
    const at = heading(name) >= 0 ? heading(name) : heading(name.split(':')[0]!.trim());
    if (at < 0 || found.some((text) => text.startsWith(lines[at]!))) continue;
    const depth = /^#+/.exec(lines[at]!)![0].length;
    const end = lines.findIndex((line, index) => index > at && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= depth);
    const section = lines.slice(at, end < 0 ? undefined : end).join('\n').trim();
    const cut = section.split('\n');
    found.push(cut.length > 40 ? `${cut.slice(0, 40).join('\n')}\n…` : section);
  }
  return found;
}

const levels = (rule: Rule) => (rule.before !== undefined ? `feature levels ${rule.since} to ${rule.before - 1}` : `feature level ${rule.since} and above`);

function exchange(item: Exchange): string {
  const body = typeof item.body === 'string' ? item.body : JSON.stringify(item.body);
  return `    ${curlLine(item)}\n      → ${item.status} ${body.length > 300 ? `${body.slice(0, 300)}…` : body}`;
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
  const text = specText(rule);
  if (text.length > 0) lines.push('', '  The spec says:', ...text.flatMap((section) => section.split('\n').map((line) => `  | ${line}`)));
  if (examples) {
    const passing = examples.passing.slice(-2);
    if (passing.length > 0) lines.push('', '  A run that passes (the reference as it is), its last requests:', ...passing.map(exchange));
    if (examples.failing) {
      lines.push('', `  A run that fails (the reference with the seeded fault: ${examples.failing.fault}):`, `    ${examples.failing.message}`, ...examples.failing.exchanges.slice(-3).map(exchange));
    }
  }
  return lines.join('\n');
}
