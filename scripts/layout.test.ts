import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RULES } from '../conformance/rules.js';
import { AREAS_ACROSS, areasOf, importsOf, layoutProblems, readSources, type Sources } from './layout.js';

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

test('the tree keeps its layout: in both houses every import goes one way, no area imports another, nothing of reference/ in the suite outside the tests', () => {
  assert.equal(layoutProblems(tree, areas), []);
});

test('every area of the catalog has its module in conformance/checks/ and in reference/', () => {
  for (const area of areas) {
    assert.ok(tree.has(`conformance/checks/${area}.ts`), area);
    if (!AREAS_ACROSS.includes(area)) assert.ok(tree.has(`reference/operations/${area}.ts`), area);
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
  ['the suite imports the reference', 'conformance/suite.ts', addImport(`import { startServer } from '../reference/http/server.js';`), /only the tests may import reference\//],
  ['a check imports a test helper', 'conformance/checks/emoji.ts', addImport(`import { proxy } from '../test/helpers.js';`), /only tests import the tests' helpers/],
  ['the reference reads the suite beyond its catalog', 'reference/operations/drafts.ts', addImport(`import { curlLine } from '../../conformance/run/client.js';`), /reads nothing else of the suite/],
  ['an operation imports a support endpoint', 'reference/operations/fields.ts', addImport(`import { personDict } from '../support/core.js';`), /operations may import only rooms below it, not support/],
  ['a support endpoint imports an operation', 'reference/support/core.ts', addImport(`import { draftDict } from '../operations/drafts.js';`), /support may import only rooms below it, not operations/],
  ['the model reads a dialect for a type', 'reference/model/model.ts', addImport(`import type { Dialect } from '../dialects/dialect.js';`), /model may import only rooms below it, not dialects/],
  ['the model reads the HTTP layer', 'reference/model/events.ts', addImport(`import type { Route } from '../http/handler.js';`), /model may import only rooms below it, not HTTP/],
  ['an operation reads the rules table', 'reference/operations/flags.ts', addImport(`import { SPEC_RULES } from '../http/rules.js';`), /operations may import only rooms below it, not HTTP/],
  ['a dialect reads the faults', 'reference/dialects/zulip.ts', addImport(`import { FAULTS } from '../faults/faults.js';`), /dialects may import only rooms below it, not faults/],
  ['the faults read the HTTP layer', 'reference/faults/faults.ts', addImport(`import { SPEC_RULES } from '../http/rules.js';`), /faults may import only rooms below it, not HTTP/],
  ['the HTTP layer reads the entry points', 'reference/http/server.ts', addImport(`import { startReference } from '../api.js';`), /HTTP may import only rooms below it, not entry points/],
  ['a value circle in the reference', 'reference/model/events.ts', addImport(`import { doSendMessage } from './messaging.js';`), /a circle of value imports: .*reference\/model\/events\.ts.*reference\/model\/messaging\.ts/],
  ['a circle of types in the reference', 'reference/model/model.ts', addImport(`import type { Peer } from './request.js';`), /a circle of imports through types in the reference: reference\/model\/model\.ts → reference\/model\/request\.ts → reference\/model\/model\.ts/],
  ['a circle of types between two operations', 'reference/operations/drafts.ts', addImport(`import type { Setting } from './settings.js';`), /a circle of imports through types in the reference: reference\/operations\/drafts\.ts → reference\/operations\/settings\.ts/],
  ['a module of operations that is no spec operation', 'reference/operations/channels.ts', () => `export const one = 1;\n`, /reference\/operations\/channels\.ts is neither an area of the catalog/],
  ['a file in no room of the reference', 'reference/util.ts', () => `export const one = 1;\n`, /reference\/util\.ts is in no room of reference\//],
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

test('an area moved out of checks/ or out of operations/ is missed', () => {
  const copy = new Map(tree);
  copy.delete('conformance/checks/typing.ts');
  copy.delete('reference/operations/emoji.ts');
  const problems = layoutProblems(copy, areas);
  assert.ok(problems.some((problem) => problem.includes('the area typing has no module conformance/checks/typing.ts')));
  assert.ok(problems.some((problem) => problem.includes('the area emoji has no module reference/operations/emoji.ts')));
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
