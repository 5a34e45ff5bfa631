import { resolve } from 'node:path';
import { loadHighlighter } from '../views/markdown/highlight.js';
import type { ArchiveProject, ArchiveSessionSummary, Session } from '../views/model.js';
import { keyOf } from './manifest.js';
import { processSession } from './session-pass.js';
import { uniqueSlugs } from './slugs.js';

/** A session's line in `index.json`, with the id of the project that lists it. */
export interface SessionLine extends ArchiveSessionSummary {
  /** `id` of the session's project in `index.json`. */
  project: ArchiveProject['id'];
}

/** Options of `prepareSession`: the folders `buildReport` will be given, and what the caller read already. */
export interface PrepareSessionOptions {
  /** The archive folder (`BuildReportOptions.dataDir`); the session's file is `line.file` inside it. */
  dataDir: string;
  /** The report's cache folder (`BuildReportOptions.cacheDir`). */
  cacheDir: string;
  /**
   * The text search reads of each entry of the session, in order: `entrySearchText` of each, taken by a caller
   * that walked the entries anyway (`cctrail report` takes them in its privacy transform's walk, from each entry
   * as redacted), so that the search piece is made without walking them again. Ignored unless it holds one text
   * for each entry.
   */
  entryTexts?: readonly string[];
}

/**
 * Caches what `buildReport` computes for one session from its file (its figures for the site model and the
 * transcript of each of its pages), from the session in memory, for a writer that has just written its file.
 * The build then neither reads nor parses that file. Everything is keyed by the file's identity (path, inode,
 * size, modification time) and the pages' routes: a file written again since, or a session the build gives
 * other routes (when another id of the archive maps to the same name), is read and rendered by the build as
 * if nothing was prepared. Call it after the file is in place, with the session as the file holds it.
 *
 * @param session The session, equal to its file's content (privacy options applied, as in the file).
 * @param line Its line in `index.json`, with its project's id.
 * @param options The archive folder and the report's cache folder.
 * @returns The number of transcript pages rendered (0 when the file cannot be read, or all were cached).
 * @example
 * ```ts
 * import { buildReport, prepareSession } from '@cctrail/report';
 * await writeFile(join('export', line.file), JSON.stringify(session));
 * await prepareSession(session, { ...line, project: 'my-app' }, { dataDir: 'export', cacheDir: 'cache' });
 * // …once the archive is complete:
 * await buildReport({ dataDir: 'export', outDir: 'site', cacheDir: 'cache' });
 * ```
 */
export async function prepareSession(
  session: Session,
  line: SessionLine,
  options: PrepareSessionOptions,
): Promise<number> {
  const file = resolve(options.dataDir, line.file);
  const { key, error } = keyOf(file);
  if (error !== undefined || session.id !== line.id) return 0;
  const cacheDir = resolve(options.cacheDir);
  await loadHighlighter();
  // The routes the build gives a session whose ids no other of the archive shares the name of.
  const job = {
    file,
    key,
    bytes: 0,
    summary: line,
    projectSlug: uniqueSlugs([line.project])[0] ?? 'x',
    sessionSlug: uniqueSlugs([line.id])[0] ?? 'x',
    // Looked up in the pack the session's read opens anyway (one look-up of the file, not two).
    part: undefined,
  };
  return (await processSession(job, cacheDir, session, options.entryTexts)).pages;
}
