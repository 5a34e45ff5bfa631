import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/**
 * The archive keeps every transcript file it read, byte for byte, gzip-compressed under
 * `sources/<path as shown>.gz`, so a later cctrail can read the originals again after Claude Code deleted them
 * (`@cctrail/core/node` reads `.gz` transcripts as their plain names). A file that grew gets its new bytes
 * appended as one more gzip member, so a day of appends costs about what was appended; a file that shrank or was
 * rewritten keeps its earlier bytes under `superseded/`.
 */

/** Folder of the kept sources inside an archive. */
export const SOURCES_FOLDER = 'sources';

/** Folder of earlier versions of kept sources that shrank or were rewritten. */
export const SUPERSEDED_FOLDER = 'superseded';

/**
 * The path of a kept file inside the archive. Kept sources keep their names as they were on disk (a later
 * discovery reads them by those names), so only what could leave the folder is refused: empty, `.` and `..`
 * segments, NUL, and anything that resolves outside.
 *
 * @param dir The archive folder.
 * @param file The `/`-separated path in it.
 */
export function keptPath(dir: string, file: string): string {
  const segments = file.split('/');
  const target = resolve(dir, ...segments);
  const rel = relative(resolve(dir), target);
  if (
    segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0')) ||
    rel === '' ||
    rel.startsWith('..') ||
    isAbsolute(rel)
  )
    throw new Error(`refusing to keep a file outside the archive: ${file}`);
  return target;
}

/** Compression level: 24 % of JSONL at 111 MB/s on the shared corpus (level 6: 23 % at 76 MB/s). */
const GZIP_LEVEL = 4;

/** What the archive knows of one kept source file (by its path as shown, e.g. `<project>/<id>.jsonl`). */
export interface SourceRecord {
  /** The kept file inside the archive: `sources/<path as shown>.gz`. */
  kept: string;
  /** Size and SHA-256 of the original bytes kept (every gzip member decompressed, in order). */
  size: number;
  sha256: string;
  /** Modification time of the original when it was kept (an unchanged file is not read again). */
  mtimeMs: number;
  /** Where the original was last read (absolute), and on which UTC day (`YYYY-MM-DD`: a re-run the same day changes nothing). */
  origin: string;
  seenAt: string;
  /** Earlier versions of the file that it no longer starts with (it shrank or was rewritten), oldest first. */
  superseded?: string[];
}

/** What keeping one file did. */
export type KeepChange = 'new' | 'appended' | 'unchanged' | 'rewritten';

/** A file to keep: its path on disk and as shown. */
export interface SourceFile {
  path: string;
  shown: string;
}

/**
 * Keeps one source file in the archive: the first time whole, then only what was appended. The bytes kept are
 * those the file held when this started (a transcript still being written keeps the rest next time).
 *
 * @param dir The archive folder.
 * @param file The file and its path as shown.
 * @param known What the archive kept of it before.
 * @param now This run's UTC day (`YYYY-MM-DD`).
 * @returns Its new record and what changed; null when the file cannot be read (it is not kept).
 */
export async function keepSource(
  dir: string,
  file: SourceFile,
  known: SourceRecord | undefined,
  now: string,
): Promise<{ record: SourceRecord; change: KeepChange } | null> {
  const info = await stat(file.path).catch(() => null);
  if (!info?.isFile()) return null;
  const kept = `${SOURCES_FOLDER}/${file.shown}.gz`;
  const target = keptPath(dir, kept);
  const seen = { origin: file.path, seenAt: now, mtimeMs: info.mtimeMs };
  const keptThere = known !== undefined && known.kept === kept && (await isFile(target));
  if (keptThere && known.size === info.size && known.mtimeMs === info.mtimeMs)
    return { record: { ...known, ...seen }, change: 'unchanged' };
  const size = info.size;
  const hashes = await hashOf(file.path, size, keptThere ? known.size : -1);
  if (hashes === null) return null;
  if (keptThere && hashes.prefix === known.sha256) {
    if (size === known.size) return { record: { ...known, ...seen }, change: 'unchanged' };
    await writeKept(target, file.path, known.size, size, true);
    return { record: { ...known, ...seen, size, sha256: hashes.whole }, change: 'appended' };
  }
  const superseded = [...(known?.superseded ?? [])];
  // A file that shrank or was rewritten: its earlier bytes stay, under `superseded/`.
  if (keptThere) superseded.push(await supersede(dir, target, file.shown, now));
  await writeKept(target, file.path, 0, size, false);
  return {
    record: {
      kept,
      size,
      sha256: hashes.whole,
      ...seen,
      ...(superseded.length > 0 ? { superseded } : {}),
    },
    change: keptThere ? 'rewritten' : 'new',
  };
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

/**
 * The SHA-256 of a file's first `size` bytes, and of its first `prefix` bytes (when `prefix` ≥ 0 and the file
 * is at least that long): one read.
 */
async function hashOf(
  path: string,
  size: number,
  prefix: number,
): Promise<{ whole: string; prefix: string | null } | null> {
  const whole = createHash('sha256');
  const head = prefix >= 0 && prefix <= size ? createHash('sha256') : null;
  let offset = 0;
  let headDigest: string | null = prefix === 0 && head ? head.digest('hex') : null;
  try {
    if (size > 0) {
      for await (const chunk of createReadStream(path, { start: 0, end: size - 1 })) {
        const bytes = chunk as Buffer;
        whole.update(bytes);
        if (head && headDigest === null) {
          const take = Math.min(bytes.length, prefix - offset);
          head.update(take === bytes.length ? bytes : bytes.subarray(0, take));
          if (offset + take === prefix) headDigest = head.digest('hex');
        }
        offset += bytes.length;
      }
    }
  } catch {
    return null;
  }
  // The file shrank while it was read: it is kept next time.
  if (offset !== size) return null;
  return { whole: whole.digest('hex'), prefix: headDigest };
}

/**
 * Writes the kept file (atomically, through a temporary copy): the bytes `from`..`to` of the original as one
 * gzip member, after the members already kept when `append`.
 */
async function writeKept(target: string, original: string, from: number, to: number, append: boolean) {
  await mkdir(dirname(target), { recursive: true });
  const temporary = `${target}.tmp-${process.pid}`;
  try {
    if (append) await copyFile(target, temporary);
    await pipeline(
      to > from ? createReadStream(original, { start: from, end: to - 1 }) : (async function* () {})(),
      createGzip({ level: GZIP_LEVEL }),
      createWriteStream(temporary, { flags: append ? 'a' : 'w' }),
    );
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Moves a kept file that the original no longer starts with under `superseded/`, named by the day it was
 * superseded (`<path>.<day>.gz`, then `<path>.<day>-2.gz`, …: an earlier version is never overwritten).
 *
 * @param dir The archive folder.
 * @param target The kept file.
 * @param shown Its original's path as shown.
 * @param day The day.
 * @returns Its archive path under `superseded/`.
 */
export async function supersede(dir: string, target: string, shown: string, day: string): Promise<string> {
  for (let n = 1; ; n++) {
    const moved = `${SUPERSEDED_FOLDER}/${shown}.${day}${n === 1 ? '' : `-${n}`}.gz`;
    const path = keptPath(dir, moved);
    if (await isFile(path)) continue;
    await mkdir(dirname(path), { recursive: true });
    await rename(target, path);
    return moved;
  }
}
