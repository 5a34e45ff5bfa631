/**
 * @cctrail/core — reads Claude Code transcripts of every era and builds their session DAG. It does no I/O of its
 * own: the Node.js file reader and discovery are in `@cctrail/core/node`.
 *
 * @example
 * ```ts
 * import { buildSession } from '@cctrail/core';
 * import { discover, sessionSource } from '@cctrail/core/node';
 * const { projects } = await discover(['~/.claude/projects']);
 * const session = await buildSession(await sessionSource(projects[0].sessions[0]));
 * ```
 */

export {
  activeEntries,
  activePath,
  ancestors,
  branchEntries,
  childrenOf,
  sidechainEntries,
  subtree,
  toolCallsIn,
} from './analyses/queries.js';
export {
  CHARS_PER_TOKEN,
  READ_TOOLS,
  type Reread,
  type RereadsAfterCompaction,
  rereadsAfterCompactions,
} from './analyses/rereads.js';
export { sessionTitle } from './analyses/title.js';
export type {
  ArchiveIndex,
  ArchiveProject,
  ArchiveSession,
  ArchiveSessionSummary,
} from './archive/archive-index.js';
export {
  findDuplicates,
  markDuplicates,
  type ResponseUsage,
  responseUsages,
  totalUsage,
  type UuidSet,
  usageAcross,
} from './archive/duplicates.js';
export { sessionJson } from './archive/serialize.js';
export {
  type AgentPatterns,
  type AgentStats,
  type ArchiveStats,
  archiveStats,
  type CompactionCounts,
  type CompactionStats,
  combineStats,
  type DiagnosticCounts,
  type SessionStats,
  type SidechainStats,
  type StatsDigest,
  type StatsTotals,
  sessionStats,
  statsDigest,
  type ToolCounts,
} from './archive/stats.js';
export { DIAGNOSTICS, type DiagnosticCode } from './diagnostics.js';
export { addUsage, contextTokens, emptyUsage, totalTokens } from './graph/usage.js';
export {
  type Actor,
  type Branch,
  type BranchPoint,
  type Compaction,
  type ContentBlock,
  type Diagnostic,
  type Entry,
  type EntryKind,
  type Epoch,
  type ForkKind,
  type LineAccounting,
  type MessageInfo,
  type MetadataRecord,
  SCHEMA_VERSION,
  type Session,
  type SessionFile,
  type Severity,
  type Sidechain,
  type SidechainLink,
  type SidechainStorage,
  type SourceRef,
  type ToolCall,
  type ToolResultItem,
  type Usage,
  type UsageBreakdown,
} from './model.js';
export { type Line, readLines } from './read/read-lines.js';
export { buildSession } from './session.js';
export type { AgentMetaSource, BuildOptions, SessionSource, TranscriptSource } from './source.js';
