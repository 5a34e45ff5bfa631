import { availableParallelism } from 'node:os';
import { buildSession, markDuplicates, type Session, sessionSource } from '@cctrail/core';
import { CliError } from './errors.js';
import { type Filters, inTimeRange, type SelectedSession } from './input.js';
import { forEachOrdered } from './pool.js';
import type { Progress } from './progress.js';

/** How many sessions are built at once: reading overlaps parsing, and a few sessions fit in memory. */
export const CONCURRENCY = Math.min(4, Math.max(2, availableParallelism()));

/**
 * Builds sessions a few at a time and hands each one, in input order, to `use`. Only a bounded number of
 * sessions are alive at once, so a full-content export does not hold the whole archive in memory.
 *
 * @param sessions The selected sessions.
 * @param content Keep content blocks (export) or only the structure (stats: memory does not grow with tool output).
 * @param progress Ticked once per session.
 * @param use Receives each built session.
 */
export async function buildEach(
  sessions: readonly SelectedSession[],
  content: boolean,
  progress: Progress,
  use: (session: Session, selected: SelectedSession) => void | Promise<void>,
): Promise<void> {
  await forEachOrdered(
    sessions,
    CONCURRENCY,
    async (selected) => buildSession(await sessionSource(selected.discovered, selected.display), { content }),
    async (session, selected) => {
      progress.tick(selected.discovered.id.slice(0, 8));
      await use(session, selected);
    },
  );
}

/** Sessions built without content, time-filtered, with `duplicateOf` set. */
export interface Skeletons {
  sessions: Session[];
  /** The selected sessions they were built from, same order. */
  selected: SelectedSession[];
}

/**
 * Builds every selected session without content (structure, usage and diagnostics only), drops those outside
 * the time filters, and marks duplicates across the rest.
 */
export async function buildSkeletons(
  selection: readonly SelectedSession[],
  filters: Filters,
  progress: Progress,
): Promise<Skeletons> {
  const sessions: Session[] = [];
  const selected: SelectedSession[] = [];
  const notTranscripts: string[] = [];
  await buildEach(selection, false, progress, (session, source) => {
    if (session.diagnostics.some((d) => d.code === 'not-a-transcript') && session.accounting.entries === 0) {
      notTranscripts.push(session.files[0]?.path ?? session.id);
    }
    if (!inTimeRange(session, filters)) return;
    sessions.push(session);
    selected.push(source);
  });
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
