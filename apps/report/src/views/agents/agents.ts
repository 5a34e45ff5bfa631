import { type Cost, toolCallsIn, totalTokens } from '@cctrail/core';
import { reportedRun } from '@cctrail/core/archive';
import type { Session, Sidechain, ToolCall } from '../model.js';
import { type RunOutcome, runOutcome } from './agent-status.js';

/**
 * Agent statistics for the `/agents/` pages: one `AgentRun` per sidechain (computed while the session is
 * loaded), then aggregates per agent type over the whole archive.
 */

/** What the report keeps of one sidechain run. */
export interface AgentRun {
  id: string;
  agentType: string;
  description: string | null;
  role: Sidechain['role'];
  depth: number;
  parentSidechain: string | null;
  parallelGroup: number | null;
  status: Sidechain['status'];
  entries: number;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  /** Input + output + cache creation + cache read. */
  tokens: number;
  /** What its own API responses cost (nothing for a session file written without cost). */
  cost: Cost;
  toolCalls: number;
  toolErrors: number;
  /** How it ended for the report: ran, failed to spawn (not a run), or ran without a transcript here. */
  outcome?: RunOutcome;
  /** The spawning call's error, for a failed spawn. */
  spawnError?: string | null;
  /**
   * For a run without its transcript: its figures (`tokens`, `durationMs`, `toolCalls`, `cost`) are those its
   * spawn's result reports, and its tokens and cost are its last response's (a lower bound).
   */
  reported?: boolean;
  /**
   * The epoch its cost falls in (its own entries', which are its spawning call's), for cost per epoch; null when
   * neither its entries nor its spawn are in the session.
   */
  epoch: number | null;
}

/** True for a spawn that failed: shown as a failure, never counted as a run. */
export function isFailedSpawn(run: Pick<AgentRun, 'outcome'>): boolean {
  return run.outcome === 'failed-spawn';
}

/** Time between two ISO timestamps in ms, or null. */
export function durationBetween(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const d = Date.parse(end) - Date.parse(start);
  return Number.isFinite(d) && d >= 0 ? d : null;
}

/**
 * Builds the `AgentRun` of a sidechain of a loaded session.
 *
 * @param tools The tool calls made in the sidechain, when the caller has them grouped already.
 */
export function agentRunOf(
  session: Session,
  sc: Sidechain,
  tools: readonly ToolCall[] = toolCallsIn(session, sc.id),
): AgentRun {
  const { outcome, error } = runOutcome(session, sc);
  const r = sc.entries === 0 ? sc.reported : undefined;
  if (r) {
    // The figures `cctrail stats` counts (core's `reportedRun`): one definition.
    const reported = reportedRun(r, sc.startedAt);
    return {
      ...runFigures(sc),
      durationMs: r.durationMs ?? durationBetween(sc.startedAt, sc.endedAt),
      tokens: reported.tokens,
      cost: reported.cost,
      toolCalls: reported.toolUses,
      toolErrors: 0,
      outcome,
      spawnError: error,
      reported: true,
      epoch: runEpoch(session, sc),
    };
  }
  return {
    ...runFigures(sc),
    durationMs: durationBetween(sc.startedAt, sc.endedAt),
    tokens: totalTokens(sc.usage),
    cost: (session.cost && Object.hasOwn(session.cost.bySidechain, sc.id)
      ? session.cost.bySidechain[sc.id]
      : undefined) ?? { usd: 0, unpriced: 0 },
    toolCalls: tools.length,
    toolErrors: tools.filter((t) => t.status === 'error').length,
    outcome,
    spawnError: error,
    epoch: runEpoch(session, sc),
  };
}

const epochsByUuid = new WeakMap<Session, Map<string, number>>();

/** The epoch of a run: its root entry's, else its spawning entry's (the map is built once per session). */
function runEpoch(session: Session, sc: Sidechain): number | null {
  let epochs = epochsByUuid.get(session);
  if (!epochs) {
    epochs = new Map(session.entries.map((e) => [e.uuid, e.epoch]));
    epochsByUuid.set(session, epochs);
  }
  const at = (uuid: string | null | undefined) => (uuid ? epochs.get(uuid) : undefined);
  return at(sc.rootUuid) ?? at(sc.spawn?.entryUuid) ?? null;
}

/** What a run is, whatever its figures come from. */
function runFigures(sc: Sidechain) {
  return {
    id: sc.id,
    agentType: sc.agentType || 'unknown',
    description: sc.description,
    role: sc.role,
    depth: sc.depth,
    parentSidechain: sc.parentSidechain,
    parallelGroup: sc.parallelGroup,
    status: sc.status,
    entries: sc.entries,
    startedAt: sc.startedAt,
    endedAt: sc.endedAt,
  };
}

/** Five-number summary of a list of numbers. */
export interface Spread {
  min: number;
  p25: number;
  median: number;
  p75: number;
  max: number;
}

