/**
 * One writer per output folder: a run that writes a folder holds a lock file naming its process id, kept in
 * the cache folder (never in the published folder). A second run fails fast with a clear message; a lock whose
 * process is gone (killed, crashed) is taken over.
 */

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../errors.js';
import { cacheName } from './cache-dir.js';
import { isRunning } from './temporaries.js';

/** What a lock file holds. */
interface LockOwner {
  pid: number;
  host: string;
  folder: string;
}

/**
 * Takes the lock of an output folder, or throws a `CliError` naming the run that holds it.
 *
 * @param folder The output folder (absolute).
 * @param cache The cache root (`cacheRoot`).
 * @returns A function that releases the lock (only while this process holds it).
 */
export function lockFolder(folder: string, cache: string): () => void {
  const dir = join(cache, 'locks');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${cacheName(folder)}.lock`);
  const mine: LockOwner = { pid: process.pid, host: hostname(), folder };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(mine), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const owner = readOwner(path);
    if (owner && owner.host === mine.host && isRunning(owner.pid)) {
      throw new CliError(`another cctrail run (process ${owner.pid}) is writing to ${folder}`, {
        hint: 'Wait for it to finish (or stop it), or write to another folder.',
      });
    }
    // The owner is gone (or the file is unreadable): take the lock over.
    rmSync(path, { force: true });
  }
  return () => {
    if (readOwner(path)?.pid === process.pid) rmSync(path, { force: true });
  };
}

function readOwner(path: string): LockOwner | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof value.pid === 'number' && typeof value.host === 'string'
      ? { pid: value.pid, host: value.host, folder: String(value.folder) }
      : null;
  } catch {
    return null;
  }
}
