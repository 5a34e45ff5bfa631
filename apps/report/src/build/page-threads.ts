import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SiteManifest } from '../views/site/site-model.js';

/**
 * The pages of a large site are rendered and written by worker threads (`page-worker.ts`), one per core (at most four),
 * while the main thread records them. Starting a thread and rendering with it are two steps: a thread loads the site's
 * bundle as soon as it is started, which a caller may do before the build needs it (`cctrail report` does while its
 * export writes the last sessions, when a core is about to be idle: `BuildReportOptions.pageThreads`); it is given the
 * manifest once the build has one, then the numbers of the pages to render, a couple at a time, and writes each page
 * into the output folder itself (unless the folder holds it already as it is) and sends back its digest (without
 * `PageWork.output`, for tests: its bytes and digest). The main thread puts the pages into the site in their order (a
 * page done early waits for those before it), so the output folder's record and the digests kept for the next build are
 * those of a build in one thread; it holds no page's bytes, and stays free to handle a signal. A small site (a rebuild
 * after one change) is rendered in the main thread: starting threads and loading the bundle in each costs more than its
 * pages. Idle threads do not keep the process alive, and a build stops its threads when it ends, however it ends.
 */

/** What a page thread is started with. */
export interface PageWorkerData {
  /** The entry module of the site's bundle. */
  entry: string;
}

/** What a page thread is given once, before the numbers of the pages it renders. */
export interface PageWork {
  manifest: SiteManifest;
  /** The build cache, where transcript pages' fragments are. */
  cacheDir: string;
  /** Where the thread writes the pages it renders; without it, it sends their bytes back. */
  output?: PageOutput;
}

/** The output folder as page threads write into it (`PageWriter.threadOutput`). */
export interface PageOutput {
  /** The output folder (absolute). */
  outDir: string;
  /** The digest of each file the last build put into it (`signatureOf` its bytes), by path in the site. */
  known: Readonly<Record<string, string>>;
}

/**
 * A page a thread rendered: its number in the site's list of pages, its digest, and its bytes or whether the
 * thread wrote it (`PageWork.output`).
 */
export interface PageDone {
  at: number;
  /** Its bytes, when the thread was given no output folder. */
  bytes?: Uint8Array;
  /** Whether the thread wrote it into the output folder (false: the folder held it as it is). */
  written?: boolean;
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
export function threadsFor(pages: number): number {
  const from = Number(process.env.CCTRAIL_TEST_PAGE_THREADS_FROM || Number.NaN);
  const least = Number.isSafeInteger(from) && from >= 0 ? from : THREADS_FROM;
  const threads = Math.min(4, availableParallelism());
  return pages < least || threads < 2 || !existsSync(SCRIPT) ? 1 : threads;
}

/** A thread, the pages sent to it and not answered, and how it ended if it did. */
interface Slot {
  worker: Worker;
  sent: number;
  ended: unknown;
}

/**
 * The page threads of a build (see the module comment): started by `start`, or by `render` if they were not;
 * stopped by `close`. Made by `pageThreads()`; a build given them (`BuildReportOptions.pageThreads`) renders its
 * pages with them when its site is large, and stops them when it ends.
 */
export class PageThreads {
  #slots: Slot[] = [];
  /** Threads wanted, started once the bundle's entry is known. */
  #wanted = 0;
  #entry: Promise<string> | null = null;
  #closed = false;
  #startedAt: number | null = null;

