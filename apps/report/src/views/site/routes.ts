import { conversationRoute } from '../conversations/conversation-view.js';
import { agentsRoute, branchRoute, sessionRoute, sidechainRoute } from '../html/links.js';
import { alternativesRoute, branchLayout } from './branch-places.js';
import type { ManifestBranch, ManifestSession, ManifestSidechain, SiteManifest } from './site-model.js';

/** The site as a list of routes: what each page shows, and lookups of the site model by slug. */

/** What a generated page shows. */
export type PageProps =
  | { kind: 'session'; project: string; session: string; page: number }
  | { kind: 'sidechain'; project: string; session: string; sidechain: string; page: number }
  | { kind: 'branch'; project: string; session: string; branch: number; page: number }
  | { kind: 'branches'; project: string; session: string; page: number }
  | { kind: 'agents' }
  | { kind: 'agent'; agentType: string }
  | { kind: 'search' }
  | { kind: 'conversation'; conversation: string };

/** A page with its route (folders ending in `/`). */
export interface SiteRoute {
  route: string;
  props: PageProps;
}

/**
 * The transcript pages of one session: its own pages, then each sidechain's, then each long abandoned branch's,
 * then its pages of alternatives (the short branches, `branch-places.ts`).
 */
export function sessionRoutes(projectSlug: string, s: ManifestSession): SiteRoute[] {
  const routes: SiteRoute[] = [];
  for (let page = 1; page <= s.pages; page++)
    routes.push({
      route: sessionRoute(projectSlug, s.slug, page),
      props: { kind: 'session', project: projectSlug, session: s.slug, page },
    });
  for (const sc of s.sidechains) {
    for (let page = 1; page <= sc.pages; page++)
      routes.push({
        route: sidechainRoute(projectSlug, s.slug, sc.slug, page),
        props: { kind: 'sidechain', project: projectSlug, session: s.slug, sidechain: sc.slug, page },
      });
  }
  const layout = branchLayout(s.branches);
  for (const b of s.branches) {
    if (layout.pageOf[b.index]) continue;
    const base = branchRoute(projectSlug, s.slug, b.index);
    for (let page = 1; page <= b.pages; page++)
      routes.push({
        route: page > 1 ? `${base}p${page}/` : base,
        props: { kind: 'branch', project: projectSlug, session: s.slug, branch: b.index, page },
      });
  }
  for (let page = 1; page <= layout.pages.length; page++)
    routes.push({
      route: alternativesRoute(projectSlug, s.slug, page),
      props: { kind: 'branches', project: projectSlug, session: s.slug, page },
    });
  return routes;
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
  for (const c of m.conversations ?? [])
    routes.push({ route: conversationRoute(c.id), props: { kind: 'conversation', conversation: c.id } });
  const render = only ? new Set(only) : null;
  for (const p of m.projects) {
    for (const s of p.sessions) {
      if (render && !render.has(s.key)) continue;
      routes.push(...sessionRoutes(p.slug, s));
    }
  }
  return routes;
}

/** Sessions of a manifest by project and session slug (built once: a page of each session looks its own up). */
const sessionMaps = new WeakMap<
  SiteManifest,
  Map<string, { project: SiteManifest['projects'][number]; session: ManifestSession }>
>();

/** Finds a project and session by slugs. */
export function findSession(
  m: SiteManifest,
  project: string,
  session: string,
): { project: SiteManifest['projects'][number]; session: ManifestSession } {
  let bySlug = sessionMaps.get(m);
  if (!bySlug) {
    bySlug = new Map();
    for (const x of m.projects)
      for (const y of x.sessions) {
        const key = `${x.slug}\0${y.slug}`;
        if (!bySlug.has(key)) bySlug.set(key, { project: x, session: y });
      }
    sessionMaps.set(m, bySlug);
  }
  const found = bySlug.get(`${project}\0${session}`);
  // A manifest changed since its map was built is searched as before.
  const p = found?.project ?? m.projects.find((x) => x.slug === project);
  const s = found?.session ?? p?.sessions.find((x) => x.slug === session);
  if (!p || !s) throw new Error(`no session ${project}/${session} in the manifest`);
  return { project: p, session: s };
}

/** Sidechains of a session by slug and by id (built once per session: a session may have thousands). */
const sidechainMaps = new WeakMap<
  ManifestSession,
  { bySlug: Map<string, ManifestSidechain>; byId: Map<string, ManifestSidechain> }
>();
function sidechainMapsOf(s: ManifestSession) {
  let maps = sidechainMaps.get(s);
  if (!maps) {
    maps = {
      bySlug: new Map(s.sidechains.map((c) => [c.slug, c])),
      byId: new Map(s.sidechains.map((c) => [c.id, c])),
    };
    sidechainMaps.set(s, maps);
  }
  return maps;
}

/** A sidechain of a session by id, if it has one. */
export function sidechainById(s: ManifestSession, id: string): ManifestSidechain | undefined {
  return sidechainMapsOf(s).byId.get(id);
}

/** Finds a sidechain of a session by slug. */
export function findSidechain(s: ManifestSession, slug: string): ManifestSidechain {
  const sc = sidechainMapsOf(s).bySlug.get(slug);
  if (!sc) throw new Error(`no sidechain ${slug} in session ${s.id}`);
  return sc;
}

/** Branches of a session by index (built once per session: a session may have a hundred thousand forks). */
const branchMaps = new WeakMap<ManifestSession, Map<number, ManifestBranch>>();

/** Finds a branch of a session by index. */
export function findBranch(s: ManifestSession, index: number): ManifestBranch {
  let byIndex = branchMaps.get(s);
  if (!byIndex) {
    byIndex = new Map();
    for (const x of s.branches) if (!byIndex.has(x.index)) byIndex.set(x.index, x);
    branchMaps.set(s, byIndex);
  }
  const b = byIndex.get(index) ?? s.branches.find((x) => x.index === index);
  if (!b) throw new Error(`no branch ${index} in session ${s.id}`);
  return b;
}
