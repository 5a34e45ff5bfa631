import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { PageDone, PageWork, PageWorkerData } from './page-threads.js';
import { signatureOf } from './page-writer.js';
import { pagesOf, type SitePage } from './site-pages.js';
import { loadRenderer } from './site-server.js';
import { SiteWriter } from './site-writer.js';

/**
 * Worker thread of `PageThreads`: loads the site's bundle as soon as it starts (the modules of its pages too),
 * then takes the manifest, makes the site's list of pages from it, and renders each page whose number it is
 * sent, one at a time in the order sent. It writes each page into the output folder through a writer of its own,
 * unless the folder holds it as the last build wrote it, and sends back its digest; given no output folder, it
 * sends back its bytes (moved, not copied) with their digest. It reads the build cache.
 */
const { entry } = workerData as PageWorkerData;
const renderPage = await loadRenderer(entry);
await loadPageModules(entry);
const port = parentPort;
let pages: SitePage[] = [];
let site: SiteWriter | null = null;
let known: Readonly<Record<string, string>> = {};

/**
 * Imports the modules of the bundle's pages, which its entry imports on a page's first rendering: the thread
 * loads them while it waits for the manifest. The entry of an Astro server bundle exports them as `pageMap`.
 */
async function loadPageModules(entry: string): Promise<void> {
  const { pageMap } = (await import(pathToFileURL(entry).href)) as { pageMap?: unknown };
  if (!(pageMap instanceof Map)) return;
  for (const load of pageMap.values()) if (typeof load === 'function') await load();
}

/**
 * Renders page `at` and starts writing it into the output folder, unless the folder holds it as it is (as
 * `PageWriter` decides for a page rendered in the main thread): what to send back once `writing` settles. Without
 * an output folder, its bytes go back in an `ArrayBuffer` of their own, to be moved to the main thread.
 */
async function render(at: number): Promise<{ done: PageDone; writing?: Promise<void> }> {
  const started = performance.now();
  const page = pages[at];
  if (!page) throw new Error(`no page ${at} in a site of ${pages.length}`);
  const html = await renderPage(page.route, { view: page.view() });
  const signature = signatureOf(html);
  const ms = performance.now() - started;
  if (site === null) {
    const bytes = html.byteOffset === 0 && html.byteLength === html.buffer.byteLength ? html : html.slice();
    return { done: { at, bytes, signature, ms } };
  }
  const rel = `${page.route}index.html`;
  const written = known[rel] !== signature || !site.hasFile(rel);
  return { done: { at, written, signature, ms }, ...(written ? { writing: site.writeSoon(rel, html) } : {}) };
}

let queue: Promise<unknown> = Promise.resolve();
port?.on('message', (m: number | PageWork) => {
  if (typeof m !== 'number') {
    pages = pagesOf(m.manifest, m.cacheDir);
    site = m.output ? new SiteWriter(m.output.outDir) : null;
    known = m.output?.known ?? {};
    return;
  }
  const failed = (error: unknown) => port.postMessage({ at: m, error });
  // The next page is rendered while this one is written; it is reported once written.
  queue = queue.then(() =>
    render(m).then(({ done, writing }) => {
      const send = () => port.postMessage(done, done.bytes ? [done.bytes.buffer as ArrayBuffer] : []);
      if (writing) writing.then(send, failed);
      else send();
    }, failed),
  );
});
