/**
 * A uuid written again: Claude Code rewrites a line on resume (the same record, byte for byte), which is only
 * noted; a copy with other content is a different record under a taken uuid, and its diagnostic keeps the raw
 * text of its line, as every line that does not become an entry does.
 *
 * Copies are rare, so nothing is computed for a uuid seen once: the first copy's place is kept, and only when a
 * uuid comes again is the first copy's line read back from its file (`settle`) and the two compared.
 */

import { type Diagnostic, diagnostic } from '../diagnostics.js';
import type { SourceRef } from '../model/entry.js';
import type { TranscriptSource } from '../source.js';
import { decodeFull, type ReadOptions } from './read-lines.js';
import { readableLineBatches } from './readable-lines.js';
import { parseLine } from './records.js';

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

/** Where the first copy of a uuid is: the index of its file in the session and its source. */
export interface FirstCopy {
  file: number;
  source: SourceRef;
}

/** A later copy whose diagnostic waits for the first copy's text. */
interface Copy {
  uuid: string;
  ref: SourceRef;
  text: string;
  first: FirstCopy;
  /** Index of its diagnostic's place in the session's diagnostics. */
  at: number;
}

/**
 * The uuids of a session's entries, for finding the lines that write one again. `note` keeps the entry of each
 * first copy; a copy's diagnostic is written by `settle`, once every file is read, in the place `hold` kept for
 * it where the copy was read.
 */
export class UuidCopies {
  /** The uuids read so far: the entry index of the first copy. */
  private readonly seen = new Map<string, number>();
  private readonly copies: Copy[] = [];

  /** uuid → index of the entry of its first copy, for every entry read (each entry's uuid is its own). */
  get entries(): ReadonlyMap<string, number> {
    return this.seen;
  }

  /**
   * Notes an entry's uuid: returns -1 the first time, the index of the first copy's entry for a copy (whose
   * diagnostic `hold` then keeps a place for).
   *
   * @param uuid The entry's uuid.
   * @param entry The index the entry will have when it is the first copy.
   */
  note(uuid: string, entry: number): number {
    const first = this.seen.get(uuid);
    if (first !== undefined) return first;
    this.seen.set(uuid, entry);
    return -1;
  }

  /**
   * Keeps the place of a copy's diagnostic in the session's diagnostics, to be written by `settle`.
   *
   * @param uuid The copy's uuid.
   * @param ref Where the copy's line is.
   * @param text The copy's line (or its glued record's JSON).
   * @param first Where the first copy is.
   * @param diagnostics The session's diagnostics.
   */
  hold(uuid: string, ref: SourceRef, text: string, first: FirstCopy, diagnostics: Diagnostic[]): void {
    this.copies.push({ uuid, ref, text, first, at: diagnostics.length });
    diagnostics.push(copyDiagnostic(uuid, ref, null));
  }

  /**
   * Writes the diagnostic of each copy: the first copy's line is read again from its file (as it was read, with
   * the same options) and compared with the copy by fingerprint. When it cannot be read again, the copy keeps its
   * text, as one with other content does.
   *
   * @param files The session's transcript files, by index.
   * @param options The options they were read with.
   * @param diagnostics The session's diagnostics.
   */
  async settle(
    files: readonly TranscriptSource[],
    options: ReadOptions,
    diagnostics: Diagnostic[],
  ): Promise<void> {
    if (this.copies.length === 0) return;
    const byFile = new Map<number, Copy[]>();
    for (const copy of this.copies) {
      const list = byFile.get(copy.first.file) ?? [];
      list.push(copy);
      byFile.set(copy.first.file, list);
    }
    for (const [file, copies] of byFile) {
      const source = files[file];
      const texts = source
        ? await lineTexts(source, options, new Set(copies.map((c) => c.first.source.line)))
        : new Map();
      for (const copy of copies) {
        const first = texts.get(copy.first.source.line)?.[copy.first.source.part ?? 0];
        const same = first !== undefined && lineFingerprint(first) === lineFingerprint(copy.text);
        diagnostics[copy.at] = copyDiagnostic(copy.uuid, copy.ref, same ? null : copy.text);
      }
    }
    this.copies.length = 0;
  }
}

/** The diagnostic of a copy: without its text when it is the same record, with it (`raw`) when not. */
function copyDiagnostic(uuid: string, ref: SourceRef, raw: string | null): Diagnostic {
  if (raw === null)
    return diagnostic('duplicate-uuid', ref.file, ref.line, {
      uuid,
      message: `Uuid ${uuid} was written again; the first copy is kept.`,
    });
  return diagnostic('duplicate-uuid', ref.file, ref.line, {
    uuid,
    raw,
    message: `Uuid ${uuid} was written again with other content; the first copy is kept, this line's text is here.`,
  });
}

/**
 * The texts the session reader took of some lines of a file, by line number: one per record on the line (each
 * glued record's JSON), the line decoded whole when its shrunk text did not parse.
 */
async function lineTexts(
  source: TranscriptSource,
  options: ReadOptions,
  numbers: ReadonlySet<number>,
): Promise<Map<number, string[]>> {
  const texts = new Map<number, string[]>();
  for await (const batch of readableLineBatches(source, options, [])) {
    for (const line of batch) {
      if (!numbers.has(line.number)) continue;
      let text = line.text;
      let parsed = parseLine(text);
      if (line.full && parsed.kind !== 'records') {
        text = decodeFull(line.full);
        parsed = parseLine(text);
      }
      if (parsed.kind !== 'records') continue;
      texts.set(line.number, parsed.glued ? parsed.records.map((r) => JSON.stringify(r)) : [text]);
    }
  }
  return texts;
}
