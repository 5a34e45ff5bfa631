import { addUsage, emptyUsage } from '../graph/usage.js';
import { SCHEMA_VERSION, type Session, type Sidechain, type Usage } from '../model.js';
import { type ResponseUsage, responseUsages, totalUsage } from './duplicates.js';

/**
 * Statistics over sessions: the numbers of `cctrail stats --json` and of the report's agent pages.
 *
 * Everything here reads the structure of a session only (kinds, actors, sidechains, compactions, tools,
 * usage), so it works on sessions built with `content: false`.
 */

/** Tool call counts. */
export interface ToolCounts {
  /** Tool calls (tool_use blocks). */
  calls: number;
  /** Tool results (tool_result blocks), with or without a call. */
  results: number;
  /** Calls that have their result. */
  paired: number;
  /** Results flagged `is_error`. */
  errors: number;
  /** Calls whose result never came. */
  missingResults: number;
}

/** Diagnostics by severity. */
export interface DiagnosticCounts {
  error: number;
  warning: number;
  info: number;
}

/** Compactions of a session. */
export interface CompactionCounts {
  /** Full compactions (each one starts a new epoch); micro-compactions are counted apart. */
  total: number;
  /** Full compactions triggered automatically. */
  auto: number;
  /** Full compactions asked for with `/compact`. */
  manual: number;
  /** Lighter in-place micro-compactions. */
  micro: number;
}

/** One sidechain (sub-agent run) of a session. */
export interface SidechainStats {
  /** Sidechain id (`agent-<agentId>` or `inline-<uuid>`). */
  id: string;
  agentType: string;
  agentId: string | null;
  role: Sidechain['role'];
  entries: number;
  /** 1 when spawned by the main conversation, 2 when spawned by a sub-agent, … */
  depth: number;
  status: Sidechain['status'];
  /** Sidechains that ran at the same time share a group number. */
  parallelGroup: number | null;
  /** Prompts Claude sent to the agent (entries of kind `prompt` by `claude-as-user`). */
  prompts: number;
  /** Input + output + cache creation + cache read tokens of the agent's own API responses. */
  tokens: number;
  usage: Usage;
}

/** Statistics of one session (the `sessions[]` items of `cctrail stats --json`). */
export interface SessionStats {
  /** Main transcript (or first agent file) of the session, relative to the input root. */
  file: string;
  sessionId: string;
  /** Project folder name. */
  project: string | null;
  /** Id of a session that contains this one entirely, else null. */
  duplicateOf: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** Models that answered, as written in the transcripts. */
  models: string[];
  /** Claude Code versions that wrote the transcripts. */
  versions: string[];
  /** Input lines read (all files of the session). */
  lines: number;
  entries: number;
  roots: number;
  orphans: number;
  branches: {
    /** Real forks (retries, edits, rewinds); recording artifacts such as tool progress are not forks. */
    forks: number;
    /** Entries on abandoned branches. */
    abandonedEntries: number;
  };
  compactions: CompactionCounts;
  sidechains: SidechainStats[];
  tools: ToolCounts;
  /** Tokens of the session, each API response counted once. */
  usage: Usage;
  diagnostics: DiagnosticCounts;
}

/** Sums over sessions. */
export interface StatsTotals {
  /** Sessions read. */
  sessions: number;
  /** Sessions contained in another one; they are left out of every other total. */
  duplicates: number;
  lines: number;
  entries: number;
  roots: number;
  orphans: number;
  branches: { forks: number; abandonedEntries: number };
  compactions: CompactionCounts;
  /** Number of sidechains. */
  sidechains: number;
  tools: ToolCounts;
  /** Usage over all sessions, each API response counted once across files and sessions. */
  usage: Usage;
  /** Diagnostics of all sessions (duplicates included). */
  diagnostics: DiagnosticCounts;
}

/** Statistics of one agent type across sessions. */
export interface AgentStats {
  /** `subagent_type` of the spawning call (or the meta/result agent type). */
  agentType: string;
  /** Sidechains of this type. */
  invocations: number;
  /** Median number of entries of a sidechain. */
  medianEntries: number;
  /** Sidechains by depth: `{"1": 4, "2": 1}`. */
  depths: Record<string, number>;
  /**
   * Sidechains in which Claude prompted the agent more than once (the first prompt plus a follow-up, e.g. a
   * resumed agent or a message sent to a running one).
   */
  multiTurn: number;
  /** `multiTurn / invocations`. */
  multiTurnShare: number;
  /** Sidechains spawned by another sidechain (depth > 1). */
  nested: number;
  /** Sidechains that ran at the same time as another one (they have a parallel group). */
  parallel: number;
  /** Sidechains that ended in an error status. */
  errors: number;
  /** `errors / invocations`. */
  errorRate: number;
  /** Input + output + cache creation + cache read tokens of all invocations. */
  tokens: number;
  usage: Usage;
}

