import { resolve } from 'node:path';
import { SCHEMA_VERSION } from '@cctrail/core';
import type { ArchiveIndex } from '@cctrail/core/archive';
import type { Io } from '../command-line/command.js';
import { CliError } from '../command-line/errors.js';
import { inTimeRange, type Selection } from '../input/input.js';
import { NO_PRIVACY, type Privacy, privacyTransform } from '../privacy/transform.js';
import { ExportState } from '../runtime/export-state.js';
import type { JobRunner } from '../runtime/job-runner.js';
import { SkeletonCache } from '../runtime/skeleton-cache.js';
import { Spool } from '../runtime/spool.js';
import type { Skeleton } from '../sessions/skeleton.js';
import { markDuplicates, throwUnlessTranscripts } from '../sessions/skeletons.js';
import type { Progress } from '../terminal/progress.js';
import { readArchiveIndex } from './archive-input.js';
import { addCarried, upgradeInPlace } from './carried.js';
import { carryOver } from './carry-over.js';
import { addConversations } from './conversations.js';
import { archiveIndex, type IndexedSession, writeIndex } from './index-file.js';
import { type KeepTally, keepSources, withArchived } from './keep.js';
import { layoutOf } from './layout.js';
import { checkFiles, type Manifest, readManifest, writeManifest } from './manifest.js';
import { onFirstTranscript, onLastSessions } from './pass-events.js';
import { type Planned, planSessions } from './plan.js';
import { type PrunedSession, pruneCarried, pruneSelection, removePruned } from './prune.js';
import { buildSessions } from './session-pass.js';
import { settleSessions, write } from './settle.js';

/** Where an export goes: a folder (`DIR/index.json` + one file per session) or NDJSON on a stream. */
type ArchiveTarget = { dir: string } | { stream: Io['stdout'] };

/** Options of `exportArchive`. */
export interface ExportOptions {
  selection: Selection;
  target: ArchiveTarget;
  runner: JobRunner;
  progress: Progress;
  /** Redaction and home-path shortening (the `report` command). */
  privacy?: Privacy;
  /**
   * A file to keep the sessions' skeletons in, so that unchanged sessions are not read again; or the cache,
   * being opened already (the report opens its own while its modules load).
   */
  skeletonCache?: string | Promise<SkeletonCache>;
  /** For `cctrail report`: its site's cache folder, where each session written is prepared for the site. */
  reportCacheDir?: string;
  /**
   * Called once the input is known to hold transcripts, before the archive is complete (`report` then starts
   * building the site).
   */
  onPlanned?: () => void;
  /**
   * Called once, when the sessions left to build are the last ones, being built (as many as are built at once):
   * the threads that build them finish one after the other, and a core is about to be idle until the archive is
   * complete (`report` then starts its page threads). Told how many sessions the run writes into the archive.
   */
  onLastSessions?: (written: number) => void;
  /** Called once every session is built, before the archive's index is made: the rest uses no worker of `runner`. */
  onSessionsBuilt?: () => void;
  /** Keep every transcript file read, compressed, in the archive folder (`cctrail export` without `--redact`). */
  keepSources?: boolean;
  /**
   * Write no session files, only the kept sources, the index and the manifest (with `keepSources`): an archive of
   * about a quarter of its input. An archive made so stays so.
   */
  sourcesOnly?: boolean;
  /**
   * Keep `manifest.json` (the checksums `cctrail verify` checks); default true. The report's own archive, in its
   * cache, keeps none: nothing verifies it, and hashing its files would cost every build.
   */
  manifest?: boolean;
  /**
   * Write session files Brotli-compressed (`sessions/<project>/<session>.json.br`): the report's own archive, in
   * its cache, which only cctrail reads. A folder only; default false.
   */
  compressed?: boolean;
  /** Remove the sessions whose transcripts are missing from the input (and match the id filters). */
  prune?: boolean;
  /** This run's UTC day (`YYYY-MM-DD`), which the kept sources record; default today. */
  now?: string;
}

