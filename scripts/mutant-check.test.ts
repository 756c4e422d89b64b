// Recorded mutation verdicts are checked, not trusted: each npm test runs again two recorded
// mutants of one area, drawn from the date (TEAMCHAT_MUTANT_SEED fixes the draw), one a must rule
// caught and one it did not, with the per-mutant runner; a verdict that differs from the record
// fails. `node dist/scripts/mutant-check.js AREA N` runs more of an area.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { drawMutants, recheck } from './mutant-check.js';
import { caughtByMust, isCurrent, placeName, readVerdicts } from './mutation.js';

const seed = Number(process.env.TEAMCHAT_MUTANT_SEED ?? Math.floor(Date.now() / 86_400_000));
const recorded = readVerdicts().filter(isCurrent);
const entry = recorded[seed % Math.max(1, recorded.length)];

if (!entry) {
  test('recorded mutation verdicts run again', () => {
    process.stdout.write('\n  SKIPPED: no mutation verdicts are recorded for the modules as built now: nothing to run again (npm run mutation -- AREA)\n');
  });
} else {
  const drawn = drawMutants(seed, [entry.area]);
  test(`two recorded verdicts of ${entry.area} run again give the record's (TEAMCHAT_MUTANT_SEED=${seed}): ${drawn.map(({ verdict }) => placeName(verdict)).join('; ')}`, async () => {
    assert.ok(drawn.length > 0, `${entry.area} has no verdict to draw`);
    for (const { verdict } of drawn) {
      const found = await recheck(entry.area, verdict, entry.runs);
      assert.is(found.differs, null, `${entry.area} ${placeName(verdict)}: ${found.differs}`);
    }
  });

  test('a verdict edited by hand is found: a mutant a must rule caught, recorded as not caught, differs', async () => {
    const caught = drawn.find(({ verdict }) => caughtByMust(verdict));
    assert.ok(caught, `${entry.area}: no caught mutant drawn`);
    const edited = { ...caught.verdict, status: 'Survived', must: [], decision: [] };
    const found = await recheck(entry.area, edited, entry.runs);
    assert.match(found.differs ?? '', /^recorded as not caught by a must rule; now .+ catch it$/);
  });
}

test.run();
