// The project's layout as rules on its imports, as Playwright's DEPS.list files are: which room
// may import which, in the suite (conformance/) and in the reference (reference/), that the
// area checks never import each other, that the suite reads nothing of reference/ but the
// catalog, and that the reference reads nothing of the suite but the catalog.
//
//   suite:      catalog and spec  ←  run  ←  checks, report  ←  suite  ←  CLI and API
//   reference:  model  ←  operations, support  ←  dialects  ←  faults  ←  HTTP  ←  entry points
//
// Neither house has a circle of value imports; the reference has no circle of type imports
// either (the model declares the interfaces the dialects and the faults plug in by). The suite
// allows a circle of type imports, which costs nothing at run time.
//
// `node dist/scripts/layout.js` prints every wrong edge and exits 1 if there is one.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** A source file's path from the project's root, e.g. `conformance/run/client.ts`, and its text. */
export type Sources = ReadonlyMap<string, string>;

export interface Import {
  readonly from: string;
  /** The imported file's path from the root (`.ts`), or the bare package name. */
  readonly to: string;
  readonly typeOnly: boolean;
  readonly line: number;
}

interface Room {
  readonly room: string;
  readonly rank: number;
  readonly holds: (path: string) => boolean;
}

/** Each room of conformance/ outside the tests, and its rank: a room imports only lower ranks and itself. */
const ROOMS: readonly Room[] = [
  { room: 'catalog and spec', rank: 0, holds: (path) => path === 'conformance/rules.ts' || path === 'conformance/spec.ts' },
  { room: 'run', rank: 1, holds: (path) => path.startsWith('conformance/run/') },
  { room: 'checks', rank: 2, holds: (path) => path.startsWith('conformance/checks/') },
  { room: 'report', rank: 2, holds: (path) => path.startsWith('conformance/report/') },
  { room: 'suite', rank: 3, holds: (path) => path === 'conformance/suite.ts' },
  { room: 'CLI and API', rank: 4, holds: (path) => path === 'conformance/main.ts' || path === 'conformance/api.ts' || path === 'conformance/examples.ts' || path === 'conformance/differential.ts' },
];

/**
 * Each room of reference/ outside its tests, and its rank, as in the suite. The model holds the
 * organization's data, the realm, the interfaces the rest plugs in by, events, levels and texts;
 * operations the spec's operations, one module each; support the Zulip endpoints the suite sets
 * up and observes by, which the spec does not describe. Operations and support share a rank and
 * so never import each other: the HTTP layer gathers both.
 */
const REFERENCE_ROOMS: readonly Room[] = [
  { room: 'model', rank: 0, holds: (path) => path.startsWith('reference/model/') },
  { room: 'operations', rank: 1, holds: (path) => path.startsWith('reference/operations/') },
  { room: 'support', rank: 1, holds: (path) => path.startsWith('reference/support/') },
  { room: 'dialects', rank: 2, holds: (path) => path.startsWith('reference/dialects/') },
  { room: 'faults', rank: 3, holds: (path) => path.startsWith('reference/faults/') },
  { room: 'HTTP', rank: 4, holds: (path) => path.startsWith('reference/http/') },
  { room: 'entry points', rank: 5, holds: (path) => path === 'reference/main.ts' || path === 'reference/api.ts' },
];

/** The reference's operations that are no area of the catalog: PATCH /settings, whose rules are the other areas'. */
export const OPERATIONS_BESIDE_AREAS = ['settings'];

/** Areas of the catalog whose rules are of every operation, with no operation of their own in reference/operations/. */
export const AREAS_ACROSS = ['general', 'organization'];

/** What several areas of checks/ share; every other module there is an area or the index. */
export const SHARED_CHECKS = ['world', 'generators', 'deliveries', 'uploads', 'settings'];

export const isTest = (path: string) => path.endsWith('.test.ts') || /^(conformance|reference)\/test\//.test(path) || /(^|\/)test-helpers\.ts$/.test(path);

export const roomOf = (path: string) => (path.startsWith('reference/') ? REFERENCE_ROOMS : ROOMS).find((room) => room.holds(path));

const SUITE_ORDER = 'catalog and spec ← run ← checks, report ← suite ← CLI and API';
const REFERENCE_ORDER = 'model ← operations, support ← dialects ← faults ← HTTP ← entry points';

