import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchivedStatus, ArchiveIndex } from '@cctrail/core/archive';
import { type DiscoveredSession, discover } from '@cctrail/core/node';
import { type FileStat, fileStats } from '../runtime/file-stats.js';
import { displayPath } from '../terminal/display.js';
import { readManifest } from './manifest.js';
import { SOURCES_FOLDER, type SourceRecord } from './sources.js';

/**
 * An archive folder read as input (`cctrail report ARCHIVE`, `stats ARCHIVE`, `export ARCHIVE -o OTHER`, and the
 * archive an export writes into): its kept sources are discovered as `~/.claude/projects` is, and shown by the
 * paths they had when they were kept.
 */

/** What a session read from an archive's kept sources carries with it. */
export interface FromArchive {
  /** The archive folder. */
  dir: string;
  /** The archive's index line said it was kept without its transcripts (missing, or outside an export). */
  status: ArchivedStatus | null;
  /** The records of its kept files, by path as shown. */
  records: Record<string, SourceRecord>;
}

/**
 * Files of a session read from its input that only the archive still has (Claude Code deleted some of its files):
 * each kept file's path (without `.gz`) → its path as shown, and their records.
 */
export interface KeptFiles {
  files: Record<string, string>;
  records: Record<string, SourceRecord>;
}

/** A session found in an archive's kept sources. */
export interface ArchivedSession {
  discovered: DiscoveredSession;
  /** The root its paths are shown relative to: the archive's `sources/` folder. */
  root: string;
  archive: FromArchive;
}

/**
 * Whether a folder is a cctrail archive: its `index.json` names cctrail as its generator.
 *
 * @param dir A folder.
 */
export async function isArchiveFolder(dir: string): Promise<boolean> {
  return (await readArchiveIndex(dir)) !== null;
}

/**
 * An archive's `index.json`, or null when the folder has none that cctrail wrote.
 *
 * @param dir The folder.
 */
export async function readArchiveIndex(dir: string): Promise<ArchiveIndex | null> {
  try {
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as Partial<ArchiveIndex> | null;
    return index?.generator?.name === 'cctrail' && Array.isArray(index.projects)
      ? (index as ArchiveIndex)
      : null;
  } catch {
    return null;
  }
}

/** Whether an archive holds kept sources. */
async function hasSources(dir: string): Promise<boolean> {
  return (await stat(join(dir, SOURCES_FOLDER)).catch(() => null))?.isDirectory() ?? false;
}

/** The key that identifies a session across inputs and archives: its project folder name and its id. */
export function sessionKey(project: string | null, id: string): string {
  return `${project ?? ''}\u0000${id}`;
}

/**
 * The sessions of an archive's kept sources, each with the archive's status of it and its files' records.
 *
 * @param dir The archive folder.
 */
export async function archivedSessions(dir: string): Promise<ArchivedSession[]> {
  if (!(await hasSources(dir))) return [];
  const root = join(dir, SOURCES_FOLDER);
  const [discovery, manifest, index] = await Promise.all([
    discover([root]),
    readManifest(dir),
    readArchiveIndex(dir),
  ]);
  const statuses = new Map<string, ArchivedStatus>();
  for (const project of index?.projects ?? [])
    for (const line of Array.isArray(project?.sessions) ? project.sessions : [])
      if (line?.archived) statuses.set(sessionKey(project.slug, line.id), line.archived);
  const out: ArchivedSession[] = [];
  for (const project of discovery.projects) {
    for (const discovered of project.sessions) {
      const records = Object.create(null) as Record<string, SourceRecord>;
      for (const file of sessionFiles(discovered)) {
        const shown = shownPath(root, file);
        const record = manifest.sources[shown];
        if (record) records[shown] = record;
      }
      const status = statuses.get(sessionKey(discovered.project, discovered.id)) ?? null;
      out.push({ discovered, root, archive: { dir, status, records } });
    }
  }
  return out;
}

/** Every file of a discovered session: main, agents, agent metadata, workflow files. */
export function sessionFiles(session: DiscoveredSession): string[] {
  return [
    ...(session.mainFile === null ? [] : [session.mainFile]),
    ...session.agentFiles,
    ...session.metaFiles,
    ...(session.workflowFiles ?? []),
  ];
}

/** A file's path as shown, relative to its input root: a kept source without its `.gz`. */
export function shownPath(root: string, file: string): string {
  return displayPath(root, plainName(file));
}

/** A kept source's path without its `.gz` (as core's node adapters name it). */
export function plainName(file: string): string {
  return file.endsWith('.gz') ? file.slice(0, -3) : file;
}

/** A session as an input holds it: its files, and the archive it was kept in, if any. */
interface Copy {
  discovered: DiscoveredSession;
  archive?: FromArchive;
}

/**
 * One copy of each session (project and id) when several inputs hold it (two machines' archives, or an archive
 * and the transcripts it was made from): the transcripts themselves first, else the copy with the most bytes.
 *
 * @param all The sessions of every input.
 */
export function oneCopyEach<T extends Copy>(all: readonly T[]): T[] {
  const chosen = new Map<string, { session: T; bytes: number }>();
  for (const session of all) {
    const key = sessionKey(session.discovered.project, session.discovered.id);
    const bytes = session.archive ? archivedBytes(session) : Number.POSITIVE_INFINITY;
    const before = chosen.get(key);
    if (!before || bytes > before.bytes) chosen.set(key, { session, bytes });
  }
  return all.filter((s) => chosen.get(sessionKey(s.discovered.project, s.discovered.id))?.session === s);
}

function archivedBytes(session: Copy): number {
  let total = 0;
  for (const record of Object.values(session.archive?.records ?? {})) total += record.size;
  return total;
}

/**
 * The size and modification time of a session's files (what fingerprints and the order of work use), each named
 * by its path as shown: a file read from an archive's kept sources counts as the original it keeps (its size and
 * time when kept), so a session whose transcripts moved into the archive (deleted, or filtered out) keeps its
 * fingerprint and is neither read nor written again.
 *
 * @param selected The session.
 */
export function sourceStats(selected: {
  discovered: DiscoveredSession;
  root: string;
  archive?: FromArchive;
  kept?: KeptFiles;
}) {
  return fileStats(selected.discovered).map((stat): FileStat => {
    const shown = selected.kept?.files[plainName(stat.file)] ?? shownPath(selected.root, stat.file);
    const record = selected.archive?.records[shown] ?? selected.kept?.records[shown];
    return record ? { file: shown, size: record.size, mtimeMs: record.mtimeMs } : { ...stat, file: shown };
  });
}

/**
 * The statuses of the sessions read from an archive that kept them without their transcripts, by `sessionKey`.
 *
 * @param sessions Selected sessions.
 */
export function archivedStatuses(
  sessions: readonly { discovered: DiscoveredSession; archive?: FromArchive }[],
): Map<string, ArchivedStatus> {
  const out = new Map<string, ArchivedStatus>();
  for (const s of sessions)
    if (s.archive?.status) out.set(sessionKey(s.discovered.project, s.discovered.id), s.archive.status);
  return out;
}
