import { statSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import type { ArchivedStatus } from '@cctrail/core/archive';
import type { SelectedSession, Selection } from '../input/input.js';
import type { JobRunner } from '../runtime/job-runner.js';
import type { KeepJob } from '../runtime/jobs.js';
import { forEachOrdered } from '../runtime/pool.js';
import {
  type ArchivedSession,
  archivedSessions,
  type FromArchive,
  type KeptFiles,
  plainName,
  sessionFiles,
  sessionKey,
  shownPath,
} from './archive-input.js';
import type { Manifest } from './manifest.js';
import { type KeepChange, keptPath, type SourceRecord, supersede } from './sources.js';

/**
 * An export into an archive never forgets: the sessions the archive kept and this run does not read from its
 * input (their transcripts were deleted, or the filters left them out) are read again from the archive's own
 * kept sources, with a status that says why.
 */

/**
 * The selection of an export into an archive folder: the selected sessions, then every session of the
 * archive's kept sources that none of them is, with its status.
 *
 * @param selection What the command line selected.
 * @param dir The archive folder written into.
 */
export async function withArchived(selection: Selection, dir: string): Promise<Selection> {
  const archived = new Map<string, ArchivedSession>();
  for (const session of await archivedSessions(dir))
    archived.set(sessionKey(session.discovered.project, session.discovered.id), session);
  const sessions = selection.sessions.map((session) => {
    const copy = archived.get(sessionKey(session.discovered.project, session.discovered.id));
    return copy === undefined || session.archive ? session : withKeptFiles(session, copy);
  });
  const chosen = new Set(sessions.map((s) => sessionKey(s.discovered.project, s.discovered.id)));
  for (const [key, session] of archived) {
    if (chosen.has(key)) continue;
    sessions.push({ ...session, archive: { ...session.archive, status: statusOf(session, selection) } });
  }
  return { ...selection, sessions };
}

/**
 * A session read from its input, completed with the files of it that only the archive still has (Claude Code
 * deleted some of its files, or a later copy lacks them): the session is built from all of them, as it was.
 */
function withKeptFiles(session: SelectedSession, copy: ArchivedSession): SelectedSession {
  const have = new Set(sessionFiles(session.discovered).map((f) => shownPath(session.root, f)));
  const kept: KeptFiles = { files: {}, records: {} };
  const discovered = {
    ...session.discovered,
    agentFiles: [...session.discovered.agentFiles],
    metaFiles: [...session.discovered.metaFiles],
    workflowFiles: [...(session.discovered.workflowFiles ?? [])],
  };
  const add = (file: string, into: string[] | 'main') => {
    const shown = shownPath(copy.root, file);
    if (have.has(shown)) return;
    kept.files[plainName(file)] = shown;
    const record = copy.archive.records[shown];
    if (record) kept.records[shown] = record;
    if (into === 'main') discovered.mainFile = file;
    else into.push(file);
  };
  if (copy.discovered.mainFile !== null && session.discovered.mainFile === null)
    add(copy.discovered.mainFile, 'main');
  for (const file of copy.discovered.agentFiles) add(file, discovered.agentFiles);
  for (const file of copy.discovered.metaFiles) add(file, discovered.metaFiles);
  for (const file of copy.discovered.workflowFiles ?? []) add(file, discovered.workflowFiles);
  if (Object.keys(kept.files).length === 0) return session;
  // In the order a discovery of all of them would give: by path as shown (the same root for each).
  const shownOf = (f: string) => kept.files[plainName(f)] ?? shownPath(session.root, f);
  const byShown = (a: string, b: string) => (shownOf(a) < shownOf(b) ? -1 : shownOf(a) > shownOf(b) ? 1 : 0);
  discovered.agentFiles.sort(byShown);
  discovered.metaFiles.sort(byShown);
  discovered.workflowFiles.sort(byShown);
  if (discovered.workflowFiles.length === 0)
    delete (discovered as { workflowFiles?: string[] }).workflowFiles;
  return { ...session, discovered, kept };
}

/**
 * Why an archived session is not read from the input: `missing` when its transcripts were kept from a place this
 * run's inputs cover and are no longer there, else `kept`. `lastSeen` is the last time an export read them.
 */
function statusOf(session: ArchivedSession, selection: Selection): ArchivedStatus {
  const records = Object.values(session.archive.records);
  const seen = records.map((r) => r.seenAt).sort();
  const lastSeen = seen.at(-1) ?? session.archive.status?.lastSeen ?? null;
  const key = sessionKey(session.discovered.project, session.discovered.id);
  if (selection.found?.has(key)) return { status: 'kept', lastSeen };
  const inputs = selection.inputs ?? [];
  const lookedFor = records.some((r) => inputs.some((input) => covers(input, r.origin)));
  if (lookedFor) return { status: 'missing', lastSeen };
  return { status: session.archive.status?.status ?? 'kept', lastSeen };
}

/**
 * Whether a session's transcripts were looked for in this run and not found: not in its inputs, and shown by
 * paths (relative to the run's root) that one of its inputs covers.
 *
 * @param selection The run's selection.
 * @param key The session's `sessionKey`.
 * @param sources Its transcripts' paths as shown.
 */
export function missingFrom(selection: Selection, key: string, sources: readonly string[]): boolean {
  if (selection.found?.has(key)) return false;
  const inputs = selection.inputs ?? [];
  return sources.some((source) => {
    const path = resolve(selection.root, ...source.split('/'));
    return inputs.some((input) => covers(input, path));
  });
}

/** Whether a path is an input or lies inside one. */
function covers(input: string, path: string): boolean {
  const rel = relative(input, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** What keeping the sources of a run did: how many files changed each way. */
export type KeepTally = Record<KeepChange, number> & { failed: number };

/**
 * Keeps the source files of the sessions of a run in the archive, and records them in its manifest: the
 * transcripts read from the input (new bytes only, hashed and compressed by a keep job on a worker thread, beside
 * the sessions' builds), the sources of another archive given as input (copied), and the archive's own
 * (unchanged). The bytes are read while the sessions are built: the files are in the page cache for both.
 *
 * @param sessions The sessions of the run.
 * @param context The archive folder, its manifest (updated in place), this run's UTC day, and the job runner.
 */
export async function keepSources(
  sessions: readonly SelectedSession[],
  context: { dir: string; manifest: Manifest; now: string; runner: Pick<JobRunner, 'run' | 'capacity'> },
): Promise<KeepTally> {
  const { dir, manifest, now, runner } = context;
  const tally: KeepTally = { new: 0, appended: 0, unchanged: 0, rewritten: 0, failed: 0 };
  const count = (change: KeepChange | null) => {
    if (change === null) tally.failed++;
    else tally[change]++;
  };
  const copies: { session: SelectedSession; file: string }[] = [];
  const jobs: KeepJob[] = [];
  for (const session of sessions) {
    if (session.archive?.dir === dir) continue;
    const files = sessionFiles(session.discovered).map((path) => ({
      path,
      shown: shownPath(session.root, path),
    }));
    if (session.archive) for (const { path } of files) copies.push({ session, file: path });
    else if (files.some((f) => !unchanged(dir, manifest.sources[f.shown], f.path)))
      jobs.push({
        kind: 'keep',
        dir,
        now,
        files: files.map((f) => ({ ...f, known: manifest.sources[f.shown] })),
      });
    else
      for (const f of files) {
        manifest.sources[f.shown] = { ...manifest.sources[f.shown]!, origin: f.path, seenAt: now };
        count('unchanged');
      }
  }
  await forEachOrdered(
    jobs,
    runner.capacity,
    (job) => runner.run(job),
    (result) => {
      for (const { shown, record, change } of result.kept) {
        manifest.sources[shown] = record;
        count(change);
      }
      tally.failed += result.failed;
    },
  );
  for (const { session, file } of copies) {
    const shown = shownPath(session.root, file);
    const kept = await copyKept(dir, shown, session.archive!, manifest, now).catch(() => null);
    if (kept !== null) manifest.sources[shown] = kept.record;
    count(kept?.change ?? null);
  }
  return tally;
}

/**
 * Whether a file is the one a record kept, still kept: same size and modification time, and its kept copy there
 * (it is then not read).
 */
function unchanged(dir: string, record: SourceRecord | undefined, path: string): boolean {
  if (record === undefined) return false;
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined || info.size !== record.size || info.mtimeMs !== record.mtimeMs) return false;
  return statSync(keptPath(dir, record.kept), { throwIfNoEntry: false })?.isFile() === true;
}

/**
 * Copies a source kept by another archive (merging two machines' archives): the copy with more bytes wins, and
 * a different one already kept here is moved under `superseded/`.
 */
async function copyKept(
  dir: string,
  shown: string,
  from: FromArchive,
  manifest: Manifest,
  now: string,
): Promise<{ record: SourceRecord; change: KeepChange } | null> {
  const record = from.records[shown];
  if (record === undefined) return null;
  const known = manifest.sources[shown];
  if (known?.sha256 === record.sha256) return { record: known, change: 'unchanged' };
  if (known && known.size > record.size) return { record: known, change: 'unchanged' };
  // `readManifest` took only records whose kept file is `sources/<shown>.gz`.
  const target = keptPath(dir, record.kept);
  const superseded = [...(known?.superseded ?? [])];
  if (known) superseded.push(await supersede(dir, keptPath(dir, known.kept), shown, now));
  await mkdir(dirname(target), { recursive: true });
  const temporary = `${target}.tmp-${process.pid}`;
  try {
    await copyFile(keptPath(from.dir, record.kept), temporary);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return {
    record: { ...record, ...(superseded.length > 0 ? { superseded } : {}) },
    change: known ? 'rewritten' : 'new',
  };
}
