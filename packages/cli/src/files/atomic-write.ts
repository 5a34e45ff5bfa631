import { createHash } from 'node:crypto';
import { close, createReadStream, openSync, write } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { constants, createBrotliCompress } from 'node:zlib';
import { CliError } from '../command-line/errors.js';

/** What a write did. */
export type WriteOutcome = 'written' | 'unchanged';

const BATCH = 1 << 20;

/**
 * Files whose name ends so are written Brotli-compressed at a fast quality (the report's own archive keeps its
 * session files so, and the skeletons of its sessions: a sixth of their text or less). The output depends only on
 * the text, so an unchanged file is still found unchanged. BENCHMARKS.md (#28, the report's cache) has the figures.
 */
export const COMPRESSED = '.br';

/**
 * Writes a file atomically (to `<file>.tmp-<pid>`, then renamed over it), unless it already holds exactly
 * these bytes: then the temporary file is dropped and the file is left untouched (mtime included), so
 * re-running over unchanged input changes nothing. The text may come in pieces (even asynchronously), so
 * memory stays bounded by the size of a piece. A path ending in `COMPRESSED` gets the text Brotli-compressed.
 *
 * @param path Destination file; its folder is created when missing.
 * @param text The full contents, or its pieces in order.
 */
export async function writeIfChanged(
  path: string,
  text: string | Iterable<string> | AsyncIterable<string>,
): Promise<WriteOutcome> {
  const pieces = typeof text === 'string' ? [text] : text;
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  // Only a file already there is compared with: a new one needs no hash.
  const before = await stat(path).catch(() => null);
  const hash = before?.isFile() ? createHash('sha256') : null;
  let size = 0;
  // Created synchronously: a signal's sweep of temporaries (`run-guard.ts`) runs on this thread, or after the
  // worker threads stopped, and never while the creation of one is still under way in libuv's pool. Its
  // descriptor is then written through and closed in the pool (one open: each costs a file-system lookup).
  const fd = openSync(temporary, 'w');
  try {
    // Pieces are encoded into one batch buffer, reused: no joined string and no new buffer per batch.
    const batch = Buffer.allocUnsafe(BATCH);
    let used = 0;
    const sink = async (bytes: Buffer) => {
      hash?.update(bytes);
      size += bytes.byteLength;
      await writeAll(fd, bytes);
    };
    const brotli = path.endsWith(COMPRESSED) ? compressor(sink) : null;
    const out = brotli ? brotli.write : sink;
    for await (const piece of pieces) {
      // A UTF-16 code unit takes at most 3 bytes in UTF-8.
      if (piece.length * 3 > BATCH - used) {
        if (used > 0) await out(batch.subarray(0, used));
        used = 0;
        if (piece.length * 3 > BATCH) {
          await out(Buffer.from(piece, 'utf8'));
          continue;
        }
      }
      used += batch.write(piece, used, 'utf8');
    }
    if (used > 0) await out(batch.subarray(0, used));
    await brotli?.end();
  } catch (error) {
    await closeFile(fd);
    await rm(temporary, { force: true });
    throw error;
  }
  await closeFile(fd);
  const existing = hash === null ? null : await stat(path).catch(() => null);
  if (
    hash !== null &&
    existing?.isFile() &&
    existing.size === size &&
    (await hashFile(path)) === hash.digest('hex')
  ) {
    await rm(temporary, { force: true });
    return 'unchanged';
  }
  await rename(temporary, path);
  return 'written';
}

/** Writes all of `bytes` at the descriptor's position, in libuv's pool. */
async function writeAll(fd: number, bytes: Buffer): Promise<void> {
  let done = 0;
  while (done < bytes.byteLength) {
    done += await new Promise<number>((resolved, fail) =>
      write(fd, bytes, done, bytes.byteLength - done, null, (error, n) =>
        error ? fail(error) : resolved(n),
      ),
    );
  }
}

function closeFile(fd: number): Promise<void> {
  return new Promise((done, fail) => close(fd, (error) => (error ? fail(error) : done())));
}

/**
 * Brotli's quality 1: a quarter smaller than gzip's level 1 on session files, at nearly twice its speed; quality 2
 * saves a seventh more bytes for 1.7 × the CPU (BENCHMARKS.md, "#26 this round's smaller changes, … seventh round").
 */
const QUALITY = 1;

/**
 * A Brotli stream (quality `QUALITY`) that hands its output to a sink: `write` takes a copy of its bytes (the caller reuses
 * its buffer) and resolves once they are taken in; `end` resolves once everything reached the sink.
 */
function compressor(sink: (bytes: Buffer) => Promise<void>) {
  const stream = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY } });
  const drained = (async () => {
    for await (const chunk of stream) await sink(chunk as Buffer);
  })();
  // A failed sink stops the stream: a write waiting on it fails too.
  drained.catch((error: unknown) => stream.destroy(error as Error));
  return {
    write: (bytes: Buffer) =>
      new Promise<void>((done, fail) =>
        stream.write(Buffer.from(bytes), (error) => (error ? fail(error) : done())),
      ),
    end: async () => {
      stream.end();
      await drained;
    },
  };
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
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
