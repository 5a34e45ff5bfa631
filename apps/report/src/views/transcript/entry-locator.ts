import { activeEntries, branchEntries, childrenOf } from '@cctrail/core';
import { entryAnchor, sessionRoute, sidechainRoute } from '../html/links.js';
import type { Entry, Session } from '../model.js';
import { type Page, pageAt, transcriptPages } from './paginate.js';

/** Where an entry is shown: the route of its transcript page and its anchor there. */
export interface EntryPlace {
  route: string;
  anchor: string;
}

/**
 * Where every entry of a session is shown: on a page of the active path, of its sidechain, or of the first
 * abandoned branch holding it (null for an entry no transcript shows).
 *
 * @param session The session.
 * @param project Its project's slug.
 * @param slug Its slug.
 * @param sidechainSlugs Slug of each sidechain, by id.
 * @param branchRoute The route of a branch's (first) page, by its position in `Session.branches`: its own page
 *   or its page of alternatives (`branchPlace`).
 */
export function entryLocator(
  session: Session,
  project: string,
  slug: string,
  sidechainSlugs: ReadonlyMap<string, string>,
  branchRoute: (index: number) => string,
): (e: Entry) => EntryPlace | null {
  const activeList = activeEntries(session);
  const activePages = transcriptPages(activeList);
  const active = new Map<string, number>();
  for (const [i, e] of activeList.entries()) active.set(e.uuid, i);
  const bySidechain = new Map<string, Entry[]>();
  const sideIndex = new Map<string, number>();
  for (const e of session.entries) {
    if (!e.sidechain) continue;
    const list = bySidechain.get(e.sidechain) ?? [];
    sideIndex.set(e.uuid, list.length);
    list.push(e);
    bySidechain.set(e.sidechain, list);
  }
  const sidePages = new Map<string, Page[]>();
  for (const [id, list] of bySidechain) sidePages.set(id, transcriptPages(list));
  // Entry → (branch, position in the branch), for links to the right page of a long branch.
  const inBranch = new Map<string, { branch: number; index: number }>();
  const branchPages: Page[][] = [];
  const children = childrenOf(session.entries);
  session.branches.forEach((b, i) => {
    const list = branchEntries(session, b, children);
    branchPages.push(transcriptPages(list));
    list.forEach((e, index) => {
      if (!inBranch.has(e.uuid)) inBranch.set(e.uuid, { branch: i, index });
    });
  });
  return (e: Entry): EntryPlace | null => {
    const anchor = entryAnchor(e.uuid);
    const ai = active.get(e.uuid);
    if (ai !== undefined) return { route: sessionRoute(project, slug, pageAt(activePages, ai)), anchor };
    if (e.sidechain) {
      const sc = sidechainSlugs.get(e.sidechain);
      const page = pageAt(sidePages.get(e.sidechain) ?? [], sideIndex.get(e.uuid) ?? 0);
      return sc ? { route: sidechainRoute(project, slug, sc, page), anchor } : null;
    }
    const b = inBranch.get(e.uuid);
    if (!b) return null;
    const page = pageAt(branchPages[b.branch] ?? [], b.index);
    const base = branchRoute(b.branch);
    return { route: page > 1 ? `${base}p${page}/` : base, anchor };
  };
}
