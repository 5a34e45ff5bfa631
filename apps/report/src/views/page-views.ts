import { type Diagnostic, sessionTitle } from '@cctrail/core';
import { type ArchiveRun, agentTable, archiveRuns } from './agent-table.js';
import type { AgentTypeStats } from './agents.js';
import { type Bar, barChartSvg, compactionHistogram, tokensOverTime } from './charts.js';
import { type ConversationPageView, type SessionLinks, sessionLinks } from './conversation-view.js';
import {
  type IndexCostView,
  indexCostView,
  priceTableText,
  rereadCostUsd,
  type SessionCostView,
  sessionCostView,
} from './cost-view.js';
import type { Figure } from './format.js';
import { type IndexView, indexView } from './index-view.js';
import { branchRoute, pageHref, sessionRoute, sidechainRoute } from './links.js';
import { type PagerLink, pagerLinks } from './pager.js';
import { rereadTable } from './reread-table.js';
import { findBranch, findSession, findSidechain, sidechainById } from './routes.js';
import { sessionFigures } from './session-figures.js';
import {
  agentSlug,
  type ManifestBranch,
  type ManifestSession,
  type ManifestSidechain,
  type SiteManifest,
} from './site-model.js';
import { type SiteView, siteOf } from './site-view.js';
import { teammateHref, teammateOfView } from './teammate-view.js';
import type { BarUnit } from './time-bars.js';
import type { TranscriptFragment, TranscriptScope } from './transcript-fragment.js';

/**
 * The view model of every page: what its `.astro` component shows, computed from the site model and, for a
 * transcript page, its fragment. The build hands it to the page (`Astro.locals.view`); pages only render it.
 */

/** The index page. */
export interface IndexPageView {
  kind: 'index';
  site: SiteView;
  indexErrors: string[];
  /** Input paths the export did not read, with the reason. */
  skipped: Diagnostic[];
  index: IndexView;
  /** Tokens over the whole range of the archive, a bar per `unit`. */
  perDay: Bar[];
  unit: BarUnit;
  tokensChart: string;
  compactionChart: string;
  /** The cost section (null for an archive written without cost). */
  cost: IndexCostView | null;
}

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
  branches: (ManifestBranch & { href: string })[];
  pager: PagerLink[];
  /** HTML put where the transcript goes. */
  transcript: string;
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
  transcript: string;
}

/** The agents overview. */
export interface AgentsPageView {
  kind: 'agents';
  site: SiteView;
  route: string;
  rows: (AgentTypeStats & { href: string })[];
}

/** Every run of one agent type. */
export interface AgentPageView {
  kind: 'agent';
  site: SiteView;
  route: string;
  agentType: string;
  runs: (ArchiveRun & { href: string; sessionTitle: string })[];
  sessions: number;
  /** What its runs cost, in USD; of that, what the spawns of `reportedRuns` runs without a transcript report. */
  costUsd: number;
  reportedUsd: number;
  reportedRuns: number;
  /** Which price table the costs come from, null for an archive written without cost. */
  priceTable: string | null;
}

/** The search page. */
export interface SearchPageView {
  kind: 'search';
  site: SiteView;
  route: string;
}

/** The view model of any page. */
export type PageView =
  | IndexPageView
  | SessionPageView
  | TranscriptPageView
  | AgentsPageView
  | AgentPageView
  | SearchPageView
  | ConversationPageView;

/** The index page's view model. */
export function indexPageView(m: SiteManifest): IndexPageView {
  const summaries = m.projects.flatMap((p) => p.sessions.map((s) => s.summary));
  const { unit, bars: perDay } = tokensOverTime(summaries);
  return {
    kind: 'index',
    site: siteOf(m),
    indexErrors: m.indexErrors,
    skipped: m.skipped ?? [],
    index: indexView(m),
    perDay,
    unit,
    tokensChart: barChartSvg(perDay, { title: `Tokens per ${unit}` }).value,
    compactionChart: barChartSvg(compactionHistogram(summaries), {
      title: 'Sessions by number of compactions',
      integer: true,
    }).value,
    cost: indexCostView(m),
  };
}

/**
 * A session's first page.
 *
 * @param fragment Its fragment (main transcript, page 1).
 * @param transcript HTML put where the transcript goes.
 */
export function sessionPageView(
  m: SiteManifest,
  projectSlug: string,
  sessionSlug: string,
  route: string,
  fragment: TranscriptFragment,
  transcript: string,
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
    branches: s.branches.map((b) => ({ ...b, href: pageHref(route, branchRoute(p.slug, s.slug, b.index)) })),
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
  transcript: string,
): TranscriptPageView {
  const { project: p, session: s } = findSession(m, projectSlug, sessionSlug);
  const title = sessionTitle({ ...s.summary, id: s.id });
  const sc = scope.kind === 'sidechain' ? findSidechain(s, scope.slug) : null;
  const br = scope.kind === 'branch' ? findBranch(s, scope.index) : null;
  const count = sc ? sc.pages : br ? br.pages : s.pages;
  const routeOf = (n: number) =>
    sc
      ? sidechainRoute(p.slug, s.slug, sc.slug, n)
      : br
        ? n > 1
          ? `${branchRoute(p.slug, s.slug, br.index)}p${n}/`
          : branchRoute(p.slug, s.slug, br.index)
        : sessionRoute(p.slug, s.slug, n);
  const agentPage = sc ? agentSlug(m, sc.agentType) : null;
  const parent = sc?.parentSidechain ? sidechainById(s, sc.parentSidechain) : undefined;
  return {
    kind: 'transcript',
    site: siteOf(m),
    route,
    title,
    heading: sc ? `Sub-agent ${sc.agentType}` : br ? `Abandoned branch ${br.index + 1}` : title,
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

/** The agents overview. */
export function agentsPageView(m: SiteManifest, route: string): AgentsPageView {
  return {
    kind: 'agents',
    site: siteOf(m),
    route,
    rows: agentTable(m).map((a) => ({ ...a, href: pageHref(route, a.route) })),
  };
}

/** The page of one agent type: its runs, latest first. */
export function agentPageView(m: SiteManifest, agentType: string, route: string): AgentPageView {
  const runs = archiveRuns(m)
    .filter((r) => r.run.agentType === agentType && !r.duplicate)
    .sort((a, b) => (b.run.startedAt ?? '').localeCompare(a.run.startedAt ?? ''));
  return {
    kind: 'agent',
    site: siteOf(m),
    route,
    agentType,
    runs: runs.map((r) => ({
      ...r,
      href: pageHref(route, r.route),
      sessionTitle: sessionTitle({ ...r.session.summary, id: r.session.id }),
    })),
    sessions: new Set(runs.map((r) => r.sessionKey)).size,
    costUsd: runs.reduce((sum, r) => sum + r.run.cost.usd, 0),
    reportedUsd: runs.reduce((sum, r) => sum + (r.run.reported ? r.run.cost.usd : 0), 0),
    reportedRuns: runs.filter((r) => r.run.reported).length,
    priceTable: m.cost ? priceTableText(m.cost.priceTable) : null,
  };
}

/** The search page. */
export function searchPageView(m: SiteManifest, route: string): SearchPageView {
  return { kind: 'search', site: siteOf(m), route };
}
