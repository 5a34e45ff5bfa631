import { markDuplicates, type Session } from '@cctrail/core';
import { CliError } from './errors.js';
import { type Filters, inTimeRange, type SelectedSession } from './input.js';
import { runJob } from './jobs.js';
import { forEachOrdered } from './pool.js';
import type { Progress } from './progress.js';

/**
 * Sessions built at once, in this thread: a session without content is cheap to build, and copying it out
 * of a worker thread costs about as much as building it (measured), so workers are kept for full exports.
 */
const LOCAL_CONCURRENCY = 3;

/** Sessions built without content, time-filtered, with `duplicateOf` set. */
export interface Skeletons {
  sessions: Session[];
  /** The selected sessions they were built from, same order. */
  selected: SelectedSession[];
}

/**
 * Builds every selected session without content (structure, usage and diagnostics only: memory does not
 * grow with the size of tool outputs), a few at a time, slimmed (see `slim`); drops those outside the time
 * filters, and marks duplicates across the rest.
 *
 * Throws a `CliError` when none of the files is a transcript at all.
 */
export async function buildSkeletons(
  selection: readonly SelectedSession[],
  filters: Filters,
  progress: Progress,
): Promise<Skeletons> {
  const sessions: Session[] = [];
  const selected: SelectedSession[] = [];
  const notTranscripts: string[] = [];
  await forEachOrdered(
    selection,
    LOCAL_CONCURRENCY,
    (source) => runJob({ kind: 'skeleton', input: { discovered: source.discovered, root: source.root } }),
    (session, source) => {
      progress.tick(session.id.slice(0, 8));
      if (
        session.diagnostics.some((d) => d.code === 'not-a-transcript') &&
        session.accounting.entries === 0
      ) {
        notTranscripts.push(session.files[0]?.path ?? session.id);
      }
      if (!inTimeRange(session, filters)) return;
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
  markDuplicates(sessions);
  return { sessions, selected };
}
