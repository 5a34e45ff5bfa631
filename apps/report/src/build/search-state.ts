import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeTerms } from './search-files.js';

/**
 * What a build of the transcript index keeps for the next one (`search-index.txt` in the cache folder, not
 * compressed: it is read and written whole by every build, BENCHMARKS.md): of each piece it merged
 * (`search-pieces.ts`), by the piece's cache key, what the files of terms need (its number of entries and its
 * terms, as the piece writes them) and what its files of entries were (their names and digests); and the terms of
 * blocks of consecutive pieces, merged (`blocksOf`). A rebuild after one session changed thus reads no piece but
 * the changed one, merges again only its block and then the blocks, and makes again only the changed session's
 * files of entries: the others are known unchanged by their digests.
 *
 * The file is a line of its version, then two lines a record: the record without `t` as JSON, then `t`. A
 * piece's key names its content (`searchPieceKey`), a block's the keys of its pieces, so a record is true of
 * anything of the same key.
 */

/** The terms of consecutive pieces, merged (`mergeTerms`). */
export interface BlockRecord {
  /** A digest of its pieces' keys. */
  b: string;
  /** Its number of entries. */
  n: number;
  /** Its terms and their postings, as JSON text. */
  t: string;
}

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

const VERSION = 'cctrail search state 2';

/** Pieces in a block, about: a block ends after a piece whose key says so (not its place: see `blocksOf`). */
const BLOCK = 16;

function stateFile(cacheDir: string): string {
  return join(cacheDir, 'search-index.txt');
}

/** What the last build kept: pieces and blocks by key (none without a state, or one this version cannot read). */
export function readSearchState(cacheDir: string): {
  pieces: Map<string, PieceRecord>;
  blocks: Map<string, BlockRecord>;
} {
  const pieces = new Map<string, PieceRecord>();
  const blocks = new Map<string, BlockRecord>();
  let lines: string[];
  try {
    lines = readFileSync(stateFile(cacheDir), 'utf8').split('\n');
  } catch {
    return { pieces, blocks };
  }
  if (lines[0] !== VERSION) return { pieces, blocks };
  try {
    for (let i = 1; i + 1 < lines.length; i += 2) {
      const record = JSON.parse(lines[i] as string) as PieceRecord | BlockRecord;
      record.t = lines[i + 1] as string;
      if ('b' in record) blocks.set(record.b, record);
      else pieces.set(record.k, record);
    }
  } catch {
    pieces.clear();
    blocks.clear();
  }
  return { pieces, blocks };
}

/**
 * Keeps the records of this build for the next (atomically: a build stopped while writing leaves the last one,
 * whose records are still true of their pieces).
 */
export function writeSearchState(
  cacheDir: string,
  pieces: readonly PieceRecord[],
  blocks: readonly BlockRecord[],
): void {
  const parts = [VERSION];
  for (const { t, ...rest } of [...pieces, ...blocks]) parts.push(JSON.stringify(rest), t);
  const file = stateFile(cacheDir);
  const temporary = `${file}.tmp-${process.pid}`;
  writeFileSync(temporary, parts.join('\n'));
  renameSync(temporary, file);
}

function digest(text: string): Buffer {
  return createHash('sha1').update(text).digest();
}

/**
 * The pieces, in order, as blocks of consecutive pieces with their terms merged: the blocks the last build merged
 * are taken as they are. A block ends after a piece whose key's digest says so, so that a piece that changes, comes
 * or goes changes its own block only, wherever it is: a rebuild merges again that block's pieces, then the blocks.
 */
export function blocksOf(
  pieces: readonly PieceRecord[],
  known: ReadonlyMap<string, BlockRecord>,
): BlockRecord[] {
  const blocks: BlockRecord[] = [];
  let run: PieceRecord[] = [];
  const close = () => {
    if (run.length === 0) return;
    const b = digest(run.map((r) => r.k).join('\n')).toString('hex');
    const block = known.get(b);
    if (block) blocks.push(block);
    else {
      const merged = mergeTerms(run.map((r) => ({ n: r.n, t: JSON.parse(r.t) as [string, string][] })));
      blocks.push({ b, n: merged.n, t: JSON.stringify(merged.t) });
    }
    run = [];
  };
  for (const piece of pieces) {
    run.push(piece);
    if ((digest(piece.k)[0] as number) % BLOCK === 0) close();
  }
  close();
  return blocks;
}
