import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { targetProfile } from '../../reference/http/boot.js';
import { startReference } from '../../reference/http/server.js';
import { Client, HarnessError, curlLine } from '../run/client.js';
import { png } from '../checks/uploads.js';
import { Cleanup, Journal, pendingIn } from '../run/cleanup.js';
import { runSuite } from '../suite.js';
import { Witness } from '../run/witness.js';
import { proxy, reply } from './helpers.js';

const credentials = { admin: { email: 'a@x', api_key: 'A'.repeat(32) }, member: { email: 'm@x', api_key: 'M'.repeat(32) }, other: { email: 'o@x', api_key: 'O'.repeat(32) } };

async function tinyServer(answer: (count: number) => [number, Record<string, string>, string]) {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    const [status, headers, body] = answer(++count);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)), count: () => count };
}

test('curl lines run as printed: an upload makes its file first, byte for byte; a POST without a body stays a POST', async () => {
  const server = await tinyServer(() => [200, {}, '{"result":"success","msg":""}']);
  const client = new Client(server.url, credentials, { rate: 0, timeoutMs: 2000 });
  try {
    client.startRecording();
    const padded = png(3000);
    await client.call('member', 'POST', '/realm/emoji/x', { file: { file: true, filename: 'emoji.png', type: 'image/png', data: padded } });
    await client.call('member', 'POST', '/reminders');
    const [upload, empty] = client.stopRecording().map(curlLine);
    const [make, curl] = upload!.split(' && ');
    assert.match(curl!, /-F 'file=@\/tmp\/teamchat-file-3000\.png;filename=emoji\.png;type=image\/png'$/);
    const made = await new Promise<Buffer>((resolve) => {
      const shell = spawn('bash', ['-c', make!.replace(/ > \S+$/, '')]);
      const chunks: Buffer[] = [];
      shell.stdout.on('data', (chunk) => chunks.push(chunk));
      shell.on('close', () => resolve(Buffer.concat(chunks)));
    });
    assert.ok(made.equals(padded), `the line made ${made.length} bytes, not the ${padded.length} uploaded`);
    assert.match(empty!, /^curl -sS -X POST /);
  } finally {
    await client.close();
    await server.close();
  }
});

test('an upload goes with its Content-Length, never chunked unless asked: a server that reads no chunked body meets every emoji rule', async () => {
  const seen: Array<{ length: string | undefined; chunked: boolean; bytes: number }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ length: req.headers['content-length'], chunked: /chunked/.test(String(req.headers['transfer-encoding'] ?? '')), bytes: Buffer.concat(chunks).length });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"success","msg":""}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, credentials, { rate: 0, timeoutMs: 2000 });
  try {
    const file = { file: true, filename: 'emoji.png', type: 'image/png', data: png(3000) } as const;
    await client.call('admin', 'POST', '/realm/emoji/x', { file });
    await client.call('admin', 'POST', '/realm/emoji/y', { file }, { chunked: true });
    assert.is(seen[0]!.chunked, false);
    assert.is(Number(seen[0]!.length), seen[0]!.bytes);
    assert.ok(seen[0]!.bytes > 3000);
    assert.equal([seen[1]!.chunked, seen[1]!.length], [true, undefined]);
  } finally {
    await client.close();
    server.close();
  }
  // The reference behind a gateway that refuses chunked bodies, as Django's development server does.
  const reference = await startReference({ port: 0 });
  const strict = await proxy(reference.url, async (req, res, forward) => {
    if (/chunked/.test(String(req.headers['transfer-encoding'] ?? ''))) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"result":"error","msg":"You must upload exactly one file.","code":"BAD_REQUEST"}');
    reply(res, await forward());
  });
  try {
    const report = await runSuite({
      target: strict.url, credentials: targetProfile(reference.fixture, reference.url).users, embedded: false, seed: 1, runs: 1, only: 'emoji.*', replayPath: null,
      decisions: false, rate: 0, timeoutMs: 5_000, eventWaitMs: 300, expectations: null,
    });
    assert.equal(report.rules.filter((rule) => rule.status === 'fail' || rule.status === 'error').map((rule) => `${rule.id}: ${rule.message.slice(0, 200)}`), []);
    assert.ok(report.rules.filter((rule) => rule.status === 'pass').length >= 5);
  } finally {
    await strict.close();
    await reference.close();
  }
});

