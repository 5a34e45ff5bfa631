/**
 * The normalized session model: what @cctrail/core returns and what `cctrail export` writes (its entries are
 * in `entry.ts`).
 *
 * Everything here is plain JSON data (no classes, no Maps), so a `Session` can be serialized as it is.
 * Field names are stable: they are the export schema (`schemaVersion: 4`).
 */
import type { Diagnostic } from '../diagnostics.js';
import type { AgentAnswer, WorkflowRun } from './agents.js';
import type { SessionCost } from './cost.js';
import type { Entry, MetadataRecord, SidechainStorage, SourceRef, Usage } from './entry.js';

/** Version of every machine-readable shape cctrail writes. Bump on a breaking change. */
export const SCHEMA_VERSION = 4 as const;

/**
 * Why a node has several children. `rewind` and `retry` are real forks (they leave abandoned branches);
 * `side-command` and the rest are recording artefacts that leave nothing abandoned (see `forkClass`).
 */
export type ForkKind =
  /** The user re-prompted from an earlier point: two or more prompts (or continued commands) under one parent. */
  | 'rewind'
  /** A regenerated response: two or more responses (assistant or API error lines) to one parent. */
  | 'retry'
  /** Local slash commands (`/mcp`, `/status`, …) whose lines the conversation did not continue from. */
  | 'side-command'
  /** A tool call followed by its progress lines and its result. */
  | 'tool-progress'
  /** Parallel tool calls: the next tool_use of the same response beside a result. */
  | 'parallel-tools'
  /** Hook, attachment or system siblings. */
  | 'hook'
  /** The same content written again (compaction or resume replays). */
  | 'replay';

/** A node with more than one child. */
export interface BranchPoint {
  uuid: string;
  kind: ForkKind;
  /** Children in file order. */
  children: string[];
  /** For a real fork: the child on the active path (or the one that continues the latest leaf). */
  activeChild: string | null;
}

/** An abandoned branch: everything below one non-active child of a real fork. */
export interface Branch {
  /** The fork it leaves from. */
  branchPoint: string;
  /** First entry of the branch. */
  head: string;
  /** The deepest entry reached (last in file order). */
  leaf: string;
  entries: number;
  startedAt: string | null;
  endedAt: string | null;
}

/** How a sidechain was linked to its spawning Task/Agent call. */
export type SidechainLink =
  | 'agent-id'
  | 'meta-tool-use-id'
  | 'agent-progress'
  | 'parent-uuid'
  | 'prompt'
  | 'timestamp'
  /** A workflow agent, through its run folder and the Workflow call whose result names the run. */
  | 'workflow-run'
  | 'none';

/** A sub-agent conversation. */
export interface Sidechain {
  /** Stable id: `agent-<agentId>` for agent files, `inline-<root uuid>` for 1.0.x inline sidechains. */
  id: string;
  agentId: string | null;
  /** `subagent_type` of the spawning call, `agentType` of meta/result, or `unknown`. */
  agentType: string;
  description: string | null;
  /** `task`: spawned by a Task/Agent call; `warmup`: start-up agent; `compaction`: `agent-acompact-*`; `orphan`: nobody spawned it. */
  role: 'task' | 'warmup' | 'compaction' | 'orphan';
  storage: SidechainStorage;
  /** The agent file, or the session file for inline sidechains; null when the agent file is missing. */
  file: string | null;
  /** Spawning entry and its Task/Agent call (the call id is null for the seeds' sidechains hanging from a message). */
  spawn: { toolUseId: string | null; entryUuid: string } | null;
  link: SidechainLink;
  /** 1 for a sub-agent of the main conversation, 2 for its sub-agent, … */
  depth: number;
  /** Sidechain that spawned this one, null when spawned from the main conversation. */
  parentSidechain: string | null;
  /** Sidechains that ran overlapping in time share a group number; null when it ran alone. */
  parallelGroup: number | null;
  /**
   * `missing`: spawned, but its transcript is not there; `failed`: the spawn itself failed (an error result,
   * interrupted) and no agent ever ran.
   */
  status: 'completed' | 'error' | 'incomplete' | 'missing' | 'failed' | 'unknown';
  rootUuid: string | null;
  entries: number;
  startedAt: string | null;
  endedAt: string | null;
  usage: Usage;
  /** The agent's name (`name` of the spawn, teammates), when it has one. */
  name?: string;
  /** The team of a teammate (`team_name` of the spawn). */
  teamName?: string;
  /** The workflow run (`runId`) of a workflow agent. */
  workflowRun?: string;
  /** A background agent: launched asynchronously; its answer, when it came back. */
  background?: { answer: AgentAnswer | null };
  /** For a run whose transcript is not there: what its spawn's result reports of it (`SpawnReport`). */
  reported?: SpawnReport;
}

/**
 * What a Task/Agent call's result (`toolUseResult`) reports of the run it spawned, kept for a run whose
 * transcript is missing. Claude Code's `totalTokens` and `usage` are those of the agent's last API response
 * (its final context), not the run's sum: a lower bound of what the run consumed.
 */
export interface SpawnReport {
  /** `totalTokens`: tokens of the run's last response (input, cache and output), null when not written. */
  totalTokens: number | null;
  /** `totalDurationMs`, null when not written. */
  durationMs: number | null;
  /** `totalToolUseCount`, null when not written. */
  toolUses: number | null;
  /** `usage` of the run's last response (newer versions), null when not written. */
  usage: Usage | null;
  /** Model of the spawning response, which the last response is priced at (the agent's own is not written). */
  model: string | null;
}

