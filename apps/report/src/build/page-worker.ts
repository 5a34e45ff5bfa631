import { parentPort, workerData } from 'node:worker_threads';
import type { PageDone, PageWorkerData } from './page-threads.js';
import { signatureOf } from './page-writer.js';
import { pagesOf } from './site-pages.js';
import { loadRenderer } from './site-server.js';

/**
 * Worker thread of `renderInThreads`: loads the site's bundle once, makes the site's list of pages from the
 * manifest, then renders each page whose number it is sent, one at a time in the order sent, and sends back its
 * bytes (moved, not copied) with their digest. It reads the build cache and writes nothing.
 */
const { entry, manifest, cacheDir } = workerData as PageWorkerData;
const renderPage = await loadRenderer(entry);
const pages = pagesOf(manifest, cacheDir);
const port = parentPort;

/** Renders page `at`: its bytes in an `ArrayBuffer` of their own, to be moved to the main thread. */
async function render(at: number): Promise<PageDone> {
  const started = performance.now();
  const page = pages[at];
  if (!page) throw new Error(`no page ${at} in a site of ${pages.length}`);
  const html = await renderPage(page.route, { view: page.view() });
  const bytes = html.byteOffset === 0 && html.byteLength === html.buffer.byteLength ? html : html.slice();
  return { at, bytes, signature: signatureOf(bytes), ms: performance.now() - started };
}

let queue: Promise<unknown> = Promise.resolve();
port?.on('message', (at: number) => {
  queue = queue.then(() =>
    render(at).then(
      (done) => port.postMessage(done, [done.bytes.buffer as ArrayBuffer]),
      (error: unknown) => port.postMessage({ at, error }),
    ),
  );
});
