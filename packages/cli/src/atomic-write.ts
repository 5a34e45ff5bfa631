import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { CliError } from './errors.js';

/** What `writeIfChanged` did. */
export type WriteOutcome = 'written' | 'unchanged';

/**
 * Writes a file atomically (to `<file>.tmp-<pid>`, then renamed over it), unless it already holds exactly
 * these bytes: then nothing is touched, so re-running over unchanged input keeps files and mtimes as they were.
 *
 * @param path Destination file; its folder is created when missing.
 * @param data The full contents.
 */
export async function writeIfChanged(path: string, data: string | Uint8Array): Promise<WriteOutcome> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const existing = await stat(path).catch(() => null);
  if (existing?.isFile() && existing.size === bytes.byteLength) {
    const current = await readFile(path).catch(() => null);
    if (current?.equals(bytes)) return 'unchanged';
  }
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return 'written';
}

/**
 * Resolves a `/`-separated relative path inside a folder, refusing anything that would land outside it.
 * Paths are built from sanitized names already; this is the second lock on the door.
 *
 * @param root The output folder.
 * @param relativePath A path such as `sessions/<project>/<session>.json`.
 */
export function insideFolder(root: string, relativePath: string): string {
  const segments = relativePath.split('/');
  const unsafe = segments.some((s) => s === '' || s === '.' || s === '..' || /[\\:\0]/.test(s));
  const target = resolve(root, ...segments);
  const rel = relative(resolve(root), target);
  if (unsafe || rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new CliError(`refusing to write outside the output folder: ${relativePath}`);
  }
  return target;
}
