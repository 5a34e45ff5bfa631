import { sessionTitle } from '@cctrail/core';
import { teammateHref, teammateOfView } from '../agents/teammate-view.js';
import { type SessionLinks, sessionLinks } from '../conversations/conversation-view.js';
import { rereadCostUsd, type SessionCostView, sessionCostView } from '../figures/cost-view.js';
import { rereadTable } from '../figures/reread-table.js';
import { sessionFigures } from '../figures/session-figures.js';
import type { Figure } from '../html/format.js';
import { branchRoute, pageHref, sessionRoute, sidechainRoute } from '../html/links.js';
import type { TranscriptFragment, TranscriptScope } from '../transcript/transcript-fragment.js';
import { alternativesRoute, branchLayout, branchPlace } from './branch-places.js';
import { type PagerLink, pagerLinks } from './pager.js';
import { findBranch, findSession, findSidechain, sidechainById } from './routes.js';
import {
  agentSlug,
  type ManifestBranch,
  type ManifestSession,
  type ManifestSidechain,
  type SiteManifest,
} from './site-model.js';
import { type SiteView, siteOf } from './site-view.js';

/**
 * The view models of a session's pages, its first page and its transcript pages (`page-views.ts` has the
 * others): what `SessionPage.astro` and `TranscriptPage.astro` show, from the site model and the page's
 * transcript fragment, its HTML included.
 */

/** A session's first page; its links to its conversation and to the original it copies (`SessionLinks`). */
export interface SessionPageView extends SessionLinks {
  kind: 'session';
  site: SiteView;
  route: string;
  title: string;
  projectName: string;
  session: ManifestSession;
  figures: Figure[];
  /** Problems reading the session file, each once. */
  problems: string[];
  fragment: TranscriptFragment;
  rereadHtml: string;
  rereadTokens: number;
  /** What re-reading files after compactions cost, estimated; null without a price. */
  rereadUsd: number | null;
  /** The cost section (null for a session file written without cost). */
  cost: SessionCostView | null;
  sidechains: (ManifestSidechain & { href: string; teammateHref: string | null })[];
  /** The branches listed: the first `BRANCHES_LISTED`, then the long ones (each on a page of its own). */
  branches: (ManifestBranch & { href: string })[];
  /** The short branches not listed: how many, and where the first of them is among alternatives. */
  moreBranches: { count: number; href: string; pages: number } | null;
  pager: PagerLink[];
  /** The transcript's HTML as UTF-8 bytes (the fragment's, from the build cache), rendered in place. */
  transcript: Uint8Array;
  /** The session is a teammate's own file: who spawned it. */
  teammateOf: ReturnType<typeof teammateOfView>;
}

/** A later page of a session, a sidechain's transcript or an abandoned branch. */
export interface TranscriptPageView {
  kind: 'transcript';
  site: SiteView;
  route: string;
  title: string;
  heading: string;
  projectName: string;
  sessionHref: string;
  page: number;
  count: number;
  sidechain: ManifestSidechain | null;
  branch: ManifestBranch | null;
  agentHref: string | null;
  parent: { agentType: string; href: string } | null;
  /** On a sidechain's page: the call that spawned it, in its parent's transcript. */
  spawnHref: string | null;
  /** On an abandoned branch's page: its fork point in the conversation. */
  forkHref: string | null;
  /** On a named spawn's page: the teammate's own session, when it ran as its own file. */
  teammateHref: string | null;
  errors: string[];
  pager: PagerLink[];
  transcript: Uint8Array;
}

/** Most branches a session's page lists whatever their length (the pages of alternatives show every short one). */
const BRANCHES_LISTED = 100;

/** The branches a session's page lists, and the short ones it leaves to the pages of alternatives. */
function listedBranches(
  route: string,
  projectSlug: string,
  s: ManifestSession,
): Pick<SessionPageView, 'branches' | 'moreBranches'> {
  const layout = branchLayout(s.branches);
  const hrefOf = (index: number) => {
    const place = branchPlace(projectSlug, s, index);
    return pageHref(route, place.route, place.anchor ?? undefined);
  };
  const listed = s.branches.filter((b, i) => i < BRANCHES_LISTED || !layout.pageOf[b.index]);
  const unlisted = s.branches.length - listed.length;
  const first = s.branches.find((b, i) => i >= BRANCHES_LISTED && layout.pageOf[b.index]);
  return {
    branches: listed.map((b) => ({ ...b, href: hrefOf(b.index) })),
    moreBranches: first ? { count: unlisted, href: hrefOf(first.index), pages: layout.pages.length } : null,
  };
}

