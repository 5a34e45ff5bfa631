/**
 * @cctrail/report — the static report of a cctrail archive: an Astro site with an index of projects and
 * sessions, session pages (Mermaid flowchart, compaction timeline, transcript), agent pages and search.
 * Works from `file://` and under a sub-path. Its entry is `buildReport`, which reads only the exported
 * archive; a writer of the archive may `prepareSession` each session it writes, so the build need not read it.
 * It writes only into a missing or empty folder or a report it built before (`inspectOutputFolder` tells which a
 * folder is; anything else is refused with an `OutputFolderError` unless `force` is given), and removes only
 * files it wrote itself. A caller that knows early that a build renders a large site may start its page threads
 * ahead (`pageThreads`, `BuildReportOptions.pageThreads`).
 *
 * @example
 * ```ts
 * import { buildReport } from '@cctrail/report';
 * const { indexHtml } = await buildReport({ dataDir: 'export', outDir: 'cctrail-report' });
 * ```
 */
export {
  type BuildReportOptions,
  type BuildReportResult,
  buildReport,
  type UnreadSession,
} from './build/build.js';
export {
  type LiveOptions,
  type LiveScope,
  type LiveTranscript,
  loadLiveRenderer,
  renderLiveTranscript,
} from './build/live-entries.js';
export {
  inspectOutputFolder,
  OUTPUT_NOT_A_REPORT,
  OutputFolderError,
  type OutputFolderInspection,
  type OutputFolderKind,
} from './build/output-folder.js';
export { type PageThreads, pageThreads } from './build/page-threads.js';
export { type PrepareSessionOptions, prepareSession, type SessionLine } from './build/prepare.js';
export { escapeHtml } from './views/html/html.js';
export { entrySearchText } from './views/search/search-text.js';
