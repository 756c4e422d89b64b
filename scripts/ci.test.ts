// The ready CI jobs, tested as far as this machine allows: the GitHub Action's run step is run as
// the script it is (its ${{ … }} expressions filled in as GitHub would) against a local reference,
// passing and failing; the GitLab snippet runs the same script and collects the same reports.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { targetProfile } from '../reference/http/boot.js';
import { startReference, type ReferenceOptions, type RunningReference } from '../reference/http/server.js';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8'));

/** The action's run step against a reference, as GitHub runs it: its exit code, output and reports. */
async function runAction(options: ReferenceOptions, inputs: Record<string, string> = {}, shared?: RunningReference, workspace = mkdtempSync(join(tmpdir(), 'teamchat-action-')), runner: Record<string, string> = {}) {
  const reference = shared ?? await startReference({ port: 0, ...options });
  const output = join(workspace, 'github-output');
  try {
    const profile = targetProfile(reference.fixture, reference.url);
    const given: Record<string, string> = {
      target: reference.url,
      'admin-email': profile.users.admin.email, 'admin-api-key': profile.users.admin.api_key,
      'member-email': profile.users.member.email, 'member-api-key': profile.users.member.api_key,
      'other-email': profile.users.other.email, 'other-api-key': profile.users.other.api_key,
      ...inputs,
    };
    const expression = (text: string) => text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
      if (name === 'github.action_path') return root;
      if (name === 'github.workspace') return workspace;
      const input = name.replace(/^inputs\./, '');
      return given[input] ?? action.inputs[input]?.default ?? '';
    });
    const step = action.runs.steps.find((candidate: any) => candidate.id === 'run');
    const env = Object.fromEntries(Object.entries(step.env as Record<string, string>).map(([name, value]) => [name, expression(value)]));
    const result = await new Promise<{ code: number; text: string }>((resolve) => {
      const shell = spawn('bash', ['-e', '-c', expression(step.run)], { cwd: workspace, env: { ...process.env, ...runner, ...env, GITHUB_OUTPUT: output } });
      let text = '';
      shell.stdout.on('data', (chunk) => (text += chunk));
      shell.stderr.on('data', (chunk) => (text += chunk));
      shell.on('close', (code) => resolve({ code: code ?? -1, text }));
    });
    return { ...result, output: existsSync(output) ? readFileSync(output, 'utf8') : '', reports: env.TEAMCHAT_REPORTS! };
  } finally {
    if (!shared) await reference.close();
  }
}

test('action.yml: a composite action with the contract\'s inputs, that uploads the reports whatever the outcome', () => {
  assert.is(action.runs.using, 'composite');
  // Not required by the action: a merge needs none of them, and a run without them is told so by the suite, in one line.
  for (const name of ['target', 'admin-email', 'admin-api-key', 'member-email', 'member-api-key', 'other-email', 'other-api-key']) assert.is(action.inputs[name].default, '', name);
  const upload = action.runs.steps.find((step: any) => String(step.uses).startsWith('actions/upload-artifact'));
  assert.is(upload.if, 'always()');
  assert.is(upload.with.path, '${{ github.workspace }}/${{ inputs.reports }}');
});

