import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SiteManifest } from '../views/site/site-model.js';
import { filesUnder } from './files.js';
import { type PageThreads, threadsFor } from './page-threads.js';
import type { PageWriter } from './page-writer.js';
import { pagesOf } from './site-pages.js';
import { loadRenderer, type SiteBundle } from './site-server.js';

/**
 * Page rendering: the build computes each page's view model (`site-pages.ts`) and hands it to the site's
 * bundle, which renders the whole page to HTML in one call. A large site's pages are rendered by worker threads
 * (`page-threads.ts`), a small one's in this thread; either way they are put into the site here, one after the
 * other in the same order.
 */

/**
 * The files `renderPages` puts into the site: the site's public files, then every page as `<route>index.html`.
 */
export function renderedFiles(bundle: SiteBundle, manifest: SiteManifest): string[] {
  return [...filesUnder(bundle.assets), ...pagesOf(manifest, '').map((page) => `${page.route}index.html`)];
}

/**
 * Renders the pages of the manifest (`renderedFiles`) with the site's bundle and puts them, with the site's public
 * files, into the site through `site`: a large site's in `threads` (started now if they were not), a small one's
 * here (then `threads` are left as they are, for the caller to stop).
 */
export async function renderPages(
  bundle: SiteBundle,
  manifest: SiteManifest,
  site: PageWriter,
  cacheDir: string,
  threads: PageThreads,
  log: (msg: string) => void,
): Promise<void> {
  const started = Date.now();
  const pages = pagesOf(manifest, cacheDir);
  const wanted = threadsFor(pages.length);
  // Milliseconds and pages by kind of page (in threads: their rendering; here: rendering and writing).
  const kinds = new Map<string, { ms: number; n: number }>();
  const count = (name: string, ms: number) => {
    const kind = kinds.get(name) ?? { ms: 0, n: 0 };
    kind.ms += ms;
    kind.n++;
    kinds.set(name, kind);
  };
  for (const rel of filesUnder(bundle.assets)) site.put(rel, readFileSync(join(bundle.assets, rel)));
  let used = 1;
  let ahead = '';
  if (wanted > 1) {
    used = threads.size || wanted;
    const startedAt = threads.startedAt;
    if (startedAt !== null && startedAt < started)
      ahead = `; the threads started ${started - startedAt} ms before`;
    const work = { manifest, cacheDir, output: site.threadOutput() };
    await threads.render(bundle.entry, work, pages.length, wanted, (done) => {
      const page = pages[done.at]!;
      site.putRendered(`${page.route}index.html`, done);
      count(page.kind, done.ms);
    });
  } else {
    const renderPage = await loadRenderer(bundle.entry);
    let turned = Date.now();
    for (const page of pages) {
      // Rendering awaits only promises already settled: a turn of the event loop now and then lets a signal
      // (Ctrl-C) be handled while a site of a hundred thousand pages renders.
      if (Date.now() - turned > 50) {
        await new Promise((resolve) => setImmediate(resolve));
        turned = Date.now();
      }
      const at = performance.now();
      site.put(`${page.route}index.html`, await renderPage(page.route, { view: page.view() }));
      count(page.kind, performance.now() - at);
    }
  }
  const byKind = [...kinds].map(([k, { ms, n }]) => `${k} ${n} in ${Math.round(ms)} ms`).join(', ');
  log(
    `report: ${pages.length} pages rendered and written in ${Date.now() - started} ms by ${used} thread${used > 1 ? 's' : ''} (${byKind})${ahead}`,
  );
}
