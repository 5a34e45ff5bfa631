import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { searchIndexScript, searchItems } from '../views/search/search.js';
import { sessionRoutes } from '../views/site/routes.js';
import type { CachedPart } from '../views/site/session-part.js';
import { commitBase } from '../views/transcript/commit-links.js';
import { fragmentKey, scopeOf } from '../views/transcript/transcript-fragment.js';
import { pruneCache } from './cache.js';
import { hasFragment } from './fragments.js';
import { type ArchiveListing, buildManifest, cachedPart, listArchive } from './manifest.js';
import { CACHE_FOLDER, cacheFolder, claimOutputFolder } from './output-folder.js';
import { type PageThreads, pageThreads, threadsFor } from './page-threads.js';
import { PageWriter } from './page-writer.js';
import { renderedFiles, renderPages } from './render-pages.js';
import { planRender, recordRender } from './render-plan.js';
import { hasSearchPiece, searchPieceKey } from './search-pieces.js';
import { putSearchFiles, type SearchThread, startSearchThread } from './search-thread.js';
import { runSessionPass, type SessionJob } from './session-pass.js';
import { pagesOf } from './site-pages.js';
import { siteServer } from './site-server.js';
import { SiteWriter } from './site-writer.js';

/** Options of `buildReport`. */
export interface BuildReportOptions {
  /** Archive folder written by `cctrail export`: `index.json` and session files. */
  dataDir: string;
  /**
   * Output folder of the static site: missing, empty, or a report cctrail built (see `inspectOutputFolder`).
   * A rebuild removes the files its last build wrote that the site no longer has, and nothing else.
   */
  outDir: string;
  /**
   * Build into a folder that is not a cctrail report (else refused with an `OutputFolderError`): files of the
   * same name as the site's are overwritten, every other file is left as it is.
   */
  force?: boolean;
  /** Base path when published under a sub-path (`/repo/`); links are relative either way. */
  base?: string;
  /** Site title (default `cctrail`). */
  title?: string;
  /** Cache folder for incremental rebuilds (default `<outDir>/.cctrail-cache`; `false` disables it). */
  cacheDir?: string | false;
  /** Progress messages. */
  log?: (msg: string) => void;
  /**
   * Settles when `dataDir` is complete, for a caller still writing it: the build starts what does not depend
   * on the archive (bundling the site) at once and reads the archive after. When it rejects, the build stops
   * and rejects with the same error.
   */
  archive?: PromiseLike<unknown>;
  /** Repository URL (http or https) that commit SHAs in `git commit` outputs link to. */
  repo?: string;
  /**
   * Page threads for a caller that knows before the build has read its archive that it renders a large site
   * (`pageThreads()`, then `start` when it knows: `cctrail report` does while its export writes the last
   * sessions): each thread loads the site's bundle meanwhile, on a core the caller leaves idle. The build
   * renders its pages with them when its site is large, and stops them when it ends, whether it completes,
   * fails, or renders a small site in its own thread. Without them, a large site's threads are started once the
   * build knows its pages.
   */
  pageThreads?: PageThreads;
}

/** Result of `buildReport`. */
export interface BuildReportResult {
  /** Absolute path of the site's `index.html`. */
  indexHtml: string;
  /** Number of HTML pages written. */
  pages: number;
  /** The sessions whose transcript the report could not read (listed with their figures, their pages say why). */
  unread: UnreadSession[];
}

/** A session of the report without its transcript. */
export interface UnreadSession {
  /** Its id. */
  id: string;
  /** Its project's folder in the archive. */
  project: string;
  /** Its transcript files, as the archive's index lists them (relative to the inputs' root). */
  sources: string[];
  /** Why it could not be read. */
  reasons: string[];
}

/** Files a build writes beside the pages Astro renders. */
const MERMAID = '_cctrail/mermaid.min.js';
const SEARCH_INDEX = '_cctrail/search-index.js';
const NOJEKYLL = '.nojekyll';
const ASSETS = [MERMAID, SEARCH_INDEX, NOJEKYLL];

