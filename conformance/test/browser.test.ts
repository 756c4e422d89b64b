// The HTML report in a real browser: headless Chromium or Chrome (Debian's chromium, which
// .ci/run installs when missing, or the browser TEAMCHAT_BROWSER names) loads a report from a run
// with a failure, skips and an error, driven over the DevTools protocol; the test reads the
// rendered page, works the filters, and keeps a screenshot. Without a browser the test is
// skipped, saying so, except under CI=true, where a missing browser is a failure.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'undici';
import { startReference } from '../../reference/http/server.js';
import { targetProfile } from '../../reference/http/boot.js';
import { html } from '../report/html.js';
import { runSuite } from '../suite.js';
import { RULES } from '../rules.js';

const CHROMIUM = [
  process.env.TEAMCHAT_BROWSER, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/chromium-headless-shell',
  '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium',
].find((path) => path && existsSync(path));
const inCI = process.env.CI === 'true';
const browserTest = CHROMIUM || inCI ? test : test.skip;
if (!CHROMIUM && !inCI) {
  process.stdout.write('\n  SKIPPED: the HTML report\'s browser test: no Chromium or Chrome found (apt-get install chromium, or set TEAMCHAT_BROWSER to a browser\'s path)\n');
}
const directory = mkdtempSync(join(tmpdir(), 'teamchat-browser-'));
let shots = 0;

/** A page of headless Chromium, and a way to evaluate in it. */
async function openPage(url: string) {
  const profile = join(directory, 'chromium-profile');
  const browser = spawn(CHROMIUM!, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--window-size=1280,1600', 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = '';
    browser.stderr!.on('data', (chunk) => {
      output += chunk;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    browser.once('exit', (code) => reject(new Error(`chromium exited with ${code}: ${output.slice(-500)}`)));
  });
  const port = new URL(endpoint).port;
  let targets: Array<{ type: string; url: string; webSocketDebuggerUrl: string }> = [];
  // On a loaded machine (npm test runs two files at once) Chromium is slow to start: generous waits.
  for (let i = 0; i < 300 && !targets.some((target) => target.type === 'page'); i++) {
    targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as typeof targets;
    if (!targets.some((target) => target.type === 'page')) await new Promise((next) => setTimeout(next, 100));
  }
  const page = targets.find((target) => target.type === 'page')!;
  const socket = new WebSocket(page.webSocketDebuggerUrl);
  await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }));
  let next = 0;
  const waiting = new Map<number, (result: any) => void>();
  // What the page did besides: errors it logged or threw, and every URL it asked for.
  const errors: string[] = [];
  const requested: string[] = [];
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id !== undefined) return void waiting.get(message.id)?.(message.result);
    if (message.method === 'Runtime.exceptionThrown') errors.push(message.params.exceptionDetails?.exception?.description ?? message.params.exceptionDetails?.text);
    if (message.method === 'Runtime.consoleAPICalled' && message.params.type === 'error') errors.push(message.params.args?.map((arg: { value?: unknown }) => String(arg.value)).join(' '));
    if (message.method === 'Log.entryAdded' && message.params.entry.level === 'error') errors.push(message.params.entry.text);
    if (message.method === 'Network.requestWillBeSent') requested.push(message.params.request.url);
  });
  const send = (method: string, params: Record<string, unknown> = {}) => new Promise<any>((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });
  // An expression that throws (a context not yet the page's, on a loaded machine) is tried again, for up to 10 s.
  const evaluate = async (expression: string) => {
    for (let attempt = 0; ; attempt++) {
      const answer = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      if (!answer?.exceptionDetails || attempt >= 100) return answer?.result?.value;
      await new Promise((wait) => setTimeout(wait, 100));
    }
  };
  // The page is opened here, not on the command line, so that what is evaluated is this page, loaded.
  await send('Page.enable');
  await send('Runtime.enable');
  await send('Log.enable');
  await send('Network.enable');
  await send('Page.navigate', { url });
  const loaded = () => evaluate(`document.readyState === 'complete' && location.href === ${JSON.stringify(url)}`);
  for (let i = 0; i < 300 && !(await loaded()); i++) await new Promise((wait) => setTimeout(wait, 100));
  assert.ok(await loaded(), `Chromium did not load ${url} within 30 s`);
  return {
    evaluate,
    send,
    errors,
    requested,
    screenshot: async () => Buffer.from((await send('Page.captureScreenshot', { format: 'png' })).data, 'base64'),
    close: () => {
      socket.close();
      browser.kill('SIGKILL');
    },
  };
}