/** What an export did. */
export interface ExportOutcome {
  index: ArchiveIndex;
  /** The skeletons of the sessions read from the input (for diagnostics and counts). */
  sessions: Skeleton[];
  written: number;
  unchanged: number;
  /** Session files of a previous export that moved to another path and were removed. */
  removed: number;
  /** Sessions of the archive not read from the input (their transcripts missing, or outside the filters). */
  archived: { missing: number; kept: number };
  /** Sessions removed by `prune`. */
  pruned: PrunedSession[];
  /** What keeping the sources did (null when they are not kept). */
  sources: KeepTally | null;
  /** Secrets redacted and home paths shortened (with `privacy`). */
  redacted: number;
  shortened: number;
  /** The secrets redacted, by the rule that found them (`redacted` in all). */
  byRule: Record<string, number>;
  /**
   * Settles once the skeletons are kept for the next run: they are written while the caller goes on (the report
   * builds its site meanwhile), and awaited before it removes its temporary files.
   */
  cacheWritten: Promise<void>;
}

/**
 * Exports the selected sessions, reading each one's transcripts once: every session is built, written and
 * digested in one pass (a few at a time, in worker threads), skipping those whose inputs did not change since
 * the last export into the folder, while their transcripts are kept in the archive (`keepSources`). An archive
 * never forgets: the sessions it kept that the run does not read from its input are read from its kept sources
 * (or, without sources, their lines are carried over), each with its status; only `prune` removes. Then
 * duplicates are marked across the sessions, in the index only. The index comes after the session files, the manifest last, so a folder always has an index that
 * matches complete session files. When the filters leave no session, a folder is not touched.
 */
export async function exportArchive(options: ExportOptions): Promise<ExportOutcome> {
  const { runner, progress } = options;
  // What `onPlanned` starts may change the working directory while sessions are written (the report's site
  // builder does): every folder is made absolute first.
  const target: ArchiveTarget =
    'dir' in options.target ? { dir: resolve(options.target.dir) } : options.target;
  const dir = 'dir' in target ? target.dir : null;
  const privacy = options.privacy ?? NO_PRIVACY;
  const now = options.now ?? new Date().toISOString().slice(0, 10);
  const cache = await (typeof options.skeletonCache === 'object'
    ? options.skeletonCache
    : SkeletonCache.open(options.skeletonCache === undefined ? undefined : resolve(options.skeletonCache)));
  const previous = dir === null ? null : await readArchiveIndex(dir);
  const state = dir === null ? null : new ExportState(dir, previous);
  const manifest = dir === null || options.manifest === false ? null : await readManifest(dir);
  const sourcesOnly = manifest !== null && (options.sourcesOnly === true || manifest.sessionFiles === false);
  if (sourcesOnly && manifest !== null) {
    if (manifest.sessionFiles !== false && previous !== null)
      throw new CliError(`${dir} holds session files: an archive of sources only needs a new folder`);
    manifest.sessionFiles = false;
  }
  let selection = dir === null ? options.selection : await withArchived(options.selection, dir);
  let pruned: PrunedSession[] = [];
  if (options.prune && dir !== null && manifest !== null)
    ({ selection, pruned } = pruneSelection(selection, dir, previous, manifest));
  const spool = new Spool();
  try {
    const { planned, layout: whole } = await planSessions({
      selection,
      privacy,
      dir,
      state,
      cache,
      spool,
      sourcesOnly,
      compressed: options.compressed === true,
    });
    const range = { since: selection.filters.since, until: selection.filters.until };
    const found = onLastSessions(
      onFirstTranscript(planned, options.onPlanned),
      planned,
      range,
      runner.capacity,
      options.onLastSessions,
    );
    const report =
      dir === null || options.reportCacheDir === undefined
        ? {}
        : { report: { dataDir: dir, cacheDir: resolve(options.reportCacheDir) } };
    const [, sources] = await Promise.all([
      buildSessions(planned, { runner, progress, cache, found, range, privacy, sourcesOnly, dir, ...report }),
      options.keepSources && dir !== null && manifest !== null
        ? keepSources(selection.sessions, { dir, manifest, now, runner })
        : null,
    ]);
    options.onSessionsBuilt?.();
    const { kept, cacheWritten } = keepSessions(planned, selection.filters, cache, dir);
    // What the run read from its input: the archive's own sessions are counted apart.
    const own = (p: Planned) => dir !== null && p.selected.archive?.dir === dir;
    const fromInput = kept.filter((p) => !own(p));
    const sessions = kept.map((session) => session.skeleton!);
    const layout = layoutOf(whole, kept);
    const settled = await settleSessions(layout, { target, state, privacy, sourcesOnly });
    const index = archiveIndex(layout, settled.indexed, settled.usage, settled.cost);
    addConversations(index, sessions);
    // The totals by model and the conversations are made from the transcripts' own text (model names, ids):
    // they pass the same privacy transform as the sessions (counted there already).
    const transform = privacyTransform(privacy);
    index.cost = transform(index.cost);
    if (index.conversations) index.conversations = transform(index.conversations);
    if (index.teammates) index.teammates = transform(index.teammates);
    if (selection.skipped?.length) index.diagnostics = transform(selection.skipped.map((d) => ({ ...d })));
    const outcome: ExportOutcome = {
      sessions: fromInput.map((p) => p.skeleton!),
      ...settled.tally,
      removed: 0,
      index,
      archived: { missing: 0, kept: 0 },
      pruned,
      sources,
      cacheWritten,
    };
    if ('stream' in target) {
      await write(target.stream, `${JSON.stringify(index)}\n`);
      return outcome;
    }
    // Filters that match nothing leave an existing archive as it is (unless told to prune it).
    if (fromInput.length === 0 && !options.prune) return outcome;
    let carried = await carryOver({ dir: target.dir, previous, index, pruned, selection, privacy });
    if (options.prune) {
      const cut = pruneCarried(carried, selection.filters);
      carried = cut.carried;
      outcome.pruned = [...pruned, ...cut.pruned];
    }
    addCarried(index, carried);
    // A session file an earlier version wrote, and this run kept, is brought to the current schema. The files this
    // run wrote, and those an index of the current schema lists (that run wrote or upgraded them before its
    // index), are current already: only the others are opened, not every file of the archive on every build.
    const current = currentFiles(previous, settled.indexed);
    for (const project of index.projects)
      for (const line of project.sessions)
        if (!current.has(line.file)) await upgradeInPlace(target.dir, line.file);
    outcome.archived = archivedCounts(index);
    await state?.save();
    const written = await writeIndex(target.dir, index, previous);
    outcome[written.outcome]++;
    await removePruned(target.dir, outcome.pruned);
    if (manifest !== null) await finishManifest(target.dir, index, manifest);
    return { ...outcome, removed: written.removed };
  } finally {
    await spool.remove();
  }
}

