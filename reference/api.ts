// The reference as a library: an in-memory team-chat server for another project's tests.
//
//   const { startReference } = await import('teamchat-conformance/reference');
//   const server = await startReference({ port: 0, featureLevel: 415 });
//   ... server.url, server.profile.users.member ...
//   await server.clock(3600);   // move its clock an hour: due deliveries happen
//   await server.close();

import { targetProfile, type Fixture } from './http/boot.js';
import { startReference as start, type ReferenceOptions, type RunningReference } from './http/server.js';

export { FAULTS, POWER_FAULTS, type Fault } from './faults/faults.js';
export { DIALECTS, type Dialect } from './dialects/dialect.js';
export { MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from './model/levels.js';
export { readFixture, type Fixture } from './http/boot.js';
export type { ReferenceOptions } from './http/server.js';

export interface Reference extends RunningReference {
  /** The target profile: base URL and the credentials of the fixture's admin, member and other. */
  readonly profile: ReturnType<typeof targetProfile>;
  /** Advances the reference clock by `seconds` (deliveries come due); with deliver=false as if the worker was down. */
  clock(seconds: number, deliver?: boolean): Promise<number>;
}

/** Starts the reference server (on 127.0.0.1, port 9991 unless given; 0 for a free one). */
export async function startReference(options: ReferenceOptions & { fixture?: Fixture } = {}): Promise<Reference> {
  const running = await start(options);
  const profile = targetProfile(running.fixture, running.url);
  return {
    ...running,
    profile,
    async clock(seconds: number, deliver = true) {
      running.realm.clock.advance(seconds);
      if (deliver) running.realm.runDeliveries();
      else running.realm.workerDownUntil = running.realm.clock.now();
      return Math.floor(running.realm.clock.now());
    },
  };
}

