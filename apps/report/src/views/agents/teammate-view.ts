import { sessionTitle } from '@cctrail/core';
import { pageHref, sessionRoute, sidechainRoute } from '../html/links.js';
import type { ManifestSession, SiteManifest, SpawnTeammate } from '../site/site-model.js';

/**
 * Teammates written as their own session file (FORMAT.md §13.2): the archive's `teammates` links join a lead
 * session's named spawn to the teammate's file. The spawn's run takes its status and times from that file and
 * links to it; the teammate's session page names the session that spawned it. Tokens and cost stay with the
 * teammate's own session (never added to the lead's agents).
 */

/**
 * Applies the archive's teammate links to the manifest, in place: each linked spawn's run is `ran`, with the
 * teammate's status and times, and both sessions name each other. Links whose sessions are not listed are skipped.
 *
 * @param m The site manifest, with `teammates` from the index.
 */
export function applyTeammates(m: SiteManifest): void {
  for (const link of m.teammates ?? []) {
    const project = m.projects.find((p) => p.folder === link.project);
    const lead = project?.sessions.find((s) => s.id === link.lead);
    const mate = project?.sessions.find((s) => s.id === link.session);
    const run = lead?.sidechains.find((c) => c.id === link.sidechain);
    if (!project || !lead || !mate || !run) continue;
    run.status = link.status;
    run.outcome = 'ran';
    run.startedAt = link.startedAt;
    run.endedAt = link.endedAt;
    run.durationMs = link.durationMs;
    const named = { name: link.name, team: link.team, project: project.slug };
    run.teammate = { ...named, slug: mate.slug, session: mate.id, result: link.result };
    mate.teammateOf = { ...named, slug: lead.slug, session: lead.id, sidechain: run.slug };
  }
}

/**
 * The links a teammate's session page shows: the lead session and the spawn's agent page.
 *
 * @param m The site manifest.
 * @param s The session of the page.
 * @param route The page's route.
 */
export function teammateOfView(
  m: SiteManifest,
  s: ManifestSession,
  route: string,
): { name: string; team: string | null; leadHref: string; leadTitle: string; agentHref: string } | null {
  const of = s.teammateOf;
  if (!of) return null;
  const lead = m.projects.find((p) => p.slug === of.project)?.sessions.find((x) => x.slug === of.slug);
  return {
    name: of.name,
    team: of.team,
    leadHref: pageHref(route, sessionRoute(of.project, of.slug)),
    leadTitle: lead ? sessionTitle({ ...lead.summary, id: lead.id }) : of.session,
    agentHref: pageHref(route, sidechainRoute(of.project, of.slug, of.sidechain)),
  };
}

/**
 * The link from a spawn's run to its teammate's session page, or null when the run is no linked teammate.
 *
 * @param route The route of the page that links.
 */
export function teammateHref(run: { teammate?: SpawnTeammate }, route: string): string | null {
  return run.teammate ? pageHref(route, sessionRoute(run.teammate.project, run.teammate.slug)) : null;
}
