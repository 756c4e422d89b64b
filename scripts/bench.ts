// npm run bench: the reference's speed targets, measured side by side in one run.
//  - start-up: from spawning the process to its "listening" line (target: under 300 ms);
//  - throughput of typical operations (a batch of drafts, flags on 100 messages, a
//    scheduled-message edit, a settings-defaults update, a profile-field create, a reminder,
//    a small emoji upload) against a bare node:http server answering a constant JSON body,
//    each in its own process (a fresh reference for each operation), under the same load
//    (target: 75% of its rate); the emoji upload against a bare server that parses the same
//    multipart body with busboy and answers (target: 75% of that server's rate);
//  - memory of 100k drafts (target: under 200 MB).
// Loopback only; every loop is bounded in time.

import { spawn, type ChildProcess } from 'node:child_process';

import { Pool } from 'undici';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);
const WARM_UP_SECONDS = 0.5;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** BENCH_ONLY=emoji measures only the scenarios whose name contains that text. */
const ONLY = process.env.BENCH_ONLY ?? '';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** Every operation at this share of its floor server's rate, or better. */
const TARGET = 0.75;
const here = new URL('.', import.meta.url).pathname;

function startProcess(args: string[]): Promise<{ child: ChildProcess; url: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => {
      const url = /http:\/\/[\d.:]+/.exec(String(chunk))?.[0];
      if (url) resolve({ child, url, ms: performance.now() - started });
      else reject(new Error(`no URL in ${chunk}`));
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}`)));
  });
}

const stop = (child: ChildProcess) => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });

/** Requests per second for `SECONDS`, CONNECTIONS requests in flight. */
async function rate(url: string, request: (i: number) => { method: string; path: string; body?: string; headers?: Record<string, string> }, seconds = SECONDS) {
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const worker = async (w: number) => {
    for (let i = w; performance.now() < deadline; i += CONNECTIONS) {
      const response = await pool.request(request(i));
      const text = await response.body.text();
      if (response.statusCode !== 200) failed++;
      if (failed === 1 && response.statusCode !== 200) console.error(`  first failure: ${response.statusCode} ${text.slice(0, 200)}`);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { perSecond: done / elapsed, failed };
}

const auth = (email: string, key: string) => 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64');

async function main() {
  const { readFixture } = await import('../reference/fixture.js');
  const fixture = readFixture();
  const member = fixture.users.find((user) => user.email === fixture.profile.member)!;
  const other = fixture.users.find((user) => user.email === fixture.profile.other)!;
  const admin = fixture.users.find((user) => user.email === fixture.profile.admin)!;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  // Start-up, five times.
  const startups: number[] = [];
  for (let i = 0; i < 5; i++) {
    const { child, ms } = await startProcess([`${here}../reference/main.js`, '--port', '0']);
    startups.push(ms);
    await stop(child);
  }
  startups.sort((a, b) => a - b);

  // The bare server, in its own process, like the reference.
  const bare = await startProcess(['--input-type=module', '-e', `
    import { createServer } from 'node:http';
    const body = JSON.stringify({ result: 'success', msg: '', ids: [1, 2, 3, 4, 5] }) + '\\n';
    const server = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }); res.end(body); }); });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
  `]);
  // The same bare server, but each multipart body goes through busboy first, as the reference's
  // must: what the parse alone costs, the ceiling of any multipart operation.
  const bareBusboy = await startProcess(['--input-type=module', '-e', `
    import { createServer } from 'node:http';
    import busboy from '${here}../../node_modules/busboy/lib/index.js';
    const body = JSON.stringify({ result: 'success', msg: '' }) + '\\n';
    const server = createServer((req, res) => {
      const parser = busboy({ headers: req.headers });
      parser.on('file', (name, stream) => { const chunks = []; stream.on('data', (chunk) => chunks.push(chunk)); stream.on('end', () => Buffer.concat(chunks)); });
      parser.on('close', () => { res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }); res.end(body); });
      req.pipe(parser);
    });
    server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
  `]);
  // Each scenario gets a reference of its own, so that what one leaves behind (the drafts of the
  // first, hundreds of thousands of them) does not weigh on the next one's measurement.
  const ids: number[] = [];
  const scheduledIds: number[] = [];
  const inAMonth = Math.floor(Date.now() / 1000) + 30 * 86400;
  async function startReference() {
    const reference = await startProcess([`${here}../reference/main.js`, '--port', '0']);
    // 100 messages to flag, and 100 scheduled messages to edit, a month ahead.
    const setupPool = new Pool(reference.url);
    ids.length = 0;
    scheduledIds.length = 0;
    for (let i = 0; i < 100; i++) {
      const response = await setupPool.request({ method: 'POST', path: '/api/v1/messages', headers: { ...form, authorization: auth(other.email, other.api_key) }, body: `type=stream&to=Verona&topic=bench&content=message+${i}` });
      ids.push(((await response.body.json()) as { id: number }).id);
    }
    for (let i = 0; i < 100; i++) {
      const body = `type=stream&to=1&topic=bench&content=scheduled+${i}&scheduled_delivery_timestamp=${inAMonth + i}`;
      const response = await setupPool.request({ method: 'POST', path: '/api/v1/scheduled_messages', headers: { ...form, authorization: auth(member.email, member.api_key) }, body });
      scheduledIds.push(((await response.body.json()) as { scheduled_message_id: number }).scheduled_message_id);
    }
    await setupPool.close();
    return reference;
  }

  const drafts = JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ type: 'stream', to: [1], topic: 'bench', content: `draft ${i}` })));
  const draftBatch = () => ({ method: 'POST', path: '/api/v1/drafts', headers: { ...form, authorization: auth(member.email, member.api_key) }, body: `drafts=${encodeURIComponent(drafts)}` });
  const flagsBody = (i: number) => `messages=${encodeURIComponent(JSON.stringify(ids))}&op=${i % 2 ? 'remove' : 'add'}&flag=starred`;
  const flags100 = (i: number) => ({ method: 'POST', path: '/api/v1/messages/flags', headers: { ...form, authorization: auth(member.email, member.api_key) }, body: flagsBody(i) });

  const scheduledEdit = (i: number) => ({
    method: 'PATCH',
    path: `/api/v1/scheduled_messages/${scheduledIds[i % scheduledIds.length]}`,
    headers: { ...form, authorization: auth(member.email, member.api_key) },
    body: `content=edit+${i}&topic=bench+${i % 7}&scheduled_delivery_timestamp=${inAMonth + 1000 + (i % 500)}`,
  });

  const defaultsUpdate = (i: number) => ({
    method: 'PATCH', path: '/api/v1/realm/user_settings_defaults', headers: { ...form, authorization: auth(admin.email, admin.api_key) },
    body: `color_scheme=${(i % 3) + 1}&enter_sends=${i % 2 ? 'true' : 'false'}&web_home_view=${['inbox', 'recent_topics', 'all_messages'][i % 3]}`,
  });
  let fieldSerial = 0;
  const fieldCreate = () => ({
    method: 'POST', path: '/api/v1/realm/profile_fields', headers: { ...form, authorization: auth(admin.email, admin.api_key) },
    body: `name=bench+${fieldSerial++}&hint=A+hint&field_type=1`,
  });

  const reminderCreate = (i: number) => ({
    method: 'POST', path: '/api/v1/reminders', headers: { ...form, authorization: auth(member.email, member.api_key) },
    body: `message_id=${ids[i % ids.length]}&scheduled_delivery_timestamp=${inAMonth + i}&note=bench`,
  });
  const { png } = await import('../conformance/checks/emoji.js');
  const image = png();
  const emojiBody = Buffer.concat([Buffer.from('--B\r\nContent-Disposition: form-data; name="f"; filename="e.png"\r\nContent-Type: image/png\r\n\r\n'), image, Buffer.from('\r\n--B--\r\n')]);
  let emojiSerial = 0;
  const emojiUpload = () => ({
    method: 'POST', path: `/api/v1/realm/emoji/bench${emojiSerial++}`, headers: { 'content-type': 'multipart/form-data; boundary=B', authorization: auth(member.email, member.api_key) },
    body: emojiBody as unknown as string,
  });

  // Each scenario alternates bare and reference, ROUNDS times; each ratio pairs a reference
  // measurement with the bare one just before it, so that drift in the machine's load cancels.
  const scenarios: Array<[string, (i: number) => ReturnType<typeof draftBatch>, multipart?: boolean]> = [
    ['POST /drafts, 5 drafts', draftBatch],
    ['flags on 100 messages', flags100],
    ['PATCH /scheduled_messages', scheduledEdit],
    ['PATCH user_settings_defaults', defaultsUpdate],
    ['POST /realm/profile_fields', fieldCreate],
    ['POST /reminders', reminderCreate],
    ['POST /realm/emoji (small PNG)', emojiUpload, true],
  ];
  // A multipart operation is held against the bare server that parses the same body with busboy
  // (the design fixes busboy, so that server is the honest floor); the others against the bare one.
  const results: Array<{ name: string; floor: string; base: number; reference: number; ratio: number; failed: number; busboyOfBare?: number }> = [];
  for (const [name, request, multipart] of scenarios.filter(([name]) => name.includes(ONLY))) {
    const rounds: Array<{ base: number; reference: number; failed: number; busboyOfBare?: number }> = [];
    const reference = await startReference();
    // A round that is not counted: both servers compile the scenario's path before it is measured.
    for (const server of [bare, reference, ...(multipart ? [bareBusboy] : [])]) await rate(server.url, request, WARM_UP_SECONDS);
    for (let round = 0; round < ROUNDS; round++) {
      const bareRate = await rate(bare.url, request);
      const baseRate = multipart ? await rate(bareBusboy.url, request) : bareRate;
      const referenceRate = await rate(reference.url, request);
      rounds.push({ base: baseRate.perSecond, reference: referenceRate.perSecond, failed: referenceRate.failed, busboyOfBare: multipart ? baseRate.perSecond / bareRate.perSecond : undefined });
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    results.push({
      name,
      floor: multipart ? 'bare+busboy' : 'bare',
      base: median(rounds.map((r) => r.base)),
      reference: median(rounds.map((r) => r.reference)),
      ratio: median(rounds.map((r) => r.reference / r.base)),
      failed: rounds.reduce((sum, r) => sum + r.failed, 0),
      busboyOfBare: multipart ? median(rounds.map((r) => r.busboyOfBare!)) : undefined,
    });
    await stop(reference.child);
  }
  await stop(bare.child);
  await stop(bareBusboy.child);

  // 100k drafts in the model, measured in a process of their own.
  const memory = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', `
      const { buildRealm, readFixture } = await import('${here}../reference/fixture.js');
      const { checkDraft, doCreateDrafts } = await import('${here}../reference/drafts.js');
      const realm = buildRealm(readFixture(), 415, new Set());
      const user = realm.usersByEmail.get('hamlet@example.com');
      gc(); const before = process.memoryUsage();
      for (let i = 0; i < 1000; i++) {
        const batch = Array.from({ length: 100 }, (_, j) => checkDraft(realm, user, { type: 'stream', to: [1], topic: 'topic ' + j, content: 'A draft of a typical length, number ' + (i * 100 + j) + '.' }, 'd'));
        doCreateDrafts(realm, user, batch);
      }
      gc(); const after = process.memoryUsage();
      console.log(JSON.stringify({ drafts: user.drafts.size, heapMB: (after.heapUsed - before.heapUsed) / 2 ** 20, rssMB: after.rss / 2 ** 20 }));
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.on('close', () => resolve(out.trim()));
  });

  console.log(`start-up to listening: median ${startups[2]!.toFixed(0)} ms (min ${startups[0]!.toFixed(0)}, max ${startups[4]!.toFixed(0)}); target < 300 ms`);
  for (const { name, floor, base, reference: referenceRate, ratio, failed, busboyOfBare } of results) {
    const verdict = ratio >= TARGET ? 'meets' : 'MISSES';
    console.log(`${name.padEnd(30)} reference ${referenceRate.toFixed(0).padStart(6)} req/s, ${floor} ${base.toFixed(0).padStart(6)} req/s: ${(ratio * 100).toFixed(0).padStart(3)}% of ${floor} (median of ${ROUNDS} paired rounds; ${verdict} the target of ${TARGET * 100}%)${failed ? `  (${failed} non-200)` : ''}`);
    if (busboyOfBare !== undefined) console.log(`${''.padEnd(30)} (the busboy parse alone leaves ${(busboyOfBare * 100).toFixed(0)}% of bare)`);
  }
  const mem = JSON.parse(memory) as { drafts: number; heapMB: number; rssMB: number };
  console.log(`${mem.drafts} drafts: heap +${mem.heapMB.toFixed(1)} MB, process RSS ${mem.rssMB.toFixed(1)} MB; target < 200 MB`);
  console.log(`(${SECONDS} s per measurement, ${CONNECTIONS} connections, ${process.version})`);
}

await main();
