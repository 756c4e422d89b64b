// Removing what the run created and putting back what it changed: at the end of the run, also
// after a failure or an interrupt. A cleanup problem is reported apart, never as a rule result.
// What the run changes is written to a journal as it goes, so that a run killed outright can be
// undone by another (--undo FILE).

import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Caller } from './client.js';
import type { PersonalFlags } from './personal-flags.js';
import { scopeOf, SentValues, type PutBack, type Scope } from './put-back.js';

export type { PutBack } from './put-back.js';

/** What the journal keeps of a step: a request, or the put-back of the run's personal flags (personal-flags.ts). */
export type JournalStep = PutBack | { readonly personalFlags: PersonalFlags };

export type JournalLine =
  | { readonly run: string; readonly target: string; readonly started: string }
  | { readonly step: number; readonly what: string; readonly request: JournalStep }
  /** A value the run sent for a setting: what the put-back may take for the run's own. */
  | { readonly sent: Scope; readonly name: string; readonly value: string }
  | { readonly done: number }
  | { readonly finished: string }
  /** --undo put back everything that was left: the journal changes nothing again. */
  | { readonly undone: string };

/**
 * The run's journal: one JSON line per change to put back, per value it sent for a setting, and
 * one when a change was put back. Written from the first line it has to keep: a run that could
 * not start leaves none.
 */
export class Journal {
  private steps = 0;
  private started = false;

  constructor(readonly path: string, private readonly run: string, private readonly target: string) {}

  step(what: string, request: JournalStep): number {
    this.write({ step: ++this.steps, what, request });
    return this.steps;
  }

  write(line: JournalLine): void {
    if (!this.started) {
      writeFileSync(this.path, JSON.stringify({ run: this.run, target: this.target, started: new Date().toISOString() }) + '\n');
      this.started = true;
    }
    appendFileSync(this.path, JSON.stringify(line) + '\n');
  }

  /** Whether anything was written. */
  get written(): boolean {
    return this.started;
  }
}

export interface JournalState {
  readonly run: string;
  readonly target: string;
  /** What is left to put back, the last change first. */
  readonly pending: Array<{ step: number; what: string; request: JournalStep }>;
  /** The values the run sent for settings. */
  readonly sent: SentValues;
  readonly finished: boolean;
  /** When --undo put everything back, if it did. */
  readonly undone: string | null;
}

/** What a journal says is left to put back, the last change first, and which run wrote it. */
export function pendingIn(path: string): JournalState {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);
  const head = lines[0];
  if (!head || typeof head.run !== 'string') throw new Error(`${path} is not a journal of teamchat-conformance`);
  const done = new Set(lines.filter((line) => typeof line.done === 'number').map((line) => line.done));
  const pending = lines.filter((line) => typeof line.step === 'number' && !done.has(line.step)).map((line) => ({ step: line.step as number, what: line.what as string, request: line.request as JournalStep })).reverse();
  const sent = new SentValues();
  for (const line of lines) if (typeof line.sent === 'string') sent.add(line.sent as Scope, String(line.name), String(line.value));
  const undone = lines.find((line) => typeof line.undone === 'string')?.undone ?? null;
  return { run: head.run, target: head.target, pending, sent, finished: lines.some((line) => typeof line.finished === 'string'), undone };
}

/** Appends to an existing journal: --undo marks what it put back. */
export function appendTo(path: string, line: JournalLine): void {
  if (existsSync(path)) appendFileSync(path, JSON.stringify(line) + '\n');
}

/**
 * The answer to a cleanup request, looked at: a success, or a refusal in JSON (the object is gone
 * already: its check deleted it, or it was delivered), is done; anything else (a server error, a
 * page that is not the API's) is a problem, and the sweep at the end looks for what is left.
 */
export function cleanedUp(response: { readonly status: number; readonly body: any; readonly text: string }): void {
  if (response.body?.result === 'success') return;
  if (response.status >= 400 && response.status < 500 && response.body !== null && typeof response.body === 'object') return;
  throw new Error(`${response.status} ${response.text.slice(0, 200)}`);
}

export class Cleanup {
  private readonly steps: Array<{ what: string; run: () => Promise<unknown>; request?: JournalStep }> = [];
  readonly problems: string[] = [];
  /** What someone else changed since the run did, left as it is (put-back.ts). */
  readonly conflicts: string[] = [];
  /** The values the run sent for settings, journaled before each request goes out. */
  readonly sent = new SentValues();

