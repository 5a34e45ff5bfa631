import type { Session } from '@cctrail/core';
import {
  type ArchiveIndex,
  type ArchiveSessionSummary,
  apiCost,
  type SessionStats,
  sessionStats,
} from '@cctrail/core/archive';

/** Serializes `index.json`: indented for people, one trailing newline. */
export function indexJson(index: ArchiveIndex): string {
  return `${JSON.stringify(index, null, 2)}\n`;
}

/**
 * The `index.json` line of one session.
 *
 * @param session The built session.
 * @param file Its archive path.
 * @param stats Its statistics, when already computed.
 */
export function summarize(
  session: Session,
  file: string,
  stats: SessionStats = sessionStats(session),
): ArchiveSessionSummary {
  const start = session.startedAt ? Date.parse(session.startedAt) : Number.NaN;
  const end = session.endedAt ? Date.parse(session.endedAt) : Number.NaN;
  return {
    id: session.id,
    file,
    title: session.title,
    firstPrompt: session.firstPrompt,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    durationMs: Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start),
    entries: stats.entries,
    forks: stats.branches.forks,
    abandonedEntries: stats.branches.abandonedEntries,
    forkKinds: {
      rewinds: stats.branches.rewinds,
      retries: stats.branches.retries,
      sideCommands: stats.branches.sideCommands,
      artefacts: stats.branches.artefacts,
    },
    sidechains: stats.sidechains.length,
    compactions: stats.compactions.total,
    toolCalls: stats.tools.calls,
    usage: stats.usage,
    // The API responses' cost: the report adds the runs without a transcript itself, once.
    cost: apiCost(stats),
    // Known once every session is built: set when the index is made.
    duplicateOf: stats.duplicateOf,
    diagnostics: stats.diagnostics,
    sources: session.files.map((f) => f.path),
  };
}
