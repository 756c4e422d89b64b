import fc from 'fast-check';
import { request } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { RULES } from '../../conformance/rules.js';
import { LIMITS } from '../http/bounds.js';
import { TestServer } from './test-helpers.js';

let server: TestServer;

test.before(async () => {
  server = await TestServer.start();
});
test.after(() => server.close());

/** A raw request, for bodies fetch will not send. */
function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('missing credentials: 401, WWW-Authenticate, JSON error', async () => {
  const response = await server.call(null, 'GET', '/drafts');
  assert.is(response.status, 401);
  assert.is(response.headers.get('www-authenticate'), 'Basic realm="zulip"');
  assert.equal(response.body, { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
});

test('bad credentials: 401 for a wrong key, a malformed key, a header that is not a scheme and credentials; 400 for another scheme, as Zulip', async () => {
  const wrong = 'Basic ' + Buffer.from('hamlet@example.com:' + 'a'.repeat(32)).toString('base64');
  for (const [authorization, msg] of [
    [wrong, 'Invalid API key'],
    ['Basic ' + Buffer.from('hamlet@example.com:short').toString('base64'), 'Malformed API key'],
    ['Basic !!!', 'Invalid authorization header for basic auth'],
    ['Basic', 'Invalid authorization header for basic auth'],
    ['Basic abc def', 'Invalid authorization header for basic auth'],
  ]) {
    const response = await server.call(null, 'GET', '/drafts', {}, { headers: { authorization: authorization! } });
    assert.is(response.status, 401, authorization);
    assert.is(response.body.msg, msg);
    assert.is(response.headers.get('www-authenticate'), 'Basic realm="zulip"');
  }
  const member = server.credentials('member').replace(/^Basic /, 'Bearer ');
  const bearer = await server.call(null, 'GET', '/drafts', {}, { headers: { authorization: member } });
  assert.equal([bearer.status, bearer.body.code, bearer.body.msg], [400, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.']);
});

test('server_settings needs no credentials and ignores bad ones', async () => {
  const plain = await server.call(null, 'GET', '/server_settings');
  assert.is(plain.status, 200);
  assert.is(plain.body.zulip_feature_level, 415);
  assert.is(plain.body.reference_clock, true);
  const bad = await server.call(null, 'GET', '/server_settings', {}, { headers: { authorization: 'Basic Zm9vOmJhcg==' } });
  assert.is(bad.status, 200);
});

test('unknown route: JSON 404; wrong method: 405 with Allow', async () => {
  const missing = await server.call('member', 'GET', '/no/such/thing');
  assert.is(missing.status, 404);
  assert.is(missing.body.result, 'error');
  assert.is(missing.body.code, 'BAD_REQUEST');
  const nonNumeric = await server.call('member', 'DELETE', '/drafts/abc');
  assert.is(nonNumeric.status, 404);
  const wrong = await server.call('member', 'PUT', '/drafts');
  assert.is(wrong.status, 405);
  assert.is(wrong.headers.get('allow'), 'GET, POST');
  assert.equal(wrong.body.allowed_methods, ['GET', 'POST']);
  assert.is(wrong.body.code, 'BAD_REQUEST');
});

test('routing: a trailing slash is the same path; a percent-encoded parameter is decoded; a longer path is not the route', async () => {
  const drafts = await server.call('member', 'GET', '/drafts/');
  assert.is(drafts.status, 200);
  assert.ok(Array.isArray(drafts.body.drafts));
  const created = await server.call('member', 'POST', '/drafts', { drafts: [{ type: 'stream', to: [1], topic: 'routing', content: 'x' }] });
  const id = created.body.ids[0];
  const edited = await server.call('member', 'PATCH', `/drafts/${id}/`, { draft: { type: 'stream', to: [1], topic: 'routed', content: 'y' } });
  assert.is(edited.status, 200, JSON.stringify(edited.body));
  assert.is((await server.call('member', 'DELETE', `/drafts/${id}/x`)).status, 404);
  assert.is((await server.call('member', 'GET', '/drafts/x')).status, 404);
  assert.is((await server.call('member', 'DELETE', `/drafts/${id}`)).status, 200);
  // %20 and %5F stand for a space and an underscore: the name reaches the emoji rules decoded.
  const missing = await server.call('admin', 'DELETE', '/realm/emoji/no%20such%5Femoji');
  assert.is(missing.status, 404);
  assert.is(missing.body.msg, "Emoji 'no such_emoji' does not exist");
  // A malformed escape is no path the server has.
  const malformed = await server.call('admin', 'DELETE', '/realm/emoji/no%E0such');
  assert.is(malformed.status, 404);
  assert.is(malformed.body.msg, 'Not Found');
  // OPTIONS, without credentials: 204, no body, Allow naming the path's methods.
  const options = await raw('OPTIONS', '/api/v1/drafts', {});
  assert.is(options.status, 204);
  assert.is(options.headers.allow, 'GET, POST');
  assert.is(options.text, '');
});

test('parameters come from the query string on PATCH and DELETE too; the body wins', async () => {
  const path = `/settings?enable_drafts_synchronization=false&twenty_four_hour_time=true`;
  const response = await server.call('member', 'PATCH', path, { twenty_four_hour_time: false });
  assert.is(response.status, 200);
  const user = server.reference.realm.usersByEmail.get('hamlet@example.com')!;
  assert.is(user.settings.enable_drafts_synchronization, false);
  assert.is(user.settings.twenty_four_hour_time, false);
  await server.call('member', 'PATCH', '/settings', { enable_drafts_synchronization: true });
});

test('multipart bodies are read for every method', async () => {
  const form = new FormData();
  form.set('drafts', JSON.stringify([{ type: '', to: [], topic: '', content: 'multipart draft' }]));
  const response = await fetch(`${server.url}/api/v1/drafts`, { method: 'POST', body: form, headers: { authorization: server.credentials('member') } });
  const body = (await response.json()) as any;
  assert.is(response.status, 200, JSON.stringify(body));
  assert.is(body.ids.length, 1);
  const deleted = await fetch(`${server.url}/api/v1/drafts/${body.ids[0]}`, { method: 'DELETE', body: new FormData(), headers: { authorization: server.credentials('member') } });
  assert.is(deleted.status, 200);
});

test('ignored_parameters_unsupported lists unused names, sorted, from feature level 167', async () => {
  const response = await server.call('member', 'GET', '/drafts', { zebra: '1', apple: '2' });
  assert.equal(response.body.ignored_parameters_unsupported, ['apple', 'zebra']);
  const clean = await server.call('member', 'GET', '/drafts');
  assert.not.ok('ignored_parameters_unsupported' in clean.body);
  const old = await TestServer.start({ featureLevel: 166 });
  try {
    const before = await old.call('member', 'GET', '/drafts', { zebra: '1' });
    assert.is(before.status, 200);
    assert.not.ok('ignored_parameters_unsupported' in before.body);
    const settings = await old.call('member', 'PATCH', '/settings', { zebra: '1' });
    assert.equal(settings.body.ignored_parameters_unsupported, ['zebra'], 'PATCH /settings has it from level 78');
  } finally {
    await old.close();
  }
});

test('POST /messages reads read_by_sender from feature level 236, as Zulip 8.0; before, it is ignored and listed as such', async () => {
  for (const [level, read] of [[236, true], [235, false]] as const) {
    const at = await TestServer.start({ featureLevel: level });
    try {
      const sent = await at.call('other', 'POST', '/messages', { type: 'private', to: JSON.stringify([at.userId('member')]), content: 'read by its sender?', read_by_sender: 'true' });
      assert.is(sent.status, 200);
      assert.is('ignored_parameters_unsupported' in sent.body, !read, `level ${level}`);
      const own = await at.call('other', 'GET', `/messages/${sent.body.id}`);
      const theirs = await at.call('member', 'GET', `/messages/${sent.body.id}`);
      assert.is(own.body.message.flags.includes('read'), read, `the sender's copy at level ${level}`);
      assert.not.ok(theirs.body.message.flags.includes('read'), `the recipient's copy at level ${level}`);
    } finally {
      await at.close();
    }
  }
});

test('POST /scheduled_messages reads read_by_sender from feature level 236 too; before, it is ignored and listed as such', async () => {
  for (const [level, read] of [[236, true], [235, false]] as const) {
    const at = await TestServer.start({ featureLevel: level });
    try {
      const timestamp = Math.floor(at.reference.realm.clock.now()) + 3600;
      const made = await at.call('other', 'POST', '/scheduled_messages', { type: 'direct', to: JSON.stringify([at.userId('member')]), content: 'read by its sender?', scheduled_delivery_timestamp: timestamp, read_by_sender: 'true' });
      assert.is(made.status, 200);
      assert.is('ignored_parameters_unsupported' in made.body, !read, `level ${level}`);
      const scheduled = at.reference.realm.scheduledMessages.get(made.body.scheduled_message_id)!;
      assert.is(scheduled.readBySender, read, `what is kept at level ${level}`);
    } finally {
      await at.close();
    }
  }
});

test('a body over the limit gets a JSON 413 and changes nothing', async () => {
  const count = server.reference.realm.usersByEmail.get('hamlet@example.com')!.drafts.size;
  const content = 'x'.repeat(LIMITS.fieldBytes);
  const response = await raw('POST', '/api/v1/drafts', {
    authorization: server.credentials('member'),
    'content-type': 'application/x-www-form-urlencoded',
  }, `drafts=${encodeURIComponent(JSON.stringify([{ type: '', to: [], topic: '', content }]))}`);
  assert.is(response.status, 413);
  assert.is(JSON.parse(response.text).result, 'error');
  assert.is(server.reference.realm.usersByEmail.get('hamlet@example.com')!.drafts.size, count);
});

test('a declared length over the limit is refused before the body is read', async () => {
  const response = await raw('POST', '/api/v1/drafts', {
    authorization: server.credentials('member'),
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(LIMITS.drainBytes + 1),
  }, '');
  assert.is(response.status, 413);
});

test('malformed multipart and too many files are clear errors', async () => {
  const broken = await raw('POST', '/api/v1/drafts', {
    authorization: server.credentials('member'),
    'content-type': 'multipart/form-data',
  }, 'garbage');
  assert.is(broken.status, 400);
  assert.match(JSON.parse(broken.text).msg, /multipart/i);
  const form = new FormData();
  form.append('a', new Blob(['1']), 'a.png');
  form.append('b', new Blob(['2']), 'b.png');
  const twoFiles = await fetch(`${server.url}/api/v1/drafts`, { method: 'POST', body: form, headers: { authorization: server.credentials('member') } });
  assert.is(twoFiles.status, 400);
  assert.is(((await twoFiles.json()) as any).msg, 'You must upload exactly one file.');
});

test('a JSON body is not read for parameters', async () => {
  const response = await raw('POST', '/api/v1/drafts', { authorization: server.credentials('member'), 'content-type': 'application/json' }, '{"drafts": "[1]"}');
  assert.is(response.status, 200);
  assert.equal(JSON.parse(response.text).ids, []);
});

test('a request that is not HTTP gets a JSON 400', async () => {
  const { connect } = await import('node:net');
  const url = new URL(server.url);
  const text = await new Promise<string>((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write('GARBAGE / HTTP/9\r\n\r\n'));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
  });
  assert.match(text, /^HTTP\/1\.1 400 /);
  assert.is(JSON.parse(text.split('\r\n\r\n')[1]!).result, 'error');
});

test('pipelined requests on one connection are answered, in order (answers are written at the end of the turn)', async () => {
  const { connect } = await import('node:net');
  const url = new URL(server.url);
  const authorization = server.credentials('member');
  const paths = ['/api/v1/drafts', '/api/v1/no/such/thing', '/api/v1/users/me', '/api/v1/drafts/'];
  const text = await new Promise<string>((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(paths.map((path, index) => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}${index === paths.length - 1 ? '\r\nConnection: close' : ''}\r\n\r\n`).join(''));
    });
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
  });
  const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d+) /gm)].map((match) => Number(match[1]));
  assert.equal(statuses, [200, 404, 200, 200]);
  const bodies = text.split(/\r\n\r\n/).slice(1).map((part) => part.split('\n')[0]!);
  assert.ok('drafts' in JSON.parse(bodies[0]!));
  assert.ok('email' in JSON.parse(bodies[2]!));
});

test('the Date header is the reference clock', async () => {
  const response = await server.call('admin', 'POST', '/reference/clock', { advance_seconds: 86400 * 365 });
  assert.is(response.status, 200);
  const date = Date.parse((await server.call(null, 'GET', '/server_settings')).headers.get('date')!) / 1000;
  assert.ok(Math.abs(date - response.body.now) <= 2, `${date} vs ${response.body.now}`);
  assert.ok(date > Date.now() / 1000 + 86400 * 364);
});

test('the reference clock is for administrators, and moves forward only', async () => {
  const member = await server.call('member', 'POST', '/reference/clock', { advance_seconds: 10 });
  assert.is(member.status, 400);
  assert.is(member.body.code, 'UNAUTHORIZED_PRINCIPAL');
  const backwards = await server.call('admin', 'POST', '/reference/clock', { advance_seconds: -5 });
  assert.is(backwards.status, 400);
});

test('no client input makes the server answer 5xx or non-JSON', async () => {
  const paths = fc.constantFrom('/api/v1/drafts', '/api/v1/drafts/1', '/api/v1/settings', '/api/v1/register', '/api/v1/events', '/api/v1/users/me', '/reference/clock', '/api/v1/scheduled_messages', '/api/v1/scheduled_messages/1', '/api/v1/%zz', '/api/v1/drafts/99999999999999999999999');
  const methods = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT');
  const value = fc.oneof(fc.string(), fc.json(), fc.constantFrom('\u0000', '[null]', '[{"type":"stream","to":[1e400]}]', '{"__proto__":1}', '9'.repeat(400)));
  const names = fc.constantFrom('drafts', 'draft', 'queue_id', 'last_event_id', 'dont_block', 'event_types', 'enable_drafts_synchronization', 'advance_seconds', 'color_scheme', '__proto__', 'type', 'to', 'topic', 'content', 'scheduled_delivery_timestamp');
  await fc.assert(
    fc.asyncProperty(paths, methods, fc.dictionary(names, value, { maxKeys: 4 }), async (path, method, fields) => {
      const body = new URLSearchParams(Object.entries(fields)).toString();
      const headers = { authorization: server.credentials('member'), 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) };
      const response = await raw(method, path, headers, body);
      if (response.status >= 500) throw new Error(`${method} ${path} ${body}: ${response.status} ${response.text}`);
      JSON.parse(response.text);
    }),
    { numRuns: 300, seed: 1 },
  );
});

test('GET / is the annotated spec, the page npm run docs writes, marked as served by a reference, without credentials; GET /rules.json is the catalog', async () => {
  const page = await raw('GET', '/', {});
  assert.is(page.status, 200);
  assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.is(page.text, readFileSync(new URL('../../../docs/annotated.html', import.meta.url), 'utf8').replace('<body>', '<body data-live="1">'));
  const examples = await raw('GET', '/annotated.json', {});
  assert.is(examples.text, readFileSync(new URL('../../../docs/annotated.json', import.meta.url), 'utf8'));
  const catalog = await raw('GET', '/rules.json', {});
  assert.is(catalog.status, 200);
  assert.equal(JSON.parse(catalog.text).map((rule: { id: string }) => rule.id), RULES.map((rule) => rule.id));
  // Anything else outside /api/v1 is still a JSON 404.
  const other = await raw('GET', '/rules.js', {});
  assert.is(other.status, 404);
  assert.is(JSON.parse(other.text).result, 'error');
});

test('POST /reference/try sends a request as a profile user and answers with what it got; it and /reference/reset answer only the page on this machine', async () => {
  const { fixture } = server.reference;
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const send = (path: string, fields: Record<string, string>, headers: Record<string, string>) => raw('POST', path, { 'content-type': 'application/x-www-form-urlencoded', ...headers }, form(fields));
  const fromPage = { 'x-teamchat-try': '1' };
  const me = { as: 'member', method: 'GET', path: '/api/v1/users/me' };
  const tried = await send('/reference/try', me, fromPage);
  assert.is(tried.status, 200, tried.text);
  const body = JSON.parse(tried.text);
  assert.is(body.status, 200);
  assert.is(body.answer.email, fixture.profile.member);
  for (const user of fixture.users) assert.not.ok(tried.text.includes(user.api_key), 'no API key in the answer');
  // Without the page's header, from another site's page, or to a path outside the API: refused, nothing sent.
  assert.is((await send('/reference/try', me, {})).status, 403);
  assert.is((await send('/reference/try', me, { ...fromPage, origin: 'http://elsewhere.example' })).status, 403);
  assert.is((await send('/reference/try', { ...me, path: '/rules.json' }, fromPage)).status, 400);
  assert.is((await send('/reference/reset', {}, {})).status, 403);
  // A page of another name that resolves to this machine (DNS rebinding) sends that name as Host,
  // its Origin alike: refused, both the try and the reset. So is this machine's name at another port.
  const port = new URL(server.url).port;
  for (const host of [`evil.example:${port}`, `localhost.evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, '127.0.0.1', `10.0.0.1:${port}`]) {
    const rebound = { ...fromPage, host, origin: `http://${host}` };
    const refusedTry = await send('/reference/try', me, rebound);
    assert.is(refusedTry.status, 403, `${host}: ${refusedTry.text}`);
    assert.match(refusedTry.text, /loopback name/);
    assert.is((await send('/reference/reset', {}, rebound)).status, 403, host);
  }
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) assert.is((await send('/reference/try', me, { ...fromPage, host, origin: `http://${host}` })).status, 200, host);
  // A draft made through it, then a reset: the organization as it started.
  const drafts = () => server.reference.realm.usersByEmail.get(fixture.profile.member)!.drafts.size;
  const made = await send('/reference/try', { as: 'member', method: 'POST', path: '/api/v1/drafts', form: JSON.stringify([['drafts', JSON.stringify([{ type: '', to: [], topic: '', content: 'tried' }])]]) }, fromPage);
  assert.is(JSON.parse(made.text).status, 200, made.text);
  assert.is(drafts(), 1);
  assert.is((await send('/reference/reset', {}, fromPage)).status, 200);
  assert.is(drafts(), 0);
});


test("the reference's own bug (an operation throwing other than a JsonError) is a JSON 500, now or later, and the server answers on", async () => {
  const { createServer } = await import('node:http');
  const { createHandler } = await import('../http/handler.js');
  const { buildRealm, readFixture } = await import('../http/boot.js');
  const realm = buildRealm(readFixture(), 415, new Set());
  const bug = () => {
    throw new TypeError('a bug');
  };
  const routes = [{ path: '/api/v1/bug', unauthenticated: true, methods: { GET: bug } }, { path: '/api/v1/later', unauthenticated: true, methods: { GET: () => Promise.reject(new TypeError('a later bug')) } }, { path: '/api/v1/fine', unauthenticated: true, methods: { GET: () => ({ fine: true }) } }];
  const plain = createServer(createHandler({ realm, reset() {} }, routes as never, new Promise(() => {})));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(plain.address() as { port: number }).port}`;
  const write = process.stderr.write;
  const said: string[] = [];
  process.stderr.write = ((text: string) => said.push(text)) as never;
  try {
    for (const path of ['/api/v1/bug', '/api/v1/later']) {
      const response = await fetch(`${url}${path}`);
      assert.is(response.status, 500, path);
      assert.equal(await response.json(), { result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' });
    }
    const fine = await fetch(`${url}/api/v1/fine`);
    assert.equal(await fine.json(), { result: 'success', msg: '', fine: true });
  } finally {
    process.stderr.write = write;
    plain.close();
  }
  assert.match(said.join(''), /internal error on GET \/api\/v1\/bug: TypeError: a bug/);
  assert.match(said.join(''), /internal error on GET \/api\/v1\/later: TypeError: a later bug/);
});

test.run();
