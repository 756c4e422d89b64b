// The conformance CLI as a user runs it: the embedded reference, reports, exit codes, replay.

import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { startReference } from '../../reference/http/server.js';
import { readFixture, targetProfile } from '../../reference/http/boot.js';
import { FLAG_BITS } from '../../reference/model/model.js';
import { proxy, reply } from './helpers.js';
import { RULES } from '../rules.js';
import { runSuite } from '../suite.js';

// The tests of the command line, in two files that run at once (cli-1.test.ts, cli-2.test.ts):
// TEAMCHAT_CLI_PART picks every other test; unset, all of them. TEAMCHAT_CLI_MATCH: only tests whose name holds it.
const part = Number(process.env.TEAMCHAT_CLI_PART ?? 0);
const match = process.env.TEAMCHAT_CLI_MATCH;
let registered = 0;
const test = Object.assign((name: string, run: () => Promise<void> | void) => {
  if ((part === 0 || registered % 2 === part - 1) && (match === undefined || name.includes(match))) uvuTest(name, run);
  registered++;
}, { run: () => uvuTest.run() });

const main = new URL('../main.js', import.meta.url).pathname;
const directory = mkdtempSync(join(tmpdir(), 'teamchat-cli-'));

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

test('against the embedded reference: exit 0, a JSON report of the contract\'s shape, JUnit, each in a folder made for it', async () => {
  // Folders that do not exist yet, as a user's first command names them (--json reports/run.json).
  const json = join(directory, 'reports', 'run', 'report.json');
  const junit = join(directory, 'junit', 'report.xml');
  const result = await run(['--smoke', '--seed', '42', '--json', json, '--junit', junit]);
  assert.is(result.code, 0, result.stdout + result.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8'));
  assert.is(report.seed, 42);
  assert.is(report.feature_level, 415);
  assert.type(report.target, 'string');
  for (const rule of report.rules) {
    assert.ok(['pass', 'skip'].includes(rule.status), JSON.stringify(rule));
    assert.ok(['must', 'decision'].includes(rule.severity));
    assert.type(rule.message, 'string');
    assert.is(rule.counterexample, null);
  }
  assert.ok(report.rules.some((rule: any) => rule.severity === 'decision' && rule.status === 'skip' && /--decisions/.test(rule.message)));
  // In the catalog's order, as a merged report of shards lists them.
  assert.equal(report.rules.map((rule: any) => rule.id), RULES.map((rule) => rule.id));
  assert.equal(Object.keys(report.summary).sort(), ['error', 'fail', 'pass', 'skip', 'xfail']);
  assert.is(report.reference.dialect, 'zulip');
  assert.is(report.reference.feature_level, 415);
  assert.type(report.suite_version, 'string');
  assert.match(readFileSync(junit, 'utf8'), /<testsuites name="teamchat-conformance"/);
  assert.match(result.stdout, /rules: \d+ pass, 0 fail/);
});

test('--reference-dialect alternate: every must rule passes; Zulip\'s decisions fail, each with a counterexample', async () => {
  const json = join(directory, 'alternate.json');
  // (Every must rule at every level in this dialect is the self-test's; here, one area, as a user runs it.)
  const clean = await run(['--smoke', '--seed', '3', '--reference-dialect', 'alternate', '--only', 'drafts.*']);
  assert.is(clean.code, 0, clean.stdout + clean.stderr);
  const decided = await run(['--runs', '3', '--seed', '3', '--reference-dialect', 'alternate', '--decisions', '--only', 'drafts.*', '--json', json]);
  assert.is(decided.code, 1, decided.stdout + decided.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const failed = report.rules.filter((rule: any) => rule.status === 'fail');
  assert.ok(failed.length > 0);
  for (const rule of failed) assert.is(rule.severity, 'decision', rule.id);
  assert.ok(failed.every((rule: any) => rule.counterexample.requests.length > 0));
});

test('a failing rule: exit 1, a counterexample with curl lines, and a replay that fails again', async () => {
  const json = join(directory, 'failing.json');
  const env = { TEAMCHAT_FAULTS: 'drafts.channel-draft-needs-one-channel' };
  const result = await run(['--runs', '20', '--seed', '7', '--only', 'drafts.channel-draft', '--json', json], env);
  assert.is(result.code, 1, result.stdout + result.stderr);
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const [rule] = report.rules;
  assert.is(rule.status, 'fail');
  assert.match(rule.counterexample.requests[0], /^curl -sS -u "\$TEAMCHAT_MEMBER_EMAIL:\$TEAMCHAT_MEMBER_API_KEY" /);
  for (const user of readFixture().users) assert.not.ok(readFileSync(json, 'utf8').includes(user.api_key));
  // Started as `node …/main.js`, the replay line says so, and names the embedded reference's level,
  // dialect and seeded faults: run as printed, with nothing of the first run's environment, it fails again.
  const [, faults, replay] = /replay: TEAMCHAT_FAULTS=(\S+) node \S+main\.js (.*)/.exec(result.stdout)!;
  assert.is(faults, 'drafts.channel-draft-needs-one-channel');
  assert.match(replay!, /--reference-level 415 --reference-dialect zulip /);
  const args = replay!.match(/'[^']*'|\S+/g)!.map((arg) => arg.replace(/^'|'$/g, ''));
  const again = await run([...args, '--json', json], { TEAMCHAT_FAULTS: faults! });
  assert.is(again.code, 1, again.stdout);
  const replayed = JSON.parse(readFileSync(json, 'utf8')).rules[0];
  assert.is(replayed.counterexample.input, rule.counterexample.input, 'the replay shows the same counterexample');
  // The JSON report carries the same replay command; JUnit too, on the failing testcase.
  assert.ok(result.stdout.includes(`replay: ${rule.counterexample.replay}\n`), rule.counterexample.replay);
  const junit = join(directory, 'failing.xml');
  await run(['--runs', '20', '--seed', '7', '--only', 'drafts.channel-draft', '--junit', junit], env);
  assert.match(readFileSync(junit, 'utf8'), /<property name="replay_command" value="TEAMCHAT_FAULTS=drafts\.channel-draft-needs-one-channel node \S+main\.js --reference-level 415 --reference-dialect zulip --seed 7 /);
});

test('the curl lines come with the line that sets their credentials from the profile, and it runs as printed', async () => {
  const reference = await startReference({ port: 0, faults: new Set(['drafts.channel-draft-needs-one-channel']) });
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    const profilePath = join(directory, 'curl-profile.json');
    writeFileSync(profilePath, JSON.stringify(profile));
    const result = await run(['--profile', profilePath, '--runs', '1', '--only', 'drafts.channel-draft-needs-one-channel']);
    assert.is(result.code, 1, result.stdout);
    const line = /^  (eval "\$\(node -e .*)$/m.exec(result.stdout)?.[1];
    assert.ok(line, result.stdout);
    const shell = spawnSync('bash', ['-c', `${line}; echo "$TEAMCHAT_MEMBER_EMAIL $TEAMCHAT_MEMBER_API_KEY"`], { encoding: 'utf8', cwd: tmpdir() });
    assert.is(shell.stdout.trim(), `${profile.users.member.email} ${profile.users.member.api_key}`, shell.stderr);
  } finally {
    await reference.close();
  }
  // Against the embedded reference, the lines say it has stopped and how to start one like it.
  const embedded = await run(['--runs', '1', '--only', 'drafts.channel-draft-needs-one-channel'], { TEAMCHAT_FAULTS: 'drafts.channel-draft-needs-one-channel' });
  assert.match(embedded.stdout, /the curl lines went to the embedded reference, which stopped with the run: `npm start -- --profile-out profile\.json`/);
});

test('a rule that ends in error does not pass the run: exit 3, and the summary counts the error', async () => {
  const reference = await startReference({ port: 0 });
  // Every creation of drafts meets a reset connection: the check cannot tell what happened.
  const resetting = await proxy(reference.url, async (req, res, forward) => {
    if (req.method === 'POST' && req.url === '/api/v1/drafts') return void res.socket?.destroy();
    const answer = await forward();
    reply(res, answer);
  });
  const profilePath = join(directory, 'resetting.json');
  writeFileSync(profilePath, JSON.stringify({ ...targetProfile(reference.fixture, reference.url), base_url: resetting.url }));
  const json = join(directory, 'errors.json');
  try {
    const result = await run(['--profile', profilePath, '--rate', '0', '--runs', '3', '--only', 'drafts.create-returns-ids-in-order', '--json', json]);
    assert.is(result.code, 3, result.stdout + result.stderr);
    assert.match(result.stderr, /ended in error: the verdict is incomplete/);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    assert.is(report.summary.error, 1);
    assert.is(report.summary.pass, 0);
  } finally {
    await resetting.close();
    await reference.close();
  }
});

test('a server whose answers lack `result` is checked, and fails general.envelope (not "not a Zulip-compatible server")', async () => {
  const reference = await startReference({ port: 0 });
  const stripped = await proxy(reference.url, async (_req, res, forward) => {
    const answer = await forward();
    let body = answer.body;
    try {
      const { result: _result, ...rest } = JSON.parse(body);
      body = JSON.stringify(rest);
    } catch {
      // not JSON: as it came
    }
    reply(res, answer, body);
  });
  const profilePath = join(directory, 'stripped.json');
  writeFileSync(profilePath, JSON.stringify({ ...targetProfile(reference.fixture, reference.url), base_url: stripped.url }));
  const json = join(directory, 'stripped-report.json');
  try {
    const result = await run(['--profile', profilePath, '--rate', '0', '--runs', '2', '--only', 'general.envelope', '--json', json]);
    assert.is(result.code, 1, result.stdout + result.stderr);
    const [rule] = JSON.parse(readFileSync(json, 'utf8')).rules;
    assert.is(rule.id, 'general.envelope');
    assert.is(rule.status, 'fail', JSON.stringify(rule));
  } finally {
    await stripped.close();
    await reference.close();
  }
});

test('a run leaves no temporary file: the embedded reference\'s profile, and a journal with nothing left to put back, are removed', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'teamchat-scratch-'));
  const embedded = await run(['--runs', '1', '--only', 'typing.event-shape'], { TMPDIR: scratch });
  assert.is(embedded.code, 0, embedded.stdout + embedded.stderr);
  const reference = await startReference({ port: 0 });
  try {
    const profilePath = join(directory, 'scratch-profile.json');
    writeFileSync(profilePath, JSON.stringify(targetProfile(reference.fixture, reference.url)));
    const against = await run(['--profile', profilePath, '--runs', '1', '--only', 'drafts.create-returns-ids-in-order'], { TMPDIR: scratch });
    assert.is(against.code, 0, against.stdout + against.stderr);
    assert.match(against.stdout, /what this run changes is journaled in \S+ as it goes; if the run is killed, this puts it back: node \S+main\.js --undo \S+ --profile \S+scratch-profile\.json\n/);
    const never = await run(['--profile', profilePath, '--target', 'http://127.0.0.1:9'], { TMPDIR: scratch });
    assert.is(never.code, 2);
    // A run that cannot start says so in one line, and nothing else: no journal, no run begun.
    assert.is(never.stdout, '');
    assert.match(never.stderr, /^teamchat-conformance: target unreachable: GET \/server_settings: [^\n]+\n$/);
    assert.is(never.stderr.match(/GET \/server_settings/g)?.length, 1, never.stderr);
  } finally {
    await reference.close();
  }
  assert.equal(readdirSync(scratch), []);
});

