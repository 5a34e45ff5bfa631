/**
 * The lines appended to a running session, sorted for the live path of `cctrail serve` and `report --watch`:
 * the records go to the transcript's live window (drawn by the report's own renderer, `live-window.ts`); a line
 * that is not a record becomes a visible note with its file and line (the rebuilt page lists it among the
 * session's diagnostics); what cannot be shown as an append (a rewind that forks, a compaction) is told to the
 * caller, which rebuilds the session.
 */

import type { Line } from '@cctrail/core';

/** A note on an appended line that is not a record, rendered. */
export interface TailItem {
  /** The note's element id (`live-line-<n>`). */
  id: string;
  /** Its HTML, everything escaped. */
  html: string;
  /** Byte offset of its line in the file. */
  offset: number;
}

/** What a batch of appended lines gave. */
export interface TailBatch {
  /** The text of the records, in file order. */
  records: string[];
  /** Notes on the lines that are not records. */
  notes: TailItem[];
  /** Set when the lines change more than the end of the transcript: the session must be rebuilt. */
  rebuild?: 'fork' | 'compaction';
  /** The uuid of the last record seen (the parent the next append should name). */
  last: string | null;
}

/**
 * Sorts appended lines.
 *
 * @param lines Whole lines, as `readOn` gives them.
 * @param context The file (for notes), the uuid of the record before the lines, and the report's `escapeHtml`.
 */
export function tailEntries(
  lines: readonly Line[],
  context: { file: string; last: string | null; escape: (text: string) => string },
): TailBatch {
  const records: string[] = [];
  const notes: TailItem[] = [];
  let last = context.last;
  let rebuild: TailBatch['rebuild'];
  for (const line of lines) {
    if (line.text.trim() === '') continue;
    let record: unknown;
    try {
      record = line.oversize ? undefined : JSON.parse(line.text);
    } catch {
      record = undefined;
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      notes.push(note(line, context, line.oversize ? 'is too long to show live' : 'is not a JSON record'));
      continue;
    }
    records.push(line.text);
    const r = record as Record<string, unknown>;
    const uuid = typeof r.uuid === 'string' ? r.uuid : null;
    if (uuid === null) continue;
    const parent = typeof r.parentUuid === 'string' ? r.parentUuid : null;
    if (r.type === 'system' && r.subtype === 'compact_boundary') rebuild ??= 'compaction';
    else if (last !== null && parent !== null && parent !== last) rebuild ??= 'fork';
    last = uuid;
  }
  return { records, notes, last, ...(rebuild ? { rebuild } : {}) };
}

function note(
  line: Line,
  context: { file: string; escape: (text: string) => string },
  what: string,
): TailItem {
  const id = `live-line-${line.number}`;
  const esc = context.escape;
  const html = `<p class="diag diag--warning" id="${esc(id)}">${esc(context.file)}:${line.number} ${esc(what)}; it is checked when the session is rebuilt.</p>`;
  return { id, html, offset: line.offset };
}
