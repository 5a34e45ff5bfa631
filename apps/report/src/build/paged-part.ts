import { entryAnchor, sessionRoute, sidechainRoute } from '../views/html/links.js';
import type { Entry, Session } from '../views/model.js';
import { branchPlace } from '../views/site/branch-places.js';
import { type CachedPart, summarizeSession } from '../views/site/session-part.js';
import type { ManifestSession } from '../views/site/site-model.js';
import { type EntryPlace, entryLocator } from '../views/transcript/entry-locator.js';
import { type Page, pageAt } from '../views/transcript/paginate.js';
import type { PagedIndex } from './paged-read.js';

/**
 * What the site model and links need of a session read page by page (`paged-read.ts`): its part, from its
 * header and the marks of its entries (the figures `summarizeSession` computes from a loaded session), and where
 * each entry it holds is shown.
 */

/** The pages of each transcript of a session read page by page. */
export interface PagedPages {
  main: Page[];
  sidechains: Map<string, Page[]>;
}

/** The pages of the active path and of each sidechain, from their marks. */
export function pagedPages(index: PagedIndex): PagedPages {
  const sidechains = new Map<string, Page[]>();
  for (const [id, marks] of index.sidechains) sidechains.set(id, marks.pages());
  return { main: index.main.pages(), sidechains };
}

/**
 * The part of a session read page by page.
 *
 * @param session Its header, whose `entries` hold the entries of abandoned branches and those looked up by uuid.
 */
export function pagedPart(session: Session, index: PagedIndex, pages: PagedPages): CachedPart {
  return summarizeSession(session, {
    activeEntries: index.main.count,
    activePages: pages.main.length,
    sidechainPages: (id) => pages.sidechains.get(id)?.length ?? 1,
  });
}

/**
 * Where an entry of a session read page by page is shown: on the active path or in a sidechain by the place the
 * second read noted, in an abandoned branch as `entryLocator` finds it among the entries held.
 */
export function pagedLocator(
  session: Session,
  index: PagedIndex,
  pages: PagedPages,
  projectSlug: string,
  s: ManifestSession,
): (e: Entry) => EntryPlace | null {
  const slugs = new Map(s.sidechains.map((c) => [c.id, c.slug]));
  let inBranches: ((e: Entry) => EntryPlace | null) | null = null;
  return (e) => {
    const place = index.places.get(e.uuid);
    if (!place) {
      if (e.active || e.sidechain !== null) return null;
      inBranches ??= entryLocator(
        session,
        projectSlug,
        s.slug,
        slugs,
        (i) => branchPlace(projectSlug, s, i).route,
      );
      return inBranches(e);
    }
    const anchor = entryAnchor(e.uuid);
    if (place.sidechain === null)
      return { route: sessionRoute(projectSlug, s.slug, pageAt(pages.main, place.index)), anchor };
    const slug = slugs.get(place.sidechain);
    const page = pageAt(pages.sidechains.get(place.sidechain) ?? [], place.index);
    return slug ? { route: sidechainRoute(projectSlug, s.slug, slug, page), anchor } : null;
  };
}
