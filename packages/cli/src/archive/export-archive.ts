import { resolve } from 'node:path';
import type { ArchiveIndex } from '@cctrail/core';
import type { Io } from '../command.js';
import { inTimeRange, type Selection } from '../input.js';
import { NO_PRIVACY, type Privacy, privacyTransform } from '../privacy.js';
import type { Progress } from '../progress.js';
import { ExportState } from '../runtime/export-state.js';
import type { JobRunner } from '../runtime/job-runner.js';
import { SkeletonCache } from '../runtime/skeleton-cache.js';
import { Spool } from '../runtime/spool.js';
import type { Skeleton } from '../skeleton.js';
import { markDuplicates, throwUnlessTranscripts } from '../skeletons.js';
import { addConversations } from './conversations.js';
import { archiveIndex, writeIndex } from './index-file.js';
import { planLayout } from './layout.js';
import { type Planned, planSessions } from './plan.js';
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
  /** A file to keep the sessions' skeletons in, so that unchanged sessions are not read again. */
  skeletonCache?: string;
  /** For `cctrail report`: its site's cache folder, where each session written is prepared for the site. */
  reportCacheDir?: string;
  /**
   * Called once the input is known to hold transcripts, before the archive is complete (`report` then starts
   * building the site).
   */
  onPlanned?: () => void;
}

/** What an export did. */
export interface ExportOutcome {
  index: ArchiveIndex;
  /** The sessions' skeletons (for diagnostics and counts). */
  sessions: Skeleton[];
  written: number;
  unchanged: number;
  /** Session files of a previous export that left the selection and were removed. */
  removed: number;
  /** Secrets redacted and home paths shortened (with `privacy`). */
  redacted: number;
  shortened: number;
}

/**
 * Exports the selected sessions, reading each one's transcripts once: every session is built, written and
 * digested in one pass (a few at a time, in worker threads), skipping those whose inputs did not change since
 * the last export into the folder. Then duplicates are marked across the sessions and the few files whose
 * `duplicateOf` was guessed wrong are corrected. The index comes last, so a folder always has an index that
 * matches complete session files. When the filters leave no session, a folder is not touched.
 */
export async function exportArchive(options: ExportOptions): Promise<ExportOutcome> {
  const { selection, runner, progress } = options;
  // What `onPlanned` starts may change the working directory while sessions are written (the report's site
  // builder does): every folder is made absolute first.
  const target: ArchiveTarget =
    'dir' in options.target ? { dir: resolve(options.target.dir) } : options.target;
  const dir = 'dir' in target ? target.dir : null;
  const privacy = options.privacy ?? NO_PRIVACY;
  const cache = await SkeletonCache.open(
    options.skeletonCache === undefined ? undefined : resolve(options.skeletonCache),
  );
  const state = dir === null ? null : new ExportState(dir);
  const spool = new Spool();
  try {
    const planned = await planSessions({ selection, privacy, dir, state, cache, spool });
    const found = onFirstTranscript(planned, options.onPlanned);
    const range = { since: selection.filters.since, until: selection.filters.until };
    const report =
      dir === null || options.reportCacheDir === undefined
        ? {}
        : { report: { dataDir: dir, cacheDir: resolve(options.reportCacheDir) } };
    await buildSessions(planned, { runner, progress, cache, found, range, privacy, ...report });
    const kept = await keepSessions(planned, selection.filters, cache);
    const sessions = kept.map((session) => session.skeleton!);
    const layout = planLayout(kept, privacy);
    const settled = await settleSessions(layout, { target, state, privacy });
    const index = archiveIndex(layout, settled.indexed, settled.usage, settled.cost);
    addConversations(index, sessions);
    // The totals by model and the conversations are made from the transcripts' own text (model names, ids):
    // they pass the same privacy transform as the sessions (counted there already).
    const transform = privacyTransform(privacy);
    transform(index.cost);
    if (index.conversations) transform(index.conversations);
    if (index.teammates) transform(index.teammates);
    if (selection.skipped?.length) index.diagnostics = transform(selection.skipped.map((d) => ({ ...d })));
    const outcome = { sessions, ...settled.tally, removed: 0, index };
    if ('stream' in target) {
      await write(target.stream, `${JSON.stringify(index)}\n`);
      return outcome;
    }
    // Filters that match nothing leave an existing archive as it is.
    if (kept.length === 0) return outcome;
    await state?.save();
    const written = await writeIndex(target.dir, index);
    outcome[written.outcome]++;
    return { ...outcome, removed: written.removed };
  } finally {
    await spool.remove();
  }
}

/**
 * Calls `onPlanned` once, with the first skeleton that shows a transcript (a cached one at once).
 *
 * @returns What to tell of each skeleton built.
 */
function onFirstTranscript(
  planned: readonly Planned[],
  onPlanned?: () => void,
): (skeleton: Skeleton) => void {
  let started = false;
  const found = (skeleton: Skeleton) => {
    if (started || skeleton.notATranscript) return;
    started = true;
    onPlanned?.();
  };
  for (const session of planned) if (session.skeleton) found(session.skeleton);
  return found;
}

/**
 * The sessions of the archive, once all are built: fails when none is a transcript, keeps the skeletons for the
 * next run, drops the sessions outside the time filters, and marks duplicates across the rest.
 */
async function keepSessions(
  planned: readonly Planned[],
  filters: Selection['filters'],
  cache: SkeletonCache,
): Promise<Planned[]> {
  const notTranscripts = planned.filter((p) => p.skeleton!.notATranscript);
  throwUnlessTranscripts(
    notTranscripts.map((p) => p.skeleton!.digest.stats.file),
    planned.length,
  );
  await cache.save();
  const kept = planned.filter((p) => inTimeRange(p.skeleton!.digest.stats, filters));
  markDuplicates(kept.map((session) => session.skeleton!));
  return kept;
}
