/**
 * A uuid written again: Claude Code rewrites a line on resume (the same record, byte for byte), which is only
 * noted; a copy with other content is a different record under a taken uuid, and its diagnostic keeps the raw
 * text of its line, as every line that does not become an entry does.
 */

import { type Diagnostic, diagnostic } from '../diagnostics.js';
import type { SourceRef } from '../model/entry.js';

// Characters read from each end of a line for its fingerprint, and how many more are sampled in between.
const ENDS = 256;
const SAMPLES = 256;

/**
 * A cheap fingerprint of a line: its length and a hash of its first and last characters (where a record's
 * uuid, parent, type and timestamp are) and of characters sampled evenly in between. Two copies of one record
 * have the same; two records differ in length or in one of those characters but for a contrived case.
 *
 * @param text The line's text (or a glued record's JSON).
 */
function lineFingerprint(text: string): number {
  const mix = (hash: number, i: number) => Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  let hash = 0x811c9dc5 ^ text.length;
  const head = Math.min(ENDS, text.length);
  const tail = Math.max(head, text.length - ENDS);
  for (let i = 0; i < head; i++) hash = mix(hash, i);
  const step = Math.max(1, Math.floor((tail - head) / SAMPLES));
  for (let i = head; i < tail; i += step) hash = mix(hash, i);
  for (let i = tail; i < text.length; i++) hash = mix(hash, i);
  return hash >>> 0;
}

/**
 * Notes an entry's uuid: the first time, with its line's fingerprint, and returns null; for a copy, returns its
 * diagnostic.
 *
 * @param seen The uuids read so far, with their line's fingerprint.
 * @param uuid The entry's uuid.
 * @param ref Where the line is.
 * @param text The line (or a glued record's JSON).
 */
export function noteUuid(
  seen: Map<string, number>,
  uuid: string,
  ref: SourceRef,
  text: string,
): Diagnostic | null {
  const first = seen.get(uuid);
  if (first === undefined) {
    seen.set(uuid, lineFingerprint(text));
    return null;
  }
  if (lineFingerprint(text) === first)
    return diagnostic('duplicate-uuid', ref.file, ref.line, {
      uuid,
      message: `Uuid ${uuid} was written again; the first copy is kept.`,
    });
  return diagnostic('duplicate-uuid', ref.file, ref.line, {
    uuid,
    raw: text,
    message: `Uuid ${uuid} was written again with other content; the first copy is kept, this line's text is here.`,
  });
}
