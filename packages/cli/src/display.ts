import { basename, relative, sep } from 'node:path';

/**
 * The path shown in output for a file: relative to the input root, `/`-separated.
 *
 * @param root The input root (see `selectSessions`).
 * @param absolutePath The file.
 */
export function displayPath(root: string, absolutePath: string): string {
  const rel = relative(root, absolutePath);
  return (rel === '' ? basename(absolutePath) : rel).split(sep).join('/');
}
