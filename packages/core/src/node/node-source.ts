import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { isMainThread } from 'node:worker_threads';
import type { SessionSource, TranscriptSource } from '../source.js';
import type { DiscoveredSession } from './discover.js';
import { gunzipChunks, gunzipText } from './gunzip.js';
import { isGzip, plainName } from './gzip-names.js';

/** Bytes read per call: large enough that per-read overhead is negligible, small enough to stay cheap. */
const CHUNK = 1 << 20;

/** Options of `fileSource` and `sessionSource`. */
export interface FileSourceOptions {
  /**
   * Read with blocking calls instead of through libuv's thread pool. For worker threads that only build
   * sessions: there a blocking read costs less than a round trip through the pool, which every thread of the
   * process shares (four threads by default). A `.gz` file up to 1 MiB is then decompressed with one
   * blocking call; a larger one is streamed through zlib, which runs on the pool (Node has no synchronous
   * streaming inflate). Default false.
   */
  blocking?: boolean;
}

/**
 * A transcript source backed by a file on disk, read in 1 MiB chunks. A file whose name ends in `.gz` is
 * gzip-compressed: its decompressed bytes are read (every gzip member), and a damaged or cut-off one ends
 * with an error after the bytes before the damage (an `unreadable-file` diagnostic in `buildSession`).
 *
 * @param path Absolute or relative path to read.
 * @param displayPath Path to record in diagnostics and source references (defaults to `path` without `.gz`).
 * @param options How to read.
 */
export function fileSource(
  path: string,
  displayPath: string = plainName(path),
  options: FileSourceOptions = {},
): TranscriptSource {
  const blocking = options.blocking === true;
  const read = isGzip(path)
    ? () => gunzipChunks(path, blocking)
    : blocking
      ? () => readChunksBlocking(path)
      : () => readChunks(path);
  return { path: displayPath, read };
}

/**
 * Turns a discovered session into a `SessionSource` that reads its files from disk. Gzip-compressed files
 * (`.gz`) are decompressed and shown by the name without `.gz`: `display` is given that name, so a session
 * read from compressed copies names its files as when it was read from the originals.
 *
 * @param session A session from `discover()`.
 * @param display Maps an absolute path (without `.gz`) to the path recorded in the output (e.g. relative to
 *   the input root).
 * @param options How to read the transcripts.
 */
export async function sessionSource(
  session: DiscoveredSession,
  display: (absolutePath: string) => string = (p) => p,
  options: FileSourceOptions = {},
): Promise<SessionSource> {
  const blocking = options.blocking === true;
  const shown = (path: string) => display(plainName(path));
  const readText = async (path: string) => ({ path: shown(path), text: await smallText(path, blocking) });
  const agentMeta = await Promise.all(session.metaFiles.map(readText));
  const workflowFiles = await Promise.all((session.workflowFiles ?? []).map(readText));
  return {
    id: session.id,
    project: { slug: session.project },
    main: session.mainFile ? fileSource(session.mainFile, shown(session.mainFile), options) : null,
    agents: session.agentFiles.map((path) => fileSource(path, shown(path), options)),
    agentMeta,
    ...(workflowFiles.length > 0 ? { workflowFiles } : {}),
  };
}

/** A small file's text (decompressed when it is `.gz`), or '' when it cannot be read. */
async function smallText(path: string, blocking: boolean): Promise<string> {
  if (isGzip(path)) return gunzipText(path, blocking);
  return blocking ? readTextBlocking(path) : readFile(path, 'utf8').catch(() => '');
}

function readTextBlocking(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

async function* readChunks(path: string): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  const buffers: Buffer[] = [];
  // The read in flight, if any: it must land before its buffer is reused.
  let reading: Promise<{ bytesRead: number; buffer: Buffer }> | null = null;
  try {
    const { size } = await handle.stat();
    if (size < WHOLE_FILE) {
      // A small file in one piece, into a reused buffer (see `spare`).
      const buffer = takeBuffer(size + 1);
      buffers.push(buffer);
      let filled = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
        if (filled === buffer.length) {
          // The file grew while being read: the rest comes in chunks.
          yield buffer.subarray(0, filled);
          filled = 0;
        }
      }
      if (filled > 0) yield buffer.subarray(0, filled);
      return;
    }
    // Two buffers in turn, the next read in flight while the current chunk is being parsed. A buffer is
    // refilled only after the line reader has asked for the chunk after it (see `readLines`).
    buffers.push(takeBuffer(CHUNK), takeBuffer(CHUNK));
    let turn = 0;
    reading = handle.read(buffers[0]!, 0, CHUNK, null);
    for (;;) {
      const { bytesRead, buffer } = await reading;
      reading = null;
      if (bytesRead === 0) return;
      turn ^= 1;
      reading = handle.read(buffers[turn]!, 0, CHUNK, null);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // The reader stopped early: the next chunk's read is still in flight.
    await reading?.catch(() => undefined);
    await handle.close();
    for (const buffer of buffers) returnBuffer(buffer);
  }
}

/** Files up to this size are read in one piece: no line spans two chunks. */
const WHOLE_FILE = 16 << 20;

/**
 * Buffers of finished reads, smallest first, reused by the next files (a thread reads a few files at
 * a time). A new buffer's memory has to be faulted in page by page, which costs more than the read itself.
 */
const spare: Buffer[] = [];

/** Spare buffers kept; when there are more, the smallest is dropped, so the kept ones fit ever more files. */
const SPARE_BUFFERS = 3;

/** The smallest spare buffer of at least `size` bytes, or a new one. */
function takeBuffer(size: number): Buffer {
  const index = spare.findIndex((buffer) => buffer.length >= size);
  if (index !== -1) return spare.splice(index, 1)[0]!;
  let length = CHUNK;
  while (length < size) length *= 2;
  return Buffer.allocUnsafeSlow(length);
}

/** Gives a buffer back for reuse. */
function returnBuffer(buffer: Buffer): void {
  let at = 0;
  while (at < spare.length && spare[at]!.length < buffer.length) at++;
  spare.splice(at, 0, buffer);
  if (spare.length > SPARE_BUFFERS) spare.shift();
}

async function* readChunksBlocking(path: string): AsyncGenerator<Uint8Array> {
  const fd = openSync(path, 'r');
  let buffer: Buffer | null = null;
  try {
    const size = fstatSync(fd).size;
    // A small file is read whole (one chunk), a large one in chunks. One buffer is enough either way: the
    // next read happens only when the line reader asks for the next chunk.
    buffer = takeBuffer(size < WHOLE_FILE ? size + 1 : CHUNK);
    const want = buffer.length;
    for (;;) {
      let filled = 0;
      while (filled < want) {
        const bytesRead = readSync(fd, buffer, filled, want - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled === 0) return;
      yield buffer.subarray(0, filled);
      if (filled < want) return;
      // Blocking reads resolve at once: on the main thread, a huge file read so would hold the event loop for its
      // whole build (no signal handled, no worker's message received). Between chunks, it lets it turn.
      if (isMainThread) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    closeSync(fd);
    if (buffer !== null) returnBuffer(buffer);
  }
}
