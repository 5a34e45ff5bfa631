import { statSync } from 'node:fs';
import { loadHighlighter } from '../views/highlight.js';
import type { ArchiveSessionSummary, Session } from '../views/model.js';
import type { CachedPart } from '../views/session-part.js';
import { keyOf } from './manifest.js';
import { processSession } from './session-pass.js';

/** A session its writer has just written, with what the site will know of it. */
export interface WrittenSession {
  /** The session file, as written (absolute path). */
  file: string;
  /** The session, equal to the file's content (redacted as the file is). */
  session: Session;
  /** Its line in `index.json`. */
  summary: ArchiveSessionSummary;
  /** Its manifest part (`summarizeSession`). */
  part: CachedPart;
  /** Slugs of its project and of itself (`siteSlugs` of the archive's index). */
  projectSlug: string;
  sessionSlug: string;
  /** The report's cache folder (`BuildReportOptions.cacheDir`). */
  cacheDir: string;
}

/**
 * Renders the transcript fragments of a session that was just written into the cache, from the session in
 * memory: the build then finds them there and neither reads nor parses the file again. Fragments are keyed by
 * the file's identity and the slugs, so if the build sees the session otherwise (other slugs, a file written
 * again), it does not use them and renders its own. Call it after the file is in place.
 *
 * @deprecated The report renders its fragments from the archive itself; this goes once the CLI no longer
 * calls it.
 * @returns The number of transcript pages rendered.
 */
export async function prerenderWritten(written: WrittenSession): Promise<number> {
  const { key, error } = keyOf(written.file);
  if (error !== undefined) return 0;
  await loadHighlighter();
  const job = {
    file: written.file,
    key,
    bytes: statSync(written.file).size,
    summary: written.summary,
    projectSlug: written.projectSlug,
    sessionSlug: written.sessionSlug,
    part: written.part,
  };
  return processSession(job, written.cacheDir, written.session).pages;
}
