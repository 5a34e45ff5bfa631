import { realpathSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { CliError } from '../command-line/errors.js';

/**
 * The rules every command that writes a folder follows before it writes: cctrail never writes into what it
 * reads, nor into the folder of its caches, nor into any folder that holds them; and it does not write into
 * someone else's non-empty folder unless told to (`--force`), even then leaving every file it did not write.
 */

/** What a folder that a command writes must not be. */
export interface Forbidden {
  /** The input paths (absolute). */
  inputs: readonly string[];
  /** The cache root (absolute). */
  cache: string;
}

/**
 * Throws a `CliError` when the output folder is an input, the cache, inside one of them, or holds one of them.
 *
 * @param output The output folder (absolute; need not exist).
 * @param forbidden The inputs and the cache.
 */
export function refuseOverlap(output: string, forbidden: Forbidden): void {
  const out = realPath(output);
  const check = (path: string, what: string) => {
    const other = realPath(path);
    if (inside(other, out))
      throw new CliError(`the output ${output} is ${out === other ? '' : 'a folder that holds '}${what}`, {
        hint: 'Write to a folder of its own: cctrail never writes over what it reads or keeps.',
      });
    if (inside(out, other))
      throw new CliError(`the output ${output} is inside ${what}`, {
        hint: 'Write to a folder outside it: cctrail never writes into what it reads or keeps.',
      });
  };
  for (const input of forbidden.inputs) check(input, `the input ${input}`);
  check(forbidden.cache, `cctrail's cache folder ${forbidden.cache}`);
}

/** Whether `path` is `folder` or lies inside it. */
function inside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep));
}

/**
 * A path with its symbolic links resolved, as far as it exists (the rest appended as given).
 *
 * @param path An absolute path.
 */
export function realPath(path: string): string {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(realpathSync(at), ...missing.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return path;
      missing.push(basename(at));
      at = parent;
    }
  }
}

/**
 * The entries of a folder that cctrail did not make, at most `limit` names (none when the folder is missing).
 *
 * @param dir The folder.
 * @param ours Names cctrail writes there.
 */
export async function foreignEntries(dir: string, ours: ReadonlySet<string>): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => !ours.has(name) && !name.includes('.tmp-')).sort();
}

/**
 * The message of a refusal to write into someone else's folder: what is there, and what to do.
 *
 * @param dir The folder.
 * @param what What cctrail would write (an archive, a report).
 * @param entries Its foreign entries.
 */
export function foreignFolderError(dir: string, what: string, entries: readonly string[]): CliError {
  const shown = entries.slice(0, 10).join(', ');
  const more = entries.length > 10 ? ` and ${entries.length - 10} more` : '';
  return new CliError(`${dir} is not empty and is not ${what}: it holds ${shown}${more}`, {
    hint: `Choose an empty or new folder, or pass --force to write ${what} there anyway (files cctrail did not write are never changed or removed).`,
  });
}
