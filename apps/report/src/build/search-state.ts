import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { WEIGHTS } from '../views/search/search-codec.js';
import { mergeTerms, type PieceTerms } from './search-files.js';

/**
 * What a build of the transcript index keeps for the next one, in the cache folder:
 *
 * - `search-index.json`: of each piece it merged (`search-pieces.ts`), by the piece's cache key, its number of
 *   entries and what its files of entries were (their names and digests);
 * - `search-blocks/<digest>.txt.br`: the terms of blocks of consecutive pieces, merged (`blocksOf`), each written
 *   once (compressed at Brotli's fastest quality, as the pieces: the report's cache stays under 0.45 × its input,
 *   BENCHMARKS.md), with the groups of each term's postings (`PieceTerms.e`, `groupsText`); `<digest>.txt`, the
 *   same text not compressed, when compressing does not halve it (a rebuild reads every kept block: decompressing
 *   costs more than reading the bytes it would save).
 *
 * A rebuild after one session changed thus reads no piece but those of the changed one's block, merges again that
 * block and then the blocks (reading no further than each group's first posting of a block, its groups being
 * kept), and makes again only the changed session's files of entries: the others are known unchanged by their
 * digests. A piece's key names its content (`searchPieceKey`), a block's the keys of its
 * pieces, so what is kept under a key is true of anything of that key.
 */

/** What the next build knows of a piece. */
export interface PieceRecord {
  /** The piece's cache key. */
  k: string;
  /** The link of the session's first page ('' for a piece without entries). */
  s: string;
  /** Its number of entries. */
  n: number;
  /** The name of its files of entries (`docsNames`) and each file's path and digest, once written. */
  m?: string;
  f?: [string, string][];
}

/** The terms of consecutive pieces, merged (`mergeTerms`). */
interface BlockRecord extends PieceTerms {
  /** A digest of its pieces' keys. */
  b: string;
  /** Its terms and their postings, as JSON text when this build merged them (to be kept). */
  text?: string;
}

/** Pieces in a block, about: a block ends after a piece whose key says so (not its place: see `blocksOf`). */
const BLOCK = 16;
const VERSION = 1;
/** Of a block's digest: blocks written before their groups were kept are not read (they would never be again). */
const BLOCK_FORMAT = 'groups';
const BLOCKS = 'search-blocks';
/** Brotli's fastest quality. */
const FASTEST = { params: { [constants.BROTLI_PARAM_QUALITY]: 0 } };

function stateFile(cacheDir: string): string {
  return join(cacheDir, 'search-index.json');
}

/** A block's file: compressed (`.txt.br`) or not (`.txt`, see `blockBytes`). */
function blockFile(cacheDir: string, b: string, compressed: boolean): string {
  return join(cacheDir, BLOCKS, compressed ? `${b}.txt.br` : `${b}.txt`);
}

/**
 * What a block's file holds: its text compressed at Brotli's fastest quality when that at least halves it (the
 * file is then `.txt.br`), else its text (`.txt`).
 */
function blockBytes(text: string): { bytes: Uint8Array; compressed: boolean } {
  const raw = Buffer.from(text);
  const packed = brotliCompressSync(raw, FASTEST);
  return 2 * packed.length <= raw.length
    ? { bytes: packed, compressed: true }
    : { bytes: raw, compressed: false };
}

/** The pieces the last build merged, by key (none without a state, or one this version cannot read). */
export function readSearchState(cacheDir: string): Map<string, PieceRecord> {
  try {
    const state = JSON.parse(readFileSync(stateFile(cacheDir), 'utf8')) as {
      v: number;
      pieces: PieceRecord[];
    };
    if (state.v === VERSION && Array.isArray(state.pieces)) return new Map(state.pieces.map((p) => [p.k, p]));
  } catch {
    // none yet, or damaged: every piece is read
  }
  return new Map();
}

/**
 * Keeps what this build merged for the next: the pieces' records (atomically: a build stopped while writing leaves
 * the last ones, still true of their pieces), the blocks merged now, and no other block.
 */
