// npm test: runs every compiled *.test.js under dist/ with uvu, then prints the plain
// "N passed, N failed" line CI reads. uvu exits 0 when no test ran; this does not.

import { spawn } from 'node:child_process';

const uvu = new URL('../node_modules/uvu/bin.js', import.meta.url).pathname;
const pattern = process.argv[2] ?? '\\.test\\.js$';
const child = spawn(process.execPath, [uvu, 'dist', pattern, '-c', 'false'], { stdio: ['ignore', 'pipe', 'inherit'] });
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
  process.stdout.write(chunk);
});
child.on('close', (code) => {
  const count = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? 0);
  const total = count('Total');
  const passed = count('Passed');
  const skipped = count('Skipped');
  // uvu's Total counts the tests that ran; skipped ones are outside it.
  const failed = total - passed;
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (total === 0) console.error('no test ran: that is a failure');
  process.exit(total === 0 || failed > 0 || code !== 0 ? 1 : 0);
});
