/** Peeking into agent files: the `sessionId` from their first lines, a few files at a time. */
import { open } from 'node:fs/promises';
import { gunzipStream } from './gunzip.js';
import { isGzip } from './gzip-names.js';

/** Agent files whose first lines are read at once (each read takes a 256 KiB buffer). */
export const PEEKS_AT_ONCE = 16;

/** `Promise.all(items.map(work))` with at most `limit` calls of `work` running at once; results in order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      out[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Text read from the start of a file to find its `sessionId`. */
const PEEK_BYTES = 256 * 1024;

/**
 * Reads the `sessionId` from the first lines of a file (at most 256 KiB of its text are read; of a `.gz`
 * file, of its decompressed text).
 *
 * @param path The agent file.
 */
export async function peekSessionId(path: string): Promise<string | null> {
  const text = isGzip(path) ? await peekGzip(path) : await peekPlain(path);
  const match = /"sessionId"\s*:\s*"([^"\\]{1,200})"/.exec(text ?? '');
  return match?.[1] ?? null;
}

async function peekPlain(path: string): Promise<string | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const buffer = Buffer.allocUnsafe(PEEK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The first 256 KiB of a gzip file's text, or what could be decompressed of them. */
async function peekGzip(path: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for await (const chunk of gunzipStream(path, PEEK_BYTES)) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= PEEK_BYTES) break;
    }
  } catch {
    // damaged further on: what came before is enough to peek at
  }
  return Buffer.concat(chunks, length).subarray(0, PEEK_BYTES).toString('utf8');
}
