/**
 * `@cctrail/report/parts`: what an exporter may compute for the report while it writes the archive, without
 * loading the site builder. `cctrail report` summarizes each session and renders its transcript fragments in
 * the worker that exports it, so the report does not read and parse the archive once more.
 *
 * @example
 * ```ts
 * import { storePart, summarizeSession } from '@cctrail/report/parts';
 * const part = summarizeSession(session); // the session as it is written
 * await writeSessionFile(file, session);
 * storePart(file, part, cacheDir);
 * ```
 */
export { type CachedPart, siteSlugs, storePart, summarizeSession } from './build/manifest.js';
export { prerenderWritten, type WrittenSession } from './build/prerender.js';
