/**
 * Listing folders for discovery, saying what is not read and why: a symbolic link is followed when its target
 * stays inside the folder given (a link out of it, or a broken one, is skipped), FIFOs, sockets and devices are
 * skipped, a folder named like a transcript (`*.jsonl`) is skipped, and a folder that cannot be listed is
 * skipped with the reason. Each skip is recorded, never silent.
 */

import { isUtf8 } from 'node:buffer';
import { type Dirent, realpathSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { plainName } from './gzip-names.js';

/** A path discovery did not read, and why. */
export interface SkippedPath {
  path: string;
  reason: string;
  /** A note rather than a problem: a hidden folder, not searched by design (give it as an input to read it). */
  hidden?: true;
}

/** Why a name that is not valid UTF-8 is skipped: Node.js gives such names with U+FFFD, and cannot open them. */
const NOT_UTF8 = 'its name is not valid UTF-8 (rename it to read it)';

/** Why a hidden folder is not searched. */
export const HIDDEN_FOLDER = 'a hidden folder (its name starts with a dot; give it as an input to read it)';

/** An entry of a listed folder, symbolic links resolved. */
export interface ListedEntry {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

/** Where a scan may go and what it skipped. */
export interface ScanScope {
  /** The folder given (its real path): links are followed only when their target is inside it. */
  root: string;
  skipped: SkippedPath[];
}

/**
 * A scope for a folder given by the user.
 *
 * @param dir The folder.
 * @param skipped Where skips are recorded.
 */
export function scopeOf(dir: string, skipped: SkippedPath[]): ScanScope {
  let root = dir;
  try {
    root = realpathSync(dir);
  } catch {
    // unreadable: listing it will say so
  }
  return { root, skipped };
}

/**
 * Lists a folder: files and folders (links resolved within the scope); what is skipped goes to the scope.
 *
 * @param dir The folder.
 * @param scope The scan's scope.
 * @param missingIsFine A folder that does not exist is not a skip (a session without `subagents/`).
 */
export async function listFolder(
  dir: string,
  scope: ScanScope,
  missingIsFine = false,
): Promise<ListedEntry[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!(missingIsFine && (code === 'ENOENT' || code === 'ENOTDIR')))
      scope.skipped.push({ path: dir, reason: fsReason(error as NodeJS.ErrnoException) });
    return [];
  }
  const garbled = await namesNotUtf8(dir, entries);
  const listed = await Promise.all(
    entries.map((entry) =>
      garbled.has(entry.name)
        ? skip(scope, join(dir, entry.name), NOT_UTF8)
        : resolveEntry(dir, entry, scope),
    ),
  );
  return listed.filter((entry): entry is ListedEntry => entry !== null);
}

/**
 * The names of a folder's entries whose bytes are not valid UTF-8, as Node.js gives them (with U+FFFD). Only a
 * folder with such a character in a name is listed again, as bytes.
 */
async function namesNotUtf8(dir: string, entries: readonly Dirent[]): Promise<Set<string>> {
  if (!entries.some((entry) => entry.name.includes('\uFFFD'))) return new Set();
  const raw = await readdir(dir, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  return new Set(raw.filter((name) => !isUtf8(name)).map((name) => name.toString('utf8')));
}

async function resolveEntry(dir: string, entry: Dirent, scope: ScanScope): Promise<ListedEntry | null> {
  const path = join(dir, entry.name);
  let kind: 'file' | 'folder' | 'other';
  if (entry.isSymbolicLink()) {
    const target = await realpath(path).catch(() => null);
    if (target === null) return skip(scope, path, 'a symbolic link whose target does not exist');
    if (!inside(scope.root, target))
      return skip(scope, path, `a symbolic link out of the folder given (to ${target})`);
    const info = await stat(target).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) return skip(scope, path, fsReason(info));
    kind = info.isFile() ? 'file' : info.isDirectory() ? 'folder' : 'other';
  } else {
    kind = entry.isFile() ? 'file' : entry.isDirectory() ? 'folder' : 'other';
  }
  // `X.jsonl.gz` is judged as `X.jsonl`.
  const name = plainName(entry.name);
  if (kind === 'other') {
    const relevant = name.endsWith('.jsonl') || name.endsWith('.json');
    return relevant ? skip(scope, path, 'not a regular file (a FIFO, socket or device)') : null;
  }
  if (kind === 'folder' && name.endsWith('.jsonl'))
    return skip(scope, path, 'a folder named like a transcript');
  return { name: entry.name, isFile: () => kind === 'file', isDirectory: () => kind === 'folder' };
}

function skip(scope: ScanScope, path: string, reason: string): null {
  scope.skipped.push({ path, reason });
  return null;
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return (
    rel === '' ||
    (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel))
  );
}

/** A file-system error as a short reason. */
export function fsReason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'not a folder';
    case 'ELOOP':
      return 'a loop of symbolic links';
    default:
      return error.message;
  }
}

/**
 * The skips, each path once (a folder may be listed twice during discovery), sorted by path.
 *
 * @param skipped As recorded.
 */
export function uniqueSkips(skipped: readonly SkippedPath[]): SkippedPath[] {
  const byPath = new Map<string, SkippedPath>();
  for (const skip of skipped) if (!byPath.has(skip.path)) byPath.set(skip.path, skip);
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
