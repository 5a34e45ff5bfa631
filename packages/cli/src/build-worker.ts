import { parentPort } from 'node:worker_threads';
import { type Job, runJob } from './jobs.js';

/**
 * A worker thread running jobs posted by `JobRunner`: `{id, job}` in, `{id, ok, result | json | error}` out. A
 * skeleton comes back as its JSON text (`json`), which the main thread parses and can cache as it is. The
 * worker says `{ready: true}` once its modules are loaded: until then the main thread keeps the jobs.
 */
parentPort?.on('message', async ({ id, job }: { id: number; job: Job }) => {
  try {
    const result = await runJob(job);
    parentPort?.postMessage(
      job.kind === 'skeleton' ? { id, ok: true, json: JSON.stringify(result) } : { id, ok: true, result },
    );
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
