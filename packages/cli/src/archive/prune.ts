import { rm } from 'node:fs/promises';
import type { ArchiveIndex } from '@cctrail/core/archive';
import { type Filters, matchesIds, type SelectedSession, type Selection } from '../input/input.js';
import { sessionKey } from './archive-input.js';
import type { CarriedLine } from './carried.js';
import type { Manifest } from './manifest.js';
import { keptPath } from './sources.js';

/**
 * `--prune`: the one way sessions leave an archive. Only sessions whose transcripts are missing from the input
 * (status `missing`) and that match the `--project`/`--session` filters are removed: their session files, their
 * kept sources and the versions those superseded. Everything removed is listed first.
 */

/** A session to remove. */
export interface PrunedSession {
  project: string;
  id: string;
  title: string | null;
  lastSeen: string | null;
  /** Its files in the archive: the session file, kept sources, superseded versions. */
  files: string[];
}

/** Whether a session is one `--prune` removes. */
function prunable(project: string, id: string, status: string | undefined, filters: Filters): boolean {
  return status === 'missing' && matchesIds({ project, id } as SelectedSession['discovered'], filters);
}

/**
 * Takes the sessions `--prune` removes out of an export's selection (those read from the archive's own
 * sources).
 *
 * @param selection The export's selection, with the archive's sessions.
 * @param dir The archive folder.
 * @param previous The archive's index before this run (for the titles and session files).
 * @param manifest The archive's manifest (for the kept sources).
 */
export function pruneSelection(
  selection: Selection,
  dir: string,
  previous: ArchiveIndex | null,
  manifest: Manifest,
): { selection: Selection; pruned: PrunedSession[] } {
  const lines = previousLines(previous);
  const pruned: PrunedSession[] = [];
  const sessions = selection.sessions.filter((session) => {
    const { project, id } = session.discovered;
    const status = session.archive?.dir === dir ? session.archive.status : null;
    if (!prunable(project, id, status?.status, selection.filters)) return true;
    const line = lines.get(sessionKey(project, id));
    const files = Object.keys(session.archive?.records ?? {}).flatMap((shown) => {
      const record = manifest.sources[shown];
      return record ? [record.kept, ...(record.superseded ?? [])] : [];
    });
    pruned.push({
      project,
      id,
      title: line?.title ?? null,
      lastSeen: status?.lastSeen ?? null,
      files: [...(line ? [line.file] : []), ...files],
    });
    for (const shown of Object.keys(session.archive?.records ?? {})) delete manifest.sources[shown];
    return false;
  });
  return { selection: { ...selection, sessions }, pruned };
}

/**
 * Takes the carried lines `--prune` removes (sessions without kept sources, marked missing before).
 *
 * @param carried The lines carried over.
 * @param filters The command line's filters.
 */
export function pruneCarried(
  carried: readonly CarriedLine[],
  filters: Filters,
): { carried: CarriedLine[]; pruned: PrunedSession[] } {
  const pruned: PrunedSession[] = [];
  const kept = carried.filter(({ project, summary }) => {
    if (!prunable(project.slug, summary.id, summary.archived?.status, filters)) return true;
    pruned.push({
      project: project.slug,
      id: summary.id,
      title: summary.title,
      lastSeen: summary.archived?.lastSeen ?? null,
      files: [summary.file],
    });
    return false;
  });
  return { carried: kept, pruned };
}

/**
 * Removes the files of pruned sessions (after the index without them is written).
 *
 * @param dir The archive folder.
 * @param pruned The sessions.
 */
export async function removePruned(dir: string, pruned: readonly PrunedSession[]): Promise<void> {
  for (const session of pruned)
    for (const file of session.files) {
      try {
        await rm(keptPath(dir, file), { force: true });
      } catch {
        // A path that is not the archive's own is never removed.
      }
    }
}

function previousLines(index: ArchiveIndex | null) {
  const lines = new Map<string, { title: string | null; file: string }>();
  for (const project of index?.projects ?? [])
    for (const line of Array.isArray(project?.sessions) ? project.sessions : [])
      if (typeof line?.file === 'string') lines.set(sessionKey(project.slug, line.id), line);
  return lines;
}
