import { type Diagnostic, sessionTitle } from '@cctrail/core';
import { type ArchiveRun, agentTable, countedRuns } from '../agents/agent-table.js';
import type { AgentTypeStats } from '../agents/agents.js';
import { type Bar, barChartSvg, compactionHistogram, tokensOverTime } from '../charts/charts.js';
import type { BarUnit } from '../charts/time-bars.js';
import type { ConversationPageView } from '../conversations/conversation-view.js';
import { type IndexCostView, indexCostView, priceTableText } from '../figures/cost-view.js';
import { countedReported } from '../figures/reported-once.js';
import { pageHref } from '../html/links.js';
import { type IndexView, indexView } from './index-view.js';
import type { SessionPageView, TranscriptPageView } from './session-page-views.js';
import type { SiteManifest } from './site-model.js';
import { type SiteView, siteOf } from './site-view.js';

/**
 * The view model of every page: what its `.astro` component shows, computed from the site model; those of a
 * session's pages, which a build keeps across builds, are in `session-page-views.ts` (their modules make the
 * key of those pages' code, see `build/code-keys.ts`). The build hands it to the page (`Astro.locals.view`); pages only render it.
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
  const reported = new Map(
    [...countedReported(m)].map(([s, runs]) => [s.summary, runs.reduce((a, r) => a + r.tokens, 0)]),
  );
  const { unit, bars: perDay } = tokensOverTime(summaries, undefined, reported);
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
  const runs = countedRuns(m)
    .filter((r) => r.run.agentType === agentType)
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
