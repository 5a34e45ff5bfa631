/**
 * Reading gzip-compressed transcripts: the decompressed bytes, chunk by chunk. A file may hold several gzip
 * members one after the other (a transcript kept by appending what it grew by); every member is read.
 * A damaged or cut-off file yields what could be decompressed, then throws an error that names it, which the
 * read stage turns into an `unreadable-file` diagnostic, as for any file that fails while being read.
 */

import { createReadStream, readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { promisify } from 'node:util';
import { createGunzip, gunzip, gunzipSync } from 'node:zlib';

/** Compressed files up to this size are decompressed in one call: a stream costs more for small files. */
const ONE_CALL = 1 << 20;

/** Text one call may make (as much as a plain file read whole); a small file that holds more is streamed. */
const ONE_CALL_OUTPUT = 16 << 20;

/** Bytes read, and bytes decompressed, per chunk of a stream (smaller chunks cost several times more). */
const CHUNK = 1 << 20;

/**
 * Output chunk of a small file streamed after its one call failed (damage in it): zlib drops the output of the
 * step that fails, so small steps keep more of what lies before the damage.
 */
const SALVAGE_CHUNK = 16 << 10;

const gunzipAsync = promisify(gunzip);

/**
 * The decompressed bytes of a gzip file. A small file is decompressed in one call (with `blocking`, a
 * synchronous one); a large one is streamed in 1 MiB chunks through zlib, which works on libuv's thread pool
 * also when `blocking` is set (Node offers no synchronous streaming inflate). An empty file is empty text.
 *
 * @param path The `.gz` file.
 * @param blocking Decompress a small file with a blocking call.
 * @throws Where the file cannot be read or its data is damaged, after yielding what came before.
 */
export async function* gunzipChunks(path: string, blocking: boolean): AsyncGenerator<Uint8Array> {
  let chunk = CHUNK;
  const size = blocking ? sizeBlocking(path) : await stat(path).then((info) => info.size, unknownSize);
  if (size === 0) return;
  if (size !== null && size <= ONE_CALL) {
    const text = blocking ? oneCallBlocking(path) : await oneCall(path);
    if (!(text instanceof Error)) {
      if (text.length > 0) yield text;
      return;
    }
    if ((text as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') chunk = SALVAGE_CHUNK;
  }
  yield* gunzipStream(path, chunk);
}

/**
 * A gzip file's decompressed bytes as a stream, in chunks of `chunkSize` bytes.
 *
 * @param path The `.gz` file.
 * @param chunkSize Bytes per output chunk.
 * @throws Where the file cannot be read or its data is damaged, after yielding what came before.
 */
export async function* gunzipStream(path: string, chunkSize = CHUNK): AsyncGenerator<Uint8Array> {
  const input = createReadStream(path, { highWaterMark: CHUNK });
  const output = createGunzip({ chunkSize });
  input.on('error', (error) => output.destroy(error));
  input.pipe(output);
  try {
    for await (const chunk of output) yield chunk as Buffer;
  } catch (error) {
    throw named(path, error);
  } finally {
    input.destroy();
    output.destroy();
  }
}

/**
 * A small gzip file's text (an agent sidecar, a workflow snapshot), or '' when it cannot be read.
 *
 * @param path The `.gz` file.
 * @param blocking Read and decompress with blocking calls.
 */
export async function gunzipText(path: string, blocking: boolean): Promise<string> {
  try {
    const bytes = blocking ? gunzipSync(readFileSync(path)) : await gunzipAsync(await readFile(path));
    return bytes.toString('utf8');
  } catch {
    return '';
  }
}

async function oneCall(path: string): Promise<Buffer | Error> {
  try {
    return await gunzipAsync(await readFile(path), { maxOutputLength: ONE_CALL_OUTPUT, chunkSize: CHUNK });
  } catch (error) {
    return error as Error;
  }
}

function oneCallBlocking(path: string): Buffer | Error {
  try {
    return gunzipSync(readFileSync(path), { maxOutputLength: ONE_CALL_OUTPUT });
  } catch (error) {
    return error as Error;
  }
}

/** The file's size, or null where it cannot be known (the stream then says why). */
function sizeBlocking(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

function unknownSize(): null {
  return null;
}

/** A zlib error says what is wrong, not where: it gets the file's name. File system errors keep their code. */
function named(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('Z_')) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`damaged gzip data in ${basename(path)}: ${reason}`);
}
