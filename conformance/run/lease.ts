// The server's lease: one run at a time changes or reads the state that every run of the suite
// shares on a target (the organization's settings defaults, its profile fields, the profile users'
// settings). It is built from drafts, an operation of the spec that every conforming server has,
// and from nothing the spec does not promise (no unique names, no ordered IDs):
//
// - A run claims the lease with an unaddressed draft of the admin's, whose content follows one
//   convention: `teamchat-conformance lease: run RUN, ttl N s, since T`. The server fills in the
//   draft's timestamp (drafts.timestamp-filled-when-absent), so each claim carries the server's time.
// - A claim lives for its ttl from when a run first sees it: each run times the others' claims on
//   its own clock, since a server's clock may jump (the reference clock moves on for deliveries).
//   A run renews its claim before then with a new draft that keeps `since` (the server time of its
//   first claim), and deletes the old one.
// - Every run applies the same rule: the lease is held by the live claim with the smallest
//   `since`, the run's token breaking a tie. A run counts itself the holder only once it has read
//   the claims at least SETTLE_MS after its own first claim was made, so that every claim the
//   server timed no later than its own is there to be read.
// - A run releases by deleting its claims: at the end of the shared rules, in cleanup (also on
//   Ctrl-C), by --undo (the journal has each claim) and by --sweep-only (every claim).

import { sleep, TransientError, type Client, type Role } from './client.js';
import { cleanedUp, type Cleanup } from './cleanup.js';

export const LEASE_USER: Role = 'admin';
const CLAIM = /^teamchat-conformance lease: run (\S+), ttl (\d+) s, since (\d+|-)$/;
/** How long after its first claim a run waits before it reads who holds the lease. */
export const SETTLE_MS = 2000;
export const DEFAULT_LEASE_TTL = 60;
export const DEFAULT_LEASE_WAIT = 600;
/** How often a claim is posted at most when transient faults hide whether it was made. */
const CLAIM_TRIES = 6;

export interface Claim {
  readonly id: number;
  readonly run: string;
  readonly ttl: number;
  /** The server time of the run's first claim. */
  readonly since: number;
  /** The server time the claim was made (the draft's timestamp). */
  readonly timestamp: number;
}

/** The lease's claims among a user's drafts, as GET /drafts lists them. */
export function claimsIn(drafts: unknown): Claim[] {
  if (!Array.isArray(drafts)) return [];
  return drafts.flatMap((draft) => {
    const match = CLAIM.exec(String(draft?.content ?? ''));
    if (!match || !Number.isInteger(draft.id) || typeof draft.timestamp !== 'number') return [];
    const timestamp = Math.floor(draft.timestamp);
    return [{ id: draft.id, run: match[1]!, ttl: Number(match[2]), since: match[3] === '-' ? timestamp : Number(match[3]), timestamp }];
  });
}

export interface Holder {
  readonly run: string;
  readonly since: number;
}

/** The rule every run applies: of the live claims, the one of the earliest `since`, then of the smallest token. */
export function holderOf(claims: readonly Claim[], live: (claim: Claim) => boolean): Holder | null {
  const runs = new Map<string, Holder>();
  for (const claim of claims.filter(live)) {
    const known = runs.get(claim.run);
    runs.set(claim.run, { run: claim.run, since: Math.min(known?.since ?? Infinity, claim.since) });
  }
  const ordered = [...runs.values()].sort((a, b) => a.since - b.since || (a.run < b.run ? -1 : a.run > b.run ? 1 : 0));
  return ordered[0] ?? null;
}

export const claimContent = (run: string, ttl: number, since: number | null) => `teamchat-conformance lease: run ${run}, ttl ${ttl} s, since ${since ?? '-'}`;

export class LeaseError extends Error {}

export interface LeaseOptions {
  readonly ttl: number;
  /** How long the run waits for the lease at most, in seconds. */
  readonly wait: number;
  /** Told while the run waits. */
  readonly onWait?: (text: string) => void;
  /** Whether the run was interrupted (Ctrl-C): then it waits no more. */
  readonly interrupted?: () => boolean;
}

export class Lease {
  private claims: Array<{ id: number; release: () => Promise<void> }> = [];
  private since: number | null = null;
  private firstClaimAt = 0;
  private renewal: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private released = false;
  /** Seconds the run waited for another run's lease, and whose. */
  waited = { seconds: 0, for: [] as string[] };
  held = false;
  /** When the run held the lease, in ms since the epoch: from, and until it released it. */
  heldFrom: number | null = null;
  heldUntil: number | null = null;

