import { Worker } from 'node:worker_threads';

/** Worker threads of a build: running one to its end, and sharing work among several. */

/** Runs a worker script to its end; resolves with the last message it posted. */
export function runWorker<T>(script: string, workerData: unknown): Promise<T | undefined> {
  return new Promise((done, fail) => {
    const w = new Worker(script, { workerData });
    let last: T | undefined;
    w.on('message', (m: T) => {
      last = m;
    });
    w.on('error', fail);
    w.on('exit', (code) => (code === 0 ? done(last) : fail(new Error(`report worker exited with ${code}`))));
  });
}

/** Splits items into at most `n` non-empty shares of about equal weight, heaviest items first. */
export function shareByWeight<T>(items: readonly T[], n: number, weight: (item: T) => number): T[][] {
  const shares: { items: T[]; weight: number }[] = Array.from({ length: Math.max(1, n) }, () => ({
    items: [],
    weight: 0,
  }));
  for (const item of [...items].sort((a, b) => weight(b) - weight(a))) {
    const lightest = shares.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.items.push(item);
    lightest.weight += weight(item);
  }
  return shares.map((s) => s.items).filter((s) => s.length > 0);
}
