/**
 * Names of gzip-compressed transcript files. A file whose name ends in `.gz` stands for the file of the name
 * without it (`<id>.jsonl.gz` is `<id>.jsonl`, `agent-<x>.meta.json.gz` is `agent-<x>.meta.json`): discovery
 * files it by that name, and sources show that name. When a folder holds both, the plain file wins.
 */

const GZIP_SUFFIX = '.gz';

/**
 * Whether a file is read as gzip-compressed (decided by its name, as discovery decides).
 *
 * @param path A file's path or name.
 */
export function isGzip(path: string): boolean {
  return path.endsWith(GZIP_SUFFIX);
}

/**
 * The name a file stands for: without its `.gz` suffix, if any.
 *
 * @param path A file's path or name.
 * @example plainName('/a/s.jsonl.gz') // '/a/s.jsonl'
 */
export function plainName(path: string): string {
  return isGzip(path) ? path.slice(0, -GZIP_SUFFIX.length) : path;
}

/**
 * The files without those that a plain file of the same folder stands for too: of `s.jsonl` and `s.jsonl.gz`,
 * only `s.jsonl` is read.
 *
 * @param paths Paths of one kind of file (absolute, so the same plain path means the same folder).
 * @returns The paths kept, in the order given.
 */
export function preferPlain(paths: Iterable<string>): string[] {
  const all = [...paths];
  const plain = new Set(all.filter((path) => !isGzip(path)));
  if (plain.size === all.length) return all;
  return all.filter((path) => !isGzip(path) || !plain.has(plainName(path)));
}

/**
 * Byte order of the names two files stand for (so a compressed copy of a session lists its files in the
 * order of the plain one).
 *
 * @param a A path.
 * @param b Another path.
 */
export function comparePlain(a: string, b: string): number {
  const x = plainName(a);
  const y = plainName(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
