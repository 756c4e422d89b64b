// npm test: runs every compiled *.test.js under dist/, each in its own process, as many at once
// as the machine has cores (the longest first), then prints the plain "N passed, N failed" line
// CI reads. uvu exits 0 when no test ran; this does not. A file that dies before uvu's summary
// counts as one failure. `node scripts/test.js PATTERN` runs the files whose path matches.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../dist/', import.meta.url).pathname;
const pattern = new RegExp(process.argv[2] ?? '\\.test\\.js$');
const files = readdirSync(root, { recursive: true }).map(String).filter((file) => file.endsWith('.test.js') && pattern.test(file));
// The longest first, so that the cores finish together.
const LONGEST = ['differential', 'proxy', 'cli-2', 'cli-1', 'self-levels-alternate', 'self-levels-zulip-high', 'many-runs', 'near-miss', 'self-faults-zulip', 'self-levels-zulip-low', 'self-real-time', 'scripts/ci', 'verdicts', 'self-faults-alternate', 'pack', 'sweep', 'self.', 'browser', 'zulip-js', 'oracle'];
const rank = (file) => {
  const index = LONGEST.findIndex((name) => file.includes(`/${name}`) || file.includes(name));
  return index < 0 ? LONGEST.length : index;
};
files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

// The tests' temporary files go into one folder of this run's, removed at the end.
const scratch = mkdtempSync(join(tmpdir(), 'teamchat-test-'));
const totals = { passed: 0, failed: 0, skipped: 0, ran: 0 };
/** The longest a test file may run (the longest takes about 70 s on a loaded two-core machine). */
const FILE_LIMIT_S = Number(process.env.TEST_FILE_LIMIT_S ?? 600);
/** What a test file said it skipped, and why: repeated above the summary. */
const skips = [];
/** Each failed test, by file, name and first line of why: repeated above the summary, so a long log says what failed at its end. */
const failures = [];
const started = Date.now();

function runFile(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, file)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: scratch } });
    let output = '';
    // A file that hangs (a server that outlives its test) fails with its name, not the whole run at CI's limit.
    let hung = false;
    const limit = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, FILE_LIMIT_S * 1000);
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      clearTimeout(limit);
      if (hung) output += `\n${file} was still running after ${FILE_LIMIT_S} s (TEST_FILE_LIMIT_S) and was stopped\n`;
      const count = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? NaN);
      let [total, passed, skipped] = [count('Total'), count('Passed'), count('Skipped')];
      if (Number.isNaN(total)) {
        // Died before its summary: one failure, whatever it had passed.
        [total, passed, skipped] = [1, 0, 0];
        output += `\n${file} ended (exit ${code}) without uvu's summary: counted as a failure\n`;
      }
      totals.ran += total;
      totals.passed += passed;
      totals.failed += total - passed + (code !== 0 && total === passed ? 1 : 0);
      totals.skipped += skipped || 0;
      skips.push(...output.split('\n').filter((line) => /^\s*SKIPPED: /.test(line)).map((line) => line.trim()));
      const lines = output.split('\n');
      lines.forEach((line, at) => {
        const failed = /^\s*FAIL\s+"(.*)"\s*$/.exec(line);
        if (failed) failures.push(`${file}: ${failed[1]}\n    ${(lines[at + 1] ?? '').trim().slice(0, 300)}`);
      });
      if (hung) failures.push(`${file}: still running after ${FILE_LIMIT_S} s, stopped`);
      else if (lines.every((line) => !/^\s*Total:/.test(line))) failures.push(`${file}: ended (exit ${code}) before uvu's summary`);
      else if (code !== 0 && total === passed) failures.push(`${file}: exited ${code} after its tests passed`);
      process.stdout.write(`\n${file} (${((Date.now() - started) / 1000).toFixed(0)} s)\n${output.trim()}\n`);
      resolve();
    });
  });
}

// Files that mostly wait run beside the others, not in a core's turn: deliveries on real time, a
// lossy proxy's timeouts, runs that wait for one another's lease (each uses a third of its time or
// less on a core).
const WAITING = ['self-real-time', 'proxy', 'many-runs', 'mutant-check'];
const waits = (file) => WAITING.some((name) => file.includes(name));
const queue = files.filter((file) => !waits(file));
// Two more than the cores: the files wait on sockets and timers part of the time (measured on two
// cores: one more left a core idle a fifth of the run, 180 to 188 s; two more, 166 s).
const workers = Array.from({ length: Math.min(Number(process.env.TEST_WORKERS ?? availableParallelism() + 2), queue.length) }, async () => {
  while (queue.length > 0) await runFile(queue.shift());
});
await Promise.all([...workers, ...files.filter(waits).map(runFile)]);
console.log(`\n${files.length} test files in ${((Date.now() - started) / 1000).toFixed(0)} s`);
for (const skip of skips) console.log(skip);
for (const failure of failures) console.log(`FAILED: ${failure}`);
rmSync(scratch, { recursive: true, force: true });
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (totals.ran === 0) console.error('no test ran: that is a failure');
process.exit(totals.ran === 0 || totals.failed > 0 ? 1 : 0);