/**
 * A session's first page.
 *
 * @param fragment Its fragment (main transcript, page 1).
 * @param transcript The transcript's HTML (the fragment's).
 */
export function sessionPageView(
  m: SiteManifest,
  projectSlug: string,
  sessionSlug: string,
  route: string,
  fragment: TranscriptFragment,
  transcript: Uint8Array,
): SessionPageView {
  const { project: p, session: s } = findSession(m, projectSlug, sessionSlug);
  const cost = sessionCostView(s);
  return {
    kind: 'session',
    site: siteOf(m),
    route,
    title: sessionTitle({ ...s.summary, id: s.id }),
    projectName: p.name,
    session: s,
    figures: cost ? [...sessionFigures(s), cost.total] : sessionFigures(s),
    problems: [...new Set([...s.loadErrors, ...fragment.errors])],
    fragment,
    rereadHtml: rereadTable(fragment.rereads).value,
    rereadTokens: fragment.rereads.reduce((a, r) => a + r.tokens, 0),
    rereadUsd: rereadCostUsd(fragment.rereads, s.cost),
    cost,
    sidechains: s.sidechains.map((c) => ({
      ...c,
      href: pageHref(route, sidechainRoute(p.slug, s.slug, c.slug)),
      teammateHref: teammateHref(c, route),
    })),
    ...listedBranches(route, p.slug, s),
    pager: pagerLinks(route, 1, s.pages, (n) => sessionRoute(p.slug, s.slug, n)),
    transcript,
    ...sessionLinks(m, route, s.summary),
    teammateOf: teammateOfView(m, s, route),
  };
}

/** A transcript page other than a session's first (see `sessionPageView` for the parameters). */
export function transcriptPageView(
  m: SiteManifest,
  projectSlug: string,
  sessionSlug: string,
  scope: TranscriptScope,
  page: number,
  route: string,
  fragment: TranscriptFragment,
  transcript: Uint8Array,
): TranscriptPageView {
  const { project: p, session: s } = findSession(m, projectSlug, sessionSlug);
  const title = sessionTitle({ ...s.summary, id: s.id });
  const sc = scope.kind === 'sidechain' ? findSidechain(s, scope.slug) : null;
  const br = scope.kind === 'branch' ? findBranch(s, scope.index) : null;
  const alternatives = scope.kind === 'alternatives' ? branchLayout(s.branches).pages : null;
  const count = sc ? sc.pages : br ? br.pages : alternatives ? alternatives.length : s.pages;
  const routeOf = (n: number) =>
    sc
      ? sidechainRoute(p.slug, s.slug, sc.slug, n)
      : br
        ? n > 1
          ? `${branchRoute(p.slug, s.slug, br.index)}p${n}/`
          : branchRoute(p.slug, s.slug, br.index)
        : alternatives
          ? alternativesRoute(p.slug, s.slug, n)
          : sessionRoute(p.slug, s.slug, n);
  const shown = alternatives?.[page - 1] ?? [];
  const agentPage = sc ? agentSlug(m, sc.agentType) : null;
  const parent = sc?.parentSidechain ? sidechainById(s, sc.parentSidechain) : undefined;
  return {
    kind: 'transcript',
    site: siteOf(m),
    route,
    title,
    heading: sc
      ? `Sub-agent ${sc.agentType}`
      : br
        ? `Abandoned branch ${br.index + 1}`
        : alternatives
          ? `Abandoned branch${shown.length > 1 ? `es ${(shown[0] ?? 0) + 1}–` : ' '}${(shown.at(-1) ?? 0) + 1}`
          : title,
    projectName: p.name,
    sessionHref: pageHref(route, sessionRoute(p.slug, s.slug)),
    page,
    count,
    sidechain: sc,
    branch: br,
    agentHref: agentPage ? pageHref(route, `agents/${agentPage}/`) : null,
    parent: parent
      ? { agentType: parent.agentType, href: pageHref(route, sidechainRoute(p.slug, s.slug, parent.slug)) }
      : null,
    spawnHref: fragment.spawnHref ?? null,
    forkHref: fragment.forkHref ?? null,
    teammateHref: sc ? teammateHref(sc, route) : null,
    errors: fragment.errors,
    pager: pagerLinks(route, page, count, routeOf),
    transcript,
  };
}
