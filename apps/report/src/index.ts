/**
 * @cctrail/report — the static report of a cctrail archive: an Astro site with an index of projects and
 * sessions, session pages (Mermaid flowchart, compaction timeline, transcript), agent pages and search.
 * Works from `file://` and under a sub-path. Its entry is `buildReport`, which reads only the exported
 * archive; a writer of the archive may `prepareSession` each session it writes, so the build need not read it.
 *
 * @example
 * ```ts
 * import { buildReport } from '@cctrail/report';
 * const { indexHtml } = await buildReport({ dataDir: 'export', outDir: 'cctrail-report' });
 * ```
 */
export { type BuildReportOptions, type BuildReportResult, buildReport } from './build/build.js';
export { type PrepareSessionOptions, prepareSession, type SessionLine } from './build/prepare.js';
