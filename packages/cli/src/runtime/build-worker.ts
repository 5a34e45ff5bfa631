import { parentPort } from 'node:worker_threads';
import { type Job, packResult, runJob } from './jobs.js';

/**
 * A worker thread running jobs posted by `JobRunner`: `{id, job}` in, `{id, ok, result | error}` out, the result
 * packed by `packResult`. The worker says `{ready: true}` once its modules are loaded: until then the main thread
 * keeps the jobs.
 */
parentPort?.on('message', async ({ id, job }: { id: number; job: Job }) => {
  try {
    parentPort?.postMessage({ id, ok: true, result: packResult(await runJob(job)) });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    parentPort?.postMessage({
      id,
      ok: false,
      error: { message: e?.message ?? String(error), code: e?.code, path: e?.path },
    });
  }
});

parentPort?.postMessage({ ready: true });