test('a cleanup problem met again is listed once', async () => {
  const cleanup = new Cleanup();
  for (let i = 0; i < 3; i++) await cleanup.now('delete draft 7', async () => { throw new Error('403 Forbidden'); });
  await cleanup.now('delete draft 8', async () => { throw new Error('403 Forbidden'); });
  assert.equal(cleanup.problems, ['delete draft 7: 403 Forbidden', 'delete draft 8: 403 Forbidden']);
});

test('the same put-back asked for again (a rule run again by --retries) is one journal step, run once', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'teamchat-journal-')), 'journal.jsonl');
  const cleanup = new Cleanup({ cleaningUp: 0 }, new Journal(path, 'tcc-00000001', 'http://example.invalid'));
  let archived = 0;
  const request = { as: 'admin' as const, method: 'DELETE', path: '/streams/7', params: {} };
  for (let retry = 0; retry < 5; retry++) cleanup.atEnd('archive channel 7', async () => void archived++, request);
  cleanup.atEnd('archive channel 8', async () => void archived++, { ...request, path: '/streams/8' });
  await cleanup.runAll();
  assert.is(archived, 2);
  assert.equal(cleanup.problems, []);
  const { pending } = pendingIn(path);
  assert.equal(pending, []);
  assert.is(readFileSync(path, 'utf8').split('\n').filter((line) => line.includes('"step"')).length, 2);
});

test('a 429 is waited out as Retry-After says, then the request is made again', async () => {
  const server = await tinyServer((n) => (n === 1 ? [429, { 'retry-after': '0.2' }, '{"result":"error","code":"RATE_LIMIT_HIT"}'] : [200, {}, '{"result":"success"}']));
  const client = new Client(server.url, credentials, { rate: 0, timeoutMs: 2000 });
  const started = Date.now();
  const response = await client.call('member', 'GET', '/drafts');
  assert.is(response.status, 200);
  assert.is(server.count(), 2);
  assert.ok(Date.now() - started >= 180, 'it waited');
  await client.close();
  await server.close();
});

test('requests are spaced to the rate bound', async () => {
  const server = await tinyServer(() => [200, {}, '{"result":"success"}']);
  const client = new Client(server.url, credentials, { rate: 20, timeoutMs: 2000 });
  const started = Date.now();
  await Promise.all(Array.from({ length: 5 }, () => client.call('member', 'GET', '/x')));
  assert.ok(Date.now() - started >= 190, `five requests at 20/s take at least 200 ms, took ${Date.now() - started}`);
  await client.close();
  await server.close();
});

test('a network failure is a HarnessError, never a response', async () => {
  const client = new Client('http://127.0.0.1:9', credentials, { rate: 0, timeoutMs: 1000 });
  try {
    await client.call('member', 'GET', '/x');
    assert.unreachable('no error');
  } catch (error) {
    assert.instance(error, HarnessError);
    // Named as every other message names an operation: its path under /api/v1.
    assert.match((error as Error).message, /^GET \/x: /);
  }
  await client.close();
});

test('curl lines: credentials as variables, quoting, unprintable values percent-encoded', () => {
  const line = curlLine({ as: 'other', method: 'PATCH', url: 'http://h/api/v1/drafts/1', form: [['draft', `{"content":"it's"}`], ['topic', 'a\u0000b']], status: 200, body: null });
  assert.is(line, `curl -sS -X PATCH -u "$TEAMCHAT_OTHER_EMAIL:$TEAMCHAT_OTHER_API_KEY" 'http://h/api/v1/drafts/1' --data-urlencode 'draft={"content":"it'\\''s"}' --data-raw 'topic=a%00b'`);
  assert.not.match(line, /O{32}/);
  assert.is(curlLine({ as: null, method: 'GET', url: 'http://h/api/v1/server_settings', form: [], status: 200, body: null }), `curl -sS 'http://h/api/v1/server_settings'`);
});