test('the action\'s run step against a conforming server: exit 0, the exit code as output, every report written', async () => {
  const run = await runAction({});
  assert.is(run.code, 0, run.text);
  assert.match(run.output, /^exit-code=0$/m);
  for (const file of ['conformance.json', 'conformance.xml', 'conformance.html', 'conformance.journal.jsonl']) assert.ok(existsSync(join(run.reports, file)), file);
  const report = JSON.parse(readFileSync(join(run.reports, 'conformance.json'), 'utf8'));
  assert.is(report.smoke, true);
  assert.is(report.summary.fail, 0);
  // What the API cannot remove is named, with how to find it.
  assert.ok(report.cleanup.left.some((left: string) => /^\d+ messages, sent or delivered by the run, or sent by the server because of it \(the API deletes no message: each carries tcc[0-9a-f]{8}/.test(left)), JSON.stringify(report.cleanup.left));
  assert.ok(report.cleanup.left.some((left: string) => /^\d+ channels, archived \(the API deletes no channel: each is named tcc[0-9a-f]{8}-…\)$/.test(left)), JSON.stringify(report.cleanup.left));
});

test('the action\'s run step against a broken server: exit 1 and its reports, so the job fails with the evidence attached', async () => {
  const run = await runAction({ faults: new Set(['drafts.channel-draft-needs-one-channel']) }, { args: '--runs 20 --seed 7 --only drafts.channel-draft-needs-one-channel' });
  assert.is(run.code, 1, run.text);
  assert.match(run.output, /^exit-code=1$/m);
  assert.match(readFileSync(join(run.reports, 'conformance.xml'), 'utf8'), /<failure type="must"/);
});

test('the README\'s matrix: three shards of one workflow run at once, default arguments, then a merge with no credentials: exit 0, one report of every rule', async () => {
  const reference = await startReference({ port: 0 });
  const workspace = mkdtempSync(join(tmpdir(), 'teamchat-action-'));
  // What GitHub gives every job of one workflow run.
  const run = { GITHUB_RUN_ID: '8123456789', GITHUB_RUN_ATTEMPT: '1' };
  try {
    const shards = await Promise.all(['1/3', '2/3', '3/3'].map((shard, at) => runAction({}, { shard, reports: `teamchat-reports-${at}` }, reference, workspace, run)));
    for (const shard of shards) assert.is(shard.code, 0, shard.text);
    const parts = shards.map((shard) => JSON.parse(readFileSync(join(shard.reports, 'conformance.json'), 'utf8')));
    assert.is(new Set(parts.map((part) => part.seed)).size, 1, 'the shards of one run share a seed');
    // The merge job downloads the artifacts into shards/ and passes no credentials.
    const merged = await runAction({}, { 'merge-reports': 'teamchat-reports-*/conformance.json', reports: 'teamchat-reports', target: '', 'admin-email': '', 'admin-api-key': '', 'member-email': '', 'member-api-key': '', 'other-email': '', 'other-api-key': '' }, reference, workspace, run);
    assert.is(merged.code, 0, merged.text);
    const report = JSON.parse(readFileSync(join(merged.reports, 'conformance.json'), 'utf8'));
    assert.is(report.rules.length, parts.reduce((sum, part) => sum + part.rules.length, 0));
    assert.equal(report.merged_from.map((shard: { index: number }) => shard.index), [1, 2, 3]);
    assert.match(readFileSync(join(merged.reports, 'conformance.xml'), 'utf8'), /<testsuites name="teamchat-conformance" tests="\d+"/);
    // Its links to each rule's place on the annotated spec work where the artifact is opened.
    assert.ok(existsSync(join(merged.reports, 'teamchat-annotated-spec.html')));
    assert.match(readFileSync(join(merged.reports, 'conformance.html'), 'utf8'), /href="teamchat-annotated-spec\.html#rule-/);
    assert.not.match(readFileSync(join(merged.reports, 'conformance.html'), 'utf8'), /file:\/\//);
  } finally {
    await reference.close();
  }
});

test('the GitLab templates: three parallel shards of one pipeline and the merge, as ci/gitlab-ci.yml runs them: exit 0', async () => {
  const gitlab = parse(readFileSync(join(root, 'ci/gitlab-ci.yml'), 'utf8'));
  const reference = await startReference({ port: 0 });
  const project = mkdtempSync(join(tmpdir(), 'teamchat-gitlab-'));
  const profile = targetProfile(reference.fixture, reference.url);
  const credentials = Object.fromEntries(Object.entries(profile.users).flatMap(([role, user]) => [[`TEAMCHAT_${role.toUpperCase()}_EMAIL`, user.email], [`TEAMCHAT_${role.toUpperCase()}_API_KEY`, user.api_key]]));
  /** A job's variables as GitLab gives them: its own over those it extends, $VARIABLES filled in. */
  const variables = (job: string, given: Record<string, string>) => {
    const own = { ...gitlab['teamchat-conformance'].variables, ...gitlab[job].variables };
    return Object.fromEntries(Object.entries(own).map(([name, value]) => [name, String(value).replace(/\$(\w+)/g, (_, variable: string) => given[variable] ?? '')]));
  };
  try {
    const pipeline = { CI_PIPELINE_ID: '77001', CI_PROJECT_DIR: project, CI_NODE_TOTAL: '3' };
    const shards = await Promise.all([1, 2, 3].map((index) => {
      const given = { ...pipeline, CI_NODE_INDEX: String(index) };
      return runScript(project, { ...given, ...variables('.teamchat-conformance-shards', given), ...credentials, TEAMCHAT_TARGET: reference.url });
    }));
    for (const shard of shards) assert.is(shard.code, 0, shard.text);
    const merged = await runScript(project, { ...pipeline, ...variables('.teamchat-conformance-merge', pipeline) });
    assert.is(merged.code, 0, merged.text);
    assert.match(merged.text, /merged report of 3 shards in /);
    assert.ok(existsSync(join(project, 'teamchat-reports/merged/conformance.xml')));
  } finally {
    await reference.close();
  }
});

/** ci/run-conformance.sh run as a user runs it, from the user's own folder. */
function runScript(folder: string, env: Record<string, string>): Promise<{ code: number; text: string }> {
  return new Promise((resolve) => {
    const shell = spawn('bash', [join(root, 'ci/run-conformance.sh')], { cwd: folder, env: { ...process.env, TEAMCHAT_TARGET: '', ...env } });
    let text = '';
    shell.stdout.on('data', (chunk) => (text += chunk));
    shell.stderr.on('data', (chunk) => (text += chunk));
    shell.on('close', (code) => resolve({ code: code ?? -1, text }));
  });
}

test('the CI script takes the user\'s paths from the user\'s folder, and a run it cannot make is exit 2 with no report claimed', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'teamchat-user-'));
  const unset = await runScript(folder, {});
  assert.is(unset.code, 2, unset.text);
  assert.match(unset.text.trim(), /^teamchat-conformance: set TEAMCHAT_TARGET to the base URL of the server to check \(or give a --profile in TEAMCHAT_ARGS\)$/);
  const missing = await runScript(folder, { TEAMCHAT_TARGET: 'http://127.0.0.1:9', TEAMCHAT_EXPECT: 'mine.json' });
  assert.is(missing.code, 2, missing.text);
  assert.match(missing.text, new RegExp(`TEAMCHAT_EXPECT: no file mine\\.json in ${folder}`));
  const reference = await startReference({ port: 0 });
  try {
    // A profile and an expectations file named relative to the user's folder.
    writeFileSync(join(folder, 'profile.json'), JSON.stringify(targetProfile(reference.fixture, reference.url)));
    writeFileSync(join(folder, 'mine.json'), JSON.stringify({ expected_failures: {} }));
    const run = await runScript(folder, { TEAMCHAT_TARGET: reference.url, TEAMCHAT_EXPECT: 'mine.json', TEAMCHAT_ARGS: '--profile profile.json --runs 1 --only typing.event-shape', TEAMCHAT_REPORTS: 'out' });
    assert.is(run.code, 0, run.text);
    assert.match(run.text, new RegExp(`reports in ${folder}/out`));
    assert.ok(existsSync(join(folder, 'out/conformance.json')));
    const unreachable = await runScript(folder, { TEAMCHAT_TARGET: 'http://127.0.0.1:9', TEAMCHAT_ARGS: '--profile profile.json --smoke', TEAMCHAT_REPORTS: 'none' });
    assert.is(unreachable.code, 2, unreachable.text);
    assert.match(unreachable.text, /no report was written \(the run could not be made\)/);
    // Nothing is left behind by a run that could not be made: no reports folder, no journal.
    assert.not.ok(existsSync(join(folder, 'none')), 'no empty reports folder');
    const misused = await runScript(folder, { TEAMCHAT_TARGET: reference.url, TEAMCHAT_ARGS: '--runz 5', TEAMCHAT_REPORTS: 'misused' });
    assert.is(misused.code, 2, misused.text);
    assert.not.ok(existsSync(join(folder, 'misused')), 'no empty reports folder after a usage error');
    // The profile's URL where TEAMCHAT_TARGET is not set; the documented expectations file, the package's.
    const byProfile = await runScript(folder, { TEAMCHAT_EXPECT: 'fixtures/expectations/zulip.json', TEAMCHAT_ARGS: '--profile profile.json --runs 1 --only typing.event-shape', TEAMCHAT_REPORTS: 'by-profile' });
    assert.is(byProfile.code, 0, byProfile.text);
    assert.is(JSON.parse(readFileSync(join(folder, 'by-profile/conformance.json'), 'utf8')).target, reference.url);
    // A merge that finds no report, or one that fails, says so and claims no merged report.
    const none = await runScript(folder, { TEAMCHAT_MERGE: 'nowhere-*/conformance.json', TEAMCHAT_REPORTS: 'merged' });
    assert.is(none.code, 2, none.text);
    assert.match(none.text, /TEAMCHAT_MERGE: nowhere-\*\/conformance\.json matches no shard report in /);
    assert.not.match(none.text, /merged report/);
    const failed = await runScript(folder, { TEAMCHAT_MERGE: 'out/conformance.json', TEAMCHAT_REPORTS: 'merged' });
    assert.is(failed.code, 2, failed.text);
    assert.match(failed.text, /the report of a whole run, not of a shard[\s\S]*exit 2; the merge failed, no report was written/);
    assert.not.ok(existsSync(join(folder, 'merged')), 'no empty reports folder after a failed merge');
  } finally {
    await reference.close();
  }
});

