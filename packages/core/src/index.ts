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

export { type ForkClass, type ForkCounts, forkClass, forkCounts, isRealFork } from './analyses/fork-kinds.js';
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
  ArchivedStatus,
  ArchiveIndex,
  ArchiveProject,
  ArchiveSessionSummary,
} from './archive/archive-index.js';
export { costDiffers } from './archive/claude-code-cost.js';
export type { ConversationDigest } from './archive/conversation-digest.js';
export type { ConversationInput } from './archive/conversation-input.js';
export type { FindConversationsOptions } from './archive/conversations.js';
export { conversationTotals, findConversations } from './archive/conversations.js';
export { costTotals, type ResponseCost, responseCosts } from './archive/cost-totals.js';
export {
  findDuplicates,
  type ResponseUsage,
  responseUsages,
  sessionDuplicates,
  totalUsage,
  type UuidSet,
  usageAcross,
} from './archive/duplicates.js';
export { PRICE_TABLE, responseCost } from './archive/prices.js';
export { type ReportedRuns, reportedCost, reportedRuns } from './archive/reported-runs.js';
export { sessionJson } from './archive/serialize.js';
export { addCost, emptyCost, priceSession, sessionCost, utcDay } from './archive/session-cost.js';
export { type StatsDigest, sessionStats, statsDigest } from './archive/session-stats.js';
export { archiveStats, combineStats } from './archive/stats.js';
export type {
  AgentPatterns,
  AgentStats,
  ArchiveStats,
  BranchCounts,
  CompactionCounts,
  CompactionStats,
  DiagnosticCounts,
  SessionStats,
  SidechainStats,
  StatsTotals,
  ToolCounts,
} from './archive/stats-shapes.js';
export type { TeammateDigest } from './archive/teammate-digest.js';
export { linkTeammates } from './archive/teammates.js';
export { DIAGNOSTICS, type Diagnostic, type DiagnosticCode, type Severity } from './diagnostics.js';
export { addUsage, contextTokens, emptyUsage, totalTokens } from './graph/usage.js';
export type { AgentAnswer, WorkflowPhase, WorkflowRun } from './model/agents.js';
export type {
  Conversation,
  ConversationMember,
  ConversationTotals,
  JoinedEpoch,
  JoinedForkCounts,
  SessionLink,
  SessionLinkKind,
} from './model/conversation.js';
export type { ClaudeCodeCost, Cost, CostTotals, PriceTable, SessionCost } from './model/cost.js';
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
export type { TeammateLink } from './model/teammate.js';
export { type Line, readLines } from './read/read-lines.js';
export {
  checkResume,
  FILE_START,
  type FileNow,
  pointAfterLines,
  type ResumeCheck,
  type ResumePoint,
  readOn,
} from './read/resume-lines.js';
export { buildSession } from './session.js';
export type { AgentMetaSource, BuildOptions, SessionSource, TranscriptSource } from './source.js';
