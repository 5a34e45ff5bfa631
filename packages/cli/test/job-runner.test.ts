import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { discover } from '@cctrail/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../src/runtime/job-runner.js';
import type { SkeletonJob } from '../src/runtime/jobs.js';
import { fixtureScenarios } from './helpers.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-job-runner-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** Writes a stand-in for `build-worker.js` and returns its URL. */
async function fakeWorker(name: string, source: string): Promise<URL> {
  const path = join(work, `${name}.mjs`);
  await writeFile(path, source);
  return pathToFileURL(path);
}

/** A worker that never finishes loading: it never says it is ready. */
const STILL_LOADING = 'setInterval(() => {}, 1 << 30);\n';

/** A worker that says it is ready and answers every job with a skeleton named `from-worker`. */
const READY = `import { parentPort } from 'node:worker_threads';
parentPort.on('message', ({ id }) =>
  parentPort.postMessage({ id, ok: true, result: { skeleton: JSON.stringify({ id: 'from-worker', diagnostics: [] }) } }),
);
parentPort.postMessage({ ready: true });
`;

/** A worker that stops at once, without an error, before saying it is ready. */
const EXITS = 'process.exit(0);\n';

/** A worker that says it is ready and stops with exit code 3 on its first job. */
const EXITS_ON_JOB = `import { parentPort } from 'node:worker_threads';
parentPort.on('message', () => process.exit(3));
parentPort.postMessage({ ready: true });
`;

/**
 * A worker that says nothing until it holds three jobs, then answers them (`from-worker`) and says it is ready:
 * it gets jobs only if they are handed to it while it is still loading.
 */
const READY_AFTER_THREE = `import { parentPort } from 'node:worker_threads';
const held = [];
parentPort.on('message', ({ id }) => {
  held.push(id);
  if (held.length < 3) return;
  for (const job of held.splice(0))
    parentPort.postMessage({ id: job, ok: true, result: { skeleton: JSON.stringify({ id: 'from-worker', diagnostics: [] }) } });
  parentPort.postMessage({ ready: true });
});
`;

/** A worker that stops with exit code 3 on its first job, before saying it is ready. */
const EXITS_LOADING = `import { parentPort } from 'node:worker_threads';
parentPort.on('message', () => process.exit(3));
`;

const scenarios = fixtureScenarios();

/** A skeleton job for the first session of the first fixture scenario. */
async function firstSessionJob(): Promise<SkeletonJob> {
  const root = scenarios[0]!;
  const discovered = (await discover([root])).projects[0]!.sessions[0]!;
  return { kind: 'skeleton', input: { discovered, root } };
}

describe.skipIf(scenarios.length === 0)('JobRunner', () => {
  it('runs jobs in this thread while its worker is still loading, when it shares the work', async () => {
    const runner = new JobRunner(
      {},
      { shareThisThread: true, script: await fakeWorker('loading', STILL_LOADING) },
    );
    expect(runner.parallel).toBe(true);
    try {
      const job = await firstSessionJob();
      // Handed to the loading worker, the job would wait for ever.
      const skeleton = await runner.run(job);
      expect(skeleton.id).toBe(job.input.discovered.id);
    } finally {
      await runner.close();
    }
  }, 10_000);

  it('hands jobs to a loading worker while this thread runs one, when it shares the work', async () => {
    const runner = new JobRunner(
      {},
      { shareThisThread: true, script: await fakeWorker('after-three', READY_AFTER_THREE) },
    );
    try {
      const job = await firstSessionJob();
      // This thread takes the first job; the next three go to the worker, which answers once it holds them.
      const results = await Promise.all(Array.from({ length: 4 }, () => runner.run(job)));
      expect(results.map((r) => r.id)).toEqual([
        job.input.discovered.id,
        'from-worker',
        'from-worker',
        'from-worker',
      ]);
    } finally {
      await runner.close();
    }
  }, 10_000);

  it('runs here the jobs a loading worker held when it stops before it is ready', async () => {
    const runner = new JobRunner(
      {},
      { shareThisThread: true, script: await fakeWorker('exits-loading', EXITS_LOADING) },
    );
    try {
      const job = await firstSessionJob();
      const results = await Promise.all(Array.from({ length: 3 }, () => runner.run(job)));
      expect(results.map((r) => r.id)).toEqual(Array(3).fill(job.input.discovered.id));
    } finally {
      await runner.close();
    }
  }, 10_000);

  it('keeps jobs until a worker is ready, then hands them to it', async () => {
    const runner = new JobRunner({}, { script: await fakeWorker('ready', READY) });
    try {
      const job = await firstSessionJob();
      // Submitted before the worker has loaded: it waits here, then goes to the worker.
      const results = await Promise.all([runner.run(job), runner.run(job), runner.run(job)]);
      expect(results.map((r) => r.id)).toEqual(['from-worker', 'from-worker', 'from-worker']);
    } finally {
      await runner.close();
    }
  }, 10_000);

  it('shares jobs between this thread and a ready worker', async () => {
    const runner = new JobRunner({}, { shareThisThread: true, script: await fakeWorker('shared', READY) });
    try {
      const job = await firstSessionJob();
      const where = new Set<string>();
      // This thread takes the first jobs; once the worker has said it is ready, it gets jobs too.
      for (let i = 0; i < 500 && where.size < 2; i++) {
        const results = await Promise.all(Array.from({ length: 8 }, () => runner.run(job)));
        for (const r of results) where.add(r.id === 'from-worker' ? 'worker' : 'here');
      }
      expect([...where].sort()).toEqual(['here', 'worker']);
    } finally {
      await runner.close();
    }
  }, 20_000);

  it('stops its workers once however often it is closed, and runs later jobs in this thread', async () => {
    const runner = new JobRunner({}, { script: await fakeWorker('closed', READY) });
    const job = await firstSessionJob();
    expect((await runner.run(job)).id).toBe('from-worker');
    // `stats` closes it once its sessions are built, and again on its way out.
    const closing = runner.close();
    expect(runner.close()).toBe(closing);
    await closing;
    expect((await runner.run(job)).id).toBe(job.input.discovered.id);
  }, 10_000);

  it('runs the jobs in this thread when its worker stops before it is ready', async () => {
    const runner = new JobRunner({}, { script: await fakeWorker('exits', EXITS) });
    try {
      const job = await firstSessionJob();
      // Queued for a worker that will never take them, they would wait for ever.
      const results = await Promise.all([runner.run(job), runner.run(job)]);
      expect(results.map((r) => r.id)).toEqual([job.input.discovered.id, job.input.discovered.id]);
    } finally {
      await runner.close();
    }
  }, 10_000);

  it('fails the job of a worker that stops during it, and runs the next ones in this thread', async () => {
    const runner = new JobRunner(
      { CCTRAIL_WORKERS: '1' },
      { script: await fakeWorker('dies', EXITS_ON_JOB) },
    );
    try {
      const job = await firstSessionJob();
      await expect(runner.run(job)).rejects.toThrow('a worker thread stopped (exit code 3) during its job');
      expect((await runner.run(job)).id).toBe(job.input.discovered.id);
    } finally {
      await runner.close();
    }
  }, 10_000);
});