let building: Promise<unknown> = Promise.resolve();

/**
 * Builds the static report of an archive folder into `outDir` and returns the path of its `index.html`.
 * Builds run one at a time in a process (two builds of one output folder would share its cache).
 * @example await buildReport({ dataDir: 'export', outDir: 'site', base: '/my-repo/' })
 */
export function buildReport(options: BuildReportOptions): Promise<BuildReportResult> {
  const threads = options.pageThreads ?? pageThreads();
  const run = building.then(() => buildOnce(options, threads)).finally(() => threads.close());
  building = run.catch(() => undefined);
  return run;
}

/**
 * The sessions of the archive whose parts are not cached: their one read summarizes them and renders all
 * their fragments (a session without a cached part is a new version, whose pages are all rendered).
 */
function unsummarized(listing: ArchiveListing, work: string, parts: Map<string, CachedPart>): SessionJob[] {
  const jobs: SessionJob[] = [];
  for (const p of listing.projects) {
    for (const s of p.sessions) {
      const part = cachedPart(work, s.key);
      if (part) parts.set(s.file, part);
      else jobs.push({ ...s, part: null });
    }
  }
  return jobs;
}

/** Sessions rendered by this build, summarized before, with fragments missing from the cache. */
function unrendered(
  listing: ArchiveListing,
  manifest: ReturnType<typeof buildManifest>,
  work: string,
  parts: ReadonlyMap<string, CachedPart>,
  read: ReadonlySet<string>,
): SessionJob[] {
  const render = manifest.render ? new Set(manifest.render) : null;
  const jobs: SessionJob[] = [];
  manifest.projects.forEach((p, pi) => {
    p.sessions.forEach((s, si) => {
      const listed = listing.projects[pi]?.sessions[si];
      if (!listed || read.has(s.file)) return;
      // The search index covers every session, also those whose pages this build keeps.
      const noPiece = !hasSearchPiece(work, searchPieceKey(p.slug, s));
      if (render && !render.has(s.key) && !noPiece) return;
      const missing =
        noPiece ||
        sessionRoutes(p.slug, s).some((r) => {
          const at = scopeOf(r.props);
          return at !== null && !hasFragment(work, fragmentKey(p.slug, s, at.scope, at.page));
        });
      if (missing) jobs.push({ ...listed, part: parts.get(s.file) ?? null });
    });
  });
  return jobs;
}

