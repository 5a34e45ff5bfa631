import { branchRoute, sessionRoute } from '../html/links.js';
import type { ManifestBranch, ManifestSession } from './site-model.js';

/**
 * Where each abandoned branch of a session is shown. A long branch has a page of its own (`branch/<n>/`); the
 * short ones (a retried response, a rewind that left a few entries) are shown together, in order, on the
 * session's pages of alternatives (`branches/`, `branches/p<n>/`), each under an anchor of its own. A session of
 * a hundred thousand retries thus has two thousand pages of alternatives, not a hundred thousand pages: the
 * number of pages is bounded by entries, not by forks.
 */

/** Most entries of a branch shown among alternatives (a longer one, or one of several pages, has its own page). */
const SHORT_BRANCH_ENTRIES = 30;
/** Most branches on one page of alternatives. */
const BRANCHES_PER_PAGE = 50;
/** Most entries on one page of alternatives (with `SHORT_BRANCH_ENTRIES`, below a transcript page's records). */
const ENTRIES_PER_PAGE = 600;

/** The layout of a session's branches. */
export interface BranchLayout {
  /** For each branch (by index): its page of alternatives (1-based), or 0 when it has a page of its own. */
  pageOf: Int32Array;
  /** The branch indices on each page of alternatives, in order. */
  pages: number[][];
}

/** Whether a branch is shown among alternatives rather than on a page of its own. */
function isShort(b: Pick<ManifestBranch, 'entries' | 'pages'>): boolean {
  return b.pages <= 1 && b.entries <= SHORT_BRANCH_ENTRIES;
}

/** Layouts by the branches they were computed from (a session's pages each ask for theirs). */
const layouts = new WeakMap<readonly ManifestBranch[], BranchLayout>();

/** The layout of a session's branches (computed once per session). */
export function branchLayout(branches: readonly ManifestBranch[]): BranchLayout {
  const known = layouts.get(branches);
  if (known) return known;
  const pageOf = new Int32Array(branches.length);
  const pages: number[][] = [];
  let page: number[] = [];
  let entries = 0;
  branches.forEach((b, i) => {
    if (!isShort(b)) return;
    if (page.length >= BRANCHES_PER_PAGE || (page.length > 0 && entries + b.entries > ENTRIES_PER_PAGE)) {
      pages.push(page);
      page = [];
      entries = 0;
    }
    page.push(i);
    entries += b.entries;
    pageOf[i] = pages.length + 1;
  });
  if (page.length > 0) pages.push(page);
  const layout = { pageOf, pages };
  layouts.set(branches, layout);
  return layout;
}

/** Route of a session's page of alternatives (1-based). */
export function alternativesRoute(project: string, session: string, page: number): string {
  const base = `${sessionRoute(project, session)}branches/`;
  return page > 1 ? `${base}p${page}/` : base;
}

/** Anchor of a branch on a page of alternatives (`index` is its position in `Session.branches`). */
export function branchAnchor(index: number): string {
  return `branch-${index + 1}`;
}

/** Where a branch is shown: the route of its page (its first page) and, among alternatives, its anchor. */
export function branchPlace(
  project: string,
  s: Pick<ManifestSession, 'slug' | 'branches'>,
  index: number,
): { route: string; anchor: string | null } {
  const page = branchLayout(s.branches).pageOf[index] ?? 0;
  return page > 0
    ? { route: alternativesRoute(project, s.slug, page), anchor: branchAnchor(index) }
    : { route: branchRoute(project, s.slug, index), anchor: null };
}
