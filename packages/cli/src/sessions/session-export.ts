import { buildSession, type Session, type SessionSource } from '@cctrail/core';
import { type ArchiveSessionSummary, sessionJson } from '@cctrail/core/archive';
import { summarize } from '../archive/archive-json.js';
import { type WriteOutcome, writeIfChanged } from '../files/atomic-write.js';
import { type Filters, inTimeRange } from '../input/input.js';
import { redactText } from '../privacy/redact.js';
import {
  countByRule,
  type Privacy,
  type PrivacyCounts,
  privacyTransform,
  transformEach,
} from '../privacy/transform.js';
import { type Skeleton, skeletonOf } from './skeleton.js';

/** How to export one session (see `exportSession`). */
export interface ExportRequest {
  /** Archive path of the session file (`sessions/<project>/<session>.json`), for its index line. */
  file: string;
  /** Absolute path the session file is written to. */
  path: string;
  /**
   * Where the file goes instead when the session turns out not to be a transcript: it belongs in the archive
   * only when another session of the run is one.
   */
  aside: string;
  privacy: Privacy;
  /** False for an archive of sources only: the session is built for its index line, no file is written. */
  write?: boolean;
  /** The time filters: a session outside them is not written. */
  range: Pick<Filters, 'since' | 'until'>;
  /**
   * Build the session without content and write its content read back line by line from the transcripts, so
   * memory is bounded by its structure, not by the size of its tool outputs (for huge sessions).
   */
  lean: boolean;
  /**
   * For `cctrail report`, when the file is written into the archive the site is built from: the session is then
   * prepared for the site (`prepareSession` of `@cctrail/report`) while it is in memory.
   */
  report?: ReportTarget;
}

/** The archive and cache folders `buildReport` is given, and the id of the session's project in the index. */
export interface ReportTarget {
  dataDir: string;
  cacheDir: string;
  project: string;
}

/** A session file written by `exportSession`. */
export interface ExportedSession {
  /** Its `index.json` line, privacy options applied. */
  summary: ArchiveSessionSummary;
  /** Its project's working directory, privacy options applied. */
  cwd: string | null;
  /** Where it was written: `path`, or `aside`. */
  path: string;
  outcome: WriteOutcome;
  /** Distinct secrets redacted and home paths shortened in it. */
  redacted: number;
  shortened: number;
  /** The distinct secrets redacted, by the rule that found them (`redacted` in all). */
  byRule: Record<string, number>;
}

/** What `exportSession` did. */
export interface SessionExport {
  skeleton: Skeleton;
  /** Null when the session is outside the time filters: then nothing was written. */
  exported: ExportedSession | null;
}

/**
 * Exports one session, reading its transcripts once: builds it, keeps its skeleton, and, when it is inside the
 * time filters, writes its file with the privacy options applied.
 *
 * @param request What to write where.
 * @param source The session's files.
 */
export async function exportSession(request: ExportRequest, source: SessionSource): Promise<SessionExport> {
  // Titles and first prompts are redacted before they are cut: a secret cut in two would publish its first part.
  const beforeCut = request.privacy.redact ? (text: string) => redactText(text).text : undefined;
  const session = await buildSession(source, { content: !request.lean, beforeCut });
  const skeleton = skeletonOf(session);
  if (!inTimeRange(skeleton.digest.stats, request.range)) return { skeleton, exported: null };
  const summary = summarize(session, request.file, skeleton.digest.stats);
  const counts: PrivacyCounts = { secrets: new Map(), shortened: 0 };
  const transform = privacyTransform(request.privacy, counts);
  const path = skeleton.notATranscript ? request.aside : request.path;
  const report =
    request.report && !request.lean && path === request.path && request.write !== false
      ? await reportModule()
      : null;
  // A session built with content is transformed once, whole: its file is written from, and the report prepared
  // with, the same new value (the session built stays as it is). For the report, that walk also takes the text
  // the search reads of each entry, from the entry as transformed (one walk of the entries, not two). A lean
  // session is transformed piece by piece as its content is read back.
  const entryTexts: string[] = [];
  const written = request.lean
    ? session
    : report
      ? transformEach(session, transform, searchTextsInto(report, entryTexts))
      : transform(session);
  const outcome =
    request.write === false
      ? 'unchanged'
      : await writeIfChanged(
          path,
          withNewline(request.lean ? sessionJson(session, source, { transform }) : sessionJson(written)),
        );
  // The index shows the same (redacted, shortened) text as the session file.
  const quiet = privacyTransform(request.privacy);
  const line = quiet(summary);
  if (report && request.report) await prepareForReport(report, written, line, request.report, entryTexts);
  return {
    skeleton,
    exported: {
      summary: line,
      cwd: quiet(session.project.cwd),
      path,
      outcome,
      // Each secret counts once, however many copies of it the session holds (a first prompt is also the title).
      redacted: counts.secrets.size,
      shortened: counts.shortened,
      byRule: countByRule(counts.secrets),
    },
  };
}

type Report = typeof import('@cctrail/report');

/** The report's code, loaded here so that only `cctrail report` loads it; null when it cannot be (nothing prepared). */
async function reportModule(): Promise<Report | null> {
  try {
    return await import('@cctrail/report');
  } catch {
    return null;
  }
}

/**
 * Takes the text the report's search reads of each entry into `texts`. One it could not take leaves the list short,
 * which `prepareSession` ignores: as any failure of the report's code, it costs the build a read, never the export.
 */
function searchTextsInto(report: Report, texts: string[]): (entry: Session['entries'][number]) => void {
  return (entry) => {
    try {
      texts.push(report.entrySearchText(entry));
    } catch {
      // The list is one short: `prepareSession` does not take it.
    }
  };
}

/**
 * Lets the report take what it needs of a session just written from memory instead of from its file, with the
 * search text of its entries taken while they were transformed. A failure only costs the build a read.
 */
async function prepareForReport(
  report: Report,
  session: Session,
  line: ArchiveSessionSummary,
  target: ReportTarget,
  entryTexts: readonly string[],
) {
  const { project, ...folders } = target;
  try {
    await report.prepareSession(session, { ...line, project }, { ...folders, entryTexts });
  } catch {
    // Nothing prepared: the build reads the file.
  }
}

/** The pieces of a session file's text, ended by a newline (one session per line in NDJSON). */
async function* withNewline(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  yield* pieces;
  yield '\n';
}
