import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveIndex, ArchiveSessionSummary } from '@cctrail/core/archive';

// What the archive's end-to-end tests share: the files of a folder, and an index's sessions by project.

/** The files under a folder, as paths relative to it, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name).slice(dir.length + 1));
  return out.sort();
}

/** The sessions of an archive's index, by `project/session`. */
export function lines(idx: ArchiveIndex): Map<string, ArchiveSessionSummary> {
  return new Map(idx.projects.flatMap((p) => p.sessions.map((s) => [`${p.slug}/${s.id}`, s] as const)));
}
