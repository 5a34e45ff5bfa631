import { parentPort } from 'node:worker_threads';
import { type Job, runJob } from './jobs.js';

/** A worker thread running jobs posted by `JobRunner`: `{id, job}` in, `{id, ok, result | error}` out. */
parentPort?.on('message', async ({ id, job }: { id: number; job: Job }) => {
  try {
    parentPort?.postMessage({ id, ok: true, result: await runJob(job) });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    parentPort?.postMessage({
      id,
      ok: false,
      error: { message: e?.message ?? String(error), code: e?.code, path: e?.path },
    });
  }
});
