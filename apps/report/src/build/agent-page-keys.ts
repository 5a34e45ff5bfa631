import { createHash, type Hash } from 'node:crypto';
import { sessionTitle } from '@cctrail/core';
import { countedRuns } from '../views/agents/agent-table.js';
import { agentsRoute } from '../views/html/links.js';
import type { ManifestSession, SiteManifest } from '../views/site/site-model.js';
import { agentPagesCodeKey } from './code-keys.js';

/**
 * The keys of the agents' pages (the table of agent types and each type's runs): what each page is made from,
 * digested without making its view. A page is its view rendered by the site's bundle (its key), and its view
 * (`agentsPageView`, `agentPageView`, the code `agentPagesCodeKey` covers) is made of the site (its title,
 * generator and repository: the render plan's signature covers them with the pages' base), the
 * archive's price table, and the runs the archive counts (`countedRuns`: which it counts depends on which
 * sessions are duplicates): of each, the run as its session's part holds it, its route, its project's name, and
 * its session's slugs and title (all the pages show of the session). A rebuild keeps a page whose key did not change
 * (`planRender`): after a session changed, the pages of the agent types it has no runs of are the same, and so
 * are those of its types when its runs did not change.
 */

/**
 * The key of each agents' page of the manifest, by route.
 *
 * @param signature The render plan's site-wide signature (title, generator, base, agent types, projects,
 *   repository).
 * @param siteKey The key of the site's bundle, which draws the pages (`SiteBundle.key`).
 */
export function agentPageKeys(m: SiteManifest, signature: string, siteKey: string): Map<string, string> {
  const start = (route: string, agentType: string | null): Hash =>
    createHash('sha1')
      .update(
        JSON.stringify([
          signature,
          siteKey,
          agentPagesCodeKey(),
          route,
          agentType,
          m.cost?.priceTable ?? null,
        ]),
      )
      .update('\n');
  const all = { route: agentsRoute(), hash: start(agentsRoute(), null) };
  const byType = new Map<string, { route: string; hash: Hash }>();
  for (const a of m.agentTypes)
    if (!byType.has(a.type))
      byType.set(a.type, { route: agentsRoute(a.slug), hash: start(agentsRoute(a.slug), a.type) });
  const titles = new Map<ManifestSession, string>();
  for (const r of countedRuns(m)) {
    let title = titles.get(r.session);
    if (title === undefined) {
      title = sessionTitle({ ...r.session.summary, id: r.session.id });
      titles.set(r.session, title);
    }
    const line = `${JSON.stringify([r.sessionKey, title, r.route, r.project, r.duplicate, r.run])}\n`;
    all.hash.update(line);
    byType.get(r.run.agentType)?.hash.update(line);
  }
  return new Map([all, ...byType.values()].map(({ route, hash }) => [route, hash.digest('hex')]));
}
