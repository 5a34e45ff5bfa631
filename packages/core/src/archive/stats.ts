/**
 * Statistics over sessions: the numbers of `cctrail stats --json` and of the report's agent pages.
 *
 * Everything here reads the structure of a session only (kinds, actors, sidechains, compactions, tools,
 * usage), so it works on sessions built with `content: false`.
 */
import { addUsage, emptyUsage, totalTokens } from '../graph/usage.js';
import type { Cost } from '../model/cost.js';
import type { Usage } from '../model/entry.js';
import { SCHEMA_VERSION, type Session } from '../model/session.js';
import { findDuplicates } from './duplicates.js';
import { roundUsd } from './prices.js';
import { reportedField } from './reported-field.js';
import { addReportedCosts, type ReportedRuns } from './reported-runs.js';
import { responseTotals } from './response-totals.js';
import { runsOnce } from './runs-once.js';
import { emptyCost } from './session-cost.js';
import { type StatsDigest, statsDigest } from './session-stats.js';
import type {
  AgentPatterns,
  AgentStats,
  ArchiveStats,
  BranchCounts,
  CompactionStats,
  SessionStats,
  SidechainStats,
  StatsTotals,
} from './stats-shapes.js';

/**
 * Computes statistics over many sessions. Sessions contained in another one (`findDuplicates`) are listed, with
 * their `duplicateOf`, but left out of totals, agents and compactions.
 *
 * @param sessions Built sessions (content is not needed), in the order they should be listed.
 */
export function archiveStats(sessions: readonly Session[]): ArchiveStats {
  const digests = sessions.map(statsDigest);
  const duplicates = findDuplicates(digests.map((d) => ({ id: d.stats.sessionId, uuids: d.uuids })));
  digests.forEach((digest, index) => {
    digest.stats.duplicateOf = duplicates[index]!;
  });
  return combineStats(digests);
}
/**
 * Computes statistics over many sessions from their digests. Digests whose `stats.duplicateOf` is set are
 * listed but left out of totals, agents and compactions (see `findDuplicates`). A sub-agent run that several
 * files list (a continued or copied session repeats its spawn) counts once in the totals and agents, from its
 * transcript where a file holds it (`runsOnce`); each session's own row counts its runs as it lists them.
 *
 * @param digests One per session, in the order they should be listed.
 */
export function combineStats(digests: readonly StatsDigest[]): ArchiveStats {
  const rows = digests.map((digest) => digest.stats);
  const kept = digests.filter((digest) => digest.stats.duplicateOf === null);
  const { usage, cost } = responseTotals(
    digests.map((digest) => ({ project: digest.stats.project, responses: digest.responses })),
  );
  const runs = runsOnce(
    rows.map((row) => ({ scope: row.project, runs: row.sidechains, counted: row.duplicateOf === null })),
  ).flat();
  const reported = reportedField(runs).reportedBySpawn;
  addReportedCosts(cost, reported);
  return {
    schemaVersion: SCHEMA_VERSION,
    sessions: rows,
    totals: totalsOf(
      rows,
      kept.map((digest) => digest.stats),
      usage,
      { cost: cost.total, runs: runs.length, reported },
    ),
    agents: agentStats(runs),
    agentPatterns: agentPatterns(kept.map((digest) => digest.stats)),
    compaction: compactionStats(kept),
    cost,
  };
}
function totalsOf(
  all: readonly SessionStats[],
  kept: readonly SessionStats[],
  usage: Usage,
  once: { cost: Cost; runs: number; reported: ReportedRuns | undefined },
): StatsTotals {
  const totals: StatsTotals = {
    sessions: all.length,
    duplicates: all.length - kept.length,
    lines: 0,
    entries: 0,
    roots: 0,
    orphans: 0,
    branches: { forks: 0, abandonedEntries: 0, rewinds: 0, retries: 0, sideCommands: 0, artefacts: 0 },
    compactions: { total: 0, auto: 0, manual: 0, micro: 0 },
    sidechains: once.runs,
    tools: { calls: 0, results: 0, paired: 0, errors: 0, missingResults: 0 },
    usage,
    tokens: totalTokens(usage) + (once.reported?.tokens ?? 0),
    cost: once.cost,
    diagnostics: { error: 0, warning: 0, info: 0 },
    ...(once.reported ? { reportedBySpawn: once.reported } : {}),
  };
  for (const row of all) {
    totals.lines += row.lines;
    totals.diagnostics.error += row.diagnostics.error;
    totals.diagnostics.warning += row.diagnostics.warning;
    totals.diagnostics.info += row.diagnostics.info;
  }
  for (const row of kept) {
    totals.entries += row.entries;
    totals.roots += row.roots;
    totals.orphans += row.orphans;
    for (const key of Object.keys(totals.branches) as (keyof BranchCounts)[])
      totals.branches[key] += row.branches[key];
    totals.compactions.total += row.compactions.total;
    totals.compactions.auto += row.compactions.auto;
    totals.compactions.manual += row.compactions.manual;
    totals.compactions.micro += row.compactions.micro;
    totals.tools.calls += row.tools.calls;
    totals.tools.results += row.tools.results;
    totals.tools.paired += row.tools.paired;
    totals.tools.errors += row.tools.errors;
    totals.tools.missingResults += row.tools.missingResults;
  }
  return totals;
}

