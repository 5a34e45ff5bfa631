import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a build of the transcript index keeps for the next one (`search-index.txt` in the cache folder, not compressed: it is read and
 * written whole by every build, and is about a fifth of the pieces' size, BENCHMARKS.md): of each
 * piece it merged (`search-pieces.ts`), by the piece's cache key, what the files of terms need (its number of
 * entries and its terms, as the piece writes them) and what its files of entries were (their names and
 * digests). A rebuild after one session changed thus reads and merges the terms of the others from one file,
 * and makes again only the changed session's files of entries: the others are known unchanged by their digests.
 *
 * The file is a line of its version, then two lines a piece: `PieceRecord` without `t` as JSON, then `t`.
 * A key names a piece's content (`searchPieceKey`), so a record is true of any piece of the same key.
 */

/** What the next build knows of a piece. */
export interface PieceRecord {
  /** The piece's cache key. */
  k: string;
  /** The link of the session's first page ('' for a piece without entries). */
  s: string;
  /** Its number of entries. */
  n: number;
  /** Its terms and their postings, as JSON text (`[[term, postings], …]`). */
  t: string;
  /** The name of its files of entries (`docsNames`) and each file's path and digest, once written. */
  m?: string;
  f?: [string, string][];
}

const VERSION = 'cctrail search state 1';

function stateFile(cacheDir: string): string {
  return join(cacheDir, 'search-index.txt');
}

/** The records of the last build, by key (none when there is no state, or one this version cannot read). */
export function readSearchState(cacheDir: string): Map<string, PieceRecord> {
  const records = new Map<string, PieceRecord>();
  let lines: string[];
  try {
    lines = readFileSync(stateFile(cacheDir), 'utf8').split('\n');
  } catch {
    return records;
  }
  if (lines[0] !== VERSION) return records;
  try {
    for (let i = 1; i + 1 < lines.length; i += 2) {
      const record = JSON.parse(lines[i] as string) as PieceRecord;
      record.t = lines[i + 1] as string;
      records.set(record.k, record);
    }
  } catch {
    records.clear();
  }
  return records;
}

/**
 * Keeps the records of this build for the next (atomically: a build stopped while writing leaves the last one,
 * whose records are still true of their pieces).
 */
export function writeSearchState(cacheDir: string, records: readonly PieceRecord[]): void {
  const parts = [VERSION];
  for (const { t, ...rest } of records) parts.push(JSON.stringify(rest), t);
  const file = stateFile(cacheDir);
  const temporary = `${file}.tmp-${process.pid}`;
  writeFileSync(temporary, parts.join('\n'));
  renameSync(temporary, file);
}
