import { createHash } from 'node:crypto';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fsReason } from '../command-line/errors.js';

/**
 * The folder cctrail keeps its caches in: `$CCTRAIL_CACHE_DIR`, else `$XDG_CACHE_HOME/cctrail`, else
 * `~/.cache/cctrail`. Always absolute: the report's site builder changes the working directory while caches are
 * still being written.
 *
 * @param env The environment.
 * @param cwd What a relative cache folder is relative to.
 */
export function cacheRoot(env: NodeJS.ProcessEnv, cwd: string): string {
  return resolve(
    cwd,
    env.CCTRAIL_CACHE_DIR || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'cctrail'),
  );
}

/**
 * A short, stable file name for what a cache belongs to (an output folder, a list of input paths): the first 16
 * hex digits of the SHA-256 of its text.
 */
export function cacheName(owner: string): string {
  return createHash('sha256').update(owner).digest('hex').slice(0, 16);
}

/**
 * Makes a folder of the cache, or says why it cannot be written: a cache that cannot be written only costs a run
 * its time, so the caller goes on without it (and says so).
 *
 * @param dir The folder (absolute).
 * @returns null when the folder is there and writable, else the reason (`permission denied`).
 */
export function cacheFolderProblem(dir: string): string | null {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
    return null;
  } catch (error) {
    return fsReason(error as NodeJS.ErrnoException);
  }
}
