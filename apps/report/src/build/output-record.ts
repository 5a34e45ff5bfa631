import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder } from './files.js';

/**
 * The record of a report folder: `<outDir>/.cctrail-report.json` lists every file the last build wrote into the
 * folder, so the next build removes only those of them its site no longer has, and a folder is known to be a
 * cctrail report even when the cache is gone. A record is read as data, never trusted: an entry that is not a
 * plain relative path inside the folder is left out.
 */

/** Name of the record in the output folder. */
export const RECORD_NAME = '.cctrail-report.json';

/** Version of the record's shape. */
const RECORD_SCHEMA_VERSION = 1;

/** What the record holds. */
interface ReportRecord {
  generator: 'cctrail';
  schemaVersion: typeof RECORD_SCHEMA_VERSION;
  /** Files the build wrote, relative to the output folder, `/`-separated, sorted. */
  files: string[];
}

/** Files the builds before this change always wrote, outside the state they kept in the cache. */
const LEGACY_ASSETS = ['_cctrail/mermaid.min.js', '_cctrail/search-index.js'];

/**
 * Whether `rel` is a plain relative `/`-separated path: not absolute, no empty, `.` or `..` segment, no
 * backslash, colon or NUL (which another system could read as a separator or a drive).
 * @param rel A path read from a record or a state file.
 */
export function isPlainRelative(rel: unknown): rel is string {
  if (typeof rel !== 'string' || rel === '' || /[\\:\0]/.test(rel)) return false;
  return rel.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** The JSON value of a file, or `undefined` when it is missing or not JSON. */
function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The files the record of `outDir` lists (only the plain relative ones), or `null` when the folder has no
 * record of cctrail's.
 * @param outDir The output folder.
 */
export function readRecord(outDir: string): string[] | null {
  const record = readJson(join(outDir, RECORD_NAME));
  if (typeof record !== 'object' || record === null) return null;
  const r = record as Partial<Record<keyof ReportRecord, unknown>>;
  if (r.generator !== 'cctrail' || r.schemaVersion !== RECORD_SCHEMA_VERSION || !Array.isArray(r.files))
    return null;
  return r.files.filter(isPlainRelative);
}

/**
 * Writes the record of `outDir` atomically (a temporary file renamed over it), listing `files`.
 * @param outDir The output folder.
 * @param files Every file the build wrote or kept there, relative and `/`-separated.
 */
export function writeRecord(outDir: string, files: Iterable<string>): void {
  const record: ReportRecord = {
    generator: 'cctrail',
    schemaVersion: RECORD_SCHEMA_VERSION,
    files: [...new Set(files)].sort(),
  };
  const target = join(outDir, RECORD_NAME);
  // Named like cctrail's other temporaries, so a run that dies here leaves a file the next run sweeps.
  const temporary = `${target}.tmp-${process.pid}`;
  writeFileSync(temporary, `${JSON.stringify(record, null, 1)}\n`);
  renameSync(temporary, target);
}

/**
 * Whether the cache folder holds the state of a build made before reports kept a record (`pages.json`).
 * @param cacheDir The build's cache folder (`null`: none).
 */
export function hasLegacyState(cacheDir: string | null): boolean {
  return cacheDir !== null && existsSync(join(cacheDir, 'pages.json'));
}

/**
 * The files a build made before reports kept a record wrote into `outDir`, from the state it left in the cache
 * folder: the files it assembled (`pages.json`), the pages of every session (`render.json`, which also lists the
 * pages an incremental build kept and did not assemble), and the assets it wrote beside them (Mermaid, the
 * search index and its files). Empty when the cache holds no such state.
 * @param outDir The output folder.
 * @param cacheDir The build's cache folder (`null`: none).
 */
export function legacyFiles(outDir: string, cacheDir: string | null): string[] {
  if (!hasLegacyState(cacheDir) || cacheDir === null) return [];
  const files = new Set<string>();
  const pages = readJson(join(cacheDir, 'pages.json'));
  if (typeof pages === 'object' && pages !== null) for (const rel of Object.keys(pages)) files.add(rel);
  const render = readJson(join(cacheDir, 'render.json')) as
    | { sessions?: unknown; pages?: unknown }
    | undefined;
  const sessions = typeof render?.sessions === 'object' && render.sessions !== null ? render.sessions : {};
  for (const s of Object.values(sessions) as { files?: unknown }[])
    if (Array.isArray(s?.files)) for (const rel of s.files) files.add(rel);
  // The agents' pages, by route (an incremental build may have kept them too).
  const kept = typeof render?.pages === 'object' && render.pages !== null ? render.pages : {};
  for (const route of Object.keys(kept)) files.add(`${route}index.html`);
  for (const rel of LEGACY_ASSETS) files.add(rel);
  for (const rel of filesUnder(join(outDir, '_cctrail', 'search'))) files.add(`_cctrail/search/${rel}`);
  return [...files].filter(isPlainRelative);
}
