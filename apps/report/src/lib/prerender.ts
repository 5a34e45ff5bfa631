import type { SiteManifest } from './manifest.js';
import type { PageProps } from './site.js';
import { allRoutes } from './site.js';
import { fragmentKey, hasFragment, transcriptFragment } from './views.js';

/**
 * Renders the transcript fragments of a set of sessions into the cache, so that Astro's page rendering
 * only reads them. `buildReport` runs this in worker threads, one share of the sessions each: this is where
 * a build spends its time (markdown, highlighting), and it is the part that runs in parallel.
 */

/** Sessions as `project/session` slug keys, split into `n` shares of about equal size (entries). */
export function shareSessions(m: SiteManifest, n: number): string[][] {
  const shares: { keys: string[]; weight: number }[] = Array.from({ length: Math.max(1, n) }, () => ({
    keys: [],
    weight: 0,
  }));
  const sessions = m.projects
    .flatMap((p) =>
      p.sessions.map((s) => ({ key: `${p.slug}/${s.slug}`, weight: 50 + (s.summary.entries ?? 0) })),
    )
    .sort((a, b) => b.weight - a.weight);
  for (const s of sessions) {
    const lightest = shares.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.keys.push(s.key);
    lightest.weight += s.weight;
  }
  return shares.map((s) => s.keys);
}

/** Renders (into the cache) every transcript page of the given sessions not cached yet; returns how many. */
export function prerenderSessions(m: SiteManifest, keys: readonly string[]): number {
  const wanted = new Set(keys);
  let pages = 0;
  for (const r of allRoutes(m)) {
    const p = r.props as PageProps;
    if (p.kind !== 'session' && p.kind !== 'sidechain' && p.kind !== 'branch') continue;
    if (!wanted.has(`${p.project}/${p.session}`)) continue;
    const project = m.projects.find((x) => x.slug === p.project);
    const session = project?.sessions.find((x) => x.slug === p.session);
    if (!project || !session) continue;
    const scope =
      p.kind === 'session'
        ? ({ kind: 'main' } as const)
        : p.kind === 'sidechain'
          ? ({ kind: 'sidechain', slug: p.sidechain } as const)
          : ({ kind: 'branch', index: p.branch } as const);
    if (hasFragment(m, fragmentKey(project.slug, session, scope, p.page))) continue;
    transcriptFragment(m, project.slug, session, scope, p.page, r.route);
    pages++;
  }
  return pages;
}
