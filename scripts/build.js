// Builds dist/ with tsc only when a source is newer than the last build, so that
// `npm run conformance -- --help` answers at once. `--force` builds anyway.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const stamp = `${root}dist/.built`;
const sources = ['tsconfig.json', 'package.json', ...['reference', 'conformance', 'scripts'].flatMap((folder) =>
  readdirSync(`${root}${folder}`, { recursive: true }).map(String).filter((file) => file.endsWith('.ts')).map((file) => `${folder}/${file}`))];
const newest = Math.max(...sources.map((file) => statSync(`${root}${file}`).mtimeMs));
if (process.argv.includes('--force') || !existsSync(stamp) || statSync(stamp).mtimeMs < newest) {
  const tsc = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.json`], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
