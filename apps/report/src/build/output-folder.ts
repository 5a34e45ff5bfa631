import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { hasLegacyState, legacyFiles, RECORD_NAME, readRecord } from './output-record.js';

/**
 * Whose folder the report is written into. A build writes only into a folder that is missing, empty, or a
 * cctrail report (it has the record of an earlier build, or the cache holds the state of one made before
 * reports kept a record); anything else is someone's folder, and the build refuses it unless it is forced,
 * and then it still removes nothing it did not write.
 */

/** Name of the default cache folder inside the output folder. */
export const CACHE_FOLDER = '.cctrail-cache';

/** What an output folder is, for the report. */
export type OutputFolderKind = 'missing' | 'empty' | 'report' | 'foreign';

/** What `inspectOutputFolder` found. */
export interface OutputFolderInspection {
  /** `missing`, `empty` (nothing but cctrail's own dot-files), a cctrail `report`, or a `foreign` folder. */
  kind: OutputFolderKind;
  /** Top-level names in the folder that are not cctrail's (sorted; a folder's name ends in `/`). */
  entries: string[];
}

/** The `code` of the error a build throws when the output folder is not a cctrail report. */
export const OUTPUT_NOT_A_REPORT = 'output-not-a-report';

/** Top-level names the site writes, listed first in the refusal, since they would be overwritten. */
const SITE_NAMES = new Set(['index.html', '500.html', '_cctrail/', 'agents/', 's/', 'search/', '.nojekyll']);

/** How many entries the refusal names. */
const LISTED = 10;

/** Temporaries of the record and cache folders of builds without a cache (`<name>-<pid>`). */
const TEMPORARY = /^(\.cctrail-report\.json\.tmp|\.cctrail-cache)-\d+$/;

/** Whether a top-level name is one only cctrail makes: the record, its temporary, the cache folders. */
function isCctrailName(name: string, cacheTop: string | null): boolean {
  return name === RECORD_NAME || name === CACHE_FOLDER || name === cacheTop || TEMPORARY.test(name);
}

/** The first segment of `cacheDir`'s path inside `outDir`, or `null` when it is not inside. */
function cacheTopName(outDir: string, cacheDir: string | null): string | null {
  if (cacheDir === null) return null;
  const rel = relative(outDir, cacheDir);
  if (rel === '' || rel.startsWith('..') || resolve(outDir, rel) !== cacheDir) return null;
  return rel.split(sep)[0] ?? null;
}

/** The cache folder a build uses: `cacheDir`, or `<outDir>/.cctrail-cache`; `null` when it is `false`. */
export function cacheFolder(outDir: string, cacheDir: string | false | undefined): string | null {
  return cacheDir === false ? null : resolve(cacheDir ?? join(outDir, CACHE_FOLDER));
}

/** The inspection, and the files of the folder an earlier build wrote. */
function inspect(outDir: string, cacheDir: string | null): OutputFolderInspection & { own: string[] } {
  let names: { name: string; folder: boolean }[];
  try {
    if (!statSync(outDir).isDirectory()) return { kind: 'foreign', entries: [], own: [] };
    names = readdirSync(outDir, { withFileTypes: true }).map((d) => ({
      name: d.name,
      folder: d.isDirectory(),
    }));
  } catch {
    return { kind: 'missing', entries: [], own: [] };
  }
  const cacheTop = cacheTopName(outDir, cacheDir);
  const others = names.filter((n) => !isCctrailName(n.name, cacheTop));
  const record = readRecord(outDir);
  const own = record ?? legacyFiles(outDir, cacheDir);
  const ownTop = new Set(own.map((rel) => rel.split('/')[0]));
  const entries = others
    .filter((n) => !ownTop.has(n.name))
    .map((n) => (n.folder ? `${n.name}/` : n.name))
    .sort();
  if (record !== null) return { kind: 'report', entries, own };
  if (others.length === 0) return { kind: 'empty', entries: [], own };
  if (hasLegacyState(cacheDir)) return { kind: 'report', entries, own };
  return { kind: 'foreign', entries, own: [] };
}

/**
 * Tells what an output folder is before a report is built into it, touching nothing: `missing`, `empty`
 * (cctrail's own dot-files, such as the record or a cache folder, do not count), a cctrail `report`, or
 * `foreign` (a folder holding only `.git` is foreign: it is someone's repository). `buildReport` refuses a
 * foreign folder unless it is given `force`.
 * @param outDir The output folder.
 * @param cacheDir The cache folder the build will use (as `buildReport`'s `cacheDir`; by default
 *   `<outDir>/.cctrail-cache`): a folder without a record is a report when this cache holds an earlier build's
 *   state.
 * @returns The kind, and the top-level names in the folder that are not cctrail's (sorted).
 * @example inspectOutputFolder('docs') // { kind: 'foreign', entries: ['CNAME', 'img/', 'notes.md'] }
 */
export function inspectOutputFolder(outDir: string, cacheDir?: string | false): OutputFolderInspection {
  const out = resolve(outDir);
  const { kind, entries } = inspect(out, cacheFolder(out, cacheDir));
  return { kind, entries };
}

/** The error a build throws when its output folder is not a cctrail report (`code` is `output-not-a-report`). */
export class OutputFolderError extends Error {
  /** Permanent code of the problem. */
  readonly code = OUTPUT_NOT_A_REPORT;

  /**
   * @param outDir The output folder.
   * @param entries Its top-level names that are not cctrail's.
   */
  constructor(
    readonly outDir: string,
    readonly entries: readonly string[],
  ) {
    const first = [
      ...entries.filter((e) => SITE_NAMES.has(e)).map((e) => `${e} (would be overwritten)`),
      ...entries.filter((e) => !SITE_NAMES.has(e)),
    ];
    const listed = first.slice(0, LISTED).join(', ');
    const more = first.length > LISTED ? ` and ${first.length - LISTED} more` : '';
    const holds = entries.length > 0 ? `it holds ${listed}${more}` : 'it is not a folder';
    super(
      `${outDir} is not a cctrail report: ${holds}. Choose an empty folder, or pass force (--force) to write ` +
        'the report into it anyway (files of the same name are overwritten, nothing else is removed).',
    );
    this.name = 'OutputFolderError';
  }
}

/**
 * Checks the output folder before a build writes anything, and returns the files an earlier build wrote there.
 * @param outDir The output folder (absolute).
 * @param cacheDir The build's cache folder (`null`: none).
 * @param force Write into a foreign folder anyway (then no file of it is the build's own).
 * @throws {OutputFolderError} When the folder is foreign and `force` is not set.
 */
export function claimOutputFolder(outDir: string, cacheDir: string | null, force: boolean): string[] {
  const found = inspect(outDir, cacheDir);
  if (found.kind === 'foreign' && !force) throw new OutputFolderError(outDir, found.entries);
  return found.own;
}