test('the README\'s GitLab set-up: an include of the file this repository has, the clone URL the job requires, the shard jobs it names', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /For GitLab,[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'the README shows the set-up as YAML');
  const setUp = parse(block!);
  assert.ok(existsSync(join(root, setUp.include[0].file)), `the README includes ${setUp.include[0].file}`);
  const gitlab = parse(readFileSync(join(root, setUp.include[0].file), 'utf8'));
  assert.ok(Object.keys(gitlab['teamchat-conformance'].variables).includes('TEAMCHAT_CONFORMANCE_REPO'));
  assert.match(setUp.variables.TEAMCHAT_CONFORMANCE_REPO, /^https:\/\/\S+\.git$/, 'the README sets the clone URL the job requires');
  for (const job of readme.match(/extends: (\.teamchat-[\w-]+)/g)!.map((text) => text.replace('extends: ', ''))) assert.ok(gitlab[job], `the README names ${job}, which the file has`);
});

test('the profile the README\'s commands write (--profile-out profile.json), with its API keys, is ignored by git', () => {
  const ignored = spawnSync('git', ['check-ignore', '--no-index', 'profile.json', 'some/folder/profile.json'], { cwd: root, encoding: 'utf8' });
  if (ignored.error) assert.ok(readFileSync(join(root, '.gitignore'), 'utf8').split('\n').includes('profile.json'), '.gitignore lists profile.json');
  else assert.equal(ignored.stdout.trim().split('\n'), ['profile.json', 'some/folder/profile.json'], `git ignores profile.json wherever it is: ${ignored.stdout}${ignored.stderr}`);
});

