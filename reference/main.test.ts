// The reference's command line as a user runs it.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const main = new URL('./main.js', import.meta.url).pathname;

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

test('bad options end with exit 2 and a message', async () => {
  for (const args of [['--feature-level', '9999'], ['--port', 'x'], ['--fixture', '/nonexistent.json'], ['--bogus']]) {
    const child = spawn(process.execPath, [main, ...args]);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.is(code, 2, args.join(' '));
    assert.match(stderr, /reference: /);
  }
});

test.run();
