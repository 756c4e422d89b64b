#!/usr/bin/env node
// npm start -- [--host H] [--port P] [--feature-level N] [--fixture FILE] [--profile-out FILE]
//              [--dialect zulip|alternate|random] [--dialect-seed N] [--max-emoji-file-size-mib N]

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DIALECTS, type Dialect } from './dialect.js';
import { faultsFromEnvironment } from './faults.js';
import { readFixture, targetProfile } from './fixture.js';
import { MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from './levels.js';
import { startReference } from './server.js';

function fail(message: string): never {
  process.stderr.write(`reference: ${message}\n`);
  process.exit(2);
}

function integerOption(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) fail(`--${name} takes a whole number from ${min} to ${max}`);
  return Number(value);
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'feature-level': { type: 'string' },
        fixture: { type: 'string' },
        'profile-out': { type: 'string' },
        dialect: { type: 'string' },
        'dialect-seed': { type: 'string' },
        'max-emoji-file-size-mib': { type: 'string' },
      },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  const featureLevel = integerOption(values['feature-level'], 'feature-level', MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL, MAX_FEATURE_LEVEL);
  const port = integerOption(values.port, 'port', 9991, 0, 65535);
  const maxEmojiFileSizeMib = integerOption(values['max-emoji-file-size-mib'], 'max-emoji-file-size-mib', 5, 0, 100);
  const dialect = (values.dialect ?? 'zulip') as Dialect;
  if (!DIALECTS.includes(dialect)) fail(`--dialect takes ${DIALECTS.join(', ')}`);
  const dialectSeed = integerOption(values['dialect-seed'], 'dialect-seed', 0, 0, 2 ** 32 - 1);
  let faults;
  let fixture;
  try {
    faults = faultsFromEnvironment();
    fixture = values.fixture ? readFixture(values.fixture) : readFixture();
  } catch (error) {
    fail((error as Error).message);
  }
  const reference = await startReference({ host: values.host ?? '127.0.0.1', port, featureLevel, fixture, faults, dialect, dialectSeed, maxEmojiFileSizeMib }).catch((error: Error) =>
    fail(`cannot listen: ${error.message}`),
  );
  if (values['profile-out']) writeFileSync(values['profile-out'], JSON.stringify(targetProfile(fixture, reference.url), null, 2) + '\n');
  const faultNote = faults.size > 0 ? `, faults: ${[...faults].join(', ')}` : '';
  const dialectNote = dialect === 'zulip' ? '' : dialect === 'random' ? `, random dialect of seed ${dialectSeed}` : `, ${dialect} dialect`;
  process.stdout.write(`teamchat reference server listening on ${reference.url} (feature level ${featureLevel}${dialectNote}${faultNote})\n`);
  const stop = () => reference.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