  /**
   * Starts the threads now, if a site of at least `pages` pages is rendered in threads (`threadsFor`): each loads
   * the site's bundle meanwhile. Does nothing when they are started already, stopped, or not worth it.
   * @param pages How many pages the build renders, at least (a session has one at least).
   */
  start(pages: number): void {
    const threads = threadsFor(pages);
    if (threads > 1 && this.#wanted === 0) this.#wanted = threads;
    this.#spawn();
  }

  /**
   * The build's bundle (its entry module): threads asked for before it is known start once it is.
   * @param entry Settles with the path of the bundle's entry module.
   */
  bundle(entry: Promise<string>): void {
    if (this.#entry) return;
    this.#entry = entry;
    entry.then(
      () => this.#spawn(),
      () => undefined,
    );
  }

  /** The threads started or starting (0 when none is). */
  get size(): number {
    return this.#closed ? 0 : this.#wanted;
  }

  /** When the threads were started (`Date.now()`), null before. */
  get startedAt(): number | null {
    return this.#startedAt;
  }

  /** Starts the threads wanted once the bundle's entry is known. */
  #spawn(): void {
    if (this.#closed || this.#wanted === 0 || this.#slots.length > 0 || !this.#entry) return;
    this.#entry.then(
      (entry) => {
        if (this.#closed || this.#slots.length > 0) return;
        this.#startedAt = Date.now();
        for (let i = 0; i < this.#wanted; i++) {
          const data: PageWorkerData = { entry };
          const slot: Slot = { worker: new Worker(SCRIPT, { workerData: data }), sent: 0, ended: undefined };
          // An idle thread (started early, its build still reading) does not keep the process alive; its error
          // is kept for `render`.
          slot.worker.unref();
          slot.worker.on('error', (error) => {
            slot.ended ??= error;
          });
          slot.worker.on('exit', (code) => {
            slot.ended ??= new Error(`a page thread exited with ${code}`);
          });
          this.#slots.push(slot);
        }
      },
      () => undefined,
    );
  }

  /**
   * Renders pages `0 … count - 1` of the site's list (`pagesOf(work.manifest, work.cacheDir)`) in the threads
   * (`threads` of them are started if none is) and hands each to `onPage` in order, on the main thread. Rejects
   * with the first error (a page's, a thread's, or `onPage`'s); the threads are stopped either way.
   * @param entry The entry module of the site's bundle.
   */
  async render(
    entry: string,
    work: PageWork,
    count: number,
    threads: number,
    onPage: (done: PageDone) => void,
  ): Promise<void> {
    this.bundle(Promise.resolve(entry));
    if (this.#wanted === 0) this.#wanted = Math.max(1, Math.min(threads, count));
    this.#spawn();
    const known = await this.#entry;
    if (known !== entry) throw new Error(`page threads were started with ${known}, not ${entry}`);
    // `#spawn` starts them once the entry settles, before this resumes.
    const slots = this.#slots;
    if (this.#closed || slots.length === 0) throw new Error('the page threads are stopped');
    try {
      await renderWith(slots, work, count, onPage);
    } finally {
      await this.close();
    }
  }

  /** Stops the threads (those not started are never started). Safe to call twice. */
  async close(): Promise<void> {
    this.#closed = true;
    const slots = this.#slots;
    this.#slots = [];
    // The threads only read: stopping them midway loses nothing.
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

/** Page threads not started yet (see `PageThreads`). */
export function pageThreads(): PageThreads {
  return new PageThreads();
}

/** The rendering of `PageThreads.render` with its started threads. */
function renderWith(
  slots: readonly Slot[],
  work: PageWork,
  count: number,
  onPage: (done: PageDone) => void,
): Promise<void> {
  const done = new Map<number, PageDone>();
  let next = 0;
  let written = 0;
  let settled = false;
  return new Promise<void>((resolve, reject) => {
    const end = (error?: unknown) => {
      if (settled) return;
      settled = true;
      for (const s of slots) s.worker.removeAllListeners('message');
      if (error === undefined) resolve();
      else reject(error);
    };
    const send = () => {
      for (const s of slots)
        while (s.sent < DEPTH && next < count && next < written + AHEAD) {
          s.worker.postMessage(next++);
          s.sent++;
        }
    };
    for (const s of slots) {
      if (s.ended !== undefined) return end(s.ended);
      s.worker.ref();
      s.worker.postMessage(work);
      s.worker.on('message', (m: PageDone | PageFailed) => {
        if (settled) return;
        if ('error' in m) return end(m.error ?? new Error(`page ${m.at} of the site failed`));
        s.sent--;
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
      s.worker.on('error', end);
      s.worker.on('exit', (code) => end(new Error(`a page thread exited with ${code}`)));
    }
    if (count === 0) end();
    else send();
  });
}
