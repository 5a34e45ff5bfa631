/**
 * The shapes the report reads: `@cctrail/core`'s session model and archive index (export schema version 1),
 * re-exported so every module of the report names them from one place.
 */
export type {
  Compaction,
  ContentBlock,
  Diagnostic,
  Entry,
  Session,
  Sidechain,
  ToolCall,
  ToolResultItem,
  Usage,
} from '@cctrail/core';
export type { ArchiveIndex, ArchiveProject, ArchiveSessionSummary } from '@cctrail/core/archive';
