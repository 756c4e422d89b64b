// npm test names every skip at its end, and a skip that CI must not have is a failure there.

import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const oracle = new URL('../reference/test/oracle.test.js', import.meta.url).pathname;

function run(env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [oracle], { env: { ...process.env, CI: '', ...env } });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout }));
  });
}

test('without Zulip\'s OpenAPI descriptions, the oracle test skips each level in the line npm test repeats at its end', async () => {
  const { code, stdout } = await run({ TEAMCHAT_ORACLES: '/nonexistent/' });
  assert.is(code, 0, stdout);
  for (const level of [218, 378, 384]) assert.match(stdout, new RegExp(`^  SKIPPED: the OpenAPI test of level ${level}: `, 'm'));
});

test('under CI=true a missing description is a failure, not a skip', async () => {
  const { code, stdout } = await run({ TEAMCHAT_ORACLES: '/nonexistent/', CI: 'true' });
  assert.is.not(code, 0, stdout);
  assert.not.match(stdout, /SKIPPED/);
});

test.run();