/** Quantile by linear interpolation of sorted values (0 for an empty list). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? a;
  return a + (b - a) * (pos - lo);
}

/** Five-number summary of values (zeros for an empty list). */
export function spread(values: readonly number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  return {
    min: s[0] ?? 0,
    p25: quantile(s, 0.25),
    median: quantile(s, 0.5),
    p75: quantile(s, 0.75),
    max: s[s.length - 1] ?? 0,
  };
}

/** Aggregates of one agent type. */
export interface AgentTypeStats {
  agentType: string;
  invocations: number;
  sessions: number;
  entries: Spread;
  totalEntries: number;
  maxDepth: number;
  /** Runs spawned by another sub-agent (depth > 1). */
  nested: number;
  /** Runs that overlapped in time with another run. */
  parallel: number;
  duration: Spread;
  /** Runs whose status is `error`, and spawns that `failed` (no agent ran). */
  errors: number;
  errorRate: number;
  toolCalls: number;
  toolErrors: number;
  /** Tokens of the runs' API responses, runs without a transcript counted once as reported (`reportedTokens`). */
  tokens: number;
  /** What the runs' API responses cost, in USD, runs without a transcript counted once as reported (`reportedUsd`). */
  usd: number;
  /** Of those, what the spawns of runs without a transcript report: their last responses (lower bounds). */
  reportedTokens: number;
  reportedUsd: number;
  /** Spawns of this type that failed (not counted as runs). */
  failedSpawns: number;
  /** Runs whose transcript is missing: counted as runs, left out of `entries` and `distribution`. */
  withoutTranscript: number;
  /** Of those, runs whose figures come from their spawn's result (in `duration`, `tokens`, `usd`). */
  reported: number;
  /** Runs per bucket of `ENTRY_BUCKET_EDGES`: 1, 2–5, 6–20, 21–50, 51–200, 201+ entries. */
  distribution: number[];
}

/** Lower bounds of the entry-count buckets of `AgentTypeStats.distribution`. */
const ENTRY_BUCKET_EDGES = [1, 2, 6, 21, 51, 201];

/** A run with where it happened, for aggregation. */
export interface LocatedRun {
  run: AgentRun;
  sessionKey: string;
  /** Set when the run's session is a copy of another one (its runs are that session's, counted there). */
  duplicate?: boolean;
}

/**
 * Aggregates runs per agent type, most invoked first. Runs of duplicate sessions are left out (they are their
 * original's); runs without a transcript are runs, but have no entries to count.
 */
export function aggregateAgents(runs: readonly LocatedRun[]): AgentTypeStats[] {
  const byType = new Map<string, LocatedRun[]>();
  for (const r of runs) {
    if (r.duplicate) continue;
    const list = byType.get(r.run.agentType) ?? [];
    list.push(r);
    byType.set(r.run.agentType, list);
  }
  const out: AgentTypeStats[] = [];
  for (const [agentType, all] of byType) {
    const list = all.filter((l) => !isFailedSpawn(l.run));
    const rs = list.map((l) => l.run);
    const ran = rs.filter((r) => r.outcome !== 'missing-transcript');
    // A failed spawn is an error of its type, though not a run.
    const errors = rs.filter((r) => r.status === 'error').length + (all.length - list.length);
    out.push({
      agentType,
      invocations: rs.length,
      sessions: new Set(list.map((l) => l.sessionKey)).size,
      entries: spread(ran.map((r) => r.entries)),
      totalEntries: ran.reduce((a, r) => a + r.entries, 0),
      maxDepth: rs.reduce((a, r) => Math.max(a, r.depth), 0),
      nested: rs.filter((r) => r.depth > 1).length,
      parallel: rs.filter((r) => r.parallelGroup !== null).length,
      duration: spread(rs.flatMap((r) => (r.durationMs === null ? [] : [r.durationMs]))),
      errors,
      errorRate: all.length > 0 ? errors / all.length : 0,
      toolCalls: rs.reduce((a, r) => a + r.toolCalls, 0),
      toolErrors: rs.reduce((a, r) => a + r.toolErrors, 0),
      tokens: rs.reduce((a, r) => a + r.tokens, 0),
      usd: rs.reduce((a, r) => a + r.cost.usd, 0),
      reportedTokens: rs.reduce((a, r) => a + (r.reported ? r.tokens : 0), 0),
      reportedUsd: rs.reduce((a, r) => a + (r.reported ? r.cost.usd : 0), 0),
      failedSpawns: all.length - list.length,
      withoutTranscript: rs.length - ran.length,
      reported: rs.filter((r) => r.reported).length,
      distribution: histogram(
        ran.map((r) => r.entries),
        ENTRY_BUCKET_EDGES,
      ),
    });
  }
  return out.sort((a, b) => b.invocations - a.invocations || a.agentType.localeCompare(b.agentType));
}

/** Counts of values in buckets `[edges[i], edges[i+1])`, the last bucket open-ended. */
export function histogram(values: readonly number[], edges: readonly number[]): number[] {
  const counts = edges.map(() => 0);
  for (const v of values) {
    let i = edges.length - 1;
    while (i > 0 && v < (edges[i] ?? 0)) i--;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}
