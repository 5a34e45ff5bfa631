import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ArchiveIndex,
  type ArchiveSessionSummary,
  type CostTotals,
  SCHEMA_VERSION,
  type Usage,
} from '@cctrail/core';
import { indexJson } from '../archive-json.js';
import { insideFolder, type WriteOutcome, writeIfChanged } from '../atomic-write.js';
import { cliVersion } from '../version.js';
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
 * Writes `DIR/index.json` (only when its bytes change), then removes the session files the previous index
 * listed and this one does not (files this tool wrote only).
 *
 * @param dir The archive folder.
 * @param index The new index.
 * @returns Whether the index was written, and how many session files were removed.
 */
export async function writeIndex(
  dir: string,
  index: ArchiveIndex,
): Promise<{ outcome: WriteOutcome; removed: number }> {
  const indexFile = join(dir, 'index.json');
  const previous = await readFile(indexFile, 'utf8')
    .then((text) => JSON.parse(text) as unknown)
    .catch(() => null);
  const outcome = await writeIfChanged(indexFile, indexJson(index));
  return { outcome, removed: await removeStale(dir, previous, index) };
}

/** Removes session files a previous index listed and the new one does not (files this tool wrote only). */
async function removeStale(dir: string, previous: unknown, index: ArchiveIndex): Promise<number> {
  const projects = (previous as { projects?: unknown } | null)?.projects;
  if (!Array.isArray(projects)) return 0;
  const keep = new Set(index.projects.flatMap((p) => p.sessions.map((s) => s.file.toLowerCase())));
  let removed = 0;
  for (const project of projects as { sessions?: { file?: unknown }[] }[]) {
    for (const session of Array.isArray(project?.sessions) ? project.sessions : []) {
      const file = session?.file;
      if (typeof file !== 'string' || keep.has(file.toLowerCase()) || !STALE_FILE.test(file)) continue;
      await rm(insideFolder(dir, file), { force: true });
      removed++;
    }
  }
  return removed;
}

/** The shape of the session paths this tool writes; anything else in an old index is left alone. */
const STALE_FILE = /^sessions\/[A-Za-z0-9_-][\w.-]*\/[A-Za-z0-9_-][\w.-]*\.json$/;
