/**
 * The record types cctrail knows (FORMAT.md), and which records are DAG entries: decided on the raw record, as
 * it is read.
 */
import type { RawRecord } from './records.js';

/** Record types of the seeds that are conversation entries (FORMAT.md §11). */
const SEED_ENTRY_TYPES = new Set([
  'human',
  'tool_use',
  'tool_result',
  'thinking',
  'compact_prelude',
  'compact_recap',
]);

const KNOWN_ENTRY_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'progress',
  'attachment',
  'compact_system',
  ...SEED_ENTRY_TYPES,
]);

/** Whether a record is a DAG entry (it has a uuid) rather than a metadata line. */
export function isEntryRecord(record: RawRecord): boolean {
  return typeof record.uuid === 'string' && record.uuid.length > 0;
}

/** Whether the record type is one cctrail knows. */
export function isKnownType(type: string): boolean {
  return KNOWN_ENTRY_TYPES.has(type) || KNOWN_METADATA_TYPES.has(type) || type.startsWith('artifact-');
}

const KNOWN_METADATA_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'pr-link',
  'permission-mode',
  'last-prompt',
  'compact_system',
  'mode',
  'ai-title',
  'custom-title',
  'agent-name',
  'agent-color',
  'agent-setting',
  'tag',
  'task-summary',
  'worktree-state',
  'content-replacement',
  'attribution-snapshot',
  'file-history-delta',
  'cost-state',
  'continued-in',
  'relocated',
  // 2.1.1xx–2.1.26x (FORMAT.md §13.5): metadata records kept as they are, counted in `Session.recordTypes`.
  'atis-latch',
  'frame-link',
  'history-suppression',
  'bridge-session',
  'marble-origami-commit',
  'marble-origami-snapshot',
  'speculation-accept',
  'fork-context-ref',
  'agent-notification',
  'task-notification',
]);
