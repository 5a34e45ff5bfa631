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
import { fragmentHtml, readFragment } from './fragments.js';

/**
 * The pages of a site and their view models (the pages' only data), in the order a build puts them: the index,
 * then every route of the manifest. A transcript page gets its fragment from the cache, its transcript's HTML
 * included, which the page renders in place (`set:html`); it is read for that page only, when its view is asked
 * for. The list is the same wherever it is made from the same manifest: the build's threads that render pages
 * (`page-threads.ts`) make their own and are handed page numbers.
 */

/** A page of the site: its route, its kind (for `--verbose`), and its view model, made when asked for. */
export interface SitePage {
  route: string;
  kind: string;
  view: () => PageView;
}

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

/**
 * The pages of the manifest a build renders (those of `manifest.render` when set, the index and site-wide pages
 * but those of `manifest.keptPages`), each written as `<route>index.html`.
 * @param cacheDir The build cache, where transcript pages' fragments are.
 */
export function pagesOf(manifest: SiteManifest, cacheDir: string): SitePage[] {
  const kept = new Set(manifest.keptPages);
  return [
    { route: '', kind: 'index', view: () => indexPageView(manifest) },
    ...allRoutes(manifest)
      .filter((r) => !kept.has(r.route))
      .map((r) => ({
        route: r.route,
        // A session's first page shows its overview; its other pages, like sidechains' and branches', a transcript.
        kind: r.props.kind === 'session' && r.props.page > 1 ? 'transcript' : r.props.kind,
        view: () => pageView(manifest, r, cacheDir),
      })),
  ];
}