browserTest('the HTML report renders in headless Chromium: totals, a failure with its curl line, working filters', async () => {
  assert.ok(CHROMIUM, 'under CI=true a browser must be there: .ci/run installs Debian\'s chromium when missing');
  const reference = await startReference({ port: 0, faults: new Set(['drafts.channel-draft-needs-one-channel']) });
  let report;
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    report = await runSuite({
      target: reference.url, credentials: profile.users, embedded: true, seed: 4, runs: 3, only: 'drafts.*', replayPath: null,
      decisions: false, rate: 0, timeoutMs: 5_000, eventWaitMs: 200, expectations: null,
    });
  } finally {
    await reference.close();
  }
  // An error too, as a report of a run that met a network problem would have.
  const broken = report.rules.find((rule) => rule.id === 'drafts.required-fields')!;
  Object.assign(broken, { status: 'error', message: 'POST /drafts: other side closed' });
  report.summary.pass--;
  report.summary.error++;
  // And an area with no failure, which the fail filter must hide whole.
  const passing = report.rules.find((rule) => rule.status === 'pass')!;
  report.rules.push({ ...passing, id: 'typing.event-shape' as never });
  report.summary.pass++;
  const file = join(directory, 'report.html');
  writeFileSync(file, html(report));
  const page = await openPage(`file://${file}`);
  try {
    const totals = await page.evaluate(`document.querySelector('#totals').innerText`);
    assert.match(totals, new RegExp(`${report.summary.pass} pass\\s*1 fail\\s*${report.summary.skip} skip\\s*1 error`), totals);
    const curl = await page.evaluate(`document.querySelector('#drafts\\\\.channel-draft-needs-one-channel pre.curl').innerText`);
    assert.match(curl, /^curl -sS -u "\$TEAMCHAT_MEMBER_EMAIL:\$TEAMCHAT_MEMBER_API_KEY" /);
    const visible = () => page.evaluate(`[...document.querySelectorAll('tr[data-status]')].filter((row) => row.offsetParent !== null).map((row) => row.dataset.status)`);
    assert.is((await visible()).length, report.rules.length);
    // Each request with the server's answer under it; the failures before the tables of areas.
    const answer = await page.evaluate(`document.querySelector('#drafts\\\\.channel-draft-needs-one-channel pre.answer').innerText`);
    assert.match(answer, /^→ 200 \{"result":"success"/);
    assert.ok(await page.evaluate(`document.querySelector('.failure').compareDocumentPosition(document.querySelector('section.area')) === Node.DOCUMENT_POSITION_FOLLOWING`), 'the failures come first');
    // No sideways scrolling in a 1,280 px window.
    const widths = await page.evaluate(`[document.documentElement.scrollWidth, window.innerWidth]`);
    assert.ok(widths[0] <= widths[1], `the page is ${widths[0]} px wide in a ${widths[1]} px window`);
    await page.evaluate(`document.querySelector('.filters button[data-status=fail]').click()`);
    assert.equal(await visible(), ['fail']);
    // The filter hides the areas it leaves empty, their headings too.
    const shownAreas = await page.evaluate(`[...document.querySelectorAll('section.area')].filter((area) => area.offsetParent !== null).map((area) => area.querySelector('h2').innerText)`);
    assert.equal(shownAreas, ['drafts']);
    await page.evaluate(`document.querySelector('.filters button[data-status=skip]').click()`);
    assert.ok((await visible()).length > 0 && (await visible()).every((status: string) => status === 'skip'));
    await page.evaluate(`document.querySelector('.filters button[data-status=all]').click()`);
    assert.is((await visible()).length, report.rules.length);
    const shot = await page.screenshot();
    assert.ok(shot.subarray(1, 4).toString() === 'PNG' && shot.length > 10_000);
    // Kept for a person to look at: reports/ in the work tree (ignored by git).
    const reports = new URL('../../../reports/', import.meta.url);
    mkdirSync(reports, { recursive: true });
    writeFileSync(new URL('report.png', reports), shot);
  } finally {
    page.close();
  }
});

