/**
 * Sub-agent runs without their transcript, as their spawns report them (`Sidechain.reported`): one definition of
 * their figures for `cctrail stats` and the report. A run is reported only when none of its entries is there, so
 * it is counted once in every total (tokens, cost, an agent type's figures), never beside its transcript; the
 * reported part is also kept apart (`reportedBySpawn`) so that a reader can tell measured from reported.
 */
import { totalTokens } from '../graph/usage.js';
import type { Cost, CostTotals } from '../model/cost.js';
import type { Sidechain, SpawnReport } from '../model/session.js';
import { responseCost, roundUsd } from './prices.js';

/** What the spawns of runs without a transcript report, summed. */
export interface ReportedRuns {
  /** Runs counted. */
  runs: number;
  /**
   * Tokens of each run's last response (`SpawnReport.totalTokens`, else its `usage`'s total), summed: a lower
   * bound of what they used.
   */
  tokens: number;
  durationMs: number;
  toolUses: number;
  /** Each run's last response priced at its spawning model: a lower bound of what the runs cost. */
  cost: Cost;
}

/**
 * What a reported run's last response cost, priced at its spawning response's model (unpriced without usage
 * or a known model).
 *
 * @param report The run's spawn report.
 * @param at When the run was spawned (prices that changed on a date are taken as of then).
 */
export function reportedCost(report: SpawnReport, at: string | null): Cost {
  const usd = report.usage ? responseCost(report.model, report.usage, at) : null;
  return usd === null ? { usd: 0, unpriced: 1 } : { usd: roundUsd(usd), unpriced: 0 };
}

/**
 * One run as its spawn reports it: its tokens (`totalTokens`, else the total of its last response's `usage`),
 * duration, tool uses and cost.
 *
 * @param report The run's spawn report.
 * @param at When the run was spawned.
 */
export function reportedRun(report: SpawnReport, at: string | null): ReportedRuns {
  return {
    runs: 1,
    tokens: report.totalTokens ?? (report.usage ? totalTokens(report.usage) : 0),
    durationMs: report.durationMs ?? 0,
    toolUses: report.toolUses ?? 0,
    cost: reportedCost(report, at),
  };
}

/** Runs summed: nothing yet. */
export function noReportedRuns(): ReportedRuns {
  return { runs: 0, tokens: 0, durationMs: 0, toolUses: 0, cost: { usd: 0, unpriced: 0 } };
}

/**
 * Adds one reported run, or a sum of them, into a sum (mutating it).
 *
 * @param sum The sum so far.
 * @param add A sum to add.
 */
export function addReportedRuns(sum: ReportedRuns, add: ReportedRuns): ReportedRuns {
  sum.runs += add.runs;
  sum.tokens += add.tokens;
  sum.durationMs += add.durationMs;
  sum.toolUses += add.toolUses;
  sum.cost.usd = roundUsd(sum.cost.usd + add.cost.usd);
  sum.cost.unpriced += add.cost.unpriced;
  return sum;
}

/**
 * The reported figures of a session's runs without a transcript, or null when it has none.
 *
 * @param sidechains The session's sidechains.
 */
export function reportedRuns(sidechains: readonly Sidechain[]): ReportedRuns | null {
  const sum = noReportedRuns();
  for (const sc of sidechains)
    if (sc.reported && sc.entries === 0) addReportedRuns(sum, reportedRun(sc.reported, sc.startedAt));
  return sum.runs > 0 ? sum : null;
}

/**
 * A cost with a reported part added (a new value).
 *
 * @param cost What API responses cost.
 * @param reported What runs without a transcript report, when any.
 */
export function withReported(cost: Cost, reported: ReportedRuns | undefined): Cost {
  if (!reported) return { ...cost };
  return { usd: roundUsd(cost.usd + reported.cost.usd), unpriced: cost.unpriced + reported.cost.unpriced };
}

/**
 * Adds the runs without a transcript of sessions into cost totals (mutating them): each run counted once in
 * `total` (the caller counts each once across files, `runsOnce`), and their sum kept apart as `reportedBySpawn`.
 * The breakdowns by day, model and project stay those of API responses, as the report shows them;
 * `unpricedModels` too.
 *
 * @param totals Cost totals of the sessions' API responses (`costTotals`).
 * @param reported The runs' reported figures summed, when any.
 */
export function addReportedCosts(
  totals: CostTotals & { reportedBySpawn?: Cost },
  reported: ReportedRuns | undefined,
): void {
  if (!reported || reported.runs === 0) return;
  totals.total = withReported(totals.total, reported);
  totals.reportedBySpawn = { ...reported.cost };
}

/**
 * What a session's API responses cost: its statistics' `cost` without the reported part (the figure of the
 * archive's `index.json`, whose readers add the reported runs themselves).
 *
 * @param stats A session's statistics (`sessionStats`).
 */
export function apiCost(stats: { cost: Cost; reportedBySpawn?: ReportedRuns }): Cost {
  const reported = stats.reportedBySpawn?.cost;
  if (!reported) return { ...stats.cost };
  return {
    usd: roundUsd(stats.cost.usd - reported.usd),
    unpriced: stats.cost.unpriced - reported.unpriced,
  };
}
