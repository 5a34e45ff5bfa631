/**
 * Runs without their transcript: the spawn's result (`toolUseResult` of a Task/Agent call, FORMAT.md §4) still
 * reports the run's duration, tool uses and the tokens of its last response. Those figures are kept on the
 * sidechain as `reported`, only when no entry of the run is there, so nothing is counted twice.
 */
import type { ToolIndex } from '../graph/tool-pairing.js';
import type { Entry } from '../model/entry.js';
import type { Sidechain, SpawnReport } from '../model/session.js';
import { readUsage } from '../normalize/usage-fields.js';
import { asRecord } from './sidechain-spawns.js';

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** The figures a spawn result reports, or null when it reports none. */
function spawnReport(result: unknown, model: string | null): SpawnReport | null {
  const fields = asRecord(result);
  const report: SpawnReport = {
    totalTokens: count(fields.totalTokens),
    durationMs: count(fields.totalDurationMs),
    toolUses: count(fields.totalToolUseCount),
    usage: fields.usage === undefined ? null : readUsage(fields.usage),
    model,
  };
  const none =
    report.totalTokens === null && report.durationMs === null && report.toolUses === null && !report.usage;
  return none ? null : report;
}

/**
 * Gives each sidechain that has no entry, and whose spawning call has a result, the figures its result reports.
 *
 * @param sidechains The session's sidechains, linked to their spawns.
 * @param entries Its entries.
 * @param tools Its tool calls.
 */
export function attachSpawnReports(
  sidechains: readonly Sidechain[],
  entries: readonly Entry[],
  tools: ToolIndex,
): void {
  for (const sidechain of sidechains) {
    const id = sidechain.spawn?.toolUseId;
    if (sidechain.entries > 0 || !id) continue;
    const at = tools.resultEntry.get(id);
    if (at === undefined) continue;
    const callAt = tools.callEntry.get(id);
    const model = callAt === undefined ? null : (entries[callAt]?.message?.model ?? null);
    const report = spawnReport(entries[at]!.toolUseResult, model);
    if (report) sidechain.reported = report;
  }
}
