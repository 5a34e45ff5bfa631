import { sidechainRoute } from '../html/links.js';
import { agentSlug, type ManifestSession, type SiteManifest } from '../site/site-model.js';
import { type AgentTypeStats, aggregateAgents, type LocatedRun } from './agents.js';

/** A run of the archive with where it happened. */
export type ArchiveRun = LocatedRun & { project: string; session: ManifestSession; route: string };

/** Every agent run of the archive with where it happened. */
export function archiveRuns(m: SiteManifest): ArchiveRun[] {
  return m.projects.flatMap((p) =>
    p.sessions.flatMap((s) =>
      s.sidechains.map((sc) => ({
        run: sc,
        sessionKey: `${p.slug}/${s.slug}`,
        duplicate: s.summary.duplicateOf !== null,
        project: p.name,
        session: s,
        route: sidechainRoute(p.slug, s.slug, sc.slug),
      })),
    ),
  );
}

/** Agent type statistics over the archive, with the route of each type's page. */
export function agentTable(m: SiteManifest): (AgentTypeStats & { route: string })[] {
  return aggregateAgents(archiveRuns(m)).map((a) => ({
    ...a,
    route: `agents/${agentSlug(m, a.agentType) ?? 'x'}/`,
  }));
}
