// Custom emoji and reminders over HTTP, and hostile uploads: a clear JSON error or a closed
// connection, never a crash, a hang, a 5xx, or memory that grows with the upload.

import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gif, png } from '../../conformance/checks/uploads.js';
import { TestServer } from './test-helpers.js';

const MIB = 1024 * 1024;
let server: TestServer;
setFlagsFromString('--expose_gc');
/** A full collection, so that what is measured is what is still held, not garbage. */
const collect = runInNewContext('gc') as () => void;

test.before(async () => {
  server = await TestServer.start({ maxEmojiFileSizeMib: 1 });
});
test.after(() => server.close());

function multipart(parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>, boundary = 'XyZ'): { body: Buffer; type: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename ? `form-data; name="${part.name}"; filename="${part.filename}"` : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(name: string, parts: Parameters<typeof multipart>[0], as: 'member' | 'admin' | 'other' = 'member') {
  const { body, type } = multipart(parts);
  const response = await fetch(`${server.url}/api/v1/realm/emoji/${encodeURIComponent(name)}`, { method: 'POST', body: new Uint8Array(body), headers: { authorization: server.credentials(as), 'content-type': type } });
  return { status: response.status, body: (await response.json()) as any };
}

const listed = async () => Object.values((await server.call('member', 'GET', '/realm/emoji')).body.emoji) as any[];

test('emoji: upload, names as the spec reads them, list, serve, remove', async () => {
  assert.equal((await upload('Party Time', [{ name: 'f', filename: 'a.png', type: 'image/png', data: png() }])).body, { result: 'success', msg: '' });
  const [party] = await listed();
  assert.equal([party.name, party.deactivated, party.author_id], ['party_time', false, server.userId('member')]);
  const served = await fetch(party.source_url);
  assert.equal([served.status, served.headers.get('content-type'), Buffer.from(await served.arrayBuffer()).equals(png())], [200, 'image/png', true]);
  assert.is((await upload('PARTY_time', [{ name: 'f', filename: 'b.gif', type: 'image/gif', data: gif() }])).body.msg, 'A custom emoji with this name already exists.');
  assert.is((await upload('party*', [{ name: 'f', filename: 'a.png', type: 'image/png', data: png() }])).body.msg, 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
  assert.is((await upload('docs', [{ name: 'f', filename: 'a.png', type: 'image/png', data: Buffer.from('plain text') }])).body.code, 'BAD_IMAGE');
  assert.is((await upload('docs', [{ name: 'f', filename: 'a.png', type: 'image/png', data: png().subarray(0, 40) }])).body.code, 'BAD_IMAGE');
  assert.is((await upload('nofile', [{ name: 'note', data: 'no file' }])).body.msg, 'You must upload exactly one file.');
  assert.is((await server.call('other', 'DELETE', '/realm/emoji/party_time')).body.msg, 'Must be an organization administrator or emoji author');
  assert.is((await server.call('member', 'DELETE', '/realm/emoji/party_time')).body.result, 'success');
  assert.equal((await listed()).map((emoji) => [emoji.name, emoji.deactivated]), [['party_time', true]]);
});

test('emoji: a file of exactly the limit is stored, one byte more is refused', async () => {
  assert.is((await upload('exact', [{ name: 'f', filename: 'a.png', type: 'image/png', data: png(MIB) }])).body.result, 'success');
  const over = await upload('over', [{ name: 'f', filename: 'a.png', type: 'image/png', data: png(MIB + 1) }]);
  assert.equal([over.status, over.body.msg], [400, 'Uploaded file is larger than the allowed limit of 1 MiB']);
  assert.not.ok((await listed()).some((emoji) => emoji.name === 'over'));
});

/** Sends raw bytes on a socket, optionally slowly, and returns what came back (or that the connection closed). */
function raw(request: Buffer[], pauseMs = 0): Promise<string> {
  return new Promise((resolve) => {
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => resolve(answer || 'closed'));
    socket.on('close', () => resolve(answer || 'closed'));
    socket.on('connect', async () => {
      for (const chunk of request) {
        if (socket.destroyed) break;
        socket.write(chunk);
        if (pauseMs) await new Promise((next) => setTimeout(next, pauseMs));
      }
      if (!socket.destroyed) socket.end();
    });
  });
}

const head = (length: number | null, type = 'multipart/form-data; boundary=XyZ') =>
  Buffer.from(`POST /api/v1/realm/emoji/hostile HTTP/1.1\r\nHost: x\r\nAuthorization: ${server.credentials('member')}\r\nContent-Type: ${type}\r\n${length === null ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\nConnection: close\r\n\r\n`);

const stillServing = async () => assert.is((await server.call('member', 'GET', '/users/me')).status, 200);

test('hostile uploads: truncated, unclosed, 10x the limit, thousands of parts, a slow sender', async () => {
  const { body } = multipart([{ name: 'f', filename: 'a.png', type: 'image/png', data: png() }]);
  const truncated = body.subarray(0, body.length - 20);
  const answer = await raw([head(truncated.length), truncated]);
  assert.match(answer, /^HTTP\/1\.1 400[\s\S]*"result":"error"/);
  await stillServing();

  const unclosed = Buffer.concat([Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n'), png()]);
  assert.match(await raw([head(unclosed.length), unclosed]), /^HTTP\/1\.1 400[\s\S]*Malformed multipart body/);
  await stillServing();

  const huge = Buffer.concat([Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n'), png(10 * MIB)]);
  const chunks = Array.from({ length: Math.ceil(huge.length / (256 * 1024)) }, (_, i) => huge.subarray(i * 256 * 1024, (i + 1) * 256 * 1024));
  // The chunked encoding is made before measuring: its copies are the test's, not the server's.
  const chunkedBody = [head(null), ...[...chunks, Buffer.from('\r\n--XyZ--\r\n')].map((chunk) => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])), Buffer.from('0\r\n\r\n')];
  collect();
  const before = process.memoryUsage().arrayBuffers;
  let peak = before;
  const watch = setInterval(() => {
    collect();
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  }, 10);
  // Declared: refused from the header; chunked: refused when the file passes the limit.
  const declared = await raw([Buffer.from(`POST /api/v1/realm/emoji/hostile HTTP/1.1\r\nHost: x\r\nAuthorization: ${server.credentials('member')}\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${huge.length + 9}\r\n\r\n`), ...chunks, Buffer.from('\r\n--XyZ--\r\n')]);
  const chunked = await raw(chunkedBody);
  clearInterval(watch);
  // The 10 MiB upload and its chunked copy are held by the test from before; the server may hold the 1 MiB limit and socket buffers.
  assert.ok(peak - before < 4 * MIB, `live array buffers grew by ${((peak - before) / MIB).toFixed(1)} MiB during an upload of ${(huge.length / MIB).toFixed(0)} MiB`);
  for (const oversize of [declared, chunked]) assert.ok(oversize === 'closed' || /^HTTP\/1\.1 4\d\d[\s\S]*"result":"error"/.test(oversize), oversize.slice(0, 200));
  assert.match(chunked, /larger than the allowed limit of 1 MiB/);
  await stillServing();

  const many = multipart(Array.from({ length: 5000 }, (_, i) => ({ name: `p${i}`, data: 'x' }))).body;
  assert.match(await raw([head(many.length), many]), /^HTTP\/1\.1 413[\s\S]*Too many (fields|parts)/);
  await stillServing();

  const pieces = Array.from({ length: 20 }, (_, i) => body.subarray(Math.floor((i * body.length) / 20), Math.floor(((i + 1) * body.length) / 20)));
  const slow = raw([head(body.length), ...pieces], 40);
  await stillServing();
  assert.match(await slow, /^HTTP\/1\.1 200[\s\S]*"result":"success"/);
});

test('reminders: created, listed, delivered by the notification bot on the clock, deleted', async () => {
  const message = (await server.call('other', 'POST', '/messages', { type: 'private', to: [server.userId('member')], content: 'remember this' })).body.id;
  const now = Math.floor(Date.now() / 1000);
  const created = await server.call('member', 'POST', '/reminders', { message_id: message, scheduled_delivery_timestamp: now + 60, note: 'call back' });
  assert.type(created.body.reminder_id, 'number');
  const [listedReminder] = (await server.call('member', 'GET', '/reminders')).body.reminders;
  assert.equal([listedReminder.reminder_id, listedReminder.reminder_target_message_id], [created.body.reminder_id, message]);
  assert.is((await server.call('other', 'DELETE', `/reminders/${created.body.reminder_id}`)).status, 404);
  await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 120 });
  assert.equal((await server.call('member', 'GET', '/reminders')).body.reminders, []);
  const latest = (await server.call('member', 'GET', '/messages', { anchor: 'newest', num_before: 0, apply_markdown: false })).body.messages[0];
  assert.is(latest.sender_full_name, 'Notification Bot');
  assert.match(latest.content, /^You requested a reminder for the following direct message\. Note:\n > call back/);
  assert.match(latest.content, new RegExp(`/near/${message}`));
  assert.is((await server.call('member', 'POST', '/reminders', { message_id: 999999, scheduled_delivery_timestamp: now + 600 })).body.msg, 'Invalid message(s)');
});

test.run();
