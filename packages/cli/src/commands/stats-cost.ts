import type { Cost } from '@cctrail/core';
import { type ArchiveStats, apiCost, type PriceTable } from '@cctrail/core/archive';
import { plural } from '../terminal/diagnostic-output.js';
import {
  formatCount,
  formatShare,
  formatTokens,
  printable,
  type Style,
  table,
} from '../terminal/terminal.js';
import type { CostBreakdown } from './stats-by.js';

/** Formats US dollars: `$1,234.56`, `$0.0042` below a cent, `$0.00` for nothing. */
function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A cost for a table cell: the dollars, and how many responses had no price (`$1.20 +2?`). */
export function costCell(cost: Cost): string {
  return cost.unpriced > 0 ? `${formatUsd(cost.usd)} +${cost.unpriced}?` : formatUsd(cost.usd);
}

/** The line that says which price table a cost comes from. */
function priceTableLine(priceTable: PriceTable): string {
  return `prices: ${priceTable.name} ${priceTable.version} (${priceTable.date}), USD`;
}

/**
 * The totals' cost lines: what everything cost, what had no price, the web searches' fee (apart), and the price
 * table.
 *
 * @param stats From `combineStats`.
 */
export function costLines(stats: ArchiveStats): string[] {
  const { total, unpricedModels, priceTable } = stats.cost;
  const claudeCode = stats.sessions.filter((s) => s.claudeCodeCostUsd !== null && s.duplicateOf === null);
  const reported = stats.totals.reportedBySpawn;
  // Responses without a price; the reported runs without one are said on their own line.
  const unpriced = total.unpriced - (reported?.cost.unpriced ?? 0);
  const lines = [
    `  cost: ${reported ? '≥ ' : ''}${formatUsd(total.usd)}` +
      (unpriced > 0
        ? ` + ${plural(unpriced, 'API response')} without a price (${unpricedModels.map(printable).join(', ')})`
        : ''),
  ];
  if (reported)
    lines.push(
      `    of which ${plural(reported.runs, 'sub-agent run')} without a transcript, as reported by the spawn result ` +
        `(the last response of each, priced at its spawning model: a lower bound): ≥ ${costCell(reported.cost)}, ` +
        `≥ ${formatTokens(reported.tokens)} tokens, ${plural(reported.toolUses, 'tool use')}`,
    );
  const searches = stats.cost.webSearch;
  if (searches) {
    // Billed per search, apart from tokens: a figure of its own, never added to the cost above.
    const unpriced =
      searches.unpriced > 0 ? `, ${formatCount(searches.unpriced)} of them without a price` : '';
    lines.push(
      `  web searches: ${formatCount(searches.requests)}, fee ${formatUsd(searches.usd)}${unpriced} (not in the cost above)`,
    );
  }
  if (claudeCode.length > 0) {
    const theirs = claudeCode.reduce((sum, s) => sum + (s.claudeCodeCostUsd ?? 0), 0);
    const ours = claudeCode.reduce((sum, s) => sum + apiCost(s).usd, 0);
    lines.push(
      `  Claude Code's own figure for ${plural(claudeCode.length, 'session')}: ${formatUsd(theirs)} (cctrail: ${formatUsd(ours)})`,
    );
  }
  lines.push(`  ${priceTableLine(priceTable)}`);
  return lines;
}

/**
 * The tokens and cost cells of a row (a session, a sidechain, an agent type): `≥` when some of it is what the
 * spawns of runs without a transcript report.
 */
export function figureCells(row: {
  tokens: number;
  cost: Cost;
  reported?: unknown;
  reportedBySpawn?: unknown;
}): [string, string] {
  const mark = row.reported !== undefined || row.reportedBySpawn !== undefined ? '≥ ' : '';
  return [`${mark}${formatTokens(row.tokens)}`, `${mark}${costCell(row.cost)}`];
}

/**
 * The cost broken down by UTC day, model, project or agent type, as a table.
 *
 * @param stats From `combineStats`.
 * @param by The breakdown.
 * @param style Colors (or none).
 */
export function renderCostBreakdown(stats: ArchiveStats, by: CostBreakdown, style: Style): string {
  const rows = breakdownRows(stats, by);
  const total = stats.cost.total.usd;
  const body =
    rows.length === 0
      ? '  none'
      : table(
          [by === 'agent' ? 'agent type' : by, 'cost', 'share', 'without a price'],
          rows.map(([key, cost]) => [
            printable(key),
            formatUsd(cost.usd),
            formatShare(total > 0 ? cost.usd / total : 0),
            cost.unpriced > 0 ? style.yellow(String(cost.unpriced)) : '',
          ]),
          ['left', 'right', 'right', 'right'],
        );
  return [style.bold(`Cost by ${by}`), body, `  ${priceTableLine(stats.cost.priceTable)}`].join('\n');
}

function breakdownRows(stats: ArchiveStats, by: CostBreakdown): [string, Cost][] {
  if (by === 'agent') {
    const main = { usd: stats.cost.total.usd, unpriced: stats.cost.total.unpriced };
    for (const agent of stats.agents) {
      main.usd -= agent.cost.usd;
      main.unpriced -= agent.cost.unpriced;
    }
    const agents = stats.agents.map((a): [string, Cost] => [a.agentType, a.cost]);
    return [
      ['(main conversation)', { usd: Math.max(0, main.usd), unpriced: Math.max(0, main.unpriced) }],
      ...agents,
    ];
  }
  const record = by === 'day' ? stats.cost.byDay : by === 'model' ? stats.cost.byModel : stats.cost.byProject;
  const rows = Object.entries(record);
  if (by !== 'day') rows.sort((a, b) => b[1].usd - a[1].usd || a[0].localeCompare(b[0]));
  // In the total, in no day, model or project: the runs' figures are their spawns' reports.
  const reported = stats.cost.reportedBySpawn;
  return reported ? [...rows, ['(sub-agents without a transcript, ≥ as reported)', reported]] : rows;
}