/** Compaction statistics across sessions. */
export interface CompactionStats {
  /** Sessions with at least one full compaction. */
  sessionsWithCompactions: number;
  /** Most full compactions in one session. */
  maxPerSession: number;
  /** Full compactions. */
  total: number;
  auto: number;
  manual: number;
  /** Full compactions whose trigger is not recorded. */
  unknownTrigger: number;
  micro: number;
  /**
   * Mean number of entries of an epoch that a full compaction closed: how much conversation happens
   * between two compactions (or between the start and the first one). 0 when there is no compaction.
   */
  meanEntriesBetween: number;
}

/** How sub-agents are combined across sessions: nesting and parallel runs. */
export interface AgentPatterns {
  /** Sessions with at least one sidechain. */
  sessionsWithAgents: number;
  /** Groups of sidechains that ran at the same time (counted per session). */
  parallelGroups: number;
  /** Most sidechains running at the same time in one group. */
  maxParallel: number;
  /** Deepest nesting: 1 when agents are only spawned by the main conversation. 0 without agents. */
  maxDepth: number;
}

/** Statistics over many sessions: the output of `cctrail stats --json`. */
export interface ArchiveStats {
  schemaVersion: typeof SCHEMA_VERSION;
  sessions: SessionStats[];
  totals: StatsTotals;
  /** One row per agent type, most invoked first. */
  agents: AgentStats[];
  agentPatterns: AgentPatterns;
  compaction: CompactionStats;
}

/**
 * Computes the statistics of one session.
 *
 * @param session A built session (content is not needed).
 */
export function sessionStats(session: Session): SessionStats {
  const prompts = promptsBySidechain(session);
  const main = session.files.find((f) => f.role === 'main') ?? session.files[0];
  return {
    file: main?.path ?? session.id,
    sessionId: session.id,
    project: session.project.slug,
    duplicateOf: session.duplicateOf,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    models: session.models,
    versions: session.versions,
    lines: session.accounting.lines,
    entries: session.entries.length,
    roots: session.roots.length,
    orphans: session.orphans.length,
    branches: {
      forks: session.branchPoints.filter((b) => b.kind === 'fork').length,
      abandonedEntries: session.branches.reduce((sum, b) => sum + b.entries, 0),
    },
    compactions: compactionCounts(session),
    sidechains: session.sidechains.map((sidechain) => ({
      id: sidechain.id,
      agentType: sidechain.agentType,
      agentId: sidechain.agentId,
      role: sidechain.role,
      entries: sidechain.entries,
      depth: sidechain.depth,
      status: sidechain.status,
      parallelGroup: sidechain.parallelGroup,
      prompts: prompts.get(sidechain.id) ?? 0,
      tokens: totalTokens(sidechain.usage),
      usage: sidechain.usage,
    })),
    tools: toolCounts(session),
    usage: session.usage.total,
    diagnostics: diagnosticCounts(session),
  };
}

/**
 * Computes statistics over many sessions. Call `markDuplicates` first: sessions contained in another one are
 * listed but left out of totals, agents and compactions.
 *
 * @param sessions Built sessions (content is not needed), in the order they should be listed.
 */
export function archiveStats(sessions: readonly Session[]): ArchiveStats {
  return combineStats(sessions.map(statsDigest));
}

/**
 * What statistics over many sessions need of one session: its own statistics, the uuids of its entries (to
 * find duplicates, see `findDuplicates`) and the usage of its API responses (to count each once across
 * files). Plain data, much smaller than the session: sessions can be digested in worker threads and only
 * their digests sent back.
 */
export interface StatsDigest {
  stats: SessionStats;
  /** Entry uuids, in the session's order. */
  uuids: string[];
  responses: ResponseUsage[];
  /** Entries of each epoch that a full compaction closed (every epoch but the last). */
  closedEpochs: number[];
}

/**
 * Digests a session for `combineStats`.
 *
 * @param session A built session (content is not needed); its `duplicateOf` is copied.
 */
export function statsDigest(session: Session): StatsDigest {
  return {
    stats: sessionStats(session),
    uuids: session.entries.map((entry) => entry.uuid),
    responses: responseUsages(session),
    closedEpochs: session.epochs.slice(0, -1).map((epoch) => epoch.entries),
  };
}

/**
 * Computes statistics over many sessions from their digests. Digests whose `stats.duplicateOf` is set are
 * listed but left out of totals, agents and compactions (see `findDuplicates`).
 *
 * @param digests One per session, in the order they should be listed.
 */
