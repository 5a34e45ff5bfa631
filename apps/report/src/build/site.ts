import { readFileSync, statSync } from 'node:fs';
import { agentsRoute, branchRoute, sessionRoute, sidechainRoute } from '../views/links.js';
import type {
  ManifestBranch,
  ManifestProject,
  ManifestSession,
  ManifestSidechain,
  SiteManifest,
} from './manifest.js';

/**
 * The site as a list of routes, read from the manifest that `buildReport` writes before it renders pages (its
 * path is in the `CCTRAIL_MANIFEST` environment variable). Pages look things up here by route and slug.
 */

/** Environment variable naming the manifest file. */
export const MANIFEST_ENV = 'CCTRAIL_MANIFEST';

let manifest: { stamp: string; value: SiteManifest } | null = null;

/**
 * The manifest of the current build, read again only when the file changes: several builds can run in one
 * process, and the site's modules may be kept from one build to the next.
 */
export function getManifest(): SiteManifest {
  const file = process.env[MANIFEST_ENV];
  if (!file) throw new Error(`${MANIFEST_ENV} is not set: the report site is built by buildReport()`);
  const st = statSync(file);
  const stamp = `${file}|${st.mtimeMs}|${st.size}`;
  if (manifest?.stamp !== stamp)
    manifest = { stamp, value: JSON.parse(readFileSync(file, 'utf8')) as SiteManifest };
  return manifest.value;
}

/** Forgets the manifest read (for tests and repeated builds in one process). */
export function resetManifest(): void {
  manifest = null;
}

/** What a generated page shows. */
export type PageProps =
  | { kind: 'session'; project: string; session: string; page: number }
  | { kind: 'sidechain'; project: string; session: string; sidechain: string; page: number }
  | { kind: 'branch'; project: string; session: string; branch: number; page: number }
  | { kind: 'agents' }
  | { kind: 'agent'; agentType: string }
  | { kind: 'search' };

/** A page with its route (folders ending in `/`). */
export interface SiteRoute {
  route: string;
  props: PageProps;
}

/**
 * Every page of the site except the index, in build order (pages of one session together). Only the pages of
 * the sessions in `only` (cache keys; default: the manifest's `render`, `null`: all) and the site-wide pages.
 */
export function allRoutes(m: SiteManifest, only: readonly string[] | null = m.render ?? null): SiteRoute[] {
  const routes: SiteRoute[] = [{ route: agentsRoute(), props: { kind: 'agents' } }];
  for (const a of m.agentTypes)
    routes.push({ route: agentsRoute(a.slug), props: { kind: 'agent', agentType: a.type } });
  routes.push({ route: 'search/', props: { kind: 'search' } });
  const render = only ? new Set(only) : null;
  for (const p of m.projects) {
    for (const s of p.sessions) {
      if (render && !render.has(s.key)) continue;
      for (let page = 1; page <= s.pages; page++)
        routes.push({
          route: sessionRoute(p.slug, s.slug, page),
          props: { kind: 'session', project: p.slug, session: s.slug, page },
        });
      for (const sc of s.sidechains) {
        for (let page = 1; page <= sc.pages; page++)
          routes.push({
            route: sidechainRoute(p.slug, s.slug, sc.slug, page),
            props: { kind: 'sidechain', project: p.slug, session: s.slug, sidechain: sc.slug, page },
          });
      }
      for (const b of s.branches) {
        const base = branchRoute(p.slug, s.slug, b.index);
        for (let page = 1; page <= b.pages; page++)
          routes.push({
            route: page > 1 ? `${base}p${page}/` : base,
            props: { kind: 'branch', project: p.slug, session: s.slug, branch: b.index, page },
          });
      }
    }
  }
  return routes;
}

const routeIndex = new WeakMap<SiteManifest, Map<string, PageProps>>();

/**
 * What the page at `route` (a folder ending in `/`) shows, or `undefined` when the site has no such page.
 * Every page of the manifest counts, also those of sessions this build does not render.
 */
export function pageAt(m: SiteManifest, route: string): PageProps | undefined {
  let index = routeIndex.get(m);
  if (!index) {
    index = new Map(allRoutes(m, null).map((r) => [r.route, r.props]));
    routeIndex.set(m, index);
  }
  return index.get(route);
}

/** Finds a project and session by slugs. */
export function findSession(
  m: SiteManifest,
  project: string,
  session: string,
): { project: ManifestProject; session: ManifestSession } {
  const p = m.projects.find((x) => x.slug === project);
  const s = p?.sessions.find((x) => x.slug === session);
  if (!p || !s) throw new Error(`no session ${project}/${session} in the manifest`);
  return { project: p, session: s };
}

/** Finds a sidechain of a session by slug. */
export function findSidechain(s: ManifestSession, slug: string): ManifestSidechain {
  const sc = s.sidechains.find((x) => x.slug === slug);
  if (!sc) throw new Error(`no sidechain ${slug} in session ${s.id}`);
  return sc;
}

/** Finds a branch of a session by index. */
export function findBranch(s: ManifestSession, index: number): ManifestBranch {
  const b = s.branches.find((x) => x.index === index);
  if (!b) throw new Error(`no branch ${index} in session ${s.id}`);
  return b;
}

/** A session's display title: its title, else its first prompt, else its id (one line, at most 120 chars). */
export function sessionTitle(s: {
  id: string;
  summary: { title: string | null; firstPrompt: string | null };
}): string {
  const t = (s.summary.title ?? s.summary.firstPrompt ?? '').replace(/\s+/g, ' ').trim();
  if (t === '') return s.id;
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}
