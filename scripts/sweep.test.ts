// A small seed sweep in every `npm test`: the default suite against the reference in each
// dialect, with seeds and a boundary level drawn at random and printed, so that a must check
// that is wrong for some seeds shows up over many test runs. Replay any finding with the
// command printed. (npm run sweep -- --seeds N runs a large one.)

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BOUNDARY_LEVELS } from '../reference/model/levels.js';
import { replayOf, sweepOne, sweepTasks } from './sweep.js';

const from = Number(process.env.TEAMCHAT_SWEEP_SEED ?? Math.floor(Math.random() * 2 ** 31));
const levels = [...BOUNDARY_LEVELS].sort(() => Math.random() - 0.5);

// Five random cases per property on top of every rule's boundaries: a sample, kept small for
// npm test's time; the sweep itself runs the default fifteen.
for (const task of sweepTasks([from], ['zulip', 'alternate', 'random'], levels, 5)) {
  test(`seed sweep sample: seed ${task.seed}, ${task.dialect} dialect, level ${task.level}`, async () => {
    process.stdout.write(`\n  sweep sample: ${replayOf(task)}\n`);
    const finding = await sweepOne(task);
    assert.equal(finding.problems, [], `replay: ${replayOf(task)}`);
  });
}

test.run();
