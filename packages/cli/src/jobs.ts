import { buildSession, type DiscoveredSession, type Entry, type Session, sessionSource } from '@cctrail/core';
import { summarize } from './archive-json.js';
import { insideFolder } from './atomic-write.js';
import { displayPath } from './display.js';
import { redactSecrets, shortenHomePaths } from './redact.js';
import { sessionChunks, writeChunksIfChanged } from './session-text.js';

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

/** The result type of each job kind. */
export type JobResult<J extends Job> = J extends SkeletonJob ? Session : ExportResult;

/**
 * Runs one job.
 *
 * @param job The job.
 * @returns A session without content, or what the export did.
 */
export async function runJob<J extends Job>(job: J): Promise<JobResult<J>> {
  const { discovered, root } = job.input;
  const source = await sessionSource(discovered, (path) => displayPath(root, path));
  if (job.kind === 'skeleton') return slim(await buildSession(source, { content: false })) as JobResult<J>;
  const session = await buildSession(source, { content: true });
  session.duplicateOf = job.duplicateOf;
  const redacted = job.privacy.redact ? redactSecrets(session) : 0;
  const shortened = job.privacy.shortHome ? shortenHomePaths(session) : 0;
  const result: ExportResult = {
    summary: summarize(session, job.file),
    cwd: session.project.cwd,
    outcome: 'returned',
    text: null,
    redacted,
    shortened,
  };
  if (job.dir === null) result.text = batch(sessionChunks(session));
  else result.outcome = await writeChunksIfChanged(insideFolder(job.dir, job.file), sessionChunks(session));
  return result as JobResult<J>;
}

/**
 * Cuts a session built without content down to what statistics, duplicate detection and usage
 * deduplication read (`sessionStats`, `markDuplicates`, `usageAcross`): entries keep their uuid, kind,
 * actor, sidechain, epoch and, on API responses, usage and message ids; metadata records and the raw text
 * of bad lines are dropped. A few hundred sessions then fit in memory whatever their size, and copying
 * them out of a worker is cheap. Tests check that statistics are the same with and without it.
 *
 * @param session A session built with `content: false`; changed in place.
 */
export function slim(session: Session): Session {
  session.entries = session.entries.map(
    (entry) =>
      ({
        uuid: entry.uuid,
        kind: entry.kind,
        actor: entry.actor,
        sidechain: entry.sidechain,
        epoch: entry.epoch,
        usage: entry.usage,
        message: entry.usage ? entry.message : null,
      }) as Entry,
  );
  session.metadata = [];
  for (const diagnostic of session.diagnostics) delete diagnostic.raw;
  return session;
}

/** Joins small pieces of text into pieces of about 1 MiB. */
function batch(chunks: Iterable<string>): string[] {
  const out: string[] = [];
  let pending: string[] = [];
  let length = 0;
  for (const chunk of chunks) {
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
