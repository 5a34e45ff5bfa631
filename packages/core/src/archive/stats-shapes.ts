/**
 * The shapes of `cctrail stats --json`: per session, per agent type, and totals.
 *
 * A sub-agent run whose transcript is missing counts at what its spawn's result reports (`reportedRun`): once,
 * in every `tokens` and `cost` (never when its transcript is there), and apart in `reportedBySpawn`. `usage` is
 * always what API responses of the transcripts hold.
 */

import type { ForkCounts } from '../analyses/fork-kinds.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Conversation } from '../model/conversation.js';
import type { Cost, CostTotals } from '../model/cost.js';
import type { Usage } from '../model/entry.js';
import type { SCHEMA_VERSION, Sidechain, SpawnReport } from '../model/session.js';
import type { ArchivedStatus } from './archive-index.js';
import type { ReportedRuns } from './reported-runs.js';

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
  /**
   * Input + output + cache creation + cache read tokens of the agent's own API responses; for a run whose
   * transcript is missing, what its spawn's result reports (`reported`).
   */
  tokens: number;
  /** Tokens of the agent's own API responses, by kind (0 for a run whose transcript is missing). */
  usage: Usage;
  /** What the agent's own API responses cost; for a run whose transcript is missing, its `reported.cost`. */
  cost: Cost;
  /**
   * For a run whose transcript is missing: what its spawn's result reports (`tokens` and `cost` above are these
   * figures, `usage` stays 0), with its last response priced at the spawning model. Absent when the transcript
   * is there.
   */
  reported?: SpawnReport & { cost: Cost };
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
  /**
   * Schema 3: set when the session was read from an archive that kept it without its transcripts (deleted, or
   * outside the export that wrote it); see `ArchivedStatus`.
   */
  archived?: ArchivedStatus;
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
  branches: BranchCounts;
  compactions: CompactionCounts;
  sidechains: SidechainStats[];
  tools: ToolCounts;
  /** Tokens of the session's API responses by kind, each response counted once. */
  usage: Usage;
  /**
   * Every token of the session: its API responses' (`usage`), each counted once, and what the spawns of its runs
   * without a transcript report (`reportedBySpawn.tokens`).
   */
  tokens: number;
  /**
   * What the session cost: its API responses, each counted once, and its runs without a transcript at what their
   * spawns report (`reportedBySpawn.cost`, a lower bound).
   */
  cost: Cost;
  /** Claude Code's own figure for the session (its `cost-state` record), null when it wrote none. */
  claudeCodeCostUsd: number | null;
  diagnostics: DiagnosticCounts;
  /** Runs without their transcript, as their spawns report them: the reported part of `tokens` and `cost`; absent when none. */
  reportedBySpawn?: ReportedRuns;
}

/** Branch points by class, and the abandoned entries of the real forks. */
export interface BranchCounts extends ForkCounts {
  /** Real forks: rewinds + retries. Side commands and recording artefacts such as tool progress are not forks. */
  forks: number;
  /** Entries on abandoned branches. */
  abandonedEntries: number;
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
  branches: BranchCounts;
  compactions: CompactionCounts;
  /** Number of sidechains. */
  sidechains: number;
  tools: ToolCounts;
  /** Usage over all sessions by kind, each API response counted once across files and sessions. */
  usage: Usage;
  /** Every token: `usage`'s, and what the spawns of runs without a transcript report (`reportedBySpawn.tokens`). */
  tokens: number;
  /**
   * Cost over all sessions, each API response counted once across files and sessions, and the runs without a
   * transcript at what their spawns report (`reportedBySpawn.cost`); equal to `ArchiveStats.cost.total`.
   */
  cost: Cost;
  /**
   * Runs without their transcript, as their spawns report them, over the sessions that are not duplicates: the
   * reported part of `tokens` and `cost`. Absent when none.
   */
  reportedBySpawn?: ReportedRuns;
  /** Diagnostics of all sessions (duplicates included). */
  diagnostics: DiagnosticCounts;
}

/** Statistics of one agent type across sessions. */
export interface AgentStats {
  /** `subagent_type` of the spawning call (or the meta/result agent type). */
  agentType: string;
  /** Sidechains of this type. */
  invocations: number;
  /** Median number of entries of a sidechain whose transcript is there (0 when none is). */
  medianEntries: number;
  /** Sidechains whose transcript is missing (their entries are not counted in `medianEntries`). */
  withoutTranscript?: number;
  /** Of those, what their spawns report: the reported part of `tokens` and `cost`; absent when none. */
  reportedBySpawn?: ReportedRuns;
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
  /** Input + output + cache creation + cache read tokens of all invocations (reported runs at their report). */
  tokens: number;
  /** Tokens of the invocations' API responses, by kind. */
  usage: Usage;
  /** What all invocations cost (reported runs at their report). */
  cost: Cost;
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

/**
 * Cost totals of `cctrail stats`: `total` counts API responses and the runs without a transcript (once, at what
 * their spawns report); the breakdowns per day, model and project count API responses, as the report shows them.
 */
export interface StatsCostTotals extends CostTotals {
  /**
   * The reported part of `total`: what the spawns of runs without a transcript report (in no breakdown); absent
   * when none.
   */
  reportedBySpawn?: Cost;
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
  /** Cost per UTC day, model and project, with the price table it was computed with. */
  cost: StatsCostTotals;
  /**
   * Conversations that span several files (continued, resumed, forked or copied), with their totals counted once
   * over the joined files (`cctrail stats`; see `findConversations`).
   */
  conversations?: Conversation[];
  /** Input paths that were not read (`skipped-path` diagnostics: the path and why); absent when none. */
  diagnostics?: Diagnostic[];
}