export function writeSearchState(
  cacheDir: string,
  pieces: readonly PieceRecord[],
  blocks: readonly BlockRecord[],
): void {
  mkdirSync(join(cacheDir, BLOCKS), { recursive: true });
  const used = new Set<string>();
  for (const block of blocks) {
    used.add(`${block.b}.txt.br`).add(`${block.b}.txt`);
    if (block.text === undefined) continue;
    const { bytes, compressed } = blockBytes(`${block.n}\n${block.text}\n${groupsText(block)}`);
    atomically(blockFile(cacheDir, block.b, compressed), bytes);
  }
  // Blocks of earlier versions too (gzip).
  for (const name of readdirSync(join(cacheDir, BLOCKS)))
    if (!used.has(name) && /^[0-9a-f]{40}\.txt(?:\.gz|\.br)?$/.test(name))
      rmSync(join(cacheDir, BLOCKS, name), { force: true });
  atomically(stateFile(cacheDir), JSON.stringify({ v: VERSION, pieces }));
}

function atomically(file: string, bytes: string | Uint8Array): void {
  const temporary = `${file}.tmp-${process.pid}`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
}

/** Numbers kept of a term's groups: `PostingsMerge.groupEnds`. */
const ENDS = 2 * WEIGHTS;

/**
 * The groups of a block's terms (`PieceTerms.e`), as base64 text of `ENDS` numbers a term: those of
 * `groupEnds`, or zeros for a term whose groups the merge did not write (a term of one piece, or none known).
 */
function groupsText(block: BlockRecord): string {
  const all = new Int32Array(block.t.length * ENDS);
  block.e?.forEach((ends, i) => {
    if (ends) all.set(ends, i * ENDS);
  });
  return Buffer.from(all.buffer, all.byteOffset, all.byteLength).toString('base64');
}

/** The groups `groupsText` wrote for `terms` terms: null for a term whose groups are not known. */
function groupsOf(text: string, terms: number): (Int32Array | null)[] {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== terms * ENDS * 4) throw new Error('the groups do not match the terms');
  // Copied: a buffer Node decodes into may start anywhere in its pool, where 32-bit numbers cannot be read.
  const all = new Int32Array(new Uint8Array(bytes).buffer);
  const e: (Int32Array | null)[] = [];
  for (let i = 0; i < terms; i++) {
    // Every term has a posting: a group of some length.
    const ends = all.subarray(i * ENDS, (i + 1) * ENDS);
    let length = 0;
    for (let g = 0; g < WEIGHTS; g++) length += ends[g] as number;
    e.push(length > 0 ? ends : null);
  }
  return e;
}

/** A block kept by an earlier build (null when there is none, or it cannot be read). */
function keptBlock(cacheDir: string, b: string): BlockRecord | null {
  try {
    const text = blockText(cacheDir, b);
    const line = text.indexOf('\n');
    // JSON text holds no line break: the last one ends the terms.
    const groups = text.lastIndexOf('\n');
    const t = JSON.parse(text.slice(line + 1, groups)) as [string, string][];
    return { b, n: Number(text.slice(0, line)), t, e: groupsOf(text.slice(groups + 1), t.length) };
  } catch {
    return null;
  }
}

/** A kept block's text, from its file as `blockBytes` wrote it (throws when there is none). */
function blockText(cacheDir: string, b: string): string {
  try {
    return readFileSync(blockFile(cacheDir, b, false), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return brotliDecompressSync(readFileSync(blockFile(cacheDir, b, true))).toString('utf8');
}

function digest(text: string): Buffer {
  return createHash('sha1').update(text).digest();
}

/**
 * The pieces, in order, as blocks of consecutive pieces with their terms merged: the blocks an earlier build
 * merged are read as they are. A block ends after a piece whose key's digest says so, so that a piece that
 * changes, comes or goes changes its own block only, wherever it is: a rebuild merges again that block's pieces.
 *
 * @param terms A piece's terms and their postings, as JSON text (read from its piece).
 */
export function blocksOf(
  cacheDir: string,
  pieces: readonly PieceRecord[],
  terms: (piece: PieceRecord) => string,
): BlockRecord[] {
  const blocks: BlockRecord[] = [];
  let run: PieceRecord[] = [];
  const close = () => {
    if (run.length === 0) return;
    const b = digest([BLOCK_FORMAT, ...run.map((r) => r.k)].join('\n')).toString('hex');
    const kept = keptBlock(cacheDir, b);
    if (kept) blocks.push(kept);
    else {
      // Its terms' groups, known to the merge of the blocks (a kept block's are read from its text).
      const e: (Int32Array | null)[] = [];
      const merged = mergeTerms(
        run.map((r) => ({ n: r.n, t: JSON.parse(terms(r)) as [string, string][] })),
        e,
      );
      blocks.push({ b, n: merged.n, t: merged.t, e, text: JSON.stringify(merged.t) });
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