test('ci/gitlab-ci.yml runs the same script and keeps the same reports, JUnit among them', () => {
  const gitlab = parse(readFileSync(join(root, 'ci/gitlab-ci.yml'), 'utf8'));
  const job = gitlab['teamchat-conformance'];
  assert.ok(job.script.some((line: string) => line.endsWith('/ci/run-conformance.sh')));
  // The clone URL the user must give: without it, one line and exit 2, before anything is cloned.
  const [check] = job.script as string[];
  const unset = spawnSync('bash', ['-c', check!], { env: { ...process.env, TEAMCHAT_CONFORMANCE_REPO: '' }, encoding: 'utf8' });
  assert.is(unset.status, 2);
  assert.match(unset.stderr, /^teamchat-conformance: set TEAMCHAT_CONFORMANCE_REPO to the clone URL of teamchat-conformance\n$/);
  assert.is(spawnSync('bash', ['-c', check!], { env: { ...process.env, TEAMCHAT_CONFORMANCE_REPO: 'https://example.invalid/x.git' } }).status, 0);
  assert.is(job.artifacts.when, 'always');
  assert.is(job.artifacts.reports.junit, 'teamchat-reports/conformance.xml');
  assert.match(job.variables.TEAMCHAT_REPORTS, /teamchat-reports$/);
  // The sharded templates: a parallel job per shard, and a merge of their JSON reports.
  const shards = gitlab['.teamchat-conformance-shards'];
  assert.is(shards.variables.TEAMCHAT_SHARD, '$CI_NODE_INDEX/$CI_NODE_TOTAL');
  assert.ok(shards.parallel >= 2);
  assert.match(gitlab['.teamchat-conformance-merge'].variables.TEAMCHAT_MERGE, /shard-\*\/conformance\.json$/);
});

test.run();