test('a target that is not a chat server: one line that says what answered, none of its page', async () => {
  const page = '<!DOCTYPE html>\n<html>\n<head>\n<title>Error response</title>\n</head>\n<body>\n<h1>Error response</h1>\n<p>Error code: 404</p>\n<p>Message: File not found.</p>\n</body>\n</html>\n';
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html;charset=utf-8' }).end(page));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const profilePath = join(directory, 'not-chat.json');
    writeFileSync(profilePath, JSON.stringify({ users: Object.fromEntries(['admin', 'member', 'other'].map((role) => [role, { email: `${role}@example.com`, api_key: 'k' }])) }));
    const result = await run(['--profile', profilePath, '--target', `http://127.0.0.1:${(server.address() as AddressInfo).port}`]);
    assert.is(result.code, 2);
    assert.is(result.stdout, '');
    assert.is(result.stderr, `teamchat-conformance: not a Zulip-compatible server: GET /server_settings answered 404 with a page that is not JSON (text/html, ${page.length} bytes, titled "Error response")\n`);
  } finally {
    server.close();
  }
});

test('--help and --version on both bins; --list-rules as text and JSON', async () => {
  const reference = new URL('../../reference/main.js', import.meta.url).pathname;
  const node = (script: string, args: string[]) => new Promise<{ code: number; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, [script, ...args]);
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout }));
  });
  const version = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;
  for (const [script, name] of [[main, 'teamchat-conformance'], [reference, 'teamchat-reference']] as const) {
    const help = await node(script, ['--help']);
    assert.is(help.code, 0);
    assert.match(help.stdout, /--feature-level|--target/);
    const shown = await node(script, ['--version']);
    assert.is(shown.code, 0);
    assert.is(shown.stdout.trim(), `${name} ${version}`);
  }
  const text = await run(['--list-rules']);
  assert.is(text.code, 0);
  assert.match(text.stdout, /^drafts\.channel-draft-needs-one-channel +must +1\+ /m);
  const json = await run(['--list-rules', '--json', '-']);
  const rules = JSON.parse(json.stdout);
  assert.ok(rules.some((rule: any) => rule.id === 'fields.name-optional' && rule.severity === 'must'));
});

