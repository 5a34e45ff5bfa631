import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SiteManifest } from '../views/site/site-model.js';
import type { PageWriter } from './page-writer.js';
import type { SearchIndex } from './search-files.js';
import { planSearchFiles } from './search-pieces.js';
import type { SiteWriter } from './site-writer.js';

/**
 * The files of the transcript index of a large site (thousands of them, `search-files.ts`) are planned and written
 * by a worker thread of their own (`search-worker.ts`) while the pages are rendered, rather than by the main thread
 * once they are: planning them is CPU work the main thread would do alone, and creating a file blocks for a
 * while. The build's writer stays in charge of the folder: the thread sends the files' names and digests, the
 * build keeps those unchanged since the last build, records the others in the folder's record (`SiteWriter.plan`)
 * and only then tells the thread to write them, which it does through a writer of its own (no link followed, as
 * any `SiteWriter`); the build counts them as its files once they are written. A small site's index is written
 * by the main thread: starting a thread would cost more than it saves.
 */

/** What the search thread is started with. */
export interface SearchWorkerData {
  manifest: SiteManifest;
  /** The build cache, where the sessions' pieces of the index are. */
  cacheDir: string;
  /** The output folder. */
  outDir: string;
  /** Keep the index's state for the next build (`SearchPlan.save`) once its files are written. */
  save: boolean;
}

/** What the search thread planned: what the search page needs to find files, and each file's name and digest. */
export interface SearchPlanned {
  meta: SearchIndex['meta'];
  files: [name: string, signature: string][];
}

const here = dirname(fileURLToPath(import.meta.url));
const SCRIPT = join(here, 'search-worker.js');

/**
 * A search thread, started at once (null when the package is not compiled: the caller writes the index itself).
 * @param pages The build's writer of the site's files, through which the thread's files are recorded.
 * @param site The output folder's writer.
 */
export function startSearchThread(
  data: SearchWorkerData,
  pages: PageWriter,
  site: SiteWriter,
): SearchThread | null {
  return existsSync(SCRIPT) ? new SearchThread(data, pages, site) : null;
}

/**
 * Puts the files of the transcript index into the site in this thread (a small site's): each written only when it
 * changed, recorded first.
 * @returns What the search page needs to find them, and what keeps the index's state for the next build (once the
 * files are written and `pages` finished).
 */
export function putSearchFiles(
  manifest: SiteManifest,
  cacheDir: string,
  pages: PageWriter,
  site: SiteWriter,
): { meta: SearchIndex['meta']; save: () => void } {
  const plan = planSearchFiles(manifest, cacheDir);
  site.plan([...plan.files, ...plan.known].map((f) => f.name));
  for (const f of plan.files) {
    if (f.signature === undefined) pages.put(f.name, f.text);
    else pages.putKnown(f.name, f.signature, () => f.text);
  }
  for (const f of plan.known) pages.putKnown(f.name, f.signature, f.text);
  return { meta: plan.meta, save: plan.save };
}

/** The search thread of a build (see the module comment). */
export class SearchThread {
  readonly #worker: Worker;
  /**
   * Settles once the files are written, with what the search page needs to find them, how many files were
   * written (the others were in place), and the milliseconds from the thread's start.
   */
  readonly #done: Promise<{ meta: SearchIndex['meta']; written: number; ms: number }>;

  constructor(data: SearchWorkerData, pages: PageWriter, site: SiteWriter) {
    const started = Date.now();
    this.#worker = new Worker(SCRIPT, { workerData: data });
    const worker = this.#worker;
    this.#done = new Promise((resolve, reject) => {
      let planned: SearchPlanned | null = null;
      let names: string[] = [];
      worker.on('message', (m: SearchPlanned | number) => {
        if (typeof m === 'number') {
          for (const name of names) site.keep(name);
          return resolve({ meta: planned?.meta ?? null, written: m, ms: Date.now() - started });
        }
        try {
          planned = m;
          // Recorded before the thread writes them: a build stopped meanwhile leaves files the next one knows.
          names = m.files.filter(([name, signature]) => pages.claim(name, signature)).map(([name]) => name);
          site.plan(names);
          worker.postMessage(names);
        } catch (error) {
          reject(error);
        }
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`the search thread exited with ${code}`)));
    });
    // Awaited by the build once its pages are written; a failure before is not unhandled meanwhile.
    this.#done.catch(() => undefined);
  }

  /**
   * Settles once the thread's files are written (and the index's state kept), like `putSearchFiles`: what the
   * search page needs to find them (its state is kept already).
   */
  async finished(log: (msg: string) => void): Promise<{ meta: SearchIndex['meta']; save: () => void }> {
    const { meta, written, ms } = await this.#done;
    log(`report: ${written} files of the search index written by a thread of their own in ${ms} ms`);
    return { meta, save: () => undefined };
  }

  /** Stops the thread (once it is done, or when the build fails). */
  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}