browserTest('the annotated spec at GET / of a running reference: loads without errors or outside requests, has every anchor the catalog cites, finds a rule by its ID', async () => {
  assert.ok(CHROMIUM, 'under CI=true a browser must be there: .ci/run installs Debian\'s chromium when missing');
  const reference = await startReference({ port: 0 });
  try {
    const page = await openPage(`${reference.url}/`);
    try {
      assert.equal(page.errors, [], `the page logged errors: ${page.errors.join('; ')}`);
      const outside = page.requested.filter((url) => !url.startsWith(reference.url) && !url.startsWith('data:'));
      assert.equal(outside, [], 'the page is self-contained');
      // Every anchor the catalog cites (docs/spec.md#section) and every rule's own place.
      const catalog = (await (await fetch(`${reference.url}/rules.json`)).json()) as Array<{ id: string; spec: string | null }>;
      assert.is(catalog.length, RULES.length);
      const wanted = [...new Set([...catalog.map((rule) => rule.spec?.split('#')[1]).filter((anchor): anchor is string => Boolean(anchor)), ...catalog.map((rule) => `rule-${rule.id}`)])];
      const missing = await page.evaluate(`${JSON.stringify(wanted)}.filter((id) => !document.getElementById(id))`);
      assert.equal(missing, [], 'anchors the catalog cites');
      // Search by rule ID, by parameter, by error code.
      const search = async (query: string) => {
        await page.evaluate(`(() => { const box = document.getElementById('search'); box.value = ${JSON.stringify(query)}; box.dispatchEvent(new Event('input')); })()`);
        return page.evaluate(`[...document.querySelectorAll('#results a')].map((link) => link.getAttribute('href'))`) as Promise<string[]>;
      };
      assert.ok((await search('drafts.channel-draft-needs-one-channel')).includes('#rule-drafts.channel-draft-needs-one-channel'));
      assert.ok((await search('STREAM_DOES_NOT_EXIST')).some((href: string) => href.startsWith('#errors.')), 'an error code finds its row of the spec');
      assert.ok((await search('web_font_size_px')).length > 0);
      // A rule's place opens its exchanges: the passing answer and the failing one, with the fault.
      await page.evaluate(`(location.hash = '#rule-drafts.channel-draft-needs-one-channel', true)`);
      const card = await page.evaluate(`document.getElementById('rule-drafts.channel-draft-needs-one-channel').innerText`) as string;
      assert.match(card, /the reference as it is/);
      assert.match(card, /With the seeded fault/);
      assert.match(card, /the two sides part here/);
      assert.match(card, /POST \/api\/v1\/drafts/);
      const widths = await page.evaluate(`[document.documentElement.scrollWidth, window.innerWidth]`);
      assert.ok(widths[0] <= widths[1], `the page is ${widths[0]} px wide in a ${widths[1]} px window`);
      const shot = await page.screenshot();
      assert.ok(shot.subarray(1, 4).toString() === 'PNG' && shot.length > 10_000);
      const reports = new URL('../../../reports/', import.meta.url);
      mkdirSync(reports, { recursive: true });
      writeFileSync(new URL(`annotated-${++shots}.png`, reports), shot);
    } finally {
      page.close();
    }
  } finally {
    await reference.close();
  }
});

/** Waits until the expression is true in the page, for up to 20 s. */
async function until(page: Awaited<ReturnType<typeof openPage>>, expression: string, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await page.evaluate(`Boolean(${expression})`)) return;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  assert.unreachable(`${what}: not within 20 s`);
}

browserTest('the annotated spec a reference serves: Try it sends a rule\'s steps to that reference with an edited parameter and shows its answers, a reset puts the organization back, and the page holds no API key', async () => {
  assert.ok(CHROMIUM, 'under CI=true a browser must be there: .ci/run installs Debian\'s chromium when missing');
  const reference = await startReference({ port: 0 });
  try {
    const id = 'drafts.channel-draft-needs-one-channel';
    const page = await openPage(`${reference.url}/#rule-${id}`);
    try {
      const card = `document.getElementById('rule-${id}')`;
      await page.evaluate(`${card}.querySelector('button.try-it').click()`);
      await until(page, `${card}.querySelector('button.send')`, 'the steps to try');
      // The request the rule is about, edited: one channel, so that the draft is taken.
      const channel = [...reference.realm.channels.values()].find((each) => !each.inviteOnly)!.id;
      const edited = JSON.stringify([{ type: 'stream', to: [channel], topic: 'tried', content: 'tried from the page' }]);
      const changed = await page.evaluate(`(() => { const box = ${card}.querySelector('.try-step.request [data-name=drafts]'); if (!box) return false; box.value = ${JSON.stringify(edited)}; return true; })()`);
      assert.ok(changed, 'the request step has its drafts parameter to edit');
      await page.evaluate(`${card}.querySelector('button.send').click()`);
      await until(page, `${card}.querySelector('.try-step.request .live b')`, 'the live answer of the request');
      const status = await page.evaluate(`${card}.querySelector('.try-step.request .live b').textContent`);
      assert.is(status, '200', 'the edited request was taken');
      const member = reference.realm.usersByEmail.get(reference.fixture.profile.member)!;
      assert.ok([...member.drafts.values()].some((draft) => draft.content === 'tried from the page'), 'the reference holds the tried draft');
      // Reset: the organization as it started.
      await page.evaluate(`document.getElementById('reset').click()`);
      await until(page, `document.querySelector('header.top [role=status]').textContent.includes('as the reference started it')`, 'the reset');
      assert.is(reference.realm.usersByEmail.get(reference.fixture.profile.member)!.drafts.size, 0, 'the reset left no draft');
      // The page and what it fetched hold no API key, and it asked no one but the reference.
      const html = await page.evaluate('document.documentElement.outerHTML') as string;
      for (const user of reference.fixture.users) assert.not.ok(html.includes(user.api_key), `the page shows ${user.email}'s API key`);
      assert.equal(page.requested.filter((url) => !url.startsWith(reference.url) && !url.startsWith('data:')), []);
      assert.equal(page.errors, [], `the page logged errors: ${page.errors.join('; ')}`);
      const reports = new URL('../../../reports/', import.meta.url);
      mkdirSync(reports, { recursive: true });
      writeFileSync(new URL('annotated-try.png', reports), await page.screenshot());
    } finally {
      page.close();
    }
  } finally {
    await reference.close();
  }
});

