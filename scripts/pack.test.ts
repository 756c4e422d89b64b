// The package as users get it: packed, installed into an empty project, the two bins run against
// each other and the library used from there, with no TypeScript and no clone.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = new URL('../../', import.meta.url).pathname;

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, npm_config_loglevel: 'error' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * A copy of the project to pack: `npm pack` rebuilds dist/ from scratch (prepack), which must not
 * happen under the other test files, running beside this one from the project's own dist/.
 */
function projectCopy(directory: string): string {
  const copy = join(directory, 'source');
  for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'LICENSE', 'reference', 'conformance', 'scripts', 'fixtures', 'docs']) {
    cpSync(join(root, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

/** The base URL a started reference prints once it listens. */
function listening(child: ChildProcessWithoutNullStreams, name: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /http:\/\/[\d.:]+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${output}`)));
  });
}

test('built by prepare as from git, then npm pack and npm install of the tarball; teamchat-reference and teamchat-conformance against each other; the library', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'teamchat-pack-'));
  // A clone has no dist/: installed from git, npm runs prepare in it, and that build is what the
  // bins run (packed here without prepack's build, so that prepare's is the one tested).
  const copy = projectCopy(directory);
  const prepared = await run('npm', ['run', 'prepare', '--silent'], copy);
  assert.is(prepared.code, 0, prepared.stderr);
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', directory, '--silent'], copy);
  assert.is(packed.code, 0, packed.stderr);
  const tarball = join(directory, packed.stdout.trim().split('\n').at(-1)!);
  const project = join(directory, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-teamchat', private: true, type: 'module' }));
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
  assert.is(installed.code, 0, installed.stderr);
  const contents = readFileSync(join(project, 'node_modules/teamchat-conformance/package.json'), 'utf8');
  assert.match(contents, /"teamchat-reference"/);
  // Every room of the suite is shipped, and none of the project's tests.
  const shipped = readdirSync(join(project, 'node_modules/teamchat-conformance/dist'), { recursive: true }).map(String);
  for (const room of ['run/client.js', 'checks/drafts.js', 'report/html.js', 'spec.js', 'rules.d.ts']) assert.ok(shipped.includes(`conformance/${room}`), room);
  assert.equal(shipped.filter((file) => /(^|\/)test(\/|-)|\.test\./.test(file)), []);

  const bin = (name: string) => join(project, 'node_modules/.bin', name);
  const reference = spawn(bin('teamchat-reference'), ['--port', '0', '--profile-out', join(project, 'profile.json')], { cwd: project });
  try {
    const url = await listening(reference, 'teamchat-reference');
    const checked = await run(bin('teamchat-conformance'), ['--target', url, '--profile', join(project, 'profile.json'), '--smoke', '--rate', '0', '--only', 'drafts.*'], project);
    assert.is(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /rules: \d+ pass, 0 fail/);
  } finally {
    reference.kill('SIGTERM');
  }

  // Killing the command that started the server (as a CI job kills `$!`) ends the server too:
  // npm runs the command through a shell, and npm's SIGTERM reaches only that shell.
  for (const [command, args, cwd] of [['npx', ['teamchat-reference', '--port', '0'], project], ['npm', ['start', '--', '--port', '0'], copy]] as const) {
    const started = spawn(command, args, { cwd });
    const url = await listening(started, command);
    started.kill('SIGTERM');
    await new Promise((resolve) => started.once('exit', resolve));
    // Until it is gone: on a loaded machine the server may take seconds to see its parent end (a
    // minute is a bound on a hang, not a margin on a time).
    let gone = false;
    for (let tries = 0; tries < 600 && !gone; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      gone = await fetch(`${url}/api/v1/server_settings`).then(() => false, () => true);
    }
    assert.ok(gone, `${command} ${args.join(' ')} was killed, and its server at ${url} still answers`);
  }

  writeFileSync(join(project, 'use.js'), `
    import { checkTarget, RULES } from 'teamchat-conformance';
    import { startReference } from 'teamchat-conformance/reference';
    const server = await startReference({ port: 0, featureLevel: 300 });
    const report = await checkTarget({ target: server.url, users: server.profile.users, runs: 2, rate: 0, only: 'flags.add', seed: 1 });
    await server.close();
    console.log(JSON.stringify({ level: report.feature_level, summary: report.summary, rules: RULES.length }));
  `);
  // The API is typed: a TypeScript user's program type-checks against the package's declarations.
  writeFileSync(join(project, 'typed.ts'), `
    import { checkTarget, type Report } from 'teamchat-conformance';
    import { startReference, type Reference } from 'teamchat-conformance/reference';
    const server: Reference = await startReference({ port: 0, dialect: 'alternate' });
    const report: Report = await checkTarget({ target: server.url, users: server.profile.users });
    const fails: number = report.summary.fail;
    // @ts-expect-error: not an option of checkTarget
    void checkTarget({ target: server.url, users: server.profile.users, nonsense: true });
    void fails;
  `);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['typed.ts'] }));
  const tsc = join(root, 'node_modules/.bin/tsc');
  const typed = await run(tsc, ['-p', project], project);
  assert.is(typed.code, 0, typed.stdout + typed.stderr);

  const used = await run(process.execPath, ['use.js'], project);
  assert.is(used.code, 0, used.stderr);
  const result = JSON.parse(used.stdout.trim().split('\n').at(-1)!);
  assert.is(result.level, 300);
  assert.equal(result.summary, { pass: 1, fail: 0, skip: 0, error: 0, xfail: 0 });
  assert.ok(result.rules > 100);
});

test.run();