/** Statistics per agent type of runs counted once (`runsOnce`). */
function agentStats(runs: readonly SidechainStats[]): AgentStats[] {
  const byType = new Map<string, SidechainStats[]>();
  for (const sidechain of runs) {
    const list = byType.get(sidechain.agentType) ?? [];
    list.push(sidechain);
    byType.set(sidechain.agentType, list);
  }
  const agents: AgentStats[] = [];
  for (const [agentType, list] of byType) {
    const depths: Record<string, number> = {};
    for (const sidechain of [...list].sort((a, b) => a.depth - b.depth)) {
      depths[String(sidechain.depth)] = (depths[String(sidechain.depth)] ?? 0) + 1;
    }
    const multiTurn = list.filter((s) => s.prompts > 1).length;
    const errors = list.filter((s) => s.status === 'error').length;
    const missing = list.filter(isMissing).length;
    let usage = emptyUsage();
    const cost = emptyCost();
    for (const sidechain of list) {
      usage = addUsage(usage, sidechain.usage);
      cost.usd = roundUsd(cost.usd + sidechain.cost.usd);
      cost.unpriced += sidechain.cost.unpriced;
    }
    agents.push({
      agentType,
      invocations: list.length,
      medianEntries: median(list.filter((s) => !isMissing(s)).map((s) => s.entries)),
      ...(missing > 0 ? { withoutTranscript: missing } : {}),
      ...reportedField(list),
      depths,
      multiTurn,
      multiTurnShare: ratio(multiTurn, list.length),
      nested: list.filter((s) => s.depth > 1).length,
      parallel: list.filter((s) => s.parallelGroup !== null).length,
      errors,
      errorRate: ratio(errors, list.length),
      tokens: list.reduce((sum, s) => sum + s.tokens, 0),
      usage,
      cost,
    });
  }
  return agents.sort((a, b) => b.invocations - a.invocations || compare(a.agentType, b.agentType));
}

function agentPatterns(rows: readonly SessionStats[]): AgentPatterns {
  const patterns: AgentPatterns = { sessionsWithAgents: 0, parallelGroups: 0, maxParallel: 0, maxDepth: 0 };
  for (const row of rows) {
    if (row.sidechains.length > 0) patterns.sessionsWithAgents++;
    const groups = new Map<number, number>();
    for (const sidechain of row.sidechains) {
      patterns.maxDepth = Math.max(patterns.maxDepth, sidechain.depth);
      if (sidechain.parallelGroup !== null) {
        groups.set(sidechain.parallelGroup, (groups.get(sidechain.parallelGroup) ?? 0) + 1);
      }
    }
    patterns.parallelGroups += groups.size;
    for (const size of groups.values()) patterns.maxParallel = Math.max(patterns.maxParallel, size);
  }
  return patterns;
}

function compactionStats(digests: readonly StatsDigest[]): CompactionStats {
  const stats: CompactionStats = {
    sessionsWithCompactions: 0,
    maxPerSession: 0,
    total: 0,
    auto: 0,
    manual: 0,
    unknownTrigger: 0,
    micro: 0,
    meanEntriesBetween: 0,
  };
  for (const { stats: row } of digests) {
    const { total, auto, manual, micro } = row.compactions;
    if (total > 0) stats.sessionsWithCompactions++;
    stats.maxPerSession = Math.max(stats.maxPerSession, total);
    stats.total += total;
    stats.auto += auto;
    stats.manual += manual;
    stats.unknownTrigger += total - auto - manual;
    stats.micro += micro;
  }
  let closedEpochs = 0;
  let closedEntries = 0;
  for (const digest of digests) {
    for (const entries of digest.closedEpochs) {
      closedEpochs++;
      closedEntries += entries;
    }
  }
  stats.meanEntriesBetween = closedEpochs === 0 ? 0 : round(closedEntries / closedEpochs);
  return stats;
}

/** A run whose transcript is not there: spawned (or reported by its spawn), without an entry. */
function isMissing(s: SidechainStats): boolean {
  return s.entries === 0 && (s.status === 'missing' || s.reported !== undefined);
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : round(part / whole);
}

/** Rounds to 4 decimals so JSON output is stable across platforms and readable. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
