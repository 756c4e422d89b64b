import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RULES } from '../conformance/rules.js';
import { areasOf, importsOf, layoutProblems, readSources, type Sources } from './layout.js';

const root = new URL('../../', import.meta.url).pathname;
const areas = areasOf(RULES.map((rule) => rule.id));
const tree = readSources(root, ['conformance', 'reference']);

/** The tree with one file's text changed (or added), as a planted mistake. */
function planted(path: string, change: (text: string) => string): Sources {
  const copy = new Map(tree);
  copy.set(path, change(copy.get(path) ?? ''));
  return copy;
}
const addImport = (line: string) => (text: string) => `${line}\n${text}`;

test('the tree keeps its layout: every import goes one way, no area imports another, nothing of reference/ outside the tests', () => {
  assert.equal(layoutProblems(tree, areas), []);
});

test('every area of the catalog has its module in conformance/checks/ and in reference/', () => {
  for (const area of areas) {
    assert.ok(tree.has(`conformance/checks/${area}.ts`), area);
    if (area !== 'general') assert.ok(tree.has(`reference/${area}.ts`), area);
  }
});

const PLANTED: Array<[string, string, (text: string) => string, RegExp]> = [
  ['the run machinery imports an output', 'conformance/run/harness.ts', addImport(`import { explanation } from '../report/explain.js';`), /run may import only rooms below it, not report/],
  ['the run machinery imports the catalog of checks', 'conformance/run/probe.ts', addImport(`import { CHECKS } from '../checks/index.js';`), /run may import only rooms below it, not checks/],
  ['an output imports a check', 'conformance/report/html.ts', addImport(`import { png } from '../checks/emoji.js';`), /report may import only rooms below it, not checks/],
  ['the spec reads the run', 'conformance/spec.ts', addImport(`import { curlLine } from './run/client.js';`), /catalog and spec may import only rooms below it, not run/],
  ['the suite imports the CLI', 'conformance/suite.ts', addImport(`import './main.js';`), /suite may import only rooms below it, not CLI and API/],
  ['a lazy import against the grain', 'conformance/checks/world.ts', (text) => `${text}\nexport const later = () => import('../suite.js');\n`, /checks may import only rooms below it, not suite/],
  ['an area imports another area', 'conformance/checks/drafts.ts', addImport(`import { FLAGS_CHECKS } from './flags.js';`), /an area of checks\/ imports the area flags/],
  ['a shared module imports an area', 'conformance/checks/world.ts', addImport(`import type { Check } from './typing.js';`), /a shared module of checks\/ imports the area typing/],
  ['the suite imports the reference', 'conformance/suite.ts', addImport(`import { startServer } from '../reference/server.js';`), /only the tests may import reference\//],
  ['a check imports a test helper', 'conformance/checks/emoji.ts', addImport(`import { proxy } from '../test/helpers.js';`), /only tests import the tests' helpers/],
  ['the reference reads the suite beyond its catalog', 'reference/drafts.ts', addImport(`import { curlLine } from '../conformance/run/client.js';`), /reads nothing else of the suite/],
  ['an area of the reference imports core', 'reference/fields.ts', addImport(`import { personDict } from './core.js';`), /no area imports it/],
  ['a value circle in the reference', 'reference/events.ts', addImport(`import { doCreateDrafts } from './drafts.js';`), /a circle of value imports: .*reference\/drafts\.ts.*reference\/events\.ts/],
  ['a value circle in the run machinery', 'conformance/run/harness.ts', (text) => text.replace(`import type { Probe } from './probe.js';`, `import { probeTarget, type Probe } from './probe.js';`), /a circle of value imports: conformance\/run\/harness\.ts → conformance\/run\/probe\.ts → conformance\/run\/harness\.ts/],
  ['a file in no room', 'conformance/util.ts', () => `export const one = 1;\n`, /conformance\/util\.ts is in no room/],
  ['a module in checks/ that is no area', 'conformance/checks/misc.ts', () => `export const one = 1;\n`, /checks\/misc\.ts is neither an area of the catalog/],
];

for (const [what, path, change, expected] of PLANTED) {
  test(`a planted wrong import is caught: ${what}`, () => {
    const problems = layoutProblems(planted(path, change), areas);
    assert.ok(problems.some((problem) => expected.test(problem)), `${expected} not among:\n${problems.join('\n')}`);
  });
}

test('an area moved out of checks/ is missed', () => {
  const copy = new Map(tree);
  copy.delete('conformance/checks/typing.ts');
  assert.ok(layoutProblems(copy, areas).some((problem) => problem.includes('the area typing has no module conformance/checks/typing.ts')));
});

test('imports are read with their kind: type-only in both spellings, values, re-exports and lazy imports', () => {
  const text = [
    `import type { A } from './a.js';`,
    `import { type B, type C } from './b.js';`,
    `import { type D, e } from '../c.js';`,
    `import * as f from 'node:fs';`,
    `export { g } from './d.js';`,
    `import './e.js';`,
    `const h = await import('./f.js');`,
  ].join('\n');
  assert.equal(importsOf('conformance/run/x.ts', text).map(({ to, typeOnly, line }) => [to, typeOnly, line]), [
    ['conformance/run/a.ts', true, 1],
    ['conformance/run/b.ts', true, 2],
    ['conformance/c.ts', false, 3],
    ['node:fs', false, 4],
    ['conformance/run/d.ts', false, 5],
    ['conformance/run/e.ts', false, 6],
    ['conformance/run/f.ts', false, 7],
  ]);
});

test.run();
