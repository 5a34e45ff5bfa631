import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { DiscoveredSession } from './discover.js';
import type { SessionSource, TranscriptSource } from './source.js';

/**
 * A transcript source backed by a file on disk, streamed in 1 MiB chunks.
 *
 * @param path Absolute or relative path to read.
 * @param displayPath Path to record in diagnostics and source references (defaults to `path`).
 */
export function fileSource(path: string, displayPath: string = path): TranscriptSource {
  return {
    path: displayPath,
    read: () => createReadStream(path, { highWaterMark: 1 << 20 }),
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