async function buildOnce(options: BuildReportOptions, threads: PageThreads): Promise<BuildReportResult> {
  if (options.repo !== undefined && commitBase(options.repo) === null)
    throw new Error(`repo must be an http(s) URL, got ${JSON.stringify(options.repo)}`);
  const log = options.log ?? (() => {});
  const dataDir = resolve(options.dataDir);
  const outDir = resolve(options.outDir);
  const cacheDir = cacheFolder(outDir, options.cacheDir);
  // Before anything is written: the files an earlier build wrote there, or the refusal of someone's folder.
  const previous = claimOutputFolder(outDir, cacheDir, options.force === true);
  const started = Date.now();
  // Without a cache folder, the same layout is used in a folder removed at the end.
  const work = cacheDir ?? join(outDir, `${CACHE_FOLDER}-${process.pid}`);
  mkdirSync(work, { recursive: true });

  // The site's bundle is there unless its sources changed since the package was built: then it is made now,
  // while the archive is still being written.
  const server = siteServer({ log });
  server.catch(() => undefined);
  threads.bundle(server.then((b) => b.entry));
  let plan: ReturnType<typeof planRender>;
  let manifest: ReturnType<typeof buildManifest>;
  let assembled: { pages: number; written: number };
  const site = new SiteWriter(outDir);
  let search: SearchThread | null = null;
  try {
    await options.archive;
    const ahead = threads.startedAt;
    if (ahead !== null)
      log(`report: page threads started ${Date.now() - ahead} ms before the archive was complete`);
    const listing = listArchive(dataDir);
    // Each session file is read at most once: new versions here, then those whose pages lack a fragment.
    const parts = new Map<string, CachedPart>();
    const first = unsummarized(listing, work, parts);
    for (const [file, part] of await runSessionPass(first, work, log)) parts.set(file, part);
    manifest = buildManifest({ listing, parts, cacheDir: work, title: options.title ?? 'cctrail' });
    if (options.repo !== undefined) manifest.repo = options.repo;
    // The pages a build keeps are keyed by the bundle that renders them, too.
    const bundle = await server;
    plan = planRender(manifest, join(work, 'render.json'), options.base ?? '/', outDir, bundle);
    if (plan.incremental) manifest.render = plan.render;
    if (plan.keptPages.length > 0) manifest.keptPages = plan.keptPages;
    // The threads of a large site load the bundle while the rest of the cache is made; a small site's, started
    // early on a guess, are of no use.
    const large = threadsFor(pagesOf(manifest, work).length) > 1;
    if (large) threads.start(Number.POSITIVE_INFINITY);
    else await threads.close();
    const sessions = manifest.projects.reduce((a, p) => a + p.sessions.length, 0);
    log(
      `report: ${manifest.projects.length} projects, ${sessions} sessions read in ${Date.now() - started} ms`,
    );
    const read = new Set(first.map((j) => j.file));
    await runSessionPass(unrendered(listing, manifest, work, parts, read), work, log);

    // Pages go straight into the output folder, recorded there before the first is written.
    const rendered = renderedFiles(bundle, manifest);
    mkdirSync(outDir, { recursive: true });
    site.begin(previous, [...rendered, ...plan.kept, ...ASSETS]);
    const pages = new PageWriter({ site, state: join(work, 'pages.json') });
    // A large site's search index is planned and written by a thread of its own while the pages are rendered.
    const data = { manifest, cacheDir: work, outDir, save: cacheDir !== null };
    search = large ? startSearchThread(data, pages, site) : null;
    await renderPages(bundle, manifest, pages, work, threads, log);
    // Files that Astro does not render: Mermaid's IIFE build and the search index, both classic scripts,
    // written like pages only when they changed (a rebuild after one change rewrites the index's files of
    // entries from that session's on, and the term files it changed).
    pages.putCompressed(MERMAID, bundle.mermaid, join(work, 'mermaid.json'));
    const searchFiles = search ? await search.finished(log) : putSearchFiles(manifest, work, pages, site);
    pages.put(SEARCH_INDEX, searchIndexScript(searchItems(manifest), searchFiles.meta));
    // GitHub Pages' branch publishing runs Jekyll, which would drop `_cctrail/`.
    pages.put(NOJEKYLL, '');
    for (const route of plan.keptPages) pages.keep(`${route}index.html`);
    assembled = pages.finish();
    if (cacheDir) searchFiles.save();
    for (const rel of plan.kept) site.keep(rel);
    if (cacheDir) writeFileSync(plan.stateFile, JSON.stringify(recordRender(plan, rendered)));
  } catch (error) {
    await search?.close();
    // A bundling started before the failure finishes first (it writes into the package's folder).
    await server.catch(() => undefined);
    if (cacheDir === null) rmSync(work, { recursive: true, force: true });
    throw error;
  }
  await search?.close();
  if (plan.incremental)
    log(`report: pages of ${plan.render.length} changed sessions rendered, ${plan.keptSessions} kept`);

  const removed = site.removeStale(previous);
  site.commit();
  log(`report: ${assembled.written} files written, ${removed} removed`);
  if (cacheDir) pruneCache(cacheDir, manifest);
  else rmSync(work, { recursive: true, force: true });
  const pages = assembled.pages + plan.kept.filter((f) => f.endsWith('.html')).length;
  log(`report: ${pages} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const unread = manifest.projects.flatMap((p) =>
    p.sessions
      .filter((s) => s.loadErrors.length > 0)
      .map((s) => ({ id: s.id, project: p.id, sources: s.summary.sources ?? [], reasons: s.loadErrors })),
  );
  return { indexHtml: join(outDir, 'index.html'), pages, unread };
}
