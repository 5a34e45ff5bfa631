/**
 * Sub-agent runs without their transcript, as their spawns report them (`Sidechain.reported`): the figures
 * `cctrail stats` and the report show beside what the transcripts hold. They are kept apart from the totals of
 * API responses, so nothing is counted twice: a run is reported only when none of its entries is there.
 */
import type { Cost } from '../model/cost.js';
import type { Sidechain, SpawnReport } from '../model/session.js';
import { responseCost, roundUsd } from './prices.js';

/** What the spawns of runs without a transcript report, summed. */
export interface ReportedRuns {
  /** Runs counted. */
  runs: number;
  /** Tokens of each run's last response (`SpawnReport.totalTokens`), summed: a lower bound of what they used. */
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
  for (const sc of sidechains) {
    if (!sc.reported || sc.entries > 0) continue;
    addReportedRuns(sum, {
      runs: 1,
      tokens: sc.reported.totalTokens ?? 0,
      durationMs: sc.reported.durationMs ?? 0,
      toolUses: sc.reported.toolUses ?? 0,
      cost: reportedCost(sc.reported, sc.startedAt),
    });
  }
  return sum.runs > 0 ? sum : null;
}
