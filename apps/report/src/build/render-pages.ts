import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { conversationPageView } from '../views/conversations/conversation-view.js';
import {
  agentPageView,
  agentsPageView,
  indexPageView,
  type PageView,
  searchPageView,
} from '../views/site/page-views.js';
import { allRoutes, findSession, type SiteRoute } from '../views/site/routes.js';
import { sessionPageView, transcriptPageView } from '../views/site/session-page-views.js';
import type { SiteManifest } from '../views/site/site-model.js';
import { fragmentKey, scopeOf } from '../views/transcript/transcript-fragment.js';
import { filesUnder } from './files.js';
import { fragmentHtml, readFragment } from './fragments.js';
import type { PageWriter } from './page-writer.js';
import { loadRenderer, type SiteBundle } from './site-server.js';

/**
 * Page rendering: the build computes each page's view model (the pages' only data) and hands it to the site's
 * bundle, which renders the whole page to HTML in one call. A transcript page gets its fragment from the cache,
 * its transcript's HTML included, which the page renders in place (`set:html`); it is read for that page only,
 * and let go once the page is written.
 */

/** The view model of the page at a route of the manifest. */
function pageView(m: SiteManifest, r: SiteRoute, cacheDir: string): PageView {
  const p = r.props;
  if (p.kind === 'agents') return agentsPageView(m, r.route);
  if (p.kind === 'agent') return agentPageView(m, p.agentType, r.route);
  if (p.kind === 'search') return searchPageView(m, r.route);
  if (p.kind === 'conversation') return conversationPageView(m, p.conversation, r.route);
  const at = scopeOf(p);
  if (!at) throw new Error(`no view for the page at ${r.route}`);
  const { project, session } = findSession(m, p.project, p.session);
  const fragment = readFragment(cacheDir, fragmentKey(project.slug, session, at.scope, at.page));
  const transcript = fragmentHtml(cacheDir, fragment.key, session.file);
  return at.scope.kind === 'main' && at.page === 1
    ? sessionPageView(m, p.project, p.session, r.route, fragment, transcript)
    : transcriptPageView(m, p.project, p.session, at.scope, at.page, r.route, fragment, transcript);
}

/** The pages of the manifest a build renders (those of `manifest.render` when set, the index and site-wide pages always). */
function pagesOf(
  manifest: SiteManifest,
  cacheDir: string,
): { route: string; kind: string; view: () => PageView }[] {
  return [
    { route: '', kind: 'index', view: () => indexPageView(manifest) },
    ...allRoutes(manifest).map((r) => ({
      route: r.route,
      // A session's first page shows its overview; its other pages, like sidechains' and branches', a transcript.
      kind: r.props.kind === 'session' && r.props.page > 1 ? 'transcript' : r.props.kind,
      view: () => pageView(manifest, r, cacheDir),
    })),
  ];
}

/**
 * The files `renderPages` puts into the site: the site's public files, then every page as `<route>index.html`.
 */
export function renderedFiles(bundle: SiteBundle, manifest: SiteManifest): string[] {
  return [...filesUnder(bundle.assets), ...pagesOf(manifest, '').map((page) => `${page.route}index.html`)];
}

/**
 * Renders the pages of the manifest (`renderedFiles`) with the site's bundle and puts them, with the site's public
 * files, into the site through `site`.
 */
export async function renderPages(
  bundle: SiteBundle,
  manifest: SiteManifest,
  site: PageWriter,
  cacheDir: string,
  log: (msg: string) => void,
): Promise<void> {
  const started = Date.now();
  const renderPage = await loadRenderer(bundle.entry);
  for (const rel of filesUnder(bundle.assets)) site.put(rel, readFileSync(join(bundle.assets, rel)));
  const pages = pagesOf(manifest, cacheDir);
  // Milliseconds and pages by kind of page, rendering and writing, for `--verbose`.
  const kinds = new Map<string, { ms: number; n: number }>();
  let turned = Date.now();
  for (const page of pages) {
    // Rendering awaits only promises already settled: a turn of the event loop now and then lets a signal
    // (Ctrl-C) be handled while a site of a hundred thousand pages renders.
    if (Date.now() - turned > 50) {
      await new Promise((resolve) => setImmediate(resolve));
      turned = Date.now();
    }
    const at = performance.now();
    const html = await renderPage(page.route, { view: page.view() });
    site.put(`${page.route}index.html`, html);
    const kind = kinds.get(page.kind) ?? { ms: 0, n: 0 };
    kind.ms += performance.now() - at;
    kind.n++;
    kinds.set(page.kind, kind);
  }
  const byKind = [...kinds].map(([k, { ms, n }]) => `${k} ${n} in ${Math.round(ms)} ms`).join(', ');
  log(`report: ${pages.length} pages rendered and written in ${Date.now() - started} ms (${byKind})`);
}
