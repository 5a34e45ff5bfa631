import { type Cost, emptyUsage, type RereadsAfterCompaction, type SessionCost } from '@cctrail/core';
import { type CostTotals, type PriceTable, responseCost } from '@cctrail/core/archive';
import { isFailedSpawn } from '../agents/agents.js';
import { type Bar, barChartSvg } from '../charts/charts.js';
import { type BarUnit, type TimeBars, timeBars } from '../charts/time-bars.js';
import { type Figure, num, plural } from '../html/format.js';
import type { ManifestSession, SiteManifest } from '../site/site-model.js';
import { epochCosts } from './epoch-cost.js';
import { archiveReported, ownReported } from './reported-once.js';

/**
 * What things cost, as the pages show it: the index's totals, cost per day (an SVG drawn at build time), by
 * model and by project; a session's cost per epoch and Claude Code's own figure; what re-reading files after a
 * compaction cost. Every figure comes from the archive (core priced each API response once).
 */

/**
 * What `toLocaleString('en-US', …)` with these options formats with, made on first use (making one loads ICU's
 * data) and then kept: that call builds a formatter each time, and the index pages format thousands of costs.
 */
let usdFormat: Intl.NumberFormat | null = null;

/** Formats US dollars: `$1,234.56`, `$0.0042` below a cent, `$0.00` for nothing (as `cctrail stats` does). */
export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.01) return `$${usd.toFixed(4)}`;
  usdFormat ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `$${usdFormat.format(usd)}`;
}

/** A cost with its unpriced responses: `$1.20`, or `$1.20 + 2 without a price`. */
function costText(cost: Cost): string {
  return cost.unpriced > 0
    ? `${formatUsd(cost.usd)} + ${cost.unpriced} without a price`
    : formatUsd(cost.usd);
}

/** Which price table the costs of a page come from. */
export function priceTableText(table: PriceTable): string {
  return `Prices in US dollars from ${table.name} ${table.version} (${table.date}).`;
}

/** A row of a cost table. */
interface CostRow {
  label: string;
  usd: number;
  text: string;
  unpriced: number;
}

/** The index's cost section. */
export interface IndexCostView {
  total: Figure;
  /** Bars over the whole range, a bar per `unit`. */
  perDay: Bar[];
  unit: BarUnit;
  chart: string;
  byModel: CostRow[];
  byProject: CostRow[];
  unpricedModels: string[];
  /** The web searches' fee, billed apart from the cost above, or null when no response ran one. */
  webSearch: string | null;
  priceTable: string;
}

/**
 * The line about web searches: billed per search, apart from tokens, so a figure of its own (as `stats` prints
 * it), never added to the cost and never left out silently; null without any.
 */
function webSearchText(searches: CostTotals['webSearch']): string | null {
  if (!searches || searches.requests === 0) return null;
  const unpriced = searches.unpriced > 0 ? `, ${num(searches.unpriced)} of them without a price` : '';
  return `Web searches: ${plural(searches.requests, 'search', 'searches')}, fee ${formatUsd(searches.usd)}${unpriced} (billed per search, not in the cost above).`;
}

/**
 * The index's cost section, from the archive index's totals (null for an archive written without cost).
 *
 * @param m The site manifest.
 * @param maxBars Most bars before days are grouped into weeks or months.
 */
export function indexCostView(m: SiteManifest, maxBars?: number): IndexCostView | null {
  const cost = m.cost;
  if (!cost) return null;
  const { unit, bars: perDay } = costOverTime(cost, maxBars);
  const names = new Map<string, string>();
  for (const p of m.projects) if (p.folder !== null) names.set(p.folder, p.name);
  // Runs without their transcript, each counted once across files, at what their spawns report.
  const reported = archiveReported(m);
  const unpriced = cost.total.unpriced + reported.unpriced;
  return {
    total: {
      // "≥" in the label: a figure's box has no room for more beside the value on a phone
      label: reported.runs > 0 ? 'Cost ≥' : 'Cost',
      value: formatUsd(cost.total.usd + reported.usd),
      ...(unpriced > 0 ? { sub: `+ ${unpriced} without a price` } : {}),
      title: `US dollars, each API response counted once${reported.runs > 0 ? `, and ≥ ${formatUsd(reported.usd)} reported by the spawn result for ${plural(reported.runs, 'sub-agent')} without a transcript (their last responses: a lower bound)` : ''}; ${priceTableText(cost.priceTable)}`,
    },
    perDay,
    unit,
    chart: barChartSvg(perDay, { title: `Cost per ${unit} (USD)`, format: formatUsd }).value,
    byModel: rows(cost.byModel, (key) => key),
    byProject: rows(cost.byProject, (key) => names.get(key) ?? key),
    unpricedModels: cost.unpricedModels,
    webSearch: webSearchText(cost.webSearch),
    priceTable: priceTableText(cost.priceTable),
  };
}

/** Cost over time, the whole range between the first and the last day: a bar a day, a week or a month. */
function costOverTime(cost: CostTotals, maxBars?: number): TimeBars {
  const usd = new Map(Object.entries(cost.byDay).map(([day, c]) => [day, c.usd]));
  const unpriced = new Map(Object.entries(cost.byDay).map(([day, c]) => [day, c.unpriced]));
  return timeBars(
    usd,
    (label, value, days) => {
      const n = days.reduce((a, d) => a + (unpriced.get(d) ?? 0), 0);
      return `${label}: ${formatUsd(value)}${n > 0 ? ` + ${n} without a price` : ''}`;
    },
    maxBars,
  );
}

