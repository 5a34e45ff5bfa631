import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SiteManifest } from '../views/site/site-model.js';

/**
 * The pages of a large site are rendered by worker threads (`page-worker.ts`), one per core (at most four), while
 * the main thread writes them: each thread loads the site's bundle and takes the manifest once, then renders the
 * pages whose numbers it is sent, a couple at a time, and sends back each page's bytes and digest. The main thread
 * puts the pages into the site in their order (a page done early waits for those before it), so the output
 * folder's record and the digests kept for the next build are those of a build in one thread, and it stays free
 * to handle a signal. A small site (a rebuild after one change) is rendered in the main thread: starting threads
 * and loading the bundle in each costs more than its pages.
 */

/** What a page thread is started with. */
export interface PageWorkerData {
  /** The entry module of the site's bundle. */
  entry: string;
  manifest: SiteManifest;
  /** The build cache, where transcript pages' fragments are. */
  cacheDir: string;
}

/** A page a thread rendered: its number in the site's list of pages, its bytes and their digest. */
export interface PageDone {
  at: number;
  bytes: Uint8Array;
  /** `signatureOf(bytes)`. */
  signature: string;
  /** Milliseconds spent on it (view model, rendering, digest). */
  ms: number;
}

/** A page a thread could not render. */
interface PageFailed {
  at: number;
  error: unknown;
}

/** The fewest pages rendered in threads; fewer are rendered in the main thread. */
const THREADS_FROM = 300;
/** Pages sent to a thread before it answers, so it is never idle waiting for the next one. */
const DEPTH = 2;
/** Pages rendered at most ahead of the first not yet written (those done wait in memory). */
const AHEAD = 128;

const here = dirname(fileURLToPath(import.meta.url));
const SCRIPT = join(here, 'page-worker.js');

/**
 * How many threads render a site of `pages` pages: 1 (the main thread) below `THREADS_FROM` pages (or the number
 * in `CCTRAIL_TEST_PAGE_THREADS_FROM`, for tests), on one core, or when the package is not compiled; else one
 * per core, at most four.
 */
export function pageThreads(pages: number): number {
  const from = Number(process.env.CCTRAIL_TEST_PAGE_THREADS_FROM || Number.NaN);
  const least = Number.isSafeInteger(from) && from >= 0 ? from : THREADS_FROM;
  const threads = Math.min(4, availableParallelism());
  return pages < least || threads < 2 || !existsSync(SCRIPT) ? 1 : threads;
}

/**
 * Renders pages `0 … count - 1` of the site's list (`pagesOf(data.manifest, data.cacheDir)`) in `threads` worker
 * threads and hands each to `onPage` in order, on the main thread. Rejects with the first error (a page's, a
 * thread's, or `onPage`'s); the threads are stopped either way.
 */
export function renderInThreads(
  data: PageWorkerData,
  count: number,
  threads: number,
  onPage: (done: PageDone) => void,
): Promise<void> {
  const workers = Array.from({ length: Math.min(threads, Math.max(1, count)) }, () => {
    return { worker: new Worker(SCRIPT, { workerData: data }), sent: 0 };
  });
  const done = new Map<number, PageDone>();
  let next = 0;
  let written = 0;
  let settled = false;
  return new Promise<void>((resolve, reject) => {
    const end = (error?: unknown) => {
      if (settled) return;
      settled = true;
      // The threads only read: stopping them midway loses nothing.
      void Promise.all(workers.map((w) => w.worker.terminate())).finally(() =>
        error === undefined ? resolve() : reject(error),
      );
    };
    const send = () => {
      for (const w of workers)
        while (w.sent < DEPTH && next < count && next < written + AHEAD) {
          w.worker.postMessage(next++);
          w.sent++;
        }
    };
    for (const w of workers) {
      w.worker.on('message', (m: PageDone | PageFailed) => {
        if (settled) return;
        if ('error' in m) return end(m.error ?? new Error(`page ${m.at} of the site failed`));
        w.sent--;
        done.set(m.at, m);
        try {
          for (let page = done.get(written); page; page = done.get(written)) {
            done.delete(written++);
            onPage(page);
          }
        } catch (error) {
          return end(error);
        }
        if (written === count) return end();
        send();
      });
      w.worker.on('error', end);
      w.worker.on('exit', (code) => end(new Error(`a page thread exited with ${code}`)));
    }
    if (count === 0) end();
    else send();
  });
}
