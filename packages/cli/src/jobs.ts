import { buildSession, type Diagnostic, type Session, type StatsDigest, statsDigest } from '@cctrail/core';
import { type DiscoveredSession, sessionSource } from '@cctrail/core/node';
import type { summarize } from './archive-json.js';
import { displayPath } from './display.js';
import { fileStats, transcriptBytes } from './file-stats.js';

/**
 * The units of work of a run, as plain data so they can run in a worker thread or in the main thread alike:
 * build a session without content (for stats and planning), or build one with content and export it.
 */

/** Privacy options of an export (the `report` command). */
export interface Privacy {
  redact: boolean;
  shortHome: boolean;
}

/** A session to build: its files and the root its paths are shown relative to. */
export interface SessionInput {
  discovered: DiscoveredSession;
  root: string;
}

/** Build a session without content. */
export interface SkeletonJob {
  kind: 'skeleton';
  input: SessionInput;
}

/** Build a session with content, apply privacy options, and write it into `dir` (or return its JSON). */
export interface ExportJob {
  kind: 'export';
  input: SessionInput;
  duplicateOf: string | null;
  /** Archive path of the session file. */
  file: string;
  privacy: Privacy;
  /** The archive folder, or null to return the JSON text (NDJSON streaming). */
  dir: string | null;
  /** Sessions with more transcript bytes than this are exported without holding their content (default 32 MiB). */
  leanAboveBytes?: number;
  /**
   * The report's cache folder: the session's manifest part is computed from the session in memory and
   * cached there once the file is written, so the report does not read the file again.
   */
  partsCacheDir?: string | null;
  /**
   * With `partsCacheDir`: the slugs the site will give the session's project and the session. The worker
   * then renders the session's transcript fragments into that cache from the session it holds.
   */
  slugs?: { project: string; session: string } | null;
}

/** A job. */
export type Job = SkeletonJob | ExportJob;

/** What an export job did. */
export interface ExportResult {
  summary: ReturnType<typeof summarize>;
  cwd: string | null;
  outcome: 'written' | 'unchanged' | 'returned';
  /** The session file's text in pieces of about 1 MiB, when `dir` was null. */
  text: string[] | null;
  redacted: number;
  shortened: number;
}

/**
 * What the first pass keeps of a session: its statistics digest (which duplicate detection and usage totals
 * read) and its diagnostics. Small whatever the session's size, and cheap to send from a worker thread.
 */
export interface Skeleton {
  id: string;
  /** Project slug. */
  project: string | null;
  /** `digest.stats.duplicateOf` is null until `buildSkeletons` marks duplicates. */
  digest: StatsDigest;
  /** The session's diagnostics, without the raw text of bad lines. */
  diagnostics: Diagnostic[];
  /** None of its lines is a transcript record. */
  notATranscript: boolean;
}

/** The JSON text of skeletons that arrived as text (see `skeletonFromJson`). */
const arrivedAs = new WeakMap<Skeleton, string>();

/**
 * A skeleton from the JSON text a worker thread sends it as: parsing the text costs this thread about what
 * receiving a structured clone would, and the text is kept, so caching the skeleton costs no second
 * serialization here (see `skeletonJson`).
 */
export function skeletonFromJson(json: string): Skeleton {
  const skeleton = JSON.parse(json) as Skeleton;
  arrivedAs.set(skeleton, json);
  return skeleton;
}

/** A skeleton's JSON text: the text it arrived as (see `skeletonFromJson`), else a new one. */
export function skeletonJson(skeleton: Skeleton): string {
  return arrivedAs.get(skeleton) ?? JSON.stringify(skeleton);
}

/** The result type of each job kind. */
export type JobResult<J extends Job> = J extends SkeletonJob ? Skeleton : ExportResult;

/**
 * Runs one job. Its files are read with blocking calls, in whatever thread: a read of a cached file costs less
 * than the round trips through libuv's thread pool (open, stat, read, close) that an asynchronous one takes,
 * and parsing what was read blocks the thread longer anyway. (Measured: `CCTRAIL_WORKERS=0 stats` of the
 * benchmark archive takes 1.2–1.3 s instead of 1.6–2.2 s.)
 *
 * @param job The job.
 * @returns A session without content, or what the export did.
 */
export async function runJob<J extends Job>(job: J): Promise<JobResult<J>> {
  const { discovered, root } = job.input;
  const source = await sessionSource(discovered, (path) => displayPath(root, path), { blocking: true });
  if (job.kind === 'skeleton')
    return skeletonOf(await buildSession(source, { content: false })) as JobResult<J>;
  // Export code (privacy, writing, the report's parts) is loaded with the first export: a run that only
  // builds skeletons (stats) starts its workers without it.
  const { runExport } = await import('./export-job.js');
  return (await runExport(job, source)) as JobResult<J>;
}

/** The skeleton of a session built with `content: false`. */
function skeletonOf(session: Session): Skeleton {
  for (const diagnostic of session.diagnostics) delete diagnostic.raw;
  return {
    id: session.id,
    project: session.project.slug,
    digest: statsDigest(session),
    diagnostics: session.diagnostics,
    notATranscript:
      session.accounting.entries === 0 && session.diagnostics.some((d) => d.code === 'not-a-transcript'),
  };
}

/** Sessions whose transcripts are larger than this are exported without holding their content. */
export const LEAN_ABOVE_BYTES = 32 * 1024 * 1024;

/**
 * The size of a session's transcripts (a file that cannot be read counts 0). Blocking: the main thread asks it
 * of every session, and a few blocking `stat` calls cost it less than as many round trips through the thread
 * pool, which the worker threads' process shares.
 */
export function totalBytes(session: DiscoveredSession): number {
  return transcriptBytes(session, fileStats(session));
}
