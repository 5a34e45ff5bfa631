/**
 * One writer per output folder: a run that writes a folder holds a lock file naming its process, kept in a
 * folder of this user in the system's temporary folder (never in the published folder, and not in the cache: two
 * runs with different caches still meet there). The lock is named after the folder's real path, so a symbolic
 * link to a folder is the same folder. A second run fails fast with a clear message; a lock whose process is gone
 * (killed, crashed, another container, before a reboot) is taken over.
 */

import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../command-line/errors.js';
import { realPath } from '../files/output-folder.js';
import { cacheName } from './cache-dir.js';
import { isAlive, ownIdentity, type ProcessIdentity } from './process-identity.js';

/** What a lock file holds. */
interface LockOwner extends ProcessIdentity {
  folder: string;
  /** The cache root the run uses (`cache clear` leaves a cache in use alone); null in older locks. */
  cache: string | null;
}

/**
 * The folder of this user's locks: `<tmp>/cctrail-<uid>/locks`, private to the user. When that folder belongs
 * to someone else (another user made it first), the locks go to the cache root instead.
 *
 * @param cache The cache root (`cacheRoot`).
 */
export function lockRoot(cache: string): string {
  const user = process.getuid?.() ?? userInfo().username;
  const mine = join(tmpdir(), `cctrail-${user}`);
  try {
    mkdirSync(mine, { recursive: true, mode: 0o700 });
    const stat = lstatSync(mine);
    const owned = stat.isDirectory() && (process.getuid === undefined || stat.uid === process.getuid());
    if (owned && (stat.mode & 0o077) === 0) return join(mine, 'locks');
  } catch {
    // no temporary folder to write in: the cache holds the locks
  }
  return join(cache, 'locks');
}

/**
 * Takes the lock of an output folder, or throws a `CliError` naming the run that holds it.
 *
 * @param folder The output folder (absolute; a symbolic link is followed).
 * @param cache The cache root (`cacheRoot`), where the locks go when the temporary folder cannot hold them.
 * @returns A function that releases the lock (only while this process holds it).
 */
export function lockFolder(folder: string, cache: string): () => void {
  const dir = lockRoot(cache);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const real = realPath(folder);
  const path = join(dir, `${cacheName(real)}.lock`);
  const self = ownIdentity();
  const mine: LockOwner = { ...self, folder: real, cache };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const owner = readOwner(path);
    if (owner && isAlive(owner, self)) {
      throw new CliError(`another cctrail run (process ${owner.pid}) is writing to ${folder}`, {
        hint: 'Wait for it to finish (or stop it), or write to another folder.',
      });
    }
    // The owner is gone (or the file is unreadable): take the lock over.
    rmSync(path, { force: true });
  }
  return () => {
    const owner = readOwner(path);
    if (owner?.pid === self.pid && owner.start === self.start) rmSync(path, { force: true });
  };
}

function readOwner(path: string): LockOwner | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return null;
    const text = (field: unknown) => (typeof field === 'string' ? field : null);
    return {
      pid: value.pid,
      host: value.host,
      boot: text(value.boot),
      start: text(value.start),
      script: text(value.script),
      folder: String(value.folder),
      cache: text(value.cache),
    };
  } catch {
    return null;
  }
}

/**
 * The runs that hold a lock and use a cache root: a cache in use is not cleared.
 *
 * @param cache The cache root.
 * @returns Their locks' records.
 */
export function liveLocksOf(cache: string): { pid: number; folder: string }[] {
  const self = ownIdentity();
  const live: { pid: number; folder: string }[] = [];
  for (const dir of new Set([lockRoot(cache), join(cache, 'locks')])) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith('.lock'));
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = readOwner(join(dir, name));
      if (owner && (owner.cache === cache || dir === join(cache, 'locks')) && isAlive(owner, self))
        live.push({ pid: owner.pid, folder: owner.folder });
    }
  }
  return live;
}