/** Every source file below the given folders of the root, read. */
export function readSources(root: string, folders: readonly string[]): Sources {
  const sources = new Map<string, string>();
  for (const folder of folders) {
    for (const file of readdirSync(join(root, folder), { recursive: true }).map(String)) {
      if (file.endsWith('.ts') && !file.endsWith('.d.ts')) sources.set(`${folder}/${file}`, readFileSync(join(root, folder, file), 'utf8'));
    }
  }
  return sources;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'|^\s*import\s+'([^']+)'/gm;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

/** The imports of one file: static and dynamic, each resolved to a path from the root. */
export function importsOf(path: string, text: string): Import[] {
  const found: Import[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const resolve = (specifier: string) => (specifier.startsWith('.') ? normalize(join(dirname(path), specifier)).replace(/\.js$/, '.ts') : specifier);
  for (const match of text.matchAll(STATIC)) {
    const specifier = match[4] ?? match[5]!;
    const clause = match[3] ?? '';
    // `import { type A, type B }` is as type-only as `import type { A, B }`.
    const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1]?.split(',').map((name) => name.trim()).filter(Boolean);
    const typeOnly = Boolean(match[2]) || (names !== undefined && names.length > 0 && names.every((name) => name.startsWith('type ')));
    found.push({ from: path, to: resolve(specifier), typeOnly, line: lineAt(match.index) });
  }
  for (const match of text.matchAll(DYNAMIC)) found.push({ from: path, to: resolve(match[1]!), typeOnly: false, line: lineAt(match.index) });
  return found;
}

/** The areas of the suite: the prefixes of the catalog's rule IDs. */
export function areasOf(ruleIds: readonly string[]): Set<string> {
  return new Set(ruleIds.map((id) => id.split('.')[0]!));
}

const where = (edge: Import) => `${edge.from}:${edge.line} imports ${edge.to}`;

/** Every import against the layout, each as one line a reader can act on. */
export function layoutProblems(sources: Sources, areas: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const path of sources.keys()) {
    if (path.startsWith('conformance/') && !isTest(path) && !roomOf(path)) problems.push(`${path} is in no room of conformance/ (catalog and spec, run/, checks/, report/, suite, CLI and API, test/)`);
    if (path.startsWith('reference/') && !isTest(path) && !roomOf(path)) problems.push(`${path} is in no room of reference/ (model/, operations/, support/, dialects/, faults/, http/, main.ts and api.ts, test/)`);
  }
  const edges = [...sources].flatMap(([path, text]) => importsOf(path, text));
  const checksModule = (path: string) => /^conformance\/checks\/([^/]+)\.ts$/.exec(path)?.[1];

  for (const edge of edges) {
    const { from, to } = edge;
    if (!from.startsWith('conformance/') || isTest(from)) continue;
    if (to.startsWith('reference/')) {
      problems.push(`${where(edge)}: only the tests may import reference/ (the judge and the judged stay apart)`);
      continue;
    }
    if (!to.startsWith('conformance/')) continue;
    if (isTest(to)) {
      problems.push(`${where(edge)}: only tests import the tests' helpers`);
      continue;
    }
    const [mine, theirs] = [roomOf(from), roomOf(to)];
    if (!mine || !theirs) continue;
    if (mine.room !== theirs.room && theirs.rank >= mine.rank) {
      problems.push(`${where(edge)}: ${mine.room} may import only rooms below it, not ${theirs.room} (${SUITE_ORDER})`);
    }
    const [area, other] = [checksModule(from), checksModule(to)];
    if (area !== undefined && other !== undefined && areas.has(other) && area !== other && area !== 'index') {
      problems.push(`${where(edge)}: ${areas.has(area) ? 'an area' : 'a shared module'} of checks/ imports the area ${other}; what several areas need belongs in a shared module (${SHARED_CHECKS.join(', ')})`);
    }
  }

  // checks/ holds one module per area, named by the rule IDs' prefix, and the shared ones.
  const inChecks = [...sources.keys()].map(checksModule).filter((name): name is string => name !== undefined);
  for (const name of inChecks) {
    if (name !== 'index' && !areas.has(name) && !SHARED_CHECKS.includes(name)) problems.push(`conformance/checks/${name}.ts is neither an area of the catalog (${[...areas].join(', ')}) nor a shared module (${SHARED_CHECKS.join(', ')})`);
  }
  for (const area of areas) if (!inChecks.includes(area)) problems.push(`the area ${area} has no module conformance/checks/${area}.ts`);

  // reference/: its rooms one way, one module per spec area in operations/, nothing else there.
  for (const edge of edges) {
    const { from, to } = edge;
    if (!from.startsWith('reference/') || isTest(from) || !to.startsWith('reference/')) continue;
    if (isTest(to)) {
      problems.push(`${where(edge)}: only tests import the tests' helpers`);
      continue;
    }
    const [mine, theirs] = [roomOf(from), roomOf(to)];
    if (mine && theirs && mine.room !== theirs.room && theirs.rank >= mine.rank) {
      problems.push(`${where(edge)}: ${mine.room} may import only rooms below it, not ${theirs.room} (${REFERENCE_ORDER})`);
    }
  }
  for (const area of areas) {
    if (!AREAS_ACROSS.includes(area) && !sources.has(`reference/operations/${area}.ts`)) problems.push(`the area ${area} has no module reference/operations/${area}.ts`);
  }
  for (const path of sources.keys()) {
    const name = /^reference\/operations\/([^/]+)\.ts$/.exec(path)?.[1];
    if (name !== undefined && !isTest(path) && !areas.has(name) && !OPERATIONS_BESIDE_AREAS.includes(name)) problems.push(`${path} is neither an area of the catalog (${[...areas].join(', ')}) nor a spec operation beside them (${OPERATIONS_BESIDE_AREAS.join(', ')}); what is not the spec's belongs in support/`);
  }

  // reference/ outside its tests reads the catalog of conformance/ and nothing else.
  for (const edge of edges) {
    if (edge.from.startsWith('reference/') && !isTest(edge.from) && edge.to.startsWith('conformance/') && edge.to !== 'conformance/rules.ts') {
      problems.push(`${where(edge)}: the reference cites rule IDs from the catalog and reads nothing else of the suite`);
    }
  }

  const outsideTests = edges.filter((edge) => !isTest(edge.from));
  for (const circle of circlesOf(outsideTests, { types: false })) problems.push(`a circle of value imports: ${circle.join(' → ')} (make all but one of them type imports, or move what they share below them)`);
  const inReference = outsideTests.filter((edge) => edge.from.startsWith('reference/') && edge.to.startsWith('reference/'));
  for (const circle of circlesOf(inReference, { types: true })) {
    if (circle.some((file, index) => index > 0 && inReference.some((edge) => edge.from === circle[index - 1] && edge.to === file && edge.typeOnly))) {
      problems.push(`a circle of imports through types in the reference: ${circle.join(' → ')} (declare what they share in the lower file, or in the model)`);
    }
  }
  return problems;
}

/** Circles of imports among the files, of values alone or with types too (at least one in every knot that has any), each starting at its first file by name. */
export function circlesOf(edges: readonly Import[], { types }: { types: boolean }): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if ((edge.typeOnly && !types) || (!edge.to.startsWith('conformance/') && !edge.to.startsWith('reference/'))) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  const circles = new Map<string, string[]>();
  const path: string[] = [];
  const done = new Set<string>();
  const visit = (file: string) => {
    const at = path.indexOf(file);
    if (at >= 0) {
      const circle = path.slice(at);
      const first = circle.indexOf([...circle].sort()[0]!);
      const rotated = [...circle.slice(first), ...circle.slice(0, first)];
      circles.set(rotated.join(' '), [...rotated, rotated[0]!]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const to of next.get(file) ?? []) visit(to);
    path.pop();
    done.add(file);
  };
  for (const file of [...next.keys()].sort()) visit(file);
  return [...circles.values()];
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const root = new URL('../../', import.meta.url).pathname;
  const { RULES } = await import('../conformance/rules.js');
  const problems = layoutProblems(readSources(root, ['conformance', 'reference']), areasOf(RULES.map((rule) => rule.id)));
  for (const problem of problems) console.log(problem);
  console.log(problems.length === 0 ? `the layout holds (${relative(process.cwd(), root) || '.'})` : `${problems.length} imports against the layout`);
  process.exit(problems.length === 0 ? 0 : 1);
}
