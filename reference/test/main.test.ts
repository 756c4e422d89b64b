// The reference's command line as a user runs it.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const main = new URL('../main.js', import.meta.url).pathname;

test('prints its base URL once listening, writes the profile, exits 0 on SIGTERM and SIGINT', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const profile = join(mkdtempSync(join(tmpdir(), 'teamchat-ref-')), 'profile.json');
    const child = spawn(process.execPath, [main, '--port', '0', '--feature-level', '300', '--profile-out', profile]);
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk))));
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)![0];
    const settings = (await (await fetch(`${url}/api/v1/server_settings`)).json()) as any;
    assert.is(settings.zulip_feature_level, 300);
    const written = JSON.parse(readFileSync(profile, 'utf8'));
    assert.is(written.base_url, url);
    assert.equal(Object.keys(written.users), ['admin', 'member', 'other']);
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill(signal);
    });
    assert.is(code, 0, signal);
  }
});

async function refused(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [main, ...args]);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.is(code, 2, args.join(' '));
  assert.is(stderr.trim().split('\n').length, 1, `one line, not the usage: ${stderr}`);
  return stderr;
}

test('bad options end with exit 2 and one line that says what is wrong', async () => {
  assert.match(await refused(['--feature-level', '9999']), /^reference: --feature-level takes a whole number from 1 to 415/);
  assert.match(await refused(['--port', 'x']), /^reference: --port takes a whole number/);
  assert.match(await refused(['--fixture', '/nonexistent.json']), /^reference: /);
  assert.match(await refused(['--prot', '5']), /^reference: Unknown option '--prot' \(did you mean --port\?\)/);
  // A port another server holds.
  const holder = spawn(process.execPath, [main, '--port', '0']);
  const line = await new Promise<string>((resolve) => holder.stdout.once('data', (chunk) => resolve(String(chunk))));
  const port = /:(\d+) /.exec(line)![1]!;
  try {
    assert.match(await refused(['--port', port]), new RegExp(`^reference: port ${port} is taken .*--port 0 for a free one`));
  } finally {
    holder.kill('SIGTERM');
  }
});

test('with TEAMCHAT_STALL_EXIT_MS, a server whose event loop no longer turns (a loop that never ends) ends itself', async () => {
  // A module loaded first that loops forever on the main thread when told to: told once the server
  // listens, when its watcher surely runs (a loop begun at a time of its own could begin before
  // the server had started its watcher, on a machine slow to load it, and never end).
  const child = spawn(process.execPath, ['--import', 'data:text/javascript,process.on("SIGUSR2", () => { for (;;); })', main, '--port', '0'], { env: { ...process.env, TEAMCHAT_STALL_EXIT_MS: '1000' } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<[number | null, string | null]>((resolve) => child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGUSR2');
  const [code, signal] = await exited;
  assert.is(signal, 'SIGKILL', `ended with ${code}, ${signal}`);
  assert.match(stderr, /the event loop has not turned for 1000 ms; ending/);
});

test.run();
