/**
 * Checks of values a record carries that cctrail would otherwise take as data: a timestamp that names no
 * instant, token counts out of range. Each becomes a diagnostic; the record is still read (the value is left out).
 */

import { type Diagnostic, diagnostic } from '../diagnostics.js';
import type { SourceRef } from '../model/entry.js';
import type { RawRecord } from './records.js';
import { timestampOrNull } from './timestamps.js';
import { tokenCountsOutOfRange } from './token-counts.js';

/**
 * Adds a diagnostic for each value of the record that is out of range.
 *
 * @param record A record as written.
 * @param ref Where it was.
 * @param diagnostics The session's diagnostics.
 */
export function checkRecordValues(record: RawRecord, ref: SourceRef, diagnostics: Diagnostic[]): void {
  const time = record.timestamp;
  if (time !== undefined && time !== null && timestampOrNull(time) === null) {
    diagnostics.push(
      diagnostic('invalid-timestamp', ref.file, ref.line, {
        ...uuidOf(record),
        message: `The timestamp ${String(JSON.stringify(time)).slice(0, 80)} is not a valid date; the record has no time.`,
      }),
    );
  }
  const outOfRange = tokenCountsOutOfRange(record);
  if (outOfRange.length > 0) {
    diagnostics.push(
      diagnostic('number-out-of-range', ref.file, ref.line, {
        ...uuidOf(record),
        message: `Token counts out of range were counted as 0: ${outOfRange.join(', ')}.`,
      }),
    );
  }
}

/** The record's uuid as a diagnostic's field, when it has one. */
function uuidOf(record: RawRecord): { uuid?: string } {
  return typeof record.uuid === 'string' ? { uuid: record.uuid } : {};
}