function rows(record: Record<string, Cost>, label: (key: string) => string): CostRow[] {
  return Object.entries(record)
    .map(([key, cost]) => ({
      label: label(key),
      usd: cost.usd,
      text: formatUsd(cost.usd),
      unpriced: cost.unpriced,
    }))
    .sort((a, b) => b.usd - a.usd || a.label.localeCompare(b.label));
}

/** The line about a session's sub-agents reported by their spawns, or null when it has none. */
function reportedText(s: ManifestSession): string | null {
  const { runs, usd } = ownReported(s);
  if (runs === 0) return null;
  const what = runs === 1 ? 'One sub-agent' : `${runs} sub-agents`;
  return `${what} without a transcript: ≥ ${formatUsd(usd)}, as reported by the spawn result (the last response of each run, priced at the spawning model: a lower bound), counted once in the figures above.`;
}

/** A row of the cost per epoch: the main thread's, its sub-agents' (runs spawned in it) and both. */
interface EpochCostRow extends CostRow {
  main: string;
  /** `—` when no sub-agent ran in the epoch; `≥ …` when a run's cost is reported by its spawn. */
  subAgents: string;
}

/** A session's cost section. */
export interface SessionCostView {
  total: Figure;
  /** Claude Code's own figure beside cctrail's, or null. */
  claudeCode: string | null;
  /** What the spawn results of sub-agents without their transcript report (counted in the figures), or null. */
  reported: string | null;
  /** The web searches' fee, billed apart from the cost above, or null when no response ran one. */
  webSearch: string | null;
  byEpoch: EpochCostRow[];
  /** The session ran sub-agents: cost per epoch has its main-thread and sub-agent columns. */
  split: boolean;
  priceTable: string;
}

/**
 * A session's cost: its figure, cost per epoch (main thread and sub-agents apart) and Claude Code's own figure
 * (null for a session file written without cost). Runs without their transcript are counted once, at what their
 * spawn's result reports, and their figures are marked as lower bounds ("≥").
 *
 * @param s The session of the manifest.
 */
export function sessionCostView(s: ManifestSession): SessionCostView | null {
  const cost = s.cost;
  if (!cost) return null;
  const reported = ownReported(s);
  const unpriced = cost.total.unpriced + reported.unpriced;
  const reportedTitle =
    reported.runs > 0
      ? `Includes ≥ ${formatUsd(reported.usd)} reported by the spawn result for ${plural(reported.runs, 'sub-agent')} without a transcript (their last responses: a lower bound). `
      : '';
  const epochs = epochCosts(s);
  return {
    total: {
      label: reported.runs > 0 ? 'Cost ≥' : 'Cost',
      value: formatUsd(cost.total.usd + reported.usd),
      ...(unpriced > 0 ? { sub: `+ ${unpriced} without a price` } : {}),
      title: `${reportedTitle}${priceTableText(cost.priceTable)}`,
    },
    claudeCode: cost.claudeCode
      ? `Claude Code's own figure: ${formatUsd(cost.claudeCode.usd)} (cctrail: ${formatUsd(cost.total.usd)}).`
      : null,
    reported: reportedText(s),
    webSearch: webSearchText(cost.webSearch),
    byEpoch: epochs.map((e) => {
      const both = { usd: e.main.usd + e.subAgents.usd, unpriced: e.main.unpriced + e.subAgents.unpriced };
      const mark = e.reported > 0 ? '≥ ' : '';
      return {
        label: `Epoch ${e.epoch + 1}`,
        usd: both.usd,
        text: `${mark}${costText(both)}`,
        unpriced: both.unpriced,
        main: costText(e.main),
        subAgents: e.runs > 0 ? `${mark}${costText(e.subAgents)}` : '—',
      };
    }),
    split: s.sidechains.some((c) => !isFailedSpawn(c)),
    priceTable: priceTableText(cost.priceTable),
  };
}

/**
 * What re-reading files after compactions cost, estimated: the re-read tokens priced as 5-minute cache writes
 * (the new context is written to the prompt cache once) of the session's costliest model, as of each compaction.
 * Null when the session has no cost or no model with a price.
 *
 * @param rereads The session's re-reads after each compaction.
 * @param cost The session's cost.
 */
export function rereadCostUsd(
  rereads: readonly RereadsAfterCompaction[],
  cost: SessionCost | null,
): number | null {
  if (!cost) return null;
  const model = Object.entries(cost.byModel).sort((a, b) => b[1].usd - a[1].usd)[0]?.[0];
  if (model === undefined) return null;
  let usd = 0;
  for (const r of rereads) {
    if (r.tokens === 0) continue;
    const usage = {
      ...emptyUsage(),
      cacheCreationInputTokens: r.tokens,
      cacheCreation5mTokens: r.tokens,
      responses: 1,
    };
    const price = responseCost(model, usage, r.timestamp);
    if (price === null) return null;
    usd += price;
  }
  return usd;
}
