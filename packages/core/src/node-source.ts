import { open, readFile } from 'node:fs/promises';
import type { DiscoveredSession } from './discover.js';
import type { SessionSource, TranscriptSource } from './source.js';

/** Bytes read per call: large enough that per-read overhead is negligible, small enough to stay cheap. */
const CHUNK = 1 << 20;

/**
 * A transcript source backed by a file on disk, read in 1 MiB chunks.
 *
 * @param path Absolute or relative path to read.
 * @param displayPath Path to record in diagnostics and source references (defaults to `path`).
 */
export function fileSource(path: string, displayPath: string = path): TranscriptSource {
  return {
    path: displayPath,
    read: () => readChunks(path),
  };
}

/**
 * Turns a discovered session into a `SessionSource` that reads its files from disk.
 *
 * @param session A session from `discover()`.
 * @param display Maps an absolute path to the path recorded in the output (e.g. relative to the input root).
 */
export async function sessionSource(
  session: DiscoveredSession,
  display: (absolutePath: string) => string = (p) => p,
): Promise<SessionSource> {
  const agentMeta = await Promise.all(
    session.metaFiles.map(async (path) => ({
      path: display(path),
      text: await readFile(path, 'utf8').catch(() => ''),
    })),
  );
  return {
    id: session.id,
    project: { slug: session.project },
    main: session.mainFile ? fileSource(session.mainFile, display(session.mainFile)) : null,
    agents: session.agentFiles.map((path) => fileSource(path, display(path))),
    agentMeta,
  };
}

async function* readChunks(path: string): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    // Two buffers in turn, the next read in flight while the current chunk is being parsed. A buffer is
    // refilled only after the line reader has asked for the chunk after it (see `readLines`).
    const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
    let turn = 0;
    let next = handle.read(buffers[0]!, 0, CHUNK, null);
    for (;;) {
      const { bytesRead, buffer } = await next;
      if (bytesRead === 0) return;
      turn ^= 1;
      next = handle.read(buffers[turn]!, 0, CHUNK, null);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
