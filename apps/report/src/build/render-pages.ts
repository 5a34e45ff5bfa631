import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { conversationPageView } from '../views/conversation-view.js';
import {
  agentPageView,
  agentsPageView,
  indexPageView,
  type PageView,
  searchPageView,
  sessionPageView,
  transcriptPageView,
} from '../views/page-views.js';
import { allRoutes, findSession, type SiteRoute } from '../views/routes.js';
import type { SiteManifest } from '../views/site-model.js';
import { fragmentKey, scopeOf } from '../views/transcript-fragment.js';
import { fragmentMarker } from './assemble.js';
import { readFragment } from './fragments.js';
import { loadRenderer, type SiteBundle } from './site-server.js';

/**
 * Page rendering: the build computes each page's view model (the pages' only data) and hands it to the site's
 * bundle, which renders it to HTML. A transcript page gets its fragment from the cache, its transcript as a
 * marker that `assembleSite` fills in.
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
  const transcript = fragmentMarker(fragment.key);
  return at.scope.kind === 'main' && at.page === 1
    ? sessionPageView(m, p.project, p.session, r.route, fragment, transcript)
    : transcriptPageView(m, p.project, p.session, at.scope, at.page, r.route, fragment, transcript);
}

/**
 * Renders the pages of the manifest (those of `manifest.render` when set, the index and site-wide pages always)
 * with the site's bundle into `stage`, as `<route>index.html`, with the site's public files beside them.
 */
export async function renderPages(
  bundle: SiteBundle,
  manifest: SiteManifest,
  stage: string,
  cacheDir: string,
  log: (msg: string) => void,
): Promise<void> {
  const started = Date.now();
  const renderPage = await loadRenderer(bundle.entry);
  cpSync(bundle.assets, stage, { recursive: true });
  const routes = allRoutes(manifest);
  const pages: { route: string; view: () => PageView }[] = [
    { route: '', view: () => indexPageView(manifest) },
    ...routes.map((r) => ({ route: r.route, view: () => pageView(manifest, r, cacheDir) })),
  ];
  let turned = Date.now();
  for (const page of pages) {
    // Rendering awaits only promises already settled: a turn of the event loop now and then lets a signal
    // (Ctrl-C) be handled while a site of a hundred thousand pages renders.
    if (Date.now() - turned > 50) {
      await new Promise((resolve) => setImmediate(resolve));
      turned = Date.now();
    }
    const html = await renderPage(page.route, { view: page.view() });
    const file = join(stage, page.route, 'index.html');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
  }
  log(`report: ${pages.length} pages rendered in ${Date.now() - started} ms`);
}
