import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SCHEMA_VERSION, type Usage } from '@cctrail/core';
import type { ArchiveIndex, ArchiveSessionSummary, CostTotals } from '@cctrail/core/archive';
import { insideFolder, type WriteOutcome, writeIfChanged } from '../files/atomic-write.js';
import { cliVersion } from '../version.js';
import { sessionKey } from './archive-input.js';
import { indexJson } from './archive-json.js';
import type { Layout, Placed } from './layout.js';

/** What the index says of one session: its line, and its project's working directory. */
export interface IndexedSession {
  summary: ArchiveSessionSummary;
  cwd: string | null;
}

/**
 * The archive's index: its projects in layout order, each with its sessions' lines and the first working
 * directory one of them knows.
 *
 * @param layout The archive layout.
 * @param indexed What each session of the layout contributes.
 * @param usage The archive's token totals.
 * @param cost The archive's cost totals.
 */
export function archiveIndex<T extends Placed>(
  layout: Layout<T>,
  indexed: ReadonlyMap<T, IndexedSession>,
  usage: Usage,
  cost: CostTotals,
): ArchiveIndex {
  return {
    schemaVersion: SCHEMA_VERSION,
    generator: { name: 'cctrail', version: cliVersion() },
    projects: layout.projects.map((project) => ({
      ...project.info,
      cwd: project.sessions.map((s) => indexed.get(s)!.cwd).find((cwd) => cwd !== null) ?? null,
      sessions: project.sessions.map((s) => indexed.get(s)!.summary),
    })),
    usage,
    cost,
  };
}

/**
 * Writes `DIR/index.json` (only when its bytes change), then removes the files of sessions that the new index
 * holds under another path (a name told apart differently): nothing else is ever removed here.
 *
 * @param dir The archive folder.
 * @param index The new index.
 * @param previous The index before this run.
 * @returns Whether the index was written, and how many session files were removed.
 */
export async function writeIndex(
  dir: string,
  index: ArchiveIndex,
  previous: ArchiveIndex | null,
): Promise<{ outcome: WriteOutcome; removed: number }> {
  const outcome = await writeIfChanged(join(dir, 'index.json'), indexJson(index));
  return { outcome, removed: await removeMoved(dir, previous, index) };
}

/** Removes the old files of sessions the new index holds under another path. */
async function removeMoved(dir: string, previous: ArchiveIndex | null, index: ArchiveIndex): Promise<number> {
  const now = new Map<string, string>();
  for (const project of index.projects)
    for (const s of project.sessions) now.set(sessionKey(project.slug, s.id), s.file.toLowerCase());
  const files = new Set(now.values());
  let removed = 0;
  for (const project of previous?.projects ?? []) {
    for (const session of Array.isArray(project?.sessions) ? project.sessions : []) {
      const file = session?.file;
      if (typeof file !== 'string' || files.has(file.toLowerCase()) || !STALE_FILE.test(file)) continue;
      if (!now.has(sessionKey(project.slug, session.id))) continue;
      await rm(insideFolder(dir, file), { force: true });
      removed++;
    }
  }
  return removed;
}

/** The shape of the session paths this tool writes; anything else in an old index is left alone. */
const STALE_FILE = /^sessions\/[A-Za-z0-9_-][\w.-]*\/[A-Za-z0-9_-][\w.-]*\.json$/;