browserTest('the annotated spec\'s layout at 1,280 px and on a 390 px phone, light and dark: no sideways scrolling, the errors table whole, a rule\'s place below the bar, search results cell by cell', async () => {
  assert.ok(CHROMIUM, 'under CI=true a browser must be there: .ci/run installs Debian\'s chromium when missing');
  const reference = await startReference({ port: 0 });
  try {
    const page = await openPage(`${reference.url}/`);
    try {
      const reports = new URL('../../../reports/', import.meta.url);
      mkdirSync(reports, { recursive: true });
      for (const [width, height, mobile] of [[1280, 1000, false], [390, 844, true]] as const) {
        await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile });
        for (const scheme of ['light', 'dark']) {
          await page.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: scheme }] });
          const where = `${width} px, ${scheme}`;
          // The window's own width: on a phone a wider page widens the layout, and innerWidth with it.
          const widths = await page.evaluate(`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`);
          assert.ok(widths[0] <= widths[1], `${where}: the page is ${widths[0]} px wide in a ${widths[1]} px window`);
          const background = await page.evaluate(`getComputedStyle(document.body).backgroundColor`);
          assert.is(background, scheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)', `${where}: the page's background`);
          // The errors table: no code word broken across lines, and at 1,280 px the whole width of the text.
          const codes = await page.evaluate(`[...document.querySelectorAll('.row table td')].filter((cell) => /^(STREAM_DOES_NOT_EXIST|BAD_REQUEST)$/.test(cell.textContent.trim())).map((cell) => { const range = document.createRange(); range.selectNodeContents(cell); return range.getClientRects().length; })`) as number[];
          assert.ok(codes.length > 0 && codes.every((lines) => lines === 1), `${where}: an error code breaks across lines: ${JSON.stringify(codes)}`);
          if (width === 1280) {
            const share = await page.evaluate(`(() => { const table = [...document.querySelectorAll('.row.wide table')].find((each) => each.textContent.includes('STREAM_DOES_NOT_EXIST')); return table.getBoundingClientRect().width / document.querySelector('main').getBoundingClientRect().width; })()`);
            assert.ok(share > 0.9, `${where}: the errors table takes ${Math.round(share * 100)}% of the width`);
          }
          // A rule's place, followed, stands below the sticky bar.
          await page.evaluate(`(location.hash = '#rule-scheduled.delete-removes', true)`);
          await new Promise((wait) => setTimeout(wait, 200));
          const [top, bar] = await page.evaluate(`[document.getElementById('rule-scheduled.delete-removes').getBoundingClientRect().top, document.querySelector('header.top').getBoundingClientRect().bottom]`);
          assert.ok(top >= bar - 1, `${where}: the rule's heading is under the bar (${top} < ${bar})`);
          writeFileSync(new URL(`annotated-${width}-${scheme}.png`, reports), await page.screenshot());
          await page.evaluate(`(location.hash = '', true)`);
        }
      }
      // Search results of a table row read cell by cell.
      await page.evaluate(`(() => { const box = document.getElementById('search'); box.value = 'STREAM_DOES_NOT_EXIST'; box.dispatchEvent(new Event('input')); })()`);
      const result = await page.evaluate(`[...document.querySelectorAll('#results a')].map((link) => link.textContent).find((text) => text.startsWith('spec:'))`);
      assert.match(result, /Edit scheduled message \| target channel does not exist \| STREAM_DOES_NOT_EXIST/);
    } finally {
      page.close();
    }
  } finally {
    await reference.close();
  }
});

test.run();