test('Ctrl-C: the run stops, removes what it created, and exits 130', async () => {
  const reference = await startReference({ port: 0 });
  const profile = targetProfile(reference.fixture, reference.url);
  try {
    const child = spawn(process.execPath, [new URL('../main.js', import.meta.url).pathname, '--target', reference.url, '--only', 'flags.', '--runs', '5', '--rate', '0'], {
      env: {
        ...process.env,
        TEAMCHAT_ADMIN_EMAIL: profile.users.admin.email, TEAMCHAT_ADMIN_API_KEY: profile.users.admin.api_key,
        TEAMCHAT_MEMBER_EMAIL: profile.users.member.email, TEAMCHAT_MEMBER_API_KEY: profile.users.member.api_key,
        TEAMCHAT_OTHER_EMAIL: profile.users.other.email, TEAMCHAT_OTHER_API_KEY: profile.users.other.api_key,
      },
    });
    let output = '';
    let interrupted = false;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (!interrupted && /pass\s+flags\./.test(output)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.is(code, 130, output);
    assert.match(output, /\(interrupted\)/);
    const runChannels = [...reference.realm.channels.values()].filter((channel) => /^tcc[0-9a-f]{8}-/.test(channel.name));
    assert.ok(runChannels.length >= 3, 'the run had made its channels');
    assert.equal(runChannels.filter((channel) => !channel.isArchived).map((channel) => channel.name), [], 'every channel of the run is archived');
  } finally {
    await reference.close();
  }
});


test('the witness takes a change of a request still on its way as the run\'s (requests at once answer one by one), and names another client\'s', async () => {
  const server = await startReference({ port: 0 });
  const credentials = targetProfile(server.fixture, server.url).users;
  // other's PATCH reaches the server, and its answer is held until member's has been seen.
  let forwarded!: () => void;
  const othersChangeMade = new Promise<void>((resolve) => (forwarded = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const slow = await proxy(server.url, async (req, res, forward) => {
    const answer = await forward();
    if (req.method === 'PATCH' && callerIs(req.headers.authorization, credentials.other.email)) {
      forwarded();
      await held;
    }
    reply(res, answer);
  });
  const client = new Client(slow.url, credentials, { rate: 0, timeoutMs: 5000 });
  const witness = new Witness(new Client(server.url, credentials, { rate: 0, timeoutMs: 5000 }), 'tcc00000000', true);
  client.onSend = (as, method, path, form) => witness.sending(as, method, path, form);
  client.onExchange = (exchange) => witness.see(exchange);
  try {
    await witness.start();
    const others = client.call('other', 'PATCH', '/settings', { color_scheme: 3 });
    await othersChangeMade;
    // member's answer comes first; reading the queues then shows other's change too, whose answer is still held.
    await client.call('member', 'PATCH', '/settings', { color_scheme: 2 });
    assert.equal(await witness.othersChanges(['profile users\' settings']), { foreign: [], unclear: [] });
    release();
    await others;
    // Three at once, their answers (and the reads after each) side by side.
    await Promise.all((['member', 'other', 'admin'] as const).map((as, index) => client.call(as, 'PATCH', '/settings', { color_scheme: index + 1 })));
    assert.equal(await witness.othersChanges(['profile users\' settings']), { foreign: [], unclear: [] });
    // A change the run did not send, by another client: named.
    const outsider = new Client(server.url, credentials, { rate: 0, timeoutMs: 5000 });
    await outsider.call('admin', 'PATCH', '/settings', { color_scheme: 2 });
    const seen = await witness.othersChanges(['profile users\' settings']);
    assert.equal(seen.foreign, ['admin\'s setting color_scheme became 2, which this run did not set']);
  } finally {
    release();
    await witness.stop();
    await slow.close();
    await server.close();
  }
});

/** Whether Basic credentials name this email. */
function callerIs(authorization: string | undefined, email: string): boolean {
  return Buffer.from(String(authorization ?? '').replace(/^Basic /, ''), 'base64').toString().startsWith(`${email}:`);
}

test.run();
