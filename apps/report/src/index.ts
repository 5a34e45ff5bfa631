/**
 * @cctrail/report — the static report of a cctrail archive: an Astro site with an index of projects and
 * sessions, session pages (Mermaid flowchart, compaction timeline, transcript), agent pages and search.
 * Works from `file://` and under a sub-path.
 *
 * @example
 * ```ts
 * import { buildReport } from '@cctrail/report';
 * const { indexHtml } = await buildReport({ dataDir: 'export', outDir: 'cctrail-report' });
 * ```
 */
export { type BuildReportOptions, type BuildReportResult, buildReport, CACHE_FOLDER } from './build/build.js';
export { checkIndex, checkSession } from './build/load.js';
export { slugify, uniqueSlugs } from './build/slugs.js';
export { renderMarkdown } from './views/markdown.js';
export { type MermaidGraph, type MermaidOptions, mermaidLabel, sessionMermaid } from './views/mermaid.js';
export { type RereadsAfterCompaction, rereadsAfterCompactions } from './views/reread.js';
export { type TimelineSeries, timelineSeries, timelineSvg } from './views/timeline.js';
