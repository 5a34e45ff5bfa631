import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { WriteOutcome } from './atomic-write.js';

const BATCH = 1 << 20;

/**
 * Writes text given in pieces to a file atomically (`<file>.tmp-<pid>`, then renamed), unless the file
 * already holds exactly these bytes: then the temporary file is dropped and the file is left untouched.
 * Memory stays bounded by the size of the pieces.
 *
 * @param path Destination file; its folder is created when missing.
 * @param chunks The text, in order.
 */
export async function writeChunksIfChanged(
  path: string,
  chunks: Iterable<string> | AsyncIterable<string>,
): Promise<WriteOutcome> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  const hash = createHash('sha256');
  let size = 0;
  const handle = await open(temporary, 'w');
  try {
    let pending: string[] = [];
    let pendingLength = 0;
    const flush = async () => {
      const bytes = Buffer.from(pending.join(''), 'utf8');
      pending = [];
      pendingLength = 0;
      hash.update(bytes);
      size += bytes.byteLength;
      await handle.write(bytes);
    };
    for await (const chunk of chunks) {
      pending.push(chunk);
      pendingLength += chunk.length;
      if (pendingLength >= BATCH) await flush();
    }
    await flush();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  const existing = await stat(path).catch(() => null);
  if (existing?.isFile() && existing.size === size && (await hashFile(path)) === hash.digest('hex')) {
    await rm(temporary, { force: true });
    return 'unchanged';
  }
  await rename(temporary, path);
  return 'written';
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
