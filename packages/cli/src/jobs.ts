import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import {
  buildSession,
  type Diagnostic,
  type DiscoveredSession,
  type Session,
  type StatsDigest,
  sessionJson,
  sessionSource,
  statsDigest,
} from '@cctrail/core';
import type { summarizeSession } from '@cctrail/report/parts';
import { summarize } from './archive-json.js';
import { insideFolder, writeIfChanged } from './atomic-write.js';
import { displayPath } from './display.js';
import { redactSecrets, redactText, shortenHome, shortenHomePaths } from './redact.js';

/** The session type of `@cctrail/report/parts`: the shape of a session file, which a core `Session` has. */
type ReportSession = Parameters<typeof summarizeSession>[0];

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

/** The result type of each job kind. */
export type JobResult<J extends Job> = J extends SkeletonJob ? Skeleton : ExportResult;

/**
 * Runs one job.
 *
 * @param job The job.
 * @returns A session without content, or what the export did.
 */
export async function runJob<J extends Job>(job: J): Promise<JobResult<J>> {
  const { discovered, root } = job.input;
  // A worker thread does nothing but build: blocking reads cost it less than the shared thread pool.
  const source = await sessionSource(discovered, (path) => displayPath(root, path), {
    blocking: !isMainThread,
  });
  if (job.kind === 'skeleton')
    return skeletonOf(await buildSession(source, { content: false })) as JobResult<J>;
  // A large session is built without content and written with its content read back line by line from
  // the transcripts, so memory is bounded by its structure, not by the size of its tool outputs. Smaller
  // ones are built whole: reading them once is faster.
  const lean = (await totalBytes(discovered)) > (job.leanAboveBytes ?? LEAN_ABOVE_BYTES);
  const session = await buildSession(source, { content: !lean });
  session.duplicateOf = job.duplicateOf;
  const counts = { redacted: 0, shortened: 0 };
  const transform = privacyTransform(job.privacy, counts);
  const pieces = withNewline(sessionJson(session, lean ? source : undefined, { transform }));
  const result: ExportResult = {
    summary: summarize(session, job.file),
    cwd: session.project.cwd,
    outcome: 'returned',
    text: null,
    redacted: 0,
    shortened: 0,
  };
  if (job.dir === null) result.text = await batch(pieces);
  else result.outcome = await writeIfChanged(insideFolder(job.dir, job.file), pieces);
  result.redacted = counts.redacted;
  result.shortened = counts.shortened;
  // The index shows the same (redacted, shortened) text as the session file.
  const quiet = privacyTransform(job.privacy, { redacted: 0, shortened: 0 });
  result.summary = quiet(result.summary);
  result.cwd = quiet(result.cwd);
  if (job.dir !== null && job.partsCacheDir) {
    // The part is what the report would compute from the file: same session, same privacy transform.
    const { prerenderWritten, storePart, summarizeSession } = await import('@cctrail/report/parts');
    const file = resolve(insideFolder(job.dir, job.file));
    const part = quiet(structuredClone(summarizeSession(session as unknown as ReportSession)));
    storePart(file, part, job.partsCacheDir);
    if (job.slugs && !lean) {
      // Writing transformed the session's objects in place; its top-level strings were transformed as
      // copies. With those, the session in memory is what the file holds.
      const fields = session as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(fields))
        if (typeof value === 'string') fields[key] = quiet(value);
      await prerenderWritten({
        file,
        session: session as unknown as ReportSession,
        summary: result.summary as Parameters<typeof prerenderWritten>[0]['summary'],
        part,
        projectSlug: job.slugs.project,
        sessionSlug: job.slugs.session,
        cacheDir: job.partsCacheDir,
      }).catch(() => 0); // what is not rendered here, the report renders from the file
    }
  }
  return result as JobResult<J>;
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

/** Joins small pieces of text into pieces of about 1 MiB. */
async function batch(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  let pending: string[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    pending.push(chunk);
    length += chunk.length;
    if (length >= 1 << 20) {
      out.push(pending.join(''));
      pending = [];
      length = 0;
    }
  }
  if (pending.length > 0) out.push(pending.join(''));
  return out;
}

/** Sessions whose transcripts are larger than this are exported without holding their content. */
export const LEAN_ABOVE_BYTES = 32 * 1024 * 1024;

/** The size of a session's transcripts. */
export async function totalBytes(session: DiscoveredSession): Promise<number> {
  let total = 0;
  for (const file of [session.mainFile, ...session.agentFiles]) {
    if (file !== null) total += (await stat(file).catch(() => null))?.size ?? 0;
  }
  return total;
}

/** The pieces of a session file's text, ended by a newline (one session per line in NDJSON). */
async function* withNewline(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  yield* pieces;
  yield '\n';
}

/**
 * The privacy options as a transform of JSON values: strings are returned rewritten, objects and arrays
 * are rewritten in place. Counts what it changed.
 */
function privacyTransform(privacy: Privacy, counts: { redacted: number; shortened: number }) {
  return <T>(value: T): T => {
    if (typeof value === 'string') {
      let text: string = value;
      if (privacy.redact) {
        const result = redactText(text);
        counts.redacted += result.count;
        text = result.text;
      }
      if (privacy.shortHome) {
        const result = shortenHome(text);
        counts.shortened += result.count;
        text = result.text;
      }
      return text as T;
    }
    if (value !== null && typeof value === 'object') {
      if (privacy.redact) counts.redacted += redactSecrets(value);
      if (privacy.shortHome) counts.shortened += shortenHomePaths(value);
    }
    return value;
  };
}