  constructor(
    private readonly client: Client,
    /** The run's token in the lease: its prefix with a dash, so that no run's own search by prefix finds it. */
    readonly run: string,
    private readonly cleanup: Cleanup,
    private readonly options: LeaseOptions,
  ) {}

  /** Makes the run's first claim and keeps it live; who holds the lease is read later. */
  async claim(): Promise<void> {
    await this.makeClaim();
    this.firstClaimAt = performance.now();
    this.since = (await this.ownClaims()).reduce((earliest, claim) => Math.min(earliest, claim.timestamp), Infinity);
    if (!Number.isFinite(this.since)) throw new LeaseError(`the claim draft the run made is not among the admin's drafts (GET /drafts)`);
    this.renewal = setInterval(() => void this.renew(), Math.max(500, (this.options.ttl * 1000) / 3));
    this.renewal.unref();
  }

  private async makeClaim(): Promise<void> {
    const content = claimContent(this.run, this.options.ttl, this.since);
    const id = await this.postClaim(content);
    // Gone already (a sweep, the user) is released all the same: cleanedUp takes a refusal in JSON.
    const step = this.cleanup.atEnd('release the server\'s lease', async () => cleanedUp(await this.client.call(LEASE_USER, 'DELETE', `/drafts/${id}`)), { as: LEASE_USER, method: 'DELETE', path: `/drafts/${id}`, params: {}, owned: `run ${this.run},` });
    this.claims.push({ id, release: step.now });
  }