export function combineStats(digests: readonly StatsDigest[]): ArchiveStats {
  const rows = digests.map((digest) => digest.stats);
  const kept = digests.filter((digest) => digest.stats.duplicateOf === null);
  return {
    schemaVersion: SCHEMA_VERSION,
    sessions: rows,
    totals: totalsOf(
      rows,
      kept.map((digest) => digest.stats),
      totalUsage(digests.map((digest) => digest.responses)),
    ),
    agents: agentStats(kept.map((digest) => digest.stats)),
    agentPatterns: agentPatterns(kept.map((digest) => digest.stats)),
    compaction: compactionStats(kept),
  };
}

/** Number of `claude-as-user` prompts in each sidechain. */
function promptsBySidechain(session: Session): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of session.entries) {
    if (entry.sidechain !== null && entry.kind === 'prompt' && entry.actor === 'claude-as-user') {
      counts.set(entry.sidechain, (counts.get(entry.sidechain) ?? 0) + 1);
    }
  }
  return counts;
}

function compactionCounts(session: Session): CompactionCounts {
  const counts: CompactionCounts = { total: 0, auto: 0, manual: 0, micro: 0 };
  for (const compaction of session.compactions) {
    if (compaction.kind === 'micro') {
      counts.micro++;
      continue;
    }
    counts.total++;
    if (compaction.trigger === 'auto') counts.auto++;
    else if (compaction.trigger === 'manual') counts.manual++;
  }
  return counts;
}

function toolCounts(session: Session): ToolCounts {
  const counts: ToolCounts = { calls: 0, results: 0, paired: 0, errors: 0, missingResults: 0 };
  for (const tool of session.tools) {
    if (tool.callUuid !== null) counts.calls++;
    if (tool.resultUuid !== null) counts.results++;
    if (tool.callUuid !== null && tool.resultUuid !== null) counts.paired++;
    if (tool.status === 'error') counts.errors++;
    if (tool.status === 'missing-result') counts.missingResults++;
  }
  return counts;
}

function diagnosticCounts(session: Session): DiagnosticCounts {
  const counts: DiagnosticCounts = { error: 0, warning: 0, info: 0 };
  for (const diagnostic of session.diagnostics) counts[diagnostic.severity]++;
  return counts;
}

/** Input + output + cache creation + cache read tokens. */
function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}

function totalsOf(all: readonly SessionStats[], kept: readonly SessionStats[], usage: Usage): StatsTotals {
  const totals: StatsTotals = {
    sessions: all.length,
    duplicates: all.length - kept.length,
    lines: 0,
    entries: 0,
    roots: 0,
    orphans: 0,
    branches: { forks: 0, abandonedEntries: 0 },
    compactions: { total: 0, auto: 0, manual: 0, micro: 0 },
    sidechains: 0,
    tools: { calls: 0, results: 0, paired: 0, errors: 0, missingResults: 0 },
    usage,
    diagnostics: { error: 0, warning: 0, info: 0 },
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
    totals.branches.forks += row.branches.forks;
    totals.branches.abandonedEntries += row.branches.abandonedEntries;
    totals.compactions.total += row.compactions.total;
    totals.compactions.auto += row.compactions.auto;
    totals.compactions.manual += row.compactions.manual;
    totals.compactions.micro += row.compactions.micro;
    totals.sidechains += row.sidechains.length;
    totals.tools.calls += row.tools.calls;
    totals.tools.results += row.tools.results;
    totals.tools.paired += row.tools.paired;
    totals.tools.errors += row.tools.errors;
    totals.tools.missingResults += row.tools.missingResults;
  }
  return totals;
}

function agentStats(rows: readonly SessionStats[]): AgentStats[] {
  const byType = new Map<string, SidechainStats[]>();
  for (const row of rows) {
    for (const sidechain of row.sidechains) {
      const list = byType.get(sidechain.agentType) ?? [];
      list.push(sidechain);
      byType.set(sidechain.agentType, list);
    }
  }
  const agents: AgentStats[] = [];
  for (const [agentType, list] of byType) {
    const depths: Record<string, number> = {};
    for (const sidechain of [...list].sort((a, b) => a.depth - b.depth)) {
      depths[String(sidechain.depth)] = (depths[String(sidechain.depth)] ?? 0) + 1;
    }
    const multiTurn = list.filter((s) => s.prompts > 1).length;
    const errors = list.filter((s) => s.status === 'error').length;
    let usage = emptyUsage();
    for (const sidechain of list) usage = addUsage(usage, sidechain.usage);
    agents.push({
      agentType,
      invocations: list.length,
      medianEntries: median(list.map((s) => s.entries)),
      depths,
      multiTurn,
      multiTurnShare: ratio(multiTurn, list.length),
      nested: list.filter((s) => s.depth > 1).length,
      parallel: list.filter((s) => s.parallelGroup !== null).length,
      errors,
      errorRate: ratio(errors, list.length),
      tokens: list.reduce((sum, s) => sum + s.tokens, 0),
      usage,
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
