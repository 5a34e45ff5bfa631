import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Where a file is cut into gzip members: byte offsets into its plain bytes, ascending. */
export type Members = Record<string, readonly number[]>;

/**
 * Copies a folder tree, every file gzip-compressed under its name plus `.gz` (as `cctrail export` keeps
 * sources). A file named in `members` (by its path relative to `from`) is written as several gzip members,
 * cut at the given offsets, the way a file kept while it grew is.
 *
 * @param from The tree to copy.
 * @param to Where the copy goes (created).
 * @param members Cut points of some files.
 */
export function gzipTree(from: string, to: string, members: Members = {}): void {
  const stack = [from];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    const target = join(to, relative(from, dir));
    mkdirSync(target, { recursive: true });
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else
        writeFileSync(
          join(target, `${entry.name}.gz`),
          gzipMembers(readFileSync(path), members[relative(from, path)] ?? []),
        );
    }
  }
}

/**
 * Bytes as gzip members, one per piece between the cut points.
 *
 * @param bytes The plain bytes.
 * @param cuts Offsets where a new member starts.
 */
export function gzipMembers(bytes: Uint8Array, cuts: readonly number[] = []): Buffer {
  const bounds = [0, ...cuts, bytes.length];
  const parts: Buffer[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) parts.push(gzipSync(bytes.subarray(bounds[i], bounds[i + 1])));
  return Buffer.concat(parts);
}