test('a loopback target is checked without a rate bound; skipped decisions take one line', async () => {
  const reference = await startReference({ port: 0 });
  const profilePath = join(directory, 'loopback.json');
  writeFileSync(profilePath, JSON.stringify(targetProfile(reference.fixture, reference.url)));
  const json = join(directory, 'loopback-report.json');
  try {
    const result = await run(['--profile', profilePath, '--runs', '2', '--only', 'fields.*', '--json', json]);
    assert.is(result.code, 0, result.stdout + result.stderr);
    assert.is(JSON.parse(readFileSync(json, 'utf8')).config.rate, 0);
    assert.is(result.stdout.match(/--decisions/g)?.length, 1, result.stdout);
    assert.match(result.stdout, /skip +\d+ decisions .*--decisions to check them/);
  } finally {
    await reference.close();
  }
});

test('a run killed outright is undone from its journal: defaults and settings put back, its objects swept', async () => {
  const reference = await startReference({ port: 0 });
  const { realm } = reference;
  const snapshot = () => JSON.stringify({ defaults: realm.userSettingsDefaults, settings: [...realm.users.values()].map((user) => user.settings) });
  const before = snapshot();
  const profilePath = join(directory, 'killed.json');
  writeFileSync(profilePath, JSON.stringify(targetProfile(reference.fixture, reference.url)));
  const journal = join(directory, 'killed.journal.jsonl');
  try {
    // Killed (SIGKILL: no cleanup at all) once it has changed the defaults and made a channel.
    const child = spawn(process.execPath, [main, '--profile', profilePath, '--only', 'defaults.*', '--runs', '20', '--journal', journal]);
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const changed = JSON.stringify(realm.userSettingsDefaults) !== JSON.stringify(JSON.parse(before).defaults);
        if (changed && existsSync(journal) && readFileSync(journal, 'utf8').includes('"step"')) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
      }, 5);
    });
    await new Promise((resolve) => child.once('close', resolve));
    assert.is.not(snapshot(), before, 'the killed run left the defaults changed');
    const undone = await run(['--profile', profilePath, '--undo', journal]);
    assert.is(undone.code, 0, undone.stdout + undone.stderr);
    assert.match(undone.stdout, /done: restore the organization's settings defaults/);
    assert.is(snapshot(), before);
    // The killed run held the server's lease: --undo released it, so no other run waits for it.
    assert.match(undone.stdout, /done: release the server's lease/);
    const admin = realm.usersByEmail.get(reference.fixture.profile.admin)!;
    assert.equal([...admin.drafts.values()].filter((draft) => draft.content.startsWith('teamchat-conformance lease:')), []);
  } finally {
    await reference.close();
  }
});

/** A run of the defaults rules against the reference, killed outright once it changed them: its journal. */
async function killedDefaultsRun(realm: { userSettingsDefaults: Record<string, unknown> }, profilePath: string, journal: string): Promise<void> {
  const before = JSON.stringify(realm.userSettingsDefaults);
  const child = spawn(process.execPath, [main, '--profile', profilePath, '--only', 'defaults.*', '--runs', '20', '--journal', journal]);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (JSON.stringify(realm.userSettingsDefaults) !== before && existsSync(journal) && readFileSync(journal, 'utf8').includes('"sent"')) {
        clearInterval(timer);
        child.kill('SIGKILL');
        resolve();
      }
    }, 5);
  });
  await new Promise((resolve) => child.once('close', resolve));
}