  /** The client, told while a step runs, so that it may retry a DELETE as it retries a GET. */
  constructor(
    private readonly client: { cleaningUp: number } = { cleaningUp: 0 },
    private readonly journal: Journal | null = null,
  ) {}

  /** Given every request before it goes out: the settings it writes are noted as the run's. */
  seeSend(as: Caller, method: string, path: string, form: ReadonlyArray<readonly [string, string]>): void {
    const scope = scopeOf(as, method, path);
    if (scope === null) return;
    for (const [name, value] of form) if (this.sent.add(scope, name, value)) this.journal?.write({ sent: scope, name, value });
  }

  /** Notes what a put-back left as someone else changed it. */
  conflict(...found: string[]): void {
    for (const text of found) if (!this.conflicts.includes(text)) this.conflicts.push(text);
  }

  /**
   * Registers a step for the end of the run; the last registered runs first. A step that puts
   * back a change made through the API says so by its request, which the journal keeps.
   */
  atEnd(what: string, run: () => Promise<unknown>, request?: JournalStep): { now: () => Promise<void> } {
    // The same put-back asked for again (a rule run again by --retries sets up again) is one step.
    const same = request && this.steps.find((entry) => entry.request !== undefined && JSON.stringify(entry.request) === JSON.stringify(request));
    if (same) return { now: () => this.runEntry(same) };
    const step = request && this.journal?.step(what, request);
    const entry = { what, request, run: step ? async () => {
      await run();
      this.journal!.write({ done: step });
    } : run };
    this.steps.push(entry);
    // Run before the end (a lease released as soon as its rules are done): then not again.
    return { now: () => this.runEntry(entry) };
  }

  private async runEntry(entry: { what: string; run: () => Promise<unknown> }): Promise<void> {
    const at = this.steps.indexOf(entry as never);
    if (at < 0) return;
    this.steps.splice(at, 1);
    await this.now(entry.what, entry.run);
  }

  /** Runs a step now; a problem is noted, not thrown. */
  async now(what: string, run: () => Promise<unknown>): Promise<void> {
    this.client.cleaningUp++;
    try {
      await run();
    } catch (error) {
      // The same problem met again (a server refusing every delete) is listed once.
      const problem = `${what}: ${(error as Error).message}`;
      if (!this.problems.includes(problem)) this.problems.push(problem);
    } finally {
      this.client.cleaningUp--;
    }
  }

  /** Runs now, the last registered first, the steps whose put-back request is of these (the shared state's, before the lease is released). */
  async runNow(matches: (request: PutBack) => boolean): Promise<void> {
    for (const entry of [...this.steps].reverse()) {
      if (!entry.request || !('path' in entry.request) || !matches(entry.request)) continue;
      this.steps.splice(this.steps.indexOf(entry), 1);
      await this.now(entry.what, entry.run);
    }
  }

  /** Sends a cleanup request now and looks at its answer (cleanedUp); a problem is noted, not thrown. */
  request(what: string, send: () => Promise<{ readonly status: number; readonly body: any; readonly text: string }>): Promise<void> {
    return this.now(what, async () => cleanedUp(await send()));
  }

  private readonly stays = new Map<string, number>();

  /** Notes something the run made that the API can only deactivate or archive: the report says it once, with a count. */
  leftBehind(what: string, count?: number): void {
    this.stays.set(what, count ?? (this.stays.get(what) ?? 0) + 1);
  }

  /** What stays on the target, counted: e.g. "38 custom emoji, deactivated". */
  left(): string[] {
    return [...this.stays].map(([what, count]) => `${count} ${what}`);
  }

  /**
   * The requests the steps left for the end of the run take at most: a setting put back is read
   * first (POST /register, DELETE /events) then written; the personal flags are read for each
   * profile user and put back flag by flag; anything else is one request.
   */
  get pendingCost(): number {
    return this.steps.reduce((sum, step) => sum + (step.request === undefined ? 1 : 'personalFlags' in step.request ? 12 : scopeOf(step.request.as, step.request.method, step.request.path) !== null ? 3 : 1), 0);
  }

  async runAll(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      await this.now(step.what, step.run);
    }
    if (this.journal?.written) this.journal.write({ finished: new Date().toISOString() });
  }
}
