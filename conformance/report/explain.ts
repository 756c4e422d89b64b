// --explain RULE: the rule, the spec's words it comes from, its levels and severity, why a
// decision was taken (and what the alternate dialect does instead), and a request that passes
// and one that fails, taken from the reference run without and with the rule's seeded fault.

import { answerLine, curlLine, type Exchange } from '../run/client.js';
import { closest, RULES, type Rule } from '../rules.js';
import { annotatedLink, specStatement } from '../spec.js';
import { exampleSteps, type RuleExamples } from './sides.js';

const levels = (rule: Rule) => (rule.before !== undefined ? `feature levels ${rule.since} to ${rule.before - 1}` : `feature level ${rule.since} and above`);

const exchange = (item: Exchange) => `    ${curlLine(item)}\n      ${answerLine(item)}`;

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

export function explanation(rule: Rule, examples: RuleExamples | null): string {
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
  if (examples && (examples.passing || examples.failing)) {
    const { passing, failing } = examples;
    const { steps, at } = exampleSteps(rule, passing, failing);
    const prelude = passing ?? failing!;
    lines.push('', failing
      ? `  One case, as the reference answers it and with a seeded fault (${failing.fault}), shrunk: from its set-up through the request the rule is about to what is observed.`
      : '  One case, as the reference answers it: from its set-up through the request the rule is about to what is observed.');
    if (failing) lines.push(`  With the fault the rule fails: ${failing.message}`);
    if (prelude.prelude.length > 0) lines.push('', `  The check's set-up that made what the case uses (${prelude.prelude.length} of its ${prelude.prelude.length + prelude.preludeLeftOut} requests):`, ...prelude.prelude.map(exchange));
    lines.push('');
    steps.forEach((step, index) => {
      const where = `  ${index + 1}. ${step.role}`;
      if (step.differences.length === 0) {
        lines.push(`${where}${passing && failing ? ', on both sides' : ''}:`, exchange((step.a ?? step.b)!));
        return;
      }
      lines.push(`${where}${index === at ? ' (the two sides part here)' : ''}:`);
      lines.push('     the reference as it is:', step.a ? exchange(step.a) : '      (no such step)');
      lines.push('     with the seeded fault:', step.b ? exchange(step.b) : '      (no such step)');
      lines.push(...step.differences.map((difference) => `     differs at ${difference.at}: ${JSON.stringify(difference.a)} as it is, ${JSON.stringify(difference.b)} with the fault`));
    });
    lines.push('', `  These references stopped once they had answered: \`npm start -- --port 0 --profile-out profile.json\` serves one like the first (TEAMCHAT_FAULTS=${rule.id} the second); put its port in the lines.`);
  }
  return lines.join('\n');
}
