import { readFile } from 'node:fs/promises';
import { findDuplicates } from '@cctrail/core';
import { writeIfChanged } from './atomic-write.js';
import { CliError } from './errors.js';
import { fingerprint } from './export-state.js';
import { type Filters, inTimeRange, type SelectedSession } from './input.js';
import type { JobRunner } from './job-runner.js';
import { LEAN_ABOVE_BYTES, type Skeleton, type SkeletonJob, totalBytes } from './jobs.js';
import { forEachOrdered } from './pool.js';
import type { Progress } from './progress.js';
import { cliVersion, coreVersion } from './version.js';

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
 * With `cacheFile`, skeletons are kept in that file, keyed by a fingerprint of the session's files (size and
 * modification time), and a session whose files did not change is not read again.
 *
 * Throws a `CliError` when none of the files is a transcript at all.
 */
export async function buildSkeletons(
  selection: readonly SelectedSession[],
  filters: Filters,
  progress: Progress,
  runner: JobRunner,
  cacheFile?: string,
): Promise<Skeletons> {
  const cached = cacheFile ? await readSkeletons(cacheFile) : new Map<string, Skeleton>();
  const kept = new Map<string, string>();
  const build = async (source: SelectedSession): Promise<Skeleton> => {
    const print = cacheFile
      ? fingerprint(source.discovered, [cliVersion(), coreVersion(), source.root])
      : null;
    const hit = print === null ? undefined : cached.get(print);
    if (hit) {
      kept.set(print!, JSON.stringify(hit));
      return hit;
    }
    const job: SkeletonJob = {
      kind: 'skeleton',
      input: { discovered: source.discovered, root: source.root },
    };
    const huge = totalBytes(source.discovered) > LEAN_ABOVE_BYTES;
    const skeleton = await (huge ? runner.runHere(job) : runner.run(job));
    if (print !== null) kept.set(print, JSON.stringify(skeleton));
    return skeleton;
  };
  const sessions: Skeleton[] = [];
  const selected: SelectedSession[] = [];
  const notTranscripts: string[] = [];
  await forEachOrdered(
    selection,
    // Skeletons are small, so with workers many are submitted ahead: a slow session at the head of the
    // ordered window does not leave the workers idle.
    runner.parallel ? SKELETONS_AHEAD : runner.capacity,
    build,
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
  if (cacheFile) await writeSkeletons(cacheFile, kept);
  const duplicates = findDuplicates(sessions.map((s) => ({ id: s.id, uuids: s.digest.uuids })));
  sessions.forEach((session, index) => {
    session.digest.stats.duplicateOf = duplicates[index]!;
  });
  return { sessions, selected };
}

/** Skeletons kept by an earlier run, by fingerprint (none when the file is missing or unreadable). */
async function readSkeletons(file: string): Promise<Map<string, Skeleton>> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      schemaVersion?: unknown;
      skeletons?: unknown;
    };
    if (saved.schemaVersion !== 1 || typeof saved.skeletons !== 'object' || saved.skeletons === null)
      return new Map();
    return new Map(Object.entries(saved.skeletons as Record<string, Skeleton>));
  } catch {
    return new Map();
  }
}

/** Keeps this run's skeletons (as built, before duplicates are marked), and only those. */
async function writeSkeletons(file: string, kept: ReadonlyMap<string, string>): Promise<void> {
  const body = [...kept].map(([print, json]) => `${JSON.stringify(print)}:${json}`).join(',\n');
  await writeIfChanged(file, `{"schemaVersion":1,"skeletons":{\n${body}\n}}\n`);
}
