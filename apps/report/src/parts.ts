/**
 * @deprecated The report computes everything it needs from the exported archive, reading each session once
 * per build; this entry goes once the CLI no longer imports it.
 *
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
export { siteSlugs, storePart } from './build/manifest.js';
export { prerenderWritten, type WrittenSession } from './build/prerender.js';
export { type CachedPart, summarizeSession } from './views/session-part.js';
