import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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
