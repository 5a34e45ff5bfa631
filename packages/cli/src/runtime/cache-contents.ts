/**
 * What cctrail's cache folder holds, by part, and how to empty it. Only what cctrail writes there is ever
 * removed: a folder holding anything else is not a cctrail cache (`$CCTRAIL_CACHE_DIR` set to the wrong folder)
 * and is left alone. The cache holds what the transcripts hold (a report's archive is redacted, the skeletons
 * and digests are not), so it is private to its user: the folder is made with mode 0700.
 */

import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/** The parts of the cache, by the name of their folder or file in the cache root. */
const PARTS: Record<string, string> = {
  reports: "the reports' archives and site caches, one folder per output folder",
  exports: "the exports' skeletons, one folder per archive",
  stats: 'the digests of `stats` and its last result, one pair of files per list of inputs',
  locks: 'locks of output folders (cctrail before 0.2)',
  'hook.log': 'the log of `cctrail hook run`',
};
/** Names cctrail also writes in the cache root: `verify`'s temporary folders, files being written. */
const TRANSIENT = /^(verify-\d{1,7}|.+\.tmp-\d{1,7})$/;
/** The names of a part's entries: 16 hex digits (`cacheName`), `stats`' last result, a lock, a file being written. */
const ENTRY = /^[0-9a-f]{16}(\.json|\.result\.json|\.lock)?$|\.tmp-\d{1,7}$/;
/** The file in a report's cache folder that names its output folder. */
export const OUTPUT_NAME = 'output.txt';
/** The file in a report's cache folder that holds the bytes of its last input (what its size is compared with). */
export const INPUT_NAME = 'input.txt';

/** One part of the cache and its size. */
interface CachePart {
  name: string;
  what: string;
  bytes: number;
}

/**
 * One report's cache: the output folder it belongs to (null when not recorded), the bytes of its last input (null
 * when not recorded) and its parts' sizes.
 */
interface ReportCache {
  output: string | null;
  input: number | null;
  archive: number;
  site: number;
  other: number;
}

/** What the cache folder holds. */
export interface CacheSurvey {
  /** Whether the folder exists. */
  exists: boolean;
  parts: CachePart[];
  reports: ReportCache[];
  /** Entries cctrail does not write: when any, the folder is not a cctrail cache. */
  foreign: string[];
  bytes: number;
}

