// Recorded mutation verdicts are checked, not trusted: each npm test runs again two recorded
// mutants of one area, drawn from the date (TEAMCHAT_MUTANT_SEED fixes the draw), one a must rule
// caught and one it did not, with the per-mutant runner; a verdict that differs from the record
// fails. `node dist/scripts/mutant-check.js AREA N` runs more of an area.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { differsFrom, drawMutants, recheck, type Recheck } from './mutant-check.js';
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
  const found: Recheck[] = [];
  test(`two recorded verdicts of ${entry.area} run again give the record's (TEAMCHAT_MUTANT_SEED=${seed}): ${drawn.map(({ verdict }) => placeName(verdict)).join('; ')}`, async () => {
    assert.ok(drawn.length > 0, `${entry.area} has no verdict to draw`);
    for (const { verdict } of drawn) {
      found.push(await recheck(entry.area, verdict, entry.runs, process.cwd(), entry.runner ?? 1, entry.baseline));
      assert.is(found.at(-1)!.differs, null, `${entry.area} ${placeName(verdict)}: ${found.at(-1)!.differs}`);
    }
  });

  test('a verdict edited by hand is found: the caught mutant recorded as not caught, or the survivor as caught, differs from what the run again saw', () => {
    for (const { verdict, must } of found) {
      const edited = caughtByMust(verdict) ? { ...verdict, status: 'Survived', must: [], decision: [] } : { ...verdict, status: 'Killed', must: ['drafts.create-returns-ids-in-order'] };
      assert.match(differsFrom(edited, must) ?? '', caughtByMust(verdict) ? /^recorded as not caught by a must rule; now .+ catch it$/ : /^recorded as caught by drafts\.create-returns-ids-in-order; now no must rule catches it$/);
    }
  });
}

test.run();
