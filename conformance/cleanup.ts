// Removing what the run created and putting back what it changed: at the end of the run, also
// after a failure or an interrupt. A cleanup problem is reported apart, never as a rule result.

export class Cleanup {
  private readonly steps: Array<{ what: string; run: () => Promise<unknown> }> = [];
  readonly problems: string[] = [];

  /** The client, told while a step runs, so that it may retry a DELETE as it retries a GET. */
  constructor(private readonly client: { cleaningUp: number } = { cleaningUp: 0 }) {}

  /** Registers a step for the end of the run; the last registered runs first. */
  atEnd(what: string, run: () => Promise<unknown>): void {
    this.steps.push({ what, run });
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

  async runAll(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      await this.now(step.what, step.run);
    }
  }
}
