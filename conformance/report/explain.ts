// --explain RULE: the rule, the spec's words it comes from, its levels and severity, why a
// decision was taken (and what the alternate dialect does instead), and a request that passes
// and one that fails, taken from the reference run without and with the rule's seeded fault.

import { answerLine, curlLine, type Exchange } from '../run/client.js';
import { closest, RULES, type Rule } from '../rules.js';
import { annotatedLink, specStatement } from '../spec.js';

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
  const ids = (RULES as readonly Rule[]).map((candidate) => candidate.id);
  // One close match is named alone, as --only names it; else the few that contain what was typed.
  const meant = closest(id, ids);
  if (meant) return `no rule ${JSON.stringify(id)} (did you mean ${meant}?); --list-rules lists them`;
  const containing = ids.filter((candidate) => id.length >= 3 && candidate.includes(id));
  const shown = containing.slice(0, 5);
  return `no rule ${JSON.stringify(id)}${shown.length ? `; rules that contain it: ${shown.join(', ')}${containing.length > shown.length ? ` and ${containing.length - shown.length} more` : ''}` : ''}; --list-rules lists them`;
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
  lines.push(`  on the annotated spec: ${annotatedLink(rule.id)} (and at /#rule-${rule.id} of any running reference)`);
  if (rule.why) lines.push(`  why this choice: ${rule.why}`);
  if (rule.alternate) lines.push(`  the alternate dialect instead: ${rule.alternate}`);
  const statement = specStatement(rule);
  if (statement) lines.push('', `  The spec says (${statement.anchor}):`, ...statement.lines.map((line) => (line.startsWith('|') ? `    ${line}` : `  > ${line}`)));
  if (examples) {
    // The exchanges as recordExamples picked them: the same case on both sides.
    if (examples.passing.length > 0) lines.push('', '  The reference as it is: the request the rule is about, and its answer:', ...examples.passing.map(exchange));
    if (examples.failing) {
      lines.push('', `  The reference with a seeded fault (${examples.failing.fault}): the same request, shrunk, fails the rule:`, `    ${examples.failing.message}`, ...examples.failing.exchanges.map(exchange));
    }
    lines.push('', `  These references stopped once they had answered: \`npm start -- --port 0 --profile-out profile.json\` serves one like the first (TEAMCHAT_FAULTS=${rule.id} the second); put its port in the lines.`);
  }
  return lines.join('\n');
}
