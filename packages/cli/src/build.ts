import { findDuplicates } from '@cctrail/core';
import { CliError } from './errors.js';
import { type Filters, inTimeRange, type SelectedSession } from './input.js';
import type { JobRunner } from './job-runner.js';
import type { Skeleton } from './jobs.js';
import { forEachOrdered } from './pool.js';
import type { Progress } from './progress.js';

/** Sessions submitted ahead of the oldest one still building, with worker threads. */
const SKELETONS_AHEAD = 32;

/** Skeletons of the sessions, time-filtered, with `duplicateOf` set. */
export interface Skeletons {
  sessions: Skeleton[];
  /** The selected sessions they were built from, same order. */
  selected: SelectedSession[];
}

/**
 * Builds every selected session without content (structure, usage and diagnostics only: memory does not
 * grow with the size of tool outputs), a few at a time in worker threads, and keeps its skeleton; drops those
 * outside the time filters, and marks duplicates across the rest.
 *
 * Throws a `CliError` when none of the files is a transcript at all.
 */
export async function buildSkeletons(
  selection: readonly SelectedSession[],
  filters: Filters,
  progress: Progress,
  runner: JobRunner,
): Promise<Skeletons> {
  const sessions: Skeleton[] = [];
  const selected: SelectedSession[] = [];
  const notTranscripts: string[] = [];
  await forEachOrdered(
    selection,
    // Skeletons are small, so with workers many are submitted ahead: a slow session at the head of the
    // ordered window does not leave the workers idle.
    runner.parallel ? SKELETONS_AHEAD : runner.capacity,
    (source) => runner.run({ kind: 'skeleton', input: { discovered: source.discovered, root: source.root } }),
    (session, source) => {
      progress.tick(session.id.slice(0, 8));
      if (session.notATranscript) notTranscripts.push(session.digest.stats.file);
      if (!inTimeRange(session.digest.stats, filters)) return;
      sessions.push(session);
      selected.push(source);
    },
  );
  if (selection.length > 0 && notTranscripts.length === selection.length) {
    throw new CliError(
      notTranscripts.length === 1
        ? `${notTranscripts[0]} is not a Claude Code transcript: no line is a transcript record`
        : `none of the ${notTranscripts.length} files is a Claude Code transcript (no line is a transcript record)`,
    );
  }
  const duplicates = findDuplicates(sessions.map((s) => ({ id: s.id, uuids: s.digest.uuids })));
  sessions.forEach((session, index) => {
    session.digest.stats.duplicateOf = duplicates[index]!;
  });
  return { sessions, selected };
}