/** A compaction event. */
export interface Compaction {
  /** Uuid of the boundary entry (null for the seeds' `compact_system` records written without a uuid). */
  uuid: string | null;
  source: SourceRef;
  /** `full` compaction (a new root), or the lighter in-place `micro` compaction. */
  kind: 'full' | 'micro';
  trigger: 'auto' | 'manual' | null;
  /** Record shape: current `compact_boundary`/`microcompact_boundary`, or the seeds' `compact_system`. */
  form: 'boundary' | 'microcompact' | 'seed';
  timestamp: string | null;
  preTokens: number | null;
  postTokens: number | null;
  /** The entry the conversation logically continues from (resolved), or null. */
  logicalParent: string | null;
  /** How `logicalParent` was found. */
  logicalParentResolution: 'in-file' | 'preserved-segment' | 'dangling' | 'none';
  /** The `isCompactSummary` entry that follows the boundary. */
  summaryUuid: string | null;
  /** Sidechain the compaction happened in, null for the main conversation. */
  sidechain: string | null;
  /** Epoch that starts here (full compactions), or the epoch it happened in (micro). */
  epoch: number;
  /** False when the compaction was torn mid-way (no summary, nothing after it). */
  complete: boolean;
}

/** A stretch of the conversation between two full compactions. */
export interface Epoch {
  index: number;
  /** Compaction that opened this epoch, null for the first. */
  compaction: string | null;
  entries: number;
  startedAt: string | null;
  endedAt: string | null;
  usage: Usage;
}

/** A tool call and its result. */
export interface ToolCall {
  id: string;
  name: string;
  /** Entry with the tool_use block, null for a result without a call. */
  callUuid: string | null;
  /** Entry with the tool_result block, null when the result is missing. */
  resultUuid: string | null;
  status: 'ok' | 'error' | 'missing-result' | 'result-without-call';
  /** Time from call to result, when both have timestamps. */
  durationMs: number | null;
  /** `message.id` of the response that made the call: calls sharing it form one batch. */
  batch: string | null;
  sidechain: string | null;
}

/** Usage broken down. Keys of the records are model names, epoch indices and sidechain ids. */
export interface UsageBreakdown {
  total: Usage;
  byModel: Record<string, Usage>;
  byEpoch: Record<string, Usage>;
  bySidechain: Record<string, Usage>;
  /** Usage of the main conversation (not in any sidechain). */
  main: Usage;
}

/** One API response: the assistant lines that share `message.id` + `requestId`, grouped. */
export interface ApiResponse {
  /** `message.id`, or null for lines written without one. */
  id: string | null;
  requestId: string | null;
  model: string | null;
  /** Uuids of its lines (one content block each), in file order. */
  entries: string[];
  /** Usage counted once: the largest value of each field over its lines. */
  usage: Usage;
  timestamp: string | null;
  sidechain: string | null;
  epoch: number;
  /** What it cost in USD (archive stage, see `priceSession`): null when the price table does not know its model. */
  cost?: number | null;
}

/** A file that belongs to a session. */
export interface SessionFile {
  path: string;
  /** `workflow`: a workflow run's snapshot or journal (run metadata, not a transcript). */
  role: 'main' | 'agent' | 'agent-meta' | 'workflow';
  lines: number;
  bytes: number;
}

/**
 * How every input line was used: `lines + recovered = entries + metadata + duplicates + blank + invalid`.
 */
export interface LineAccounting {
  lines: number;
  entries: number;
  metadata: number;
  /** Lines whose uuid was already seen (kept once). */
  duplicates: number;
  blank: number;
  /** Lines that became a diagnostic carrying their raw text. */
  invalid: number;
  /** Extra records recovered from glued lines (`}{`): counted in entries/metadata, not in lines. */
  recovered: number;
}

/** One session: a main transcript with its agent files, as a DAG. */
export interface Session {
  schemaVersion: typeof SCHEMA_VERSION;
  /** The session id (from the file name, else the most common `sessionId`). */
  id: string;
  /** Every distinct `sessionId` seen in the files. */
  sessionIds: string[];
  project: { slug: string | null; cwd: string | null };
  files: SessionFile[];
  title: string | null;
  /** What the person typed first (at most 2,000 characters). */
  firstPrompt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  versions: string[];
  models: string[];
  /** All entries: main file first, then agent files, each in file order. */
  entries: Entry[];
  metadata: MetadataRecord[];
  /** Entries with no parent (`parentUuid` null). */
  roots: string[];
  /** Entries whose parent is not in the session (treated as alternative roots). */
  orphans: string[];
  /** Uuid of the last entry of the active path (the conversation as it ended). */
  leaf: string | null;
  branchPoints: BranchPoint[];
  branches: Branch[];
  sidechains: Sidechain[];
  compactions: Compaction[];
  epochs: Epoch[];
  tools: ToolCall[];
  /** Assistant lines grouped into API responses, in file order of their first line. */
  responses: ApiResponse[];
  usage: UsageBreakdown;
  /**
   * Written by schema 3 and earlier only: the session that contains this one entirely. Since schema 4 a session
   * file holds only what its own transcripts say; this cross-session fact is in `index.json` alone. Readers
   * ignore it where an older file still has it.
   */
  duplicateOf?: string | null;
  diagnostics: Diagnostic[];
  accounting: LineAccounting;
  /** What the session cost, set by the archive stage (`priceSession`) before it is written. */
  cost?: SessionCost;
  /** Workflow runs of the session (only when it has some). */
  workflows?: WorkflowRun[];
  /** Records of each type, DAG entries and metadata alike (`user`, `summary`, `atis-latch`, …). */
  recordTypes?: Record<string, number>;
}