test('undo never harms: a second --undo changes nothing, and an undo after someone else\'s change leaves that change', async () => {
  const reference = await startReference({ port: 0 });
  const { realm } = reference;
  const original = { ...realm.userSettingsDefaults };
  const profile = targetProfile(reference.fixture, reference.url);
  const profilePath = join(directory, 'undo-twice.json');
  writeFileSync(profilePath, JSON.stringify(profile));
  /** An administrator's change of a default, as a person on staging makes it. */
  const person = async (changes: Record<string, string>) => {
    const response = await fetch(`${reference.url}/api/v1/realm/user_settings_defaults`, {
      method: 'PATCH', body: new URLSearchParams(changes),
      headers: { authorization: `Basic ${Buffer.from(`${profile.users.admin.email}:${profile.users.admin.api_key}`).toString('base64')}` },
    });
    assert.is(response.status, 200);
  };
  try {
    const journal = join(directory, 'twice.journal.jsonl');
    await killedDefaultsRun(realm, profilePath, journal);
    const first = await run(['--profile', profilePath, '--undo', journal]);
    assert.is(first.code, 0, first.stdout + first.stderr);
    assert.equal(realm.userSettingsDefaults, original);
    // Later, an administrator changes a default on purpose; the same undo again must not undo it.
    await person({ enter_sends: String(!original.enter_sends) });
    const second = await run(['--profile', profilePath, '--undo', journal]);
    assert.is(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /was undone at .*: nothing is left to put back, and nothing was changed/);
    assert.is(realm.userSettingsDefaults.enter_sends, !original.enter_sends);
    await person({ enter_sends: String(original.enter_sends) });

    // A journal of a run that changed two defaults and one user setting: after it, someone
    // changed one of those defaults to a value the run never sent.
    const late = join(directory, 'late.journal.jsonl');
    const lines = [
      { run: 'tcc0123abcd', target: reference.url, started: new Date().toISOString() },
      { step: 1, what: 'restore the organization\'s settings defaults', request: { as: 'admin', method: 'PATCH', path: '/realm/user_settings_defaults', params: { color_scheme: 1, emojiset: 'google', enter_sends: original.enter_sends } } },
      { sent: 'defaults', name: 'color_scheme', value: '2' },
      { sent: 'defaults', name: 'color_scheme', value: '3' },
      { sent: 'defaults', name: 'emojiset', value: 'twitter' },
    ];
    writeFileSync(late, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    await person({ color_scheme: '1', emojiset: 'google' });
    await person({ color_scheme: '3', emojiset: 'text', enter_sends: String(!original.enter_sends) });
    const undone = await run(['--profile', profilePath, '--undo', late]);
    assert.is(undone.code, 0, undone.stdout + undone.stderr);
    assert.is(realm.userSettingsDefaults.color_scheme, 1, 'what the run set is put back');
    assert.is(realm.userSettingsDefaults.emojiset, 'text', 'what someone else set stays');
    assert.match(undone.stdout, /left as someone else changed it: restore the organization's settings defaults\n {4}the organization's default emojiset is "text", which this run neither found \(google\) nor set: someone changed it since, so it is left as it is\n/);
    assert.match(undone.stdout, /1 conflict left as someone else made it/);
    // enter_sends, which the run never sent, is not the run's to put back, whatever it is now.
    assert.is(realm.userSettingsDefaults.enter_sends, !original.enter_sends);
    await person({ color_scheme: '3' });
    const again = await run(['--profile', profilePath, '--undo', late]);
    assert.is(again.code, 0);
    assert.match(again.stdout, /was undone at/);
    assert.is(realm.userSettingsDefaults.color_scheme, 3, 'a journal once undone changes nothing, even a value the run once sent');
  } finally {
    await reference.close();
  }
});

test('a run killed while it starred and unread messages: --undo puts the personal flags back from its journal', async () => {
  const reference = await startReference({ port: 0 });
  const { realm } = reference;
  const fixture = readFixture();
  const profileUsers = [fixture.profile.admin, fixture.profile.member, fixture.profile.other].map((email) => realm.usersByEmail.get(email)!);
  const firstMessage = realm.lastMessageId();
  const astray = () => [...realm.messages.values()].filter((message) => message.id > firstMessage).flatMap((message) => profileUsers
    .filter((user) => message.userFlags.has(user.id) && (message.userFlags.get(user.id)! & (FLAG_BITS.starred | FLAG_BITS.collapsed | FLAG_BITS.read)) !== FLAG_BITS.read)
    .map((user) => `${user.email} on message ${message.id}`));
  const profilePath = join(directory, 'flags-killed.json');
  writeFileSync(profilePath, JSON.stringify(targetProfile(reference.fixture, reference.url)));
  const journal = join(directory, 'flags-killed.journal.jsonl');
  try {
    const child = spawn(process.execPath, [main, '--profile', profilePath, '--only', 'flags.*', '--runs', '20', '--journal', journal]);
    const closed = new Promise((resolve) => child.once('close', resolve));
    const deadline = Date.now() + 30_000;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if ((astray().length > 0 && existsSync(journal) && readFileSync(journal, 'utf8').includes('"personalFlags"')) || Date.now() > deadline) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
      }, 5);
    });
    await closed;
    assert.ok(astray().length > 0, 'the killed run left flags changed');
    const undone = await run(['--profile', profilePath, '--undo', journal]);
    assert.is(undone.code, 0, undone.stdout + undone.stderr);
    assert.match(undone.stdout, /done: put back the personal flags on the run's messages/);
    assert.equal(astray(), []);
  } finally {
    await reference.close();
  }
});

test('off a terminal, a rule that runs long says so, with its request count; npm run conformance builds only when a source changed', async () => {
  const reference = await startReference({ port: 0 });
  const slow = await proxy(reference.url, async (_req, res, forward) => {
    await new Promise((wait) => setTimeout(wait, 40));
    reply(res, await forward());
  });
  const profilePath = join(directory, 'slow.json');
  writeFileSync(profilePath, JSON.stringify({ ...targetProfile(reference.fixture, reference.url), base_url: slow.url }));
  try {
    const result = await run(['--profile', profilePath, '--runs', '10', '--only', 'drafts.created-drafts-read-back'], { TEAMCHAT_PROGRESS_MS: '300' });
    assert.is(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /… +drafts\.created-drafts-read-back \[1\/1\] still running after \d+ s, \d+ requests so far/);
  } finally {
    await slow.close();
    await reference.close();
  }
  const build = () => new Promise<number>((resolve) => spawn(process.execPath, [new URL('../../../scripts/build.js', import.meta.url).pathname]).on('close', (code) => resolve(code ?? -1)));
  const stamp = new URL('../../.built', import.meta.url);
  assert.is(await build(), 0);
  const built = statSync(stamp).mtimeMs;
  assert.is(await build(), 0);
  assert.is(statSync(stamp).mtimeMs, built, 'nothing changed: no build');
});