/** Bytes of the files under a path (a file or a folder), links not followed. */
function sizeOf(path: string): number {
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.size;
  let bytes = 0;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true }))
    if (entry.isFile())
      bytes += statSync(join(entry.parentPath, entry.name), { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** The entries of a cache folder that cctrail did not write, as paths relative to it. */
function foreignEntries(root: string): string[] {
  const foreign: string[] = [];
  for (const name of names(root)) {
    if (TRANSIENT.test(name) || name === 'hook.log') continue;
    if (!(name in PARTS)) {
      foreign.push(name);
      continue;
    }
    for (const inner of names(join(root, name))) if (!ENTRY.test(inner)) foreign.push(`${name}/${inner}`);
  }
  return foreign;
}

/**
 * Surveys a cache folder: its parts and their sizes, each report's cache, and what does not belong there.
 *
 * @param root The cache root (`cacheRoot`).
 */
export function surveyCache(root: string): CacheSurvey {
  const exists = statSync(root, { throwIfNoEntry: false })?.isDirectory() === true;
  const parts = Object.entries(PARTS)
    .map(([name, what]) => ({ name, what, bytes: sizeOf(join(root, name)) }))
    .filter((part) => names(root).includes(part.name));
  const transient = names(root).filter((name) => TRANSIENT.test(name));
  if (transient.length > 0)
    parts.push({
      name: 'temporary',
      what: 'left by runs that were stopped',
      bytes: transient.reduce((n, name) => n + sizeOf(join(root, name)), 0),
    });
  const reports = names(join(root, 'reports'))
    .filter((name) => ENTRY.test(name))
    .map((name) => reportCache(join(root, 'reports', name)));
  const foreign = exists ? foreignEntries(root) : [];
  return { exists, parts, reports, foreign, bytes: parts.reduce((n, part) => n + part.bytes, 0) };
}

/** The output folder a report's cache names (null: written before cctrail recorded it). */
function outputOf(dir: string): string | null {
  try {
    return readFileSync(join(dir, OUTPUT_NAME), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

function reportCache(dir: string): ReportCache {
  const output = outputOf(dir);
  let input: number | null = null;
  try {
    const bytes = Number(readFileSync(join(dir, INPUT_NAME), 'utf8').trim());
    if (Number.isSafeInteger(bytes) && bytes >= 0) input = bytes;
  } catch {
    // written before cctrail recorded it
  }
  const archive = sizeOf(join(dir, 'archive'));
  const site = sizeOf(join(dir, 'site'));
  return { output, input, archive, site, other: sizeOf(dir) - archive - site };
}

/**
 * Removes the caches of reports whose output folder is gone (its parent is there, the folder is not: a drive that
 * is not mounted keeps its caches): each is a copy of its input (the redacted archive) and its rendered pages,
 * and nothing would use it again. A cache whose archive holds a session its input no longer had (its transcripts
 * deleted: the only copy left) is an archive, not a copy: it stays, and is named so that the user can decide. A
 * cache that does not name its folder (written before cctrail recorded it) is left to `cctrail cache clear`.
 *
 * @param root The cache root.
 * @param keep Whether a report's cache stays whatever its folder (the running report's, one a live run writes).
 * @returns The bytes removed, and the caches kept for the sessions only they hold (folder, cache, sessions).
 */
export function pruneReportCaches(
  root: string,
  keep: (folder: string) => boolean,
): { removed: number; holding: { output: string; dir: string; sessions: number }[] } {
  let removed = 0;
  const holding: { output: string; dir: string; sessions: number }[] = [];
  for (const name of names(join(root, 'reports'))) {
    const dir = join(root, 'reports', name);
    // Only the caches removed are measured: the others, the running report's among them, are not walked.
    const output = ENTRY.test(name) ? outputOf(dir) : null;
    if (!output || existsSync(output) || !existsSync(dirname(output)) || keep(output)) continue;
    const sessions = sessionsOnlyIn(join(dir, 'archive'));
    if (sessions !== 0) {
      holding.push({ output, dir: join(dir, 'archive'), sessions });
      continue;
    }
    const bytes = sizeOf(dir);
    rmSync(dir, { recursive: true, force: true });
    removed += bytes;
  }
  return { removed, holding };
}

/**
 * How many sessions of an archive its last export did not read from its input (`archived` in its index: their
 * transcripts deleted, or outside that run's inputs); -1 when its index cannot be read (then it is kept too).
 */
function sessionsOnlyIn(archive: string): number {
  if (!existsSync(join(archive, 'index.json'))) return 0;
  try {
    const index = JSON.parse(readFileSync(join(archive, 'index.json'), 'utf8')) as {
      projects?: { sessions?: { archived?: unknown }[] }[];
    };
    let count = 0;
    for (const project of index.projects ?? [])
      for (const line of project.sessions ?? []) if (line.archived) count++;
    return count;
  } catch {
    return -1;
  }
}

/**
 * Removes what cctrail wrote in a cache folder, and the folder when nothing else is left. Call it only on a
 * folder whose survey found nothing foreign.
 *
 * @param root The cache root.
 */
export function clearCache(root: string): void {
  for (const name of names(root))
    if (name in PARTS || TRANSIENT.test(name)) rmSync(join(root, name), { recursive: true, force: true });
  if (names(root).length === 0) rmSync(root, { recursive: true, force: true });
}

/**
 * Makes the cache folder private to its user (mode 0700): made so when missing, and changed so when it holds only
 * what cctrail writes (a folder given by `$CCTRAIL_CACHE_DIR` that holds other files keeps its mode).
 *
 * @param root The cache root.
 */
export function privateCache(root: string): void {
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const info = statSync(root);
    const mine = process.getuid === undefined || info.uid === process.getuid();
    if (mine && (info.mode & 0o077) !== 0 && foreignEntries(root).length === 0) chmodSync(root, 0o700);
  } catch {
    // a cache that cannot be made: the command says so where it writes there
  }
}
