// Runs of the suite in processes of their own, as many at once as asked: the seed sweep's and
// the power sweep's. A run has its own reference and its own event loop, so that one run's load
// never slows another's observation.

import { fork } from 'node:child_process';

/**
 * The parent's side: runs every task in `jobs` child processes of `script` (started with
 * `--worker`), and gives each finding to `each` as it comes.
 */
export async function inProcesses<Task, Finding>(script: string, tasks: readonly Task[], jobs: number, each: (finding: Finding) => void): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, () => new Promise<void>((resolve, reject) => {
    const child = fork(script, ['--worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (message: Finding | 'ready') => {
      if (message !== 'ready') each(message);
      child.send(next < tasks.length ? (tasks[next++] as object) : 'done');
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a worker of ${script} exited with ${code}`))));
  })));
}

/** The child's side: runs each task it is sent, and answers with its finding, or with `failed`'s. */
export function serveTasks<Task, Finding>(one: (task: Task) => Promise<Finding>, failed: (task: Task, error: unknown) => Finding): void {
  process.on('message', async (task: Task | 'done') => {
    if (task === 'done') return process.exit(0);
    let finding: Finding;
    try {
      finding = await one(task);
    } catch (error) {
      finding = failed(task, error);
    }
    process.send!(finding);
  });
  process.send!('ready');
}
