// npm run docs: writes docs/rules.md and docs/rules.json from the rule catalog, with the
// seeded fault of each rule. A test keeps the committed files in step with the catalog.

import { writeFileSync } from 'node:fs';
import { FAULTS } from '../reference/faults.js';
import { RULES, type Rule } from '../conformance/rules.js';

export function rulesJson(): string {
  return JSON.stringify(RULES.map((rule) => ({ ...rule, fault: FAULTS[rule.id]?.does ?? null })), null, 2) + '\n';
}

export function rulesMarkdown(): string {
  const lines = [
    '# Rule catalog',
    '',
    'Generated from `conformance/rules.ts` by `npm run docs`; do not edit by hand.',
    '`must`: what the spec states. `decision`: a choice where the spec says "not shown", made as the real Zulip',
    'server does; the suite checks decisions only with `--decisions`.',
    '',
  ];
  let area = '';
  for (const rule of RULES as readonly Rule[]) {
    const [name] = rule.id.split('.');
    if (name !== area) {
      area = name!;
      lines.push(`## ${area}`, '', '| ID | severity | since | section | rule |', '|---|---|---|---|---|');
    }
    const why = rule.why ? ` *Why:* ${rule.why}` : '';
    const levels = rule.before !== undefined ? `${rule.since}–${rule.before - 1}` : String(rule.since);
    lines.push(`| \`${rule.id}\` | ${rule.severity} | ${levels} | ${rule.section} | ${rule.title.replace(/\|/g, '\\|')}${why.replace(/\|/g, '\\|')} |`);
  }
  return lines.join('\n') + '\n';
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const root = new URL('../../docs/', import.meta.url);
  writeFileSync(new URL('rules.json', root), rulesJson());
  writeFileSync(new URL('rules.md', root), rulesMarkdown());
  console.log(`wrote docs/rules.md and docs/rules.json (${RULES.length} rules)`);
}