/** How many sessions of an index were not read from the input, by status. */
/**
 * The session files known to be of the current schema: those this run wrote (not reused from an earlier export),
 * and those a previous index of the current schema lists (none for an older or no index).
 */
function currentFiles(
  previous: ArchiveIndex | null,
  indexed: ReadonlyMap<Planned, IndexedSession>,
): Set<string> {
  const files = new Set<string>();
  for (const [session, line] of indexed) if (session.reused === null) files.add(line.summary.file);
  if (previous?.schemaVersion !== SCHEMA_VERSION) return files;
  for (const project of previous.projects)
    for (const line of project?.sessions ?? []) if (typeof line?.file === 'string') files.add(line.file);
  return files;
}

function archivedCounts(index: ArchiveIndex): ExportOutcome['archived'] {
  const counts = { missing: 0, kept: 0 };
  for (const project of index.projects)
    for (const line of project.sessions) if (line.archived) counts[line.archived.status]++;
  return counts;
}

/** Writes the manifest last: the checksums of the index, the session files and the kept sources. */
async function finishManifest(dir: string, index: ArchiveIndex, manifest: Manifest): Promise<void> {
  const files = ['index.json', ...index.projects.flatMap((p) => p.sessions.map((s) => s.file))];
  for (const record of Object.values(manifest.sources)) files.push(record.kept, ...(record.superseded ?? []));
  manifest.files = await checkFiles(dir, files, manifest.files);
  await writeManifest(dir, manifest);
}

/**
 * The sessions of the archive, once all are built: fails when none is a transcript, keeps the skeletons for the
 * next run, drops the sessions outside the time filters, and marks duplicates across the rest.
 */
function keepSessions(
  planned: readonly Planned[],
  filters: Selection['filters'],
  cache: SkeletonCache,
  dir: string | null,
): { kept: Planned[]; cacheWritten: Promise<void> } {
  const notTranscripts = planned.filter((p) => p.skeleton!.notATranscript);
  throwUnlessTranscripts(
    notTranscripts.map((p) => p.skeleton!.digest.stats.file),
    planned.length,
  );
  const cacheWritten = cache.save();
  // The archive's own sessions stay whatever the time filters: they only choose what is read from the input.
  const kept = planned.filter(
    (p) =>
      inTimeRange(p.skeleton!.digest.stats, filters) || (dir !== null && p.selected.archive?.dir === dir),
  );
  markDuplicates(kept.map((session) => session.skeleton!));
  return { kept, cacheWritten };
}