test('an unreachable target or a refused credential ends the run with exit 2', async () => {
  const reference = await startReference({ port: 0 });
  const profile = targetProfile(reference.fixture, reference.url);
  const profilePath = join(directory, 'profile.json');
  writeFileSync(profilePath, JSON.stringify(profile));
  try {
    const refused = await run(['--profile', profilePath], { TEAMCHAT_OTHER_API_KEY: 'x'.repeat(32) });
    assert.is(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /credentials of 'other' were refused/);
    assert.not.match(refused.stdout + refused.stderr, new RegExp(profile.users.other.api_key));
  } finally {
    await reference.close();
  }
  const unreachable = await run(['--profile', profilePath, '--target', 'http://127.0.0.1:9']);
  assert.is(unreachable.code, 2);
  assert.match(unreachable.stderr, /unreachable/);
  const usage = await run(['--runs', 'many']);
  assert.is(usage.code, 2);
});

test('a target that takes requests and never answers: one line and exit 2 after one --timeout, not after every retry\'s', async () => {
  let received = 0;
  const silent = createServer(() => void received++);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const profilePath = join(directory, 'silent-profile.json');
    const user = (role: string) => ({ email: `${role}@example.com`, api_key: 'k'.repeat(32) });
    writeFileSync(profilePath, JSON.stringify({ users: { admin: user('admin'), member: user('member'), other: user('other') } }));
    const result = await run(['--profile', profilePath, '--target', `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, '--timeout', '300']);
    assert.is(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr.trim(), /^teamchat-conformance: target unreachable: GET \/server_settings: no answer within 300 ms \(--timeout\)$/);
    assert.is(received, 1, 'the first question was asked once');
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
});

/** Whether a process is still there. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves once the process is gone, looking every 100 ms (the test runner's own time-out bounds it). */
async function gone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The processes whose parent is `pid` (from /proc: no tool needed). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((entry) => {
    try {
      return readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1] === String(pid);
    } catch {
      return false;
    }
  }).map(Number);
}

test('the suite ends, cleaning up, when the npm process that started it ends, even killed outright; so does its embedded reference', async () => {
  // A stand-in for npm: it starts the suite as npm run does, says its PID, and is then killed with SIGKILL, which it cannot pass on.
  const starter = spawn(process.execPath, ['-e', `
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, [${JSON.stringify(main)}, '--runs', '50', '--only', 'drafts.*'], { env: { ...process.env, npm_command: 'run-script' }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk) => { if (String(chunk).includes('checking')) console.log('suite ' + child.pid); });
    setInterval(() => {}, 1000);
  `], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve) => starter.stdout!.on('data', (chunk: Buffer) => {
    const match = /suite (\d+)/.exec(String(chunk));
    if (match) resolve(Number(match[1]));
  }));
  // The embedded reference is the suite's child: it must end too.
  const reference = childrenOf(pid);
  starter.kill('SIGKILL');
  await gone(pid);
  for (const child of reference) await gone(child);
  assert.ok(!alive(pid), 'the suite ended with its starter');
});

test('an embedded reference that stops during the run (a crash, or its own end when stuck) ends the run at once: exit 3, a line, no report', async () => {
  const report = join(directory, 'reference-stopped.json');
  // Far more cases than a run gets through before its reference is stopped.
  const child = spawn(process.execPath, [main, '--runs', '100000', '--only', 'organization.*', '--json', report]);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  await new Promise<void>((resolve) => child.stdout!.on('data', (chunk: Buffer) => String(chunk).includes('checking') && resolve()));
  const reference = childrenOf(child.pid!);
  assert.is(reference.length, 1, 'the embedded reference is the suite\'s one child');
  process.kill(reference[0]!, 'SIGKILL');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.is(code, 3, stderr);
  assert.match(stderr, /the embedded reference stopped during the run \(SIGKILL\): the run ends without a verdict/);
  assert.not.ok(existsSync(report), 'no report of a run without a verdict');
});

test('Ctrl-C on a run against the embedded reference (SIGINT to both, as a terminal sends it) ends the run at once: exit 130', async () => {
  const child = spawn(process.execPath, [main, '--runs', '100000', '--only', 'organization.*']);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  await new Promise<void>((resolve) => child.stdout!.on('data', (chunk: Buffer) => String(chunk).includes('checking') && resolve()));
  const reference = childrenOf(child.pid!);
  for (const pid of [child.pid!, ...reference]) process.kill(pid, 'SIGINT');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.is(code, 130, stderr);
  assert.match(stderr, /interrupted/);
});

test('killed with its npm, the suite still cleans up what it made, though the pipe it writes to has no reader any more', async () => {
  const reference = await startReference({ port: 0 });
  const profilePath = join(directory, 'parent-killed.json');
  writeFileSync(profilePath, JSON.stringify(targetProfile(reference.fixture, reference.url)));
  const drafts = () => [...reference.realm.users.values()].flatMap((user) => [...user.drafts.values()]).filter((draft) => draft.content.includes('tcc'));
  // The stand-in for npm reads the suite's output through pipes; killed, it leaves them without a reader.
  const starter = spawn(process.execPath, ['-e', `
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, [${JSON.stringify(main)}, '--profile', ${JSON.stringify(profilePath)}, '--runs', '50', '--only', 'drafts.*'], { env: { ...process.env, npm_command: 'run-script' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => { if (String(chunk).includes('checking')) console.log('suite ' + child.pid); });
    child.stderr.on('data', () => {});
    setInterval(() => {}, 1000);
  `], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const pid = await new Promise<number>((resolve) => starter.stdout!.on('data', (chunk: Buffer) => {
      const match = /suite (\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    }));
    // Once the run has drafts of its own on the server.
    while (drafts().length === 0 && alive(pid)) await new Promise((resolve) => setTimeout(resolve, 5));
    starter.kill('SIGKILL');
    await gone(pid);
    assert.equal(drafts().map((draft) => draft.content), [], 'the suite ended without removing its drafts');
  } finally {
    starter.kill('SIGKILL');
    await reference.close();
  }
});

test('a differential run answers SIGTERM: it stops, says so, and exits 130', async () => {
  const child = spawn(process.execPath, [main, '--compare', 'reference', '--compare-dialect', 'alternate', '--runs', '30'], { env: process.env });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  await new Promise<void>((resolve) => child.stdout.on('data', (chunk) => {
    stdout += chunk;
    if (stdout.includes('comparing')) resolve();
  }));
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.match(stderr, /interrupted: finishing the current checks, then cleaning up/);
  assert.is(code, 130, stderr);
});

test('a shard that gets none of a small selection says so and exits 0; the merge takes its report with the others', async () => {
  const reference = await startReference({ port: 0 });
  const profilePath = join(directory, 'one-rule-profile.json');
  writeFileSync(profilePath, JSON.stringify(targetProfile(reference.fixture, reference.url)));
  const reports = [1, 2].map((index) => join(directory, `one-rule-shard-${index}.json`));
  const results = await Promise.all([1, 2].map((index) => run(['--profile', profilePath, '--only', 'drafts.drafts-parameter-optional', '--runs', '1', '--seed', '5', '--shard', `${index}/2`, '--json', reports[index - 1]!]))).finally(() => reference.close());
  const empty = results.findIndex((result) => /nothing to run here/.test(result.stdout));
  assert.ok(empty >= 0, results.map((result) => result.stdout + result.stderr).join('\n'));
  for (const result of results) assert.is(result.code, 0, result.stdout + result.stderr);
  assert.match(results[empty]!.stdout, /shard \d\/2 has none of the rules --only drafts\.drafts-parameter-optional selects: nothing to run here/);
  const merged = await run(['--merge-reports', ...reports, '--json', join(directory, 'one-rule-merged.json')]);
  assert.is(merged.code, 0, merged.stdout + merged.stderr);
  const report = JSON.parse(readFileSync(join(directory, 'one-rule-merged.json'), 'utf8'));
  assert.equal(report.rules.map((rule: any) => `${rule.id}: ${rule.status}`), ['drafts.drafts-parameter-optional: pass']);
});

test('--shard and --merge-reports misused: one clear line and exit 2, before any request', async () => {
  for (const [args, said] of [
    [['--shard', '4/3'], /--shard 4\/3: I must be from 1 to N/],
    [['--shard', 'half'], /--shard takes I\/N/],
    [['--merge-reports', join(directory, 'none.json')], /give --json, --junit or --html/],
    [['--merge-reports', join(directory, 'none.json'), '--json', join(directory, 'merged.json')], /cannot read shard report .*none\.json/],
    [['stray'], /unexpected argument "stray"/],
    [['--lease-ttl', '1'], /--lease-ttl takes at least 3/],
    // The shards of one run share a seed: outside a CI pipeline, the user gives it.
    [['--shard', '1/3'], /--shard 1\/3 needs the seed every shard of the run shares: give each the same --seed N/],
    [['--replay', 'b0:1', '--seed', '3', '--only', 'flags.*'], /--replay b0:1 replays one rule's case: .*\(--only flags\.\* selects \d+\)/],
    [['--replay', 'b0:1', '--only', 'flags.add-sets-flag'], /give the --seed and an --only that selects that one rule/],
    // A differential run's options go with --compare, and its second server is a URL or the reference.
    [['--compare-dialect', 'alternate'], /--compare-dialect goes with --compare URL \(or --compare reference\)/],
    [['--compare', 'nowhere'], /--compare takes an http or https URL such as http:\/\/127\.0\.0\.1:9991, or reference; "nowhere" is not a URL/],
    [['--compare', 'http://127.0.0.1:8', '--compare-level', '300'], /--compare-dialect and --compare-level are the embedded reference's: --compare reference/],
    [['--compare', 'reference', '--compare-dialect', 'klingon'], /--compare-dialect takes zulip, alternate or random/],
    [['--compare', 'reference', '--shuffle'], /--compare runs the same cases against two servers: it does not go with --sweep-only, --replay or --shuffle/],
  ] as const) {
    const result = await run([...args, '--target', 'http://127.0.0.1:9']);
    assert.is(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, said);
    assert.is(result.stderr.trim().split('\n').length, 1, result.stderr);
  }
  // Misuse of any option: one line, exit 2, and no request (an unreachable target is never reached).
  for (const [args, said] of [
    [['--target', 'not-a-url'], /--target takes an http or https URL .*"not-a-url" is not a URL/],
    [['--target', 'ftp://example.com'], /--target takes an http or https URL .*is ftp$/],
    [['--only', 'drafts.nonesuch', '--target', 'http://127.0.0.1:9'], /--only drafts\.nonesuch matches no rule of the catalog/],
    [['--only', 'drafts.channel-draft-needs-one-chanel', '--target', 'http://127.0.0.1:9'], /did you mean drafts\.channel-draft-needs-one-channel\?/],
    [['--reference-level', '9999'], /--reference-level takes a feature level from 1 to 415/],
    [['--runz', '5'], /Unknown option '--runz' \(did you mean --runs\?\); see --help/],
    // A report that cannot be written is said before any request, not after the run (and its lease claim).
    [['--json', '/dev/null/run.json', '--target', 'http://127.0.0.1:9'], /^teamchat-conformance: --json \/dev\/null\/run\.json: cannot be written \(.*\); nothing was sent$/],
    [['--html', directory, '--target', 'http://127.0.0.1:9'], /--html .*: cannot be written \(it is a folder\); nothing was sent$/],
    // One close match is named alone.
    [['--explain', 'drafts.chanel-draft-needs-one-channel'], /^teamchat-conformance: no rule "drafts\.chanel-draft-needs-one-channel" \(did you mean drafts\.channel-draft-needs-one-channel\?\); --list-rules lists them$/],
  ] as const) {
    const result = await run([...args]);
    assert.is(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr.trim(), said);
    assert.is(result.stderr.trim().split('\n').length, 1, result.stderr);
  }
  // A report of a whole run is no shard's.
  const whole = join(directory, 'whole.json');
  await run(['--runs', '1', '--only', 'typing.event-shape', '--json', whole]);
  const merged = await run(['--merge-reports', whole, '--json', join(directory, 'merged.json')]);
  assert.is(merged.code, 2);
  assert.match(merged.stderr, /is the report of a whole run, not of a shard/);
});

test('--smoke: every applicable must rule in at most 1,200 requests, clean-up, lease and witness included, each rule saying how many it used', async () => {
  const reference = await startReference({ port: 0 });
  const profilePath = join(directory, 'smoke-profile.json');
  writeFileSync(profilePath, JSON.stringify(targetProfile(reference.fixture, reference.url)));
  try {
    // Embedded, and against a --target, where the lease and its witness make requests too.
    for (const [seed, target] of [[9, []], [3, ['--profile', profilePath, '--create-users']]] as const) {
      const json = join(directory, `smoke-${seed}.json`);
      const result = await run(['--smoke', '--seed', String(seed), '--json', json, ...target]);
      assert.is(result.code, 0, result.stdout + result.stderr);
      const report = JSON.parse(readFileSync(json, 'utf8'));
      assert.ok(report.smoke);
      assert.ok(report.requests <= 1200, `seed ${seed}: ${report.requests} requests`);
      for (const rule of report.rules) {
        assert.type(rule.requests, 'number');
        // The organization model's smoke form yields to the per-rule checks (every must rule not begun keeps its room,
        // whenever the lease lets the model run): with the budget they leave, it is not begun, and says so.
        if (rule.id === 'organization.model') assert.ok(rule.status === 'pass' || (rule.status === 'skip' && /^not checked: a smoke run makes at most 1200 requests.*(it yields to them|this rule takes up to)/.test(rule.message)), `seed ${seed}, ${rule.id}: ${rule.status} ${rule.message}`);
        else if (rule.severity === 'must') assert.ok(rule.status === 'pass' || /feature level/.test(rule.message) || (rule.id === 'emoji.upload-access' && rule.status === 'skip' && /lets every user of the profile upload/.test(rule.message)), `seed ${seed}, ${rule.id}: ${rule.status} ${rule.message}`);
      }
      assert.is(report.rules.reduce((sum: number, rule: any) => sum + rule.requests, 0) <= report.requests, true);
    }
  } finally {
    await reference.close();
  }
});

test('--smoke keeps its budget where the rules cost more than measured: a rule that would pass it is not begun, and says so', async () => {
  // A budget the general rules' measured costs do not fit in, as on a server where they cost more.
  const reference = await startReference({ port: 0 });
  try {
    const report = await runSuite({
      target: reference.url, credentials: targetProfile(reference.fixture, reference.url).users, embedded: true, seed: 5, runs: 1, smoke: true, smokeBudget: 200,
      only: 'general.*', replayPath: null, decisions: false, rate: 0, timeoutMs: 10_000, eventWaitMs: 300, expectations: null, createUsers: true,
    });
    assert.ok(report.requests <= 200, `${report.requests} requests`);
    const notBegun = report.rules.filter((rule) => rule.status === 'skip' && /^not checked: a smoke run makes at most 200 requests, clean-up included/.test(rule.message));
    assert.ok(notBegun.length > 0, 'rules the budget had no room for are not begun');
    assert.ok(report.rules.some((rule) => rule.status === 'pass'), 'the rules it had room for ran');
  } finally {
    await reference.close();
  }
});

test('--sweep-only removes what earlier runs left, by the prefix form, says what, and nothing else', async () => {
  const reference = await startReference({ port: 0 });
  const profile = targetProfile(reference.fixture, reference.url);
  const profilePath = join(directory, 'sweep-profile.json');
  writeFileSync(profilePath, JSON.stringify(profile));
  const call = async (role: 'admin' | 'member', method: string, path: string, params: Record<string, unknown>) => {
    const { email, api_key } = profile.users[role];
    const body = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]));
    const response = await fetch(`${reference.url}/api/v1${path}`, { method, body: method === 'GET' ? undefined : body, headers: { authorization: 'Basic ' + Buffer.from(`${email}:${api_key}`).toString('base64') } });
    return response.json() as Promise<any>;
  };
  try {
    const left = 'tcc0badcafe';
    await call('member', 'POST', '/drafts', { drafts: [{ type: '', to: [], topic: '', content: `${left} forgotten` }, { type: '', to: [], topic: '', content: 'mine, not the suite\'s' }] });
    await call('member', 'POST', '/scheduled_messages', { type: 'direct', to: [reference.realm.usersByEmail.get(profile.users.member.email)!.id], content: `${left} later`, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400 });
    await call('admin', 'POST', '/realm/profile_fields', { name: `${left} field`, field_type: 1 });
    await call('member', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: `${left}-channel` }] });
    const result = await run(['--sweep-only', '--profile', profilePath]);
    assert.is(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /4 removed, 0 problems/);
    assert.match(result.stdout, /removed channel \d+ \(tcc0badcafe-channel\), archived/);
    const drafts = (await call('member', 'GET', '/drafts', {})).drafts.map((draft: any) => draft.content);
    assert.equal(drafts, ['mine, not the suite\'s']);
    assert.equal((await call('member', 'GET', '/scheduled_messages', {})).scheduled_messages, []);
    assert.not.ok((await call('admin', 'GET', '/realm/profile_fields', {})).custom_fields.some((field: any) => field.name.startsWith(left)));
  } finally {
    await reference.close();
  }
});

test('--explain: the rule, the spec\'s words, and a passing and a failing run of the reference', async () => {
  const result = await run(['--explain', 'scheduled.missing-channel-error']);
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, /^scheduled\.missing-channel-error\n/);
  assert.match(result.stdout, /severity: must/);
  // One table row of the spec, with its header, and the anchor rules and reports cite.
  assert.match(result.stdout, /The spec says \(docs\/spec\.md#errors\):\n    \| Operation \| Condition[^\n]*\n    \|---[^\n]*\n    \| Edit scheduled message \| target channel does not exist \| STREAM_DOES_NOT_EXIST[^\n]*\n\n/);
  assert.match(result.stdout, /One case, as the reference answers it and with a seeded fault \(the missing-channel error lacks stream_id\), shrunk/);
  // The step where the two sides part: the reference's answer, then the fault's, and the field that differs.
  assert.match(result.stdout, /\(the two sides part here\):\n {5}the reference as it is:\n[^\n]*curl[^\n]*\n\s*→ 400 [^\n]*STREAM_DOES_NOT_EXIST[^\n]*\n {5}with the seeded fault:/);
  assert.match(result.stdout, /differs at body\.stream_id: \d+ as it is, "\(absent\)" with the fault/);
  // The same case on both sides: the failing one replayed against the reference as it is (each run has its own prefix).
  const drafts = await run(['--explain', 'drafts.channel-draft-needs-one-channel']);
  const sent = [...drafts.stdout.matchAll(/--data-urlencode 'drafts=([^']*)'/g)].map((match) => match[1]!.replace(/tcc[0-9a-f]{8}/, 'PREFIX'));
  assert.is(sent.length, 2, drafts.stdout);
  assert.is(sent[0], sent[1]);
  assert.match(drafts.stdout, /on the annotated spec: file:\/\/\S+\/docs\/annotated\.html#rule-drafts\.channel-draft-needs-one-channel/);
  assert.match(sent[0]!, /"topic":"x"/);
  const decision = await run(['--explain', 'drafts.error-texts']);
  assert.match(decision.stdout, /why this choice: [\s\S]*the alternate dialect instead: HTTP 422/);
  const unknown = await run(['--explain', 'drafts.nonsense']);
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, /no rule "drafts\.nonsense"/);
});

test('--html: one self-contained page with the totals, every rule, and each failure\'s curl lines', async () => {
  const page = join(directory, 'report.html');
  const result = await run(['--runs', '5', '--seed', '7', '--only', 'drafts.*', '--html', page], { TEAMCHAT_FAULTS: 'drafts.channel-draft-needs-one-channel' });
  assert.is(result.code, 1);
  const text = readFileSync(page, 'utf8');
  assert.not.match(text, /<(script|link|img)[^>]+(src|href)=/i, 'nothing loaded from elsewhere');
  const report = /<p class="totals" id="totals"><span class="pass">(\d+) pass<\/span><span class="fail">(\d+) fail/.exec(text)!;
  assert.is(Number(report[2]), 1);
  assert.is((text.match(/<tr data-status=/g) ?? []).length, Number(report[1]) + 1 + (text.match(/<tr data-status="skip"/g) ?? []).length);
  assert.match(text, /id="drafts\.channel-draft-needs-one-channel"[\s\S]*curl -sS -u &quot;\$TEAMCHAT_MEMBER_EMAIL/);
  for (const user of readFixture().users) assert.not.ok(text.includes(user.api_key));
});

test('the console: colour and a progress line only on a terminal, never colour with NO_COLOR; --quiet', async () => {
  const piped = await run(['--runs', '2', '--only', 'drafts.null']);
  assert.not.match(piped.stdout, /\x1b\[/, 'no escape codes into a pipe');
  assert.match(piped.stdout, /  pass  drafts\.null-bytes-rejected/);
  const quiet = await run(['--runs', '2', '--only', 'drafts.', '--quiet']);
  assert.not.match(quiet.stdout, /^  pass  [a-z]/m);
  assert.match(quiet.stdout, /rules: \d+ pass, 0 fail/);
  // script(1) gives the CLI a terminal.
  const terminal = (env: string) => new Promise<string>((resolve) => {
    const child = spawn('script', ['-qc', `${env} ${process.execPath} ${main} --runs 2 --only drafts.null`, '/dev/null']);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('close', () => resolve(output));
  });
  const coloured = await terminal('');
  assert.match(coloured, /\x1b\[32mpass/);
  assert.match(coloured, /\[1\/1\] drafts\.null-bytes-rejected …/);
  const plain = await terminal('NO_COLOR=1');
  assert.not.match(plain, /\x1b\[3\dm/);
  assert.match(plain, /\[1\/1\] drafts\.null-bytes-rejected …/);
});

test('the expectations file turns a known failure into an expected one', async () => {
  const expectations = join(directory, 'expect.json');
  writeFileSync(expectations, JSON.stringify({ server: 'test', expected_failures: { 'drafts.drafts-parameter-optional': 'known' } }));
  const result = await run(['--runs', '3', '--only', 'drafts.drafts-parameter', '--expect', expectations], { TEAMCHAT_FAULTS: 'drafts.drafts-parameter-optional' });
  assert.is(result.code, 0, result.stdout);
  assert.match(result.stdout, /xfail drafts\.drafts-parameter-optional/);
});

test('an expectation keyed by feature levels holds only for targets at those levels', async () => {
  const expectations = join(directory, 'expect-levels.json');
  const entry = { why: 'a bug of some versions', levels: [300, 320] };
  writeFileSync(expectations, JSON.stringify({ server: 'test', expected_failures: { 'drafts.drafts-parameter-optional': entry } }));
  const args = ['--runs', '3', '--only', 'drafts.drafts-parameter', '--expect', expectations];
  const env = { TEAMCHAT_FAULTS: 'drafts.drafts-parameter-optional' };
  const inside = await run([...args, '--reference-level', '310'], env);
  assert.is(inside.code, 0, inside.stdout);
  assert.match(inside.stdout, /xfail drafts\.drafts-parameter-optional/);
  const outside = await run([...args, '--reference-level', '321'], env);
  assert.is(outside.code, 1, outside.stdout);
  assert.match(outside.stdout, /\bfail\s+drafts\.drafts-parameter-optional/);
  writeFileSync(expectations, JSON.stringify({ expected_failures: { 'drafts.drafts-parameter-optional': { levels: [1] } } }));
  const malformed = await run(args);
  assert.is(malformed.code, 2, malformed.stderr);
  assert.match(malformed.stderr, /neither a text nor/);
});

test.run();
