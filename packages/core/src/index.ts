/**
 * @cctrail/core — reads Claude Code transcripts of every era and builds their session DAG: `buildSession`, the
 * model, its queries and diagnostics. It does no I/O of its own: the Node.js file reader and discovery are in
 * `@cctrail/core/node`; what spans sessions (an archive's files and index, totals, cost, statistics, duplicates,
 * conversations) is in `@cctrail/core/archive`.
 *
 * @example
 * ```ts
 * import { buildSession } from '@cctrail/core';
 * import { discover, sessionSource } from '@cctrail/core/node';
 * const { projects } = await discover(['~/.claude/projects']);
 * const session = await buildSession(await sessionSource(projects[0].sessions[0]));
 * ```
 */

export { type ForkClass, type ForkCounts, forkClass } from './analyses/fork-kinds.js';
export {
  activeEntries,
  branchEntries,
  childrenOf,
  sidechainEntries,
  toolCallsIn,
} from './analyses/queries.js';
export {
  type Reread,
  type RereadsAfterCompaction,
  rereadsAfterCompactions,
} from './analyses/rereads.js';
export { sessionTitle } from './analyses/title.js';
export { DIAGNOSTICS, type Diagnostic, type DiagnosticCode, type Severity } from './diagnostics.js';
export { contextTokens, emptyUsage, totalTokens } from './graph/usage.js';
export type { AgentAnswer, WorkflowPhase, WorkflowRun } from './model/agents.js';
export type { ClaudeCodeCost, Cost, SessionCost } from './model/cost.js';
export type {
  Actor,
  ContentBlock,
  Entry,
  EntryKind,
  MessageInfo,
  MetadataRecord,
  SidechainStorage,
  SourceRef,
  ToolResultItem,
  Usage,
} from './model/entry.js';
export {
  type Branch,
  type BranchPoint,
  type Compaction,
  type Epoch,
  type ForkKind,
  type LineAccounting,
  SCHEMA_VERSION,
  type Session,
  type SessionFile,
  type Sidechain,
  type SidechainLink,
  type SpawnReport,
  type ToolCall,
  type UsageBreakdown,
} from './model/session.js';
export type { Line } from './read/read-lines.js';
export {
  checkResume,
  type FileNow,
  pointAfterLines,
  type ResumeCheck,
  type ResumePoint,
  readOn,
} from './read/resume-lines.js';
export { buildSession } from './session.js';
export type { AgentMetaSource, BuildOptions, SessionSource, TranscriptSource } from './source.js';
