// --merge-reports: one report from the JSON reports of the shards of one run (--shard I/N), as
// if one run had made it: every rule once, in the catalog's order, the summary counted again,
// requests and cleanup added up, the exit code of the whole (Playwright's merge-reports).

import { inCatalogOrder } from '../rules.js';
import { summarize, type Report } from './json.js';
import { PREFIX_FORM } from '../run/sweep.js';

/**
 * What the shards left, as one run would say it: the counts of one kind of thing added up, each
 * shard's prefix named where the kind names the prefix ("38 custom emoji, deactivated (named with
 * tccA or tccB; …)").
 */
export function leftTogether(lines: readonly string[]): string[] {
  const kinds = new Map<string, { count: number; prefixes: Set<string> }>();
  for (const line of lines) {
    const [, count, what] = /^(\d+) ([\s\S]*)$/.exec(line) ?? [null, '1', line];
    const prefixes = what!.match(new RegExp(PREFIX_FORM.source, 'g')) ?? [];
    const kind = what!.replace(new RegExp(PREFIX_FORM.source, 'g'), '{prefix}');
    const entry = kinds.get(kind) ?? { count: 0, prefixes: new Set<string>() };
    entry.count += Number(count);
    for (const prefix of prefixes) entry.prefixes.add(prefix);
    kinds.set(kind, entry);
  }
  return [...kinds].map(([kind, { count, prefixes }]) => `${count} ${kind.replaceAll('{prefix}', [...prefixes].join(' or '))}`);
}

export class MergeError extends Error {}

/** The options every shard of one run has in common; a report whose differ is of another run. */
const SAME = ['target', 'seed', 'runs', 'decisions', 'smoke', 'suite_version'] as const;
const SAME_CONFIG = ['only', 'expectations', 'create_users'] as const;

export function mergeReports(reports: readonly Report[], files: readonly string[]): Report {
  if (reports.length === 0) throw new MergeError('--merge-reports takes the JSON reports of the shards of one run');
  const [first] = reports as [Report];
  reports.forEach((report, at) => {
    if (!report || !Array.isArray(report.rules) || typeof report.summary !== 'object') throw new MergeError(`${files[at]} is not a JSON report of teamchat-conformance`);
    if (!report.shard) throw new MergeError(`${files[at]} is the report of a whole run, not of a shard (--shard I/N)`);
    for (const key of SAME) if (report[key] !== first[key]) throw new MergeError(`${files[at]} is of another run than ${files[0]}: its ${key} is ${JSON.stringify(report[key])}, not ${JSON.stringify(first[key])}`);
    for (const key of SAME_CONFIG) if (JSON.stringify(report.config[key]) !== JSON.stringify(first.config[key])) throw new MergeError(`${files[at]} is of another run than ${files[0]}: its ${key} is ${JSON.stringify(report.config[key])}, not ${JSON.stringify(first.config[key])}`);
  });
  const total = first.shard!.total;
  const indices = reports.map((report) => report.shard!.index);
  for (const [at, report] of reports.entries()) {
    if (report.shard!.total !== total) throw new MergeError(`${files[at]} is shard ${report.shard!.index}/${report.shard!.total}, of another split than ${files[0]} (of ${total})`);
    if (indices.indexOf(report.shard!.index) !== at) throw new MergeError(`${files[at]} and ${files[indices.indexOf(report.shard!.index)]} are both shard ${report.shard!.index}/${total}`);
  }
  const missing = Array.from({ length: total }, (_, at) => at + 1).filter((index) => !indices.includes(index));
  if (missing.length > 0) throw new MergeError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${total}`).join(', ')} missing: a merged report of part of a run would pass what was never checked`);
  const rules = reports.flatMap((report) => report.rules).sort(inCatalogOrder);
  const twice = rules.find((rule, at) => at > 0 && rules[at - 1]!.id === rule.id);
  if (twice) throw new MergeError(`the rule ${twice.id} is in two shards' reports: the shards were not made with the same options`);
  const unique = <T>(items: T[]) => [...new Set(items)];
  const started = reports.map((report) => report.started_at).sort()[0]!;
  const ended = Math.max(...reports.map((report) => Date.parse(report.started_at) + report.duration_ms));
  return {
    ...first,
    run_prefix: reports.map((report) => report.run_prefix).join(','),
    config: { ...first.config, shard: null, journal: null },
    rules,
    summary: summarize(rules),
    cleanup: {
      problems: unique(reports.flatMap((report) => report.cleanup.problems)),
      swept: unique(reports.flatMap((report) => report.cleanup.swept)),
      left: leftTogether(reports.flatMap((report) => report.cleanup.left ?? [])),
      conflicts: unique(reports.flatMap((report) => report.cleanup.conflicts ?? [])),
    },
    requests: reports.reduce((sum, report) => sum + report.requests, 0),
    transients: reports.reduce((sum, report) => sum + report.transients, 0),
    duration_ms: Number.isFinite(ended) ? ended - Date.parse(started) : Math.max(...reports.map((report) => report.duration_ms)),
    interrupted: reports.some((report) => report.interrupted),
    started_at: started,
    shard: null,
    merged_from: [...reports].sort((a, b) => a.shard!.index - b.shard!.index).map((report) => ({ ...report.shard!, run_prefix: report.run_prefix })),
    lease: reports.some((report) => report.lease) ? {
      note: unique(reports.map((report) => report.lease?.note ?? null).filter((note): note is string => note !== null)).join('; ') || null,
      waited_s: reports.reduce((sum, report) => sum + (report.lease?.waited_s ?? 0), 0),
      waited_for: unique(reports.flatMap((report) => report.lease?.waited_for ?? [])),
    } : null,
  };
}
