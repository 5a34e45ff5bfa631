import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ManifestSession, SiteManifest } from '../views/site/site-model.js';
import { type SearchIndex, searchFiles } from './search-files.js';

/**
 * The transcript search index on disk. Each session's piece (`views/search/search-text.ts`) is cached next to its
 * fragments (`fragments/<key>.search.json.gz`, so the cache is pruned with them; at gzip's fastest level, whose
 * reading is the quickest of the fast compressors: every build reads all of them, and uncompressed they were a
 * tenth of the cache against its input, BENCHMARKS.md "The report's cache against its input"); a build merges the pieces of
 * the archive, newest sessions first and duplicate copies left out, into the index's files
 * (`search-files.ts`).
 */

/** Cache key of a session's search piece (its routes depend on the slugs, like its fragments). */
export function searchPieceKey(projectSlug: string, s: Pick<ManifestSession, 'key' | 'slug'>): string {
  return `${s.key}-${projectSlug}-${s.slug}-search4`;
}

function pieceFile(cacheDir: string, key: string): string {
  return join(cacheDir, 'fragments', `${key}.search.json.gz`);
}

/** True when the piece of `key` is cached (a session without text has the piece `null`). */
export function hasSearchPiece(cacheDir: string, key: string): boolean {
  return existsSync(pieceFile(cacheDir, key));
}

/** Caches a session's piece (`null`: nothing to search in it). */
export function storeSearchPiece(cacheDir: string, key: string, piece: string | null): void {
  const file = pieceFile(cacheDir, key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, gzipSync(piece ?? 'null', { level: 1 }));
}

/** The files of the transcript index (`search-files.ts`), from the cached pieces, newest sessions first. */
export function planSearchFiles(m: SiteManifest, cacheDir: string): SearchIndex {
  const pieces = m.projects
    .flatMap((p) => p.sessions.map((s) => ({ s, file: pieceFile(cacheDir, searchPieceKey(p.slug, s)) })))
    .filter(({ s, file }) => !s.summary.duplicateOf && existsSync(file))
    .sort((a, b) => (b.s.summary.startedAt ?? '').localeCompare(a.s.summary.startedAt ?? ''))
    .map(({ file }) => gunzipSync(readFileSync(file)).toString('utf8'))
    .filter((text) => text !== 'null');
  return searchFiles(pieces);
}
