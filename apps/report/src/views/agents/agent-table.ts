import { runsOnce } from '@cctrail/core/archive';
import { sidechainRoute } from '../html/links.js';
import { agentSlug, type ManifestSession, type SiteManifest } from '../site/site-model.js';
import { type AgentTypeStats, aggregateAgents, type LocatedRun } from './agents.js';

/** A run of the archive with where it happened. */
export type ArchiveRun = LocatedRun & { project: string; session: ManifestSession; route: string };

/**
 * The runs of the archive as its totals count them (core's `runsOnce`, as `cctrail stats` does): a run that several
 * files list (a continued session repeats its spawn) once, where a file holds its transcript if any does; none
 * of a duplicate copy but a transcript it holds.
 */
export function countedRuns(m: SiteManifest): ArchiveRun[] {
  const files = m.projects.flatMap((p) =>
    p.sessions.map((s) => ({
      scope: p.folder ?? p.id,
      counted: s.summary.duplicateOf === null,
      runs: s.sidechains.map((sc) => ({
        id: sc.id,
        entries: sc.entries,
        at: {
          run: sc,
          sessionKey: `${p.slug}/${s.slug}`,
          duplicate: false,
          project: p.name,
          session: s,
          route: sidechainRoute(p.slug, s.slug, sc.slug),
        },
      })),
    })),
  );
  return runsOnce(files).flatMap((runs) => runs.map((r) => r.at));
}

/** Agent type statistics over the archive (each run once, `countedRuns`), with the route of each type's page. */
export function agentTable(m: SiteManifest): (AgentTypeStats & { route: string })[] {
  return aggregateAgents(countedRuns(m)).map((a) => ({
    ...a,
    route: `agents/${agentSlug(m, a.agentType) ?? 'x'}/`,
  }));
}
