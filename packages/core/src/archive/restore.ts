/**
 * Gives a structure-only entry or metadata record its content back, from the text of its source line.
 */
import type { Entry } from '../model/entry.js';
import { normalizeEntry } from '../normalize/entries.js';
import { parseLine, type RawRecord } from '../read/records.js';

/**
 * Restores the content of an entry built with `content: false`, from the text of its source line: content
 * blocks, `toolUseResult` and extra fields come from the line; everything the analysis decided (links, kind,
 * actor, epoch, sidechain, active, branch point) is kept from `lean`. Returns `lean` itself when the line no
 * longer holds the record.
 *
 * @param lean An entry of a session built with `content: false`.
 * @param line The text of the line at `lean.source`.
 */
export function withContent(lean: Entry, line: string): Entry {
  const record = recordAt(line, lean.source.part ?? 0);
  if (!record || record.uuid !== lean.uuid) return lean;
  const full = normalizeEntry(record, lean.source);
  return {
    ...lean,
    content: full.content,
    extra: full.extra,
    ...(full.toolUseResult === undefined ? {} : { toolUseResult: full.toolUseResult }),
  };
}

/**
 * The record verbatim, from the text of its source line (for metadata kept lean).
 *
 * @param line The text of the line.
 * @param part The record's index on the line (`SourceRef.part`, 0 when not glued).
 */
export function recordAt(line: string, part: number): RawRecord | null {
  const parsed = parseLine(line);
  return parsed.kind === 'records' ? (parsed.records[part] ?? null) : null;
}
