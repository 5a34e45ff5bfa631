import { createHash } from 'node:crypto';
import { close, createReadStream, mkdirSync, openSync, statSync, write } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, createBrotliCompress } from 'node:zlib';
import { CliError } from '../command-line/errors.js';
import { type Batch, utf8Batches } from './utf8-batches.js';

/** What a write did. */
export type WriteOutcome = 'written' | 'unchanged';

/**
 * Files whose name ends so are written Brotli-compressed at a fast quality (the report's own archive keeps its
 * session files so, and the skeletons of its sessions: about a fifth of their text or less). The output depends only on
 * the text, so an unchanged file is still found unchanged. BENCHMARKS.md (#28, the report's cache) has the figures.
 */
export const COMPRESSED = '.br';

/**
 * Writes a file atomically (to `<file>.tmp-<pid>`, then renamed over it), unless it already holds exactly
 * these bytes: then the temporary file is dropped and the file is left untouched (mtime included), so
 * re-running over unchanged input changes nothing. The text may come in pieces (even asynchronously), so
 * memory stays bounded (by a batch of its bytes, or a piece; a compressed text of up to `WHOLE` bytes is held
 * whole). A path ending in `COMPRESSED` gets the text Brotli-compressed.
 *
 * @param path Destination file; its folder is created when missing.
 * @param text The full contents, or its pieces in order.
 */
export async function writeIfChanged(
  path: string,
  text: string | Iterable<string> | AsyncIterable<string>,
): Promise<WriteOutcome> {
  const pieces = typeof text === 'string' ? [text] : text;
  const temporary = `${path}.tmp-${process.pid}`;
  // Only a file already there is compared with: a new one needs no hash.
  const before = statSync(path, { throwIfNoEntry: false });
  const hash = before?.isFile() ? createHash('sha256') : null;
  let size = 0;
  // Created synchronously: a signal's sweep of temporaries (`run-guard.ts`) runs on this thread, or after the
  // worker threads stopped, and never while the creation of one is still under way in libuv's pool. Its
  // descriptor is then written through and closed in the pool (one open: each costs a file-system lookup). Its
  // folder is made only when it is missing.
  const fd = openCreating(temporary);
  try {
    const sink = async (bytes: Buffer) => {
      hash?.update(bytes);
      size += bytes.byteLength;
      await writeAll(fd, bytes);
    };
    if (path.endsWith(COMPRESSED)) await writeCompressed(utf8Batches(pieces, WHOLE), sink);
    else for await (const batch of utf8Batches(pieces, 0)) await sink(batch.bytes);
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

/** Opens a new file for writing, making its folder first when it is missing. */
function openCreating(file: string): number {
  try {
    return openSync(file, 'w');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(file), { recursive: true });
    return openSync(file, 'w');
  }
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
 * Brotli's quality 0: on session files, compressed whole, 0.6 × the CPU of quality 1 for 11 % more bytes (the report
 * cache of the shared corpus: 0.42 → 0.44 × its input), and far less than gzip's level 1 for fewer bytes
 * (BENCHMARKS.md, "#26 archive and cache writing, tenth round"; "#26 this round's smaller changes, … seventh round").
 */
const QUALITY = 0;

/**
 * Text of up to this many bytes is compressed whole, in one call on this thread: a stream costs a third more CPU
 * (its round trips through libuv's pool, a chunk at a time). Longer text goes through a stream, so memory stays
 * bounded. BENCHMARKS.md, "#26 archive and cache writing, tenth round".
 */
const WHOLE = 16 << 20;

/** The stream's output chunks: 16 KiB (the default) cost a round trip each. */
const STREAM_CHUNK = 1 << 18;

/** Compresses the batches of a text: whole when the first is the last, else as a stream. */
async function writeCompressed(batches: AsyncIterable<Batch>, sink: (bytes: Buffer) => Promise<void>) {
  let stream: ReturnType<typeof compressor> | null = null;
  try {
    for await (const { bytes, last } of batches) {
      if (stream === null && last) {
        const params = {
          [constants.BROTLI_PARAM_QUALITY]: QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        };
        return await sink(brotliCompressSync(bytes, { params }));
      }
      stream ??= compressor(sink);
      await stream.write(bytes);
    }
    await stream?.end();
  } catch (error) {
    stream?.destroy(error as Error);
    throw error;
  }
}

/**
 * A Brotli stream (quality `QUALITY`) that hands its output to a sink: `write` takes a copy of its bytes (the caller
 * reuses its buffer) and resolves once they are taken in; `end` resolves once everything reached the sink.
 */
function compressor(sink: (bytes: Buffer) => Promise<void>) {
  const stream = createBrotliCompress({
    chunkSize: STREAM_CHUNK,
    params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY },
  });
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
    destroy: (error: Error) => {
      stream.destroy(error);
      drained.catch(() => undefined);
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
  // Safe segments below a folder that is absolute and normalized already: what `resolve` would make of them.
  if (!unsafe && !relativePath.startsWith('..') && isResolved(root)) {
    return `${root.endsWith(sep) ? root : `${root}${sep}`}${segments.join(sep)}`;
  }
  const target = resolve(root, ...segments);
  const rel = relative(resolve(root), target);
  if (unsafe || rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new CliError(`refusing to write outside the output folder: ${relativePath}`);
  }
  return target;
}

/** The last folder found absolute and normalized (`insideFolder` is called for every file of one folder). */
let resolvedRoot: string | null = null;

function isResolved(root: string): boolean {
  if (root === resolvedRoot) return true;
  if (!isAbsolute(root) || resolve(root) !== root) return false;
  resolvedRoot = root;
  return true;
}
