import { resolve } from 'node:path';
import { buildSession, type SessionSource, sessionJson } from '@cctrail/core';
import type { summarizeSession } from '@cctrail/report/parts';
import { summarize } from './archive-json.js';
import { insideFolder, writeIfChanged } from './atomic-write.js';
import { type ExportJob, type ExportResult, LEAN_ABOVE_BYTES, type Privacy, totalBytes } from './jobs.js';
import { redactSecrets, redactText, shortenHome, shortenHomePaths } from './redact.js';

/** The session type of `@cctrail/report/parts`: the shape of a session file, which a core `Session` has. */
type ReportSession = Parameters<typeof summarizeSession>[0];

/**
 * Runs an export job (see `runJob`): builds the session, applies the privacy options, and writes it or returns
 * its JSON; for the report, also caches its manifest part and renders its transcript fragments.
 *
 * @param job The job.
 * @param source The session's files.
 */
export async function runExport(job: ExportJob, source: SessionSource): Promise<ExportResult> {
  // A large session is built without content and written with its content read back line by line from
  // the transcripts, so memory is bounded by its structure, not by the size of its tool outputs. Smaller
  // ones are built whole: reading them once is faster.
  const lean = totalBytes(job.input.discovered) > (job.leanAboveBytes ?? LEAN_ABOVE_BYTES);
  const session = await buildSession(source, { content: !lean });
  session.duplicateOf = job.duplicateOf;
  const counts = { secrets: new Set<string>(), shortened: 0 };
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
  // Each secret counts once, however many copies of it the session holds (a first prompt is also the title).
  result.redacted = counts.secrets.size;
  result.shortened = counts.shortened;
  // The index shows the same (redacted, shortened) text as the session file.
  const quiet = privacyTransform(job.privacy, { secrets: new Set(), shortened: 0 });
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
  return result;
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

/** The pieces of a session file's text, ended by a newline (one session per line in NDJSON). */
async function* withNewline(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  yield* pieces;
  yield '\n';
}

/**
 * The privacy options as a transform of JSON values: strings are returned rewritten, objects and arrays
 * are rewritten in place. Collects the secrets it replaced and counts the home paths it shortened.
 */
function privacyTransform(privacy: Privacy, counts: { secrets: Set<string>; shortened: number }) {
  return <T>(value: T): T => {
    if (typeof value === 'string') {
      let text: string = value;
      if (privacy.redact) text = redactText(text, counts.secrets).text;
      if (privacy.shortHome) {
        const result = shortenHome(text);
        counts.shortened += result.count;
        text = result.text;
      }
      return text as T;
    }
    if (value !== null && typeof value === 'object') {
      if (privacy.redact) redactSecrets(value, counts.secrets);
      if (privacy.shortHome) counts.shortened += shortenHomePaths(value);
    }
    return value;
  };
}
