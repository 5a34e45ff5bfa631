import { buildSession } from '@cctrail/core';
import { type DiscoveredSession, sessionSource } from '@cctrail/core/node';
import type { KeepChange, SourceFile, SourceRecord } from '../archive/sources.js';
import type { ExportRequest, SessionExport } from '../sessions/session-export.js';
import { type Skeleton, skeletonOf } from '../sessions/skeleton.js';
import { displayPath } from '../terminal/display.js';

/**
 * The units of work of a run, as plain data so they can run in a worker thread or in the main thread alike:
 * build a session without content (its skeleton, for `stats`), or export it (build it once, write its file
 * and keep its skeleton).
 */

/** A session to build: its files and the root its paths are shown relative to. */
export interface SessionInput {
  discovered: DiscoveredSession;
  root: string;
  /** Paths as shown of files that do not lie under `root` (kept sources an archive adds), by path without `.gz`. */
  shown?: Record<string, string>;
}

/** Build a session without content and keep its skeleton. */
export interface SkeletonJob {
  kind: 'skeleton';
  input: SessionInput;
}

/** Export a session (see `exportSession`). */
export interface ExportJob {
  kind: 'export';
  input: SessionInput;
  request: ExportRequest;
}

/** Keep a session's transcript files in an archive (see `keepSource`): hashing and compressing, off this thread. */
export interface KeepJob {
  kind: 'keep';
  /** The archive folder. */
  dir: string;
  /** The files, each with what the archive kept of it before. */
  files: (SourceFile & { known?: SourceRecord })[];
  /** This run's UTC day. */
  now: string;
}

/** What a keep job did: each file kept, and how many could not be read. */
export interface KeepResult {
  kept: { shown: string; record: SourceRecord; change: KeepChange }[];
  failed: number;
}

/** A job. */
export type Job = SkeletonJob | ExportJob | KeepJob;

/** The result type of each job kind. */
export type JobResult<J extends Job> = J extends SkeletonJob
  ? Skeleton
  : J extends KeepJob
    ? KeepResult
    : SessionExport;

/** Sessions whose transcripts are larger than this are built without content and run in the main thread. */
export const LEAN_ABOVE_BYTES = 32 * 1024 * 1024;

/**
 * Runs one job. Its files are read with blocking calls, in whatever thread: a read of a cached file costs less
 * than the round trips through libuv's thread pool that an asynchronous one takes, and parsing what was read
 * blocks the thread longer anyway.
 *
 * @param job The job.
 * @returns A skeleton, or what the export did.
 */
export async function runJob<J extends Job>(job: J): Promise<JobResult<J>> {
  if (job.kind === 'keep') return (await keepFiles(job)) as JobResult<J>;
  const { discovered, root } = job.input;
  const shown = job.input.shown;
  const source = await sessionSource(discovered, (path) => shown?.[path] ?? displayPath(root, path), {
    blocking: true,
  });
  // A skeleton is made of statistics only: the parts of a session that no statistic reads are not computed.
  if (job.kind === 'skeleton')
    return skeletonOf(await buildSession(source, { content: false, statsOnly: true })) as JobResult<J>;
  // Export code (privacy, writing) is loaded with the first export: a run that only builds skeletons (stats)
  // starts its workers without it.
  const { exportSession } = await import('../sessions/session-export.js');
  return (await exportSession(job.request, source)) as JobResult<J>;
}

/** Runs a keep job: one file after the other (a session's files are few; the runner runs sessions at once). */
async function keepFiles(job: KeepJob): Promise<KeepResult> {
  const { keepSource } = await import('../archive/sources.js');
  const result: KeepResult = { kept: [], failed: 0 };
  for (const { known, ...file } of job.files) {
    try {
      const kept = await keepSource(job.dir, file, known, job.now);
      if (kept === null) result.failed++;
      else result.kept.push({ shown: file.shown, ...kept });
    } catch {
      result.failed++;
    }
  }
  return result;
}

/** The JSON text of skeletons that arrived as text (see `unpackResult`). */
const arrivedAs = new WeakMap<Skeleton, string>();

/** A job's result as a worker thread posts it: the skeleton as JSON text, the rest (if any) as it is. */
export interface PackedResult {
  skeleton: string;
  rest?: Omit<SessionExport, 'skeleton'>;
  /** The result of a keep job, as it is. */
  keep?: KeepResult;
}

/**
 * A job's result ready to post from a worker thread. Its skeleton goes as JSON text: parsing it costs the main
 * thread about what receiving a structured clone would, and the text is kept, so caching the skeleton costs no
 * second serialization there (see `skeletonJson`).
 */
export function packResult(result: Skeleton | SessionExport | KeepResult): PackedResult {
  if ('kept' in result) return { skeleton: '', keep: result };
  if (!('exported' in result)) return { skeleton: JSON.stringify(result) };
  const { skeleton, ...rest } = result;
  return { skeleton: JSON.stringify(skeleton), rest };
}

/** A result posted by a worker thread (see `packResult`). */
export function unpackResult(packed: PackedResult): Skeleton | SessionExport | KeepResult {
  if (packed.keep !== undefined) return packed.keep;
  const skeleton = JSON.parse(packed.skeleton) as Skeleton;
  arrivedAs.set(skeleton, packed.skeleton);
  return packed.rest === undefined ? skeleton : { skeleton, ...packed.rest };
}

/** A skeleton's JSON text: the text it arrived as from a worker thread, else a new one. */
export function skeletonJson(skeleton: Skeleton): string {
  return arrivedAs.get(skeleton) ?? JSON.stringify(skeleton);
}
