/**
 * The seeds' `compact_system` records (FORMAT.md §11): a compaction written as its own record, whose phase and
 * metadata the compaction analysis reads, and where in the session it was written.
 */

import type { SourceRef } from '../model/entry.js';
import type { RawRecord } from './records.js';

/** A record of the seeds' `compact_system` type, where it was read (FORMAT.md §11). */
export interface SeedCompactionEvent {
  /** `conversation_compacting`, `conversation_compacted` or `conversation_restored`. */
  phase: string;
  /** Index of the first entry read after the record. */
  before: number;
  metadata: Record<string, unknown>;
  uuid: string | null;
  source: SourceRef;
}

/**
 * The event of a `compact_system` record.
 *
 * @param record The record as written.
 * @param ref Where it was read.
 * @param before The index of the first entry read after it.
 * @param uuid Its uuid when it is an entry, else null.
 */
export function seedEvent(
  record: RawRecord,
  ref: SourceRef,
  before: number,
  uuid: string | null,
): SeedCompactionEvent {
  const phase =
    typeof record.message === 'string'
      ? record.message
      : typeof record.subtype === 'string'
        ? record.subtype
        : '';
  const metadata =
    typeof record.metadata === 'object' && record.metadata !== null
      ? (record.metadata as Record<string, unknown>)
      : {};
  return { phase, before, metadata, uuid, source: ref };
}