  /**
   * Posts a claim draft and answers its ID. A transient fault hides whether it was made: the
   * admin's drafts say (a claim of this content that is none of the run's known ones), and the
   * claim is posted again only where it was not.
   */
  private async postClaim(content: string): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const known = new Set(this.claims.map((claim) => claim.id));
      let response;
      try {
        response = await this.client.call(LEASE_USER, 'POST', '/drafts', { drafts: [{ type: '', to: [], topic: '', content }] });
      } catch (error) {
        if (!(error instanceof TransientError) || attempt >= CLAIM_TRIES) throw error;
        const made = (await this.readClaims()).find((claim) => claim.run === this.run && !known.has(claim.id) && claimContent(claim.run, claim.ttl, this.since === null ? null : claim.since) === content);
        if (made) return made.id;
        continue;
      }
      const id = response.body?.ids?.[0];
      if (response.body?.result !== 'success' || !Number.isInteger(id)) throw new LeaseError(`POST /drafts as ${LEASE_USER} (the lease's claim): ${response.status} ${response.text.slice(0, 200)}`);
      return id;
    }
  }

  /** A new claim that keeps the run's `since`, then the old ones deleted: the claim never lapses. */
  private renew(): Promise<void> {
    if (this.released || this.renewing) return this.renewing ?? Promise.resolve();
    this.renewing = (async () => {
      try {
        const old = this.claims;
        this.claims = [];
        await this.makeClaim();
        for (const claim of old) await claim.release();
      } catch {
        // A failed renewal is tried again at the next turn; the claim lives on until its ttl.
      } finally {
        this.renewing = null;
      }
    })();
    return this.renewing;
  }

  /** When this run first saw each claim, on its own clock. */
  private readonly firstSeen = new Map<number, number>();

  private async readClaims(): Promise<Claim[]> {
    const response = await this.client.call(LEASE_USER, 'GET', '/drafts');
    if (response.body?.result !== 'success') throw new LeaseError(`GET /drafts as ${LEASE_USER} (the lease's claims): ${response.status} ${response.text.slice(0, 200)}`);
    const claims = claimsIn(response.body.drafts);
    const now = performance.now();
    for (const claim of claims) if (!this.firstSeen.has(claim.id)) this.firstSeen.set(claim.id, now);
    return claims;
  }

  /** A claim of this run's is live while it is there; another's, for its ttl from when this run first saw it. */
  private readonly live = (claim: Claim) => claim.run === this.run || performance.now() - (this.firstSeen.get(claim.id) ?? performance.now()) <= claim.ttl * 1000;

  /** Seconds until the holder's newest claim lapses, unless renewed. */
  private lapsesIn(holder: Holder, claims: readonly Claim[]): number {
    const left = claims.filter((claim) => claim.run === holder.run).map((claim) => claim.ttl * 1000 - (performance.now() - this.firstSeen.get(claim.id)!));
    return Math.max(0, Math.round(Math.max(...left) / 1000));
  }

  private async ownClaims(): Promise<Claim[]> {
    return (await this.readClaims()).filter((claim) => claim.run === this.run);
  }

  /**
   * One look at the claims: the run's own is made again if it is gone (it keeps the run's
   * `since`, so its place), and the run holds the lease if no other live claim comes first.
   */
  private async look(): Promise<{ claims: Claim[]; holder: Holder | null }> {
    const claims = await this.readClaims();
    if (!claims.some((claim) => claim.run === this.run)) await this.renew();
    const holder = holderOf(claims, this.live);
    if (this.held) return { claims, holder };
    // The wait counts from the first look that found another run holding the lease, whether the
    // run then waited idle (acquire) or went on with other rules (tryHold).
    if (holder !== null && holder.run !== this.run) this.waitingSince ??= performance.now();
    if (this.waitingSince !== null) this.waited.seconds = Math.round((performance.now() - this.waitingSince) / 1000);
    if (holder === null || holder.run === this.run) {
      this.held = true;
      this.heldFrom = Date.now();
    }
    return { claims, holder };
  }

  private lastTry = 0;
  private waitingSince: number | null = null;

  /** Whether a look at who holds the lease may be had now: the first claim has settled, and the last look is a second old. */
  mayHoldNow(): boolean {
    const now = performance.now();
    return !this.held && !this.released && now >= this.firstClaimAt + SETTLE_MS && now >= this.lastTry + 1000;
  }

  /** One look: whether the run holds the lease now. */
  async tryHold(): Promise<boolean> {
    this.lastTry = performance.now();
    const { holder } = await this.look();
    if (!this.held && holder && !this.waited.for.includes(holder.run)) {
      this.waited.for.push(holder.run);
      this.options.onWait?.(`the server's lease is held by run ${holder.run}: the rules of shared state wait for it, the others go on`);
    }
    return this.held;
  }

  /**
   * Waits until the run holds the lease, at most the options' wait. Resolves with null once it
   * holds it, or with why not (another run held it for the whole wait).
   */
  async acquire(): Promise<string | null> {
    if (this.held) return null;
    const started = performance.now();
    const settle = this.firstClaimAt + SETTLE_MS - performance.now();
    if (settle > 0) await sleep(settle);
    let said = 0;
    for (;;) {
      const { claims, holder } = await this.look();
      if (this.held || holder === null) return null;
      if (!this.waited.for.includes(holder.run)) this.waited.for.push(holder.run);
      const seconds = Math.round((performance.now() - started) / 1000);
      if (this.options.interrupted?.()) return `the run was interrupted while another run (${holder.run}) held the server's lease`;
      if (seconds >= this.options.wait) {
        return `another run (${holder.run}) held the server's lease for ${seconds} s, the longest this run waits (--lease-wait ${this.options.wait})`;
      }
      if (seconds - said >= 10 || said === 0) {
        said = seconds || 1;
        this.options.onWait?.(`waiting for the server's lease, held by run ${holder.run} (${seconds} s so far; its claim lapses in ${this.lapsesIn(holder, claims)} s unless that run renews it)`);
      }
      await sleep(1000);
    }
  }

  /** Deletes the run's claims: the next run in line holds the lease. */
  async release(): Promise<void> {
    if (this.held) this.heldUntil = Date.now();
    this.released = true;
    this.held = false;
    if (this.renewal) clearInterval(this.renewal);
    await this.renewing;
    const claims = this.claims;
    this.claims = [];
    for (const claim of claims) await claim.release();
  }
}

/** --sweep-only: deletes every claim of the lease, whoever made it; says how many. */
export async function releaseEveryClaim(client: Client): Promise<number> {
  const response = await client.call(LEASE_USER, 'GET', '/drafts');
  if (response.body?.result !== 'success') return 0;
  let released = 0;
  for (const claim of claimsIn(response.body.drafts)) {
    const deleted = await client.call(LEASE_USER, 'DELETE', `/drafts/${claim.id}`);
    if (deleted.body?.result === 'success') released++;
  }
  return released;
}
