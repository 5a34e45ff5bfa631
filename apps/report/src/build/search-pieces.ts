import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { readPieceEntries } from '../views/search/search-piece.js';
import type { ManifestSession, SiteManifest } from '../views/site/site-model.js';
import { hasEntry, type PackWriter, readEntry } from './packs.js';
import { signatureOf } from './page-writer.js';
import {
  docsFiles,
  docsNames,
  type PieceDocs,
  type SearchIndex,
  searchMeta,
  termFiles,
} from './search-files.js';
import { blocksOf, type PieceRecord, readSearchState, writeSearchState } from './search-state.js';

/**
 * The transcript search index on disk. Each session's piece (`views/search/search-text.ts`) is cached in the pack
 * of its session with its fragments (`packs.ts`, an entry named by its key), at Brotli's quality 0: every cold
 * build writes and reads all of them, and gzip's fastest level cost three times its CPU to write for a tenth less
 * (uncompressed, the report's cache on the shared corpus would pass 0.4 × its input: BENCHMARKS.md "#26 search index,
 * seventh round"). A build merges the pieces of the archive, newest sessions first and duplicate copies left out,
 * into the index's files (`search-files.ts`).
 */

/**
 * Cache key of a session's search piece (its routes depend on the slugs, like its fragments). The session's key
 * holds the hash of the code that makes the piece (`build/code-keys.ts`), so no version is written here.
 */
export function searchPieceKey(projectSlug: string, s: Pick<ManifestSession, 'key' | 'slug'>): string {
  return `${s.key}-${projectSlug}-${s.slug}-search`;
}

/** True when the piece of `key` is cached (a session without text has the piece `null`). */
export function hasSearchPiece(cacheDir: string, key: string): boolean {
  return hasEntry(cacheDir, key);
}

/** True when the pack being written already holds the piece of `key`: it is kept, not made again. */
export function keepSearchPiece(pack: PackWriter, key: string): boolean {
  return pack.keep(key);
}

/** Brotli's fastest quality. */
const FASTEST = { params: { [constants.BROTLI_PARAM_QUALITY]: 0 } };

/** Caches a session's piece, its text or that text's UTF-8 bytes (`null`: nothing to search in it), in its pack. */
export function storeSearchPiece(pack: PackWriter, key: string, piece: string | Uint8Array | null): void {
  pack.put(key, brotliCompressSync(piece ?? 'null', FASTEST));
}

/** A file of the index the last build wrote: its digest, and its text, made again only when needed. */
interface KnownFile {
  name: string;
  signature: string;
  text: () => string;
}

/** The files of the transcript index of a build, and what it keeps for the next (`save`, once they are written). */
export interface SearchPlan extends SearchIndex {
  /** Files of entries known from the last build (`search-state.ts`). */
  known: KnownFile[];
  save(): void;
}

/** The text of the cached piece of `key` ('null' when it has nothing to search). */
function pieceAt(cacheDir: string, key: string): string {
  const packed = readEntry(cacheDir, key);
  if (!packed) throw new Error(`the search piece ${key} is missing from the build cache`);
  return brotliDecompressSync(packed).toString('utf8');
}

/** What a build keeps of a piece it read, its terms as JSON text, and what its files of entries need. */
function recordOf(key: string, text: string): { record: PieceRecord; terms: string; docs: PieceDocs | null } {
  if (text === 'null') return { record: { k: key, s: '', n: 0 }, terms: '[]', docs: null };
  const piece = readPieceEntries(text);
  return {
    record: { k: key, s: piece.s, n: piece.d.length },
    terms: text.slice(text.lastIndexOf('\n') + 1),
    docs: { home: piece.s, links: piece.r, docs: piece.d },
  };
}

/**
 * The files of the transcript index (`search-files.ts`), from the cached pieces, newest sessions first. A piece
 * the last build merged is not read again (`search-state.ts`) unless a piece beside it changed: its terms come merged
 * with those of the pieces beside it, and its files of entries, unchanged, are known by their digests.
 */
export function planSearchFiles(m: SiteManifest, cacheDir: string): SearchPlan {
  const listed = m.projects
    .flatMap((p) => p.sessions.map((s) => ({ s, key: searchPieceKey(p.slug, s) })))
    .filter(({ s, key }) => !s.summary.duplicateOf && hasSearchPiece(cacheDir, key))
    .sort((a, b) => (b.s.summary.startedAt ?? '').localeCompare(a.s.summary.startedAt ?? ''));
  const state = readSearchState(cacheDir);
  const records: PieceRecord[] = [];
  // The pieces read by this build: their terms, and their files of entries are made from them.
  const read = new Map<string, PieceDocs>();
  const readTerms = new Map<string, string>();
  for (const { key } of listed) {
    let record = state.get(key);
    if (!record) {
      const made = recordOf(key, pieceAt(cacheDir, key));
      record = made.record;
      readTerms.set(key, made.terms);
      if (made.docs) read.set(key, made.docs);
    }
    records.push(record);
  }
  const blocks = blocksOf(
    cacheDir,
    records,
    (r) => readTerms.get(r.k) ?? recordOf(r.k, pieceAt(cacheDir, r.k)).terms,
  );
  const save = () => writeSearchState(cacheDir, records, blocks);
  const terms = termFiles(blocks);
  if (terms === null) return { meta: null, files: [], known: [], save };
  const sessions = records.filter((r) => r.n > 0);
  const names = docsNames(sessions.map((r) => r.s));
  const files = terms.files;
  const known: KnownFile[] = [];
  sessions.forEach((record, i) => {
    const name = names[i] as string;
    const docs = read.get(record.k);
    if (!docs && record.m === name && record.f) {
      // Made again only when the output folder lost it (or holds other bytes than the last build wrote).
      const text = (path: string) => () =>
        docsFiles(name, recordOf(record.k, pieceAt(cacheDir, record.k)).docs as PieceDocs).find(
          (f) => f.name === path,
        )?.text ?? '';
      for (const [path, signature] of record.f) known.push({ name: path, signature, text: text(path) });
      return;
    }
    const made = docsFiles(name, docs ?? (recordOf(record.k, pieceAt(cacheDir, record.k)).docs as PieceDocs));
    record.m = name;
    record.f = [];
    for (const f of made) {
      f.signature = signatureOf(f.text);
      record.f.push([f.name, f.signature]);
      files.push(f);
    }
  });
  return {
    meta: searchMeta(
      terms,
      sessions.map((r) => r.n),
      names,
    ),
    files,
    known,
    save,
  };
}
