import { addReportedRuns, noReportedRuns, type ReportedRuns } from './reported-runs.js';
import type { SidechainStats } from './stats-shapes.js';

/**
 * What the spawns of runs without a transcript report, summed as a field (none when no run is reported): for an
 * agent type's runs, the archive's or a conversation's (each run once, `runsOnce`).
 *
 * @param list Runs' statistics.
 */
export function reportedField(list: readonly SidechainStats[]): { reportedBySpawn?: ReportedRuns } {
  const sum = noReportedRuns();
  for (const s of list)
    if (s.reported)
      addReportedRuns(sum, {
        runs: 1,
        tokens: s.tokens,
        durationMs: s.reported.durationMs ?? 0,
        toolUses: s.reported.toolUses ?? 0,
        cost: { ...s.reported.cost },
      });
  return sum.runs > 0 ? { reportedBySpawn: sum } : {};
}
