import { findDuplicates } from '@cctrail/core/archive';
import { sourceStats } from '../archive/archive-input.js';
import { CliError } from '../command-line/errors.js';
import { type Filters, inTimeRange, type SelectedSession } from '../input/input.js';
import { type FileStat, transcriptBytes } from '../runtime/file-stats.js';
import type { JobRunner } from '../runtime/job-runner.js';
import { LEAN_ABOVE_BYTES, type SkeletonJob } from '../runtime/jobs.js';
import { forEachHeaviestFirst } from '../runtime/pool.js';
import { SkeletonCache } from '../runtime/skeleton-cache.js';
import type { Progress } from '../terminal/progress.js';
import type { Skeleton } from './skeleton.js';

/** Skeletons of the sessions, time-filtered, with `duplicateOf` set. */
export interface Skeletons {
  sessions: Skeleton[];
  /** The cache file's write, under way while the caller combines the skeletons (it never rejects). */
  saved: Promise<void>;
}

/**
 * Builds every selected session without content (structure, usage and diagnostics only: memory does not
 * grow with the size of tool outputs), a few at a time in worker threads, and keeps its skeleton; drops those
 * outside the time filters, and marks duplicates across the rest.
 *
 * With `cacheFile` (see `SkeletonCache`), a session whose files did not change is not read again. The file then
 * keeps this run's skeletons only, or with `keepOthers` (a run that selected only some of the sessions the file
 * serves) also those of the sessions this run did not select.
 *
 * `options.files` are the selection's files (`sourceStats`) when the caller has them already, and `options.keyOf`
 * the skeleton key of the session at an index (`skeletonKey` of its files) when the caller keeps them too.
 *
 * Throws a `CliError` when none of the files is a transcript at all.
 */
export async function buildSkeletons(
  selection: readonly SelectedSession[],
  filters: Filters,
  progress: Progress,
  runner: JobRunner,
  cacheFile?: string,
  options: { keepOthers?: boolean; files?: readonly FileStat[][]; keyOf?: (index: number) => string } = {},
): Promise<Skeletons> {
  const cache = await SkeletonCache.open(cacheFile);
  // One `stat` of each file gives both the sizes (the order of work) and the fingerprints (the cache keys).
  const files = options.files ?? selection.map((source) => sourceStats(source));
  const sizes = selection.map((source, index) => transcriptBytes(source.discovered, files[index]!));
  const build = async (source: SelectedSession, index: number): Promise<Skeleton> => {
    const key = cache.key(files[index]!, options.keyOf?.(index));
    const hit = cache.get(key);
    if (hit) return hit;
    const job: SkeletonJob = {
      kind: 'skeleton',
      input: { discovered: source.discovered, root: source.root },
    };
    const huge = sizes[index]! > LEAN_ABOVE_BYTES;
    const skeleton = await (huge ? runner.runHere(job) : runner.run(job));
    cache.put(key, skeleton);
    return skeleton;
  };
  const sessions: Skeleton[] = [];
  const notTranscripts: string[] = [];
  await forEachHeaviestFirst(
    selection,
    // The largest sessions first, so the threads finish together. Skeletons are small and kept anyway: those
    // that wait for their turn to be emitted cost little.
    (_, index) => sizes[index]!,
    runner.capacity,
    async (source, index) => {
      const skeleton = await build(source, index);
      progress.tick(skeleton.id.slice(0, 8));
      return skeleton;
    },
    (session) => {
      if (session.notATranscript) notTranscripts.push(session.digest.stats.file);
      if (inTimeRange(session.digest.stats, filters)) sessions.push(session);
    },
  );
  throwUnlessTranscripts(notTranscripts, selection.length);
  if (options.keepOthers) cache.keepOthers(selection);
  const saved = cache.save().catch(() => undefined);
  markDuplicates(sessions);
  return { sessions, saved };
}

/**
 * Throws a `CliError` when every session of the selection turned out not to be a transcript.
 *
 * @param notTranscripts The files (as shown) of the sessions that are not transcripts.
 * @param selected How many sessions were selected.
 */
export function throwUnlessTranscripts(notTranscripts: readonly string[], selected: number): void {
  if (selected === 0 || notTranscripts.length !== selected) return;
  throw new CliError(
    notTranscripts.length === 1
      ? `${notTranscripts[0]} is not a Claude Code transcript: no line is a transcript record`
      : `none of the ${notTranscripts.length} files is a Claude Code transcript (no line is a transcript record)`,
  );
}

/** Sets `digest.stats.duplicateOf` of each skeleton: the session that contains it entirely, else null. */
export function markDuplicates(sessions: readonly Skeleton[]): void {
  const duplicates = findDuplicates(sessions.map((s) => ({ id: s.id, uuids: s.digest.uuids })));
  sessions.forEach((session, index) => {
    session.digest.stats.duplicateOf = duplicates[index]!;
  });
}
