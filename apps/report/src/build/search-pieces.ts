import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ManifestSession, SiteManifest } from '../views/site-model.js';

/**
 * The transcript search index on disk. Each session's piece (`views/search-text.ts`) is cached next to its
 * fragments (`fragments/<key>.search.json`, so the cache is pruned with them); a build groups the pieces of
 * the archive, newest sessions first and duplicate copies left out, into classic scripts growing from
 * `FIRST_FILE_BYTES` to `FILE_BYTES` (`_cctrail/search/p<n>.js`, each calling `window.CCTRAIL_SEARCH_PIECE(n, '<JSON array of pieces>')`) that the
 * search page loads one after the other, showing results as they come.
 */

/** Bytes of pieces grouped into the first script: small, so the newest sessions' results show at once. */
const FIRST_FILE_BYTES = 200_000;
/** Bytes of pieces grouped into one script at most (each file doubles the last, up to this). */
const FILE_BYTES = 1_000_000;

/** Cache key of a session's search piece (its routes depend on the slugs, like its fragments). */
export function searchPieceKey(projectSlug: string, s: Pick<ManifestSession, 'key' | 'slug'>): string {
  return `${s.key}-${projectSlug}-${s.slug}-search`;
}

function pieceFile(cacheDir: string, key: string): string {
  return join(cacheDir, 'fragments', `${key}.search.json`);
}

/** True when the piece of `key` is cached (a session without text has the piece `null`). */
export function hasSearchPiece(cacheDir: string, key: string): boolean {
  return existsSync(pieceFile(cacheDir, key));
}

/** Caches a session's piece (`null`: nothing to search in it). */
export function storeSearchPiece(cacheDir: string, key: string, piece: string | null): void {
  const file = pieceFile(cacheDir, key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, piece ?? 'null');
}

/** The script files of the index and the cached pieces each holds, in the order the page loads them. */
export function planSearchFiles(m: SiteManifest, cacheDir: string): { name: string; pieces: string[] }[] {
  const sessions = m.projects
    .flatMap((p) => p.sessions.map((s) => ({ s, file: pieceFile(cacheDir, searchPieceKey(p.slug, s)) })))
    .filter(({ s, file }) => !s.summary.duplicateOf && existsSync(file))
    .sort((a, b) => (b.s.summary.startedAt ?? '').localeCompare(a.s.summary.startedAt ?? ''));
  const files: { name: string; pieces: string[] }[] = [];
  let bytes = Number.POSITIVE_INFINITY;
  let limit = FIRST_FILE_BYTES / 2;
  for (const { file } of sessions) {
    const size = statSync(file).size;
    if (size <= 4) continue;
    if (bytes + size > limit) {
      files.push({ name: `_cctrail/search/p${files.length + 1}.js`, pieces: [] });
      bytes = 0;
      limit = Math.min(FILE_BYTES, limit * 2);
    }
    files.at(-1)?.pieces.push(file);
    bytes += size;
  }
  return files;
}

/** Writes the planned script files into the output folder. */
export function writeSearchFiles(outDir: string, files: readonly { name: string; pieces: string[] }[]): void {
  files.forEach((f, i) => {
    const target = join(outDir, f.name);
    mkdirSync(dirname(target), { recursive: true });
    const json = `[${f.pieces.map((p) => readFileSync(p, 'utf8')).join(',')}]`;
    // A JSON text in a string: parsing it is several times faster than a literal of the same objects.
    const text = json.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
    writeFileSync(target, `window.CCTRAIL_SEARCH_PIECE(${i + 1},'${text}');\n`);
  });
}
