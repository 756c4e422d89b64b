// The mutation scores in docs/mutation.md stay true without running Stryker: the verdicts
// recorded by `npm run mutation` must be those of the modules as built now, every entry of the
// list of equivalent mutants and open points must name one mutant that Stryker's instrumenter
// still makes, and the verdicts must still bear the entry out.

import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { AREAS, caught, caughtByMust, hashOf, markdownOfRecord, placeName, readEquivalents, readVerdicts, samePlace, scoresOfRecord, type Place } from './mutation.js';

const noop = () => {};
const quiet = { debug: noop, info: noop, warn: noop, error: noop, trace: noop, fatal: noop, isDebugEnabled: () => false, isTraceEnabled: () => false, isInfoEnabled: () => false, isWarnEnabled: () => false, isErrorEnabled: () => false, isFatalEnabled: () => false };

/** The mutants Stryker makes of an area's built module, by place. */
async function mutantsOf(area: string): Promise<Place[]> {
  const name = `dist/reference/${area}.js`;
  // The instrumenter's logger is the only thing it is given: Stryker's own plugin machinery is not needed to list mutants.
  const instrumenter = new Instrumenter(quiet as never);
  const result = await instrumenter.instrument([{ name, content: readFileSync(name, 'utf8'), mutate: true }], { ignorers: [], plugins: null, excludedMutations: [] } as never);
  // The instrumenter counts lines and columns from 0; Stryker's report, and so the list, from 1.
  return result.mutants.map((mutant) => ({ line: mutant.location.start.line + 1, column: mutant.location.start.column + 1, end: `${mutant.location.end.line + 1}:${mutant.location.end.column + 1}`, mutator: mutant.mutatorName, replacement: mutant.replacement ?? '' }));
}

const recorded = readVerdicts();
const equivalents = readEquivalents();

test('every area has verdicts recorded for the module as built now', () => {
  assert.equal(recorded.map((entry) => entry.area).sort(), [...AREAS].sort());
  for (const entry of recorded) {
    const source = readFileSync(`dist/reference/${entry.area}.js`, 'utf8');
    assert.ok(hashOf(source) === entry.module, `reference/${entry.area}.ts changed since its mutation run: npm run mutation -- ${entry.area}`);
  }
});

for (const area of AREAS) {
  test(`${area}: each listed mutant is one mutant Stryker makes, on the line the list quotes, and the verdicts bear its kind out`, async () => {
    const mutants = await mutantsOf(area);
    const verdicts = recorded.find((entry) => entry.area === area)?.verdicts ?? [];
    assert.is(verdicts.length, mutants.length, `${area}: the recorded verdicts are for ${verdicts.length} mutants, Stryker makes ${mutants.length}`);
    const lines = readFileSync(`dist/reference/${area}.js`, 'utf8').split('\n');
    const listed = equivalents.filter((entry) => entry.area === area);
    for (const entry of listed) {
      const where = `${area} ${placeName(entry)}`;
      assert.is(mutants.filter((mutant) => samePlace(mutant, entry)).length, 1, `${where}: no such mutant any more (or more than one)`);
      assert.is(listed.filter((other) => samePlace(other, entry)).length, 1, `${where}: listed twice`);
      assert.is(lines[entry.line - 1]?.trim(), entry.code, `${where}: the line is no longer the one the list quotes`);
      const verdict = verdicts.find((candidate) => samePlace(candidate, entry))!;
      if (entry.kind === 'equivalent') assert.not.ok(caught(verdict), `${where} is listed as equivalent, and ${[...verdict.must, ...verdict.decision].join(', ') || verdict.status} caught it`);
      else assert.not.ok(caughtByMust(verdict), `${where} is listed as ${entry.kind}, and the must rules ${verdict.must.join(', ') || verdict.status} caught it`);
      assert.ok(entry.why.length > 20, `${where}: say why`);
    }
  });
}

test('docs/mutation.md shows the scores of the recorded verdicts, and must rules catch at least 90% of spec code in every area', () => {
  assert.fixture(readFileSync('docs/mutation.md', 'utf8'), markdownOfRecord(), 'docs/mutation.md is stale: npm run mutation -- --rescore');
  for (const score of scoresOfRecord().scores) assert.ok(score.mustScore >= 90, `${score.area}: must rules catch ${score.mustScore}% of spec code`);
});

test.run();
