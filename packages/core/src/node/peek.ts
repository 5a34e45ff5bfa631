/** Peeking into agent files: the `sessionId` from their first lines, a few files at a time. */
import { open } from 'node:fs/promises';

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

/** Reads the `sessionId` from the first lines of a file (at most 256 KiB are read). */
export async function peekSessionId(path: string): Promise<string | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const buffer = Buffer.allocUnsafe(256 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const match = /"sessionId"\s*:\s*"([^"\\]{1,200})"/.exec(text);
    return match?.[1] ?? null;
  } finally {
    await handle.close();
  }
}
