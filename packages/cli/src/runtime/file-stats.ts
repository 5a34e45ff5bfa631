import { type Stats, statSync } from 'node:fs';
import type { DiscoveredSession } from '@cctrail/core/node';

/** A file of a session, with its size and modification time (-1 for a file that cannot be read). */
export interface FileStat {
  file: string;
  size: number;
  mtimeMs: number;
}

/**
 * The size and modification time of a session's files: main transcript, agent transcripts, then agent
 * metadata files (what `fingerprint` covers).
 */
export function fileStats(session: DiscoveredSession): FileStat[] {
  const files = [session.mainFile, ...session.agentFiles, ...session.metaFiles].filter(
    (f): f is string => f !== null,
  );
  return files.map((file) => {
    const info = statOrNull(file);
    return { file, size: info?.size ?? -1, mtimeMs: info?.mtimeMs ?? -1 };
  });
}

/** The bytes of a session's transcripts (not its metadata files), from `fileStats`. */
export function transcriptBytes(session: DiscoveredSession, files: readonly FileStat[]): number {
  const transcripts = (session.mainFile === null ? 0 : 1) + session.agentFiles.length;
  let total = 0;
  for (const { size } of files.slice(0, transcripts)) total += Math.max(0, size);
  return total;
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
