import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { assembleSite } from './assemble.js';
import { filesUnder } from './files.js';
import { loadHighlighter } from '../views/highlight.js';
import { pageHref, sessionRoute, sidechainRoute } from '../views/links.js';
import {
  buildManifest,
  type PendingPart,
  pendingParts,
  RENDER_VERSION,
  type SiteManifest,
} from './manifest.js';
import { prerenderSessions, shareSessions } from './prerender.js';
import { type SearchItem, searchIndexScript } from '../views/search.js';
import { allRoutes, MANIFEST_ENV, resetManifest, sessionTitle } from './site.js';
import { loadRenderer, SITE_ROOT, type SiteBundle, siteServer } from './site-server.js';

/** Options of `buildReport`. */
export interface BuildReportOptions {
  /** Archive folder written by `cctrail export`: `index.json` and session files. */
  dataDir: string;
  /** Output folder of the static site (files the site no longer has are removed; its cache is kept). */
  outDir: string;
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
}

/** Result of `buildReport`. */
export interface BuildReportResult {
  /** Absolute path of the site's `index.html`. */
  indexHtml: string;
  /** Number of HTML pages written. */
  pages: number;
}

/** Name of the cache folder inside the output folder. */
export const CACHE_FOLDER = '.cctrail-cache';

const here = dirname(fileURLToPath(import.meta.url));

export { SITE_ROOT };

let building: Promise<unknown> = Promise.resolve();

/** What the last build rendered: the site-wide signature, and each session's route and pages. */
interface RenderState {
  signature: string;
  sessions: Record<string, { prefix: string; files: string[] }>;
}

/** Which sessions this build renders with Astro, and which pages it keeps from the last build. */
interface RenderPlan {
  stateFile: string;
  signature: string;
  incremental: boolean;
  /** Keys of the sessions rendered (all of them when not incremental). */
  render: string[];
  /** Output files kept from the last build (pages of unchanged sessions). */
  kept: string[];
  keptSessions: number;
  prefixes: Map<string, string>;
  previous: RenderState | null;
}

/**
 * Session pages depend only on their session and on what every page shows (title, generator, base path,
 * project names, agent slugs): when none of that changed since the last build, only sessions whose content
 * changed (or that are new, or moved) are rendered again; the other sessions' pages stay as they are.
 */
function planRender(manifest: SiteManifest, stateFile: string, base: string, outDir: string): RenderPlan {
  const signature = createHash('sha1')
    .update(
      JSON.stringify([
        RENDER_VERSION,
        manifest.title,
        manifest.generator,
        base,
        manifest.agentTypes,
        manifest.projects.map((p) => [p.slug, p.name]),
      ]),
    )
    .digest('hex');
  let previous: RenderState | null = null;
  try {
    previous = JSON.parse(readFileSync(stateFile, 'utf8')) as RenderState;
  } catch {
    previous = null;
  }
  const prefixes = new Map<string, string>();
  for (const p of manifest.projects)
    for (const s of p.sessions) prefixes.set(s.key, sessionRoute(p.slug, s.slug));
  const incremental = previous?.signature === signature && existsSync(join(outDir, 'index.html'));
  const render: string[] = [];
  const kept: string[] = [];
  let keptSessions = 0;
  for (const [key, prefix] of prefixes) {
    const before = incremental ? previous?.sessions[key] : undefined;
    if (before && before.prefix === prefix && before.files.every((f) => existsSync(join(outDir, f)))) {
      kept.push(...before.files);
      keptSessions++;
    } else render.push(key);
  }
  return { stateFile, signature, incremental, render, kept, keptSessions, prefixes, previous };
}

/** The render state after this build: rendered sessions' pages as staged, kept sessions' as before. */
function recordRender(plan: RenderPlan, stage: string): RenderState {
  const sessions: RenderState['sessions'] = {};
  const rendered = new Set(plan.render);
  for (const [key, prefix] of plan.prefixes) {
    if (!rendered.has(key) && plan.previous?.sessions[key]) {
      sessions[key] = plan.previous.sessions[key];
      continue;
    }
    // Routes end in `/`: the session's files are those below its route.
    const files = filesUnder(join(stage, prefix)).map((rel) => `${prefix}${rel}`);
    sessions[key] = { prefix, files };
  }
  return { signature: plan.signature, sessions };
}

/** Removes cached parts and fragments of sessions that are no longer in the archive (or changed). */
function pruneCache(cacheDir: string, manifest: SiteManifest): void {
  const keys = new Set(manifest.projects.flatMap((p) => p.sessions.map((s) => s.key)));
  for (const folder of ['parts', 'fragments']) {
    const dir = join(cacheDir, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const key = name.split(/[-.]/)[0] ?? '';
      if (!keys.has(key)) rmSync(join(dir, name), { force: true });
    }
  }
}

/**
 * Reads the session files whose manifest parts are not cached yet, and caches their parts, in worker threads
 * (one per core, at most four) when there are many and the package is compiled; `buildManifest` computes
 * whatever is left. Each thread gets a share of about equal bytes.
 */
async function computeParts(parts: PendingPart[], log: (msg: string) => void): Promise<void> {
  const worker = join(here, 'parts-worker.js');
  const threads = Math.min(4, availableParallelism());
  if (parts.length < 8 || threads < 2 || !existsSync(worker)) return;
  const started = Date.now();
  const shares: { parts: PendingPart[]; bytes: number }[] = Array.from({ length: threads }, () => ({
    parts: [],
    bytes: 0,
  }));
  for (const part of [...parts].sort((a, b) => b.bytes - a.bytes)) {
    const lightest = shares.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    lightest.parts.push(part);
    lightest.bytes += part.bytes;
  }
  await Promise.all(shares.map((share) => runWorker(worker, { parts: share.parts })));
  log(`report: ${parts.length} sessions summarized by ${threads} threads in ${Date.now() - started} ms`);
}

/** Runs a worker script to its end; resolves with the last message it posted. */
function runWorker<T>(script: string, workerData: unknown): Promise<T | undefined> {
  return new Promise((done, fail) => {
    const w = new Worker(script, { workerData });
    let last: T | undefined;
    w.on('message', (m: T) => {
      last = m;
    });
    w.on('error', fail);
    w.on('exit', (code) => (code === 0 ? done(last) : fail(new Error(`report worker exited with ${code}`))));
  });
}

/**
 * Renders transcript fragments into the cache before Astro runs: in worker threads (one per core, at most
 * four) when running from the compiled package, else in this thread.
 */
async function prerender(
  manifestFile: string,
  manifest: SiteManifest,
  log: (msg: string) => void,
): Promise<void> {
  await loadHighlighter();
  const worker = join(here, 'prerender-worker.js');
  const threads = Math.min(4, availableParallelism());
  const started = Date.now();
  const shares = shareSessions(manifest, threads);
  if (shares.length === 0) return;
  // A few sessions (a rebuild) are quicker here than in threads that must start and load everything first.
  if (!existsSync(worker) || threads < 2 || shares.flat().length <= 2) {
    const pages = prerenderSessions(manifest, shares.flat());
    log(`report: ${pages} transcript pages rendered in ${Date.now() - started} ms`);
    return;
  }
  const pages = await Promise.all(
    shares.map(
      async (keys) => (await runWorker<{ pages: number }>(worker, { manifestFile, keys }))?.pages ?? 0,
    ),
  );
  log(
    `report: ${pages.reduce((a, b) => a + b, 0)} transcript pages rendered by ${shares.length} threads in ${Date.now() - started} ms`,
  );
}

/**
 * Renders the pages of the manifest (those of `manifest.render` when set, the index and site-wide pages always)
 * with the site's bundle into `stage`, as `<route>index.html`, with the site's public files beside them.
 */
async function renderPages(
  bundle: SiteBundle,
  manifest: SiteManifest,
  stage: string,
  log: (msg: string) => void,
): Promise<void> {
  const started = Date.now();
  const renderPage = await loadRenderer(bundle.entry);
  cpSync(bundle.assets, stage, { recursive: true });
  const routes = ['', ...allRoutes(manifest).map((r) => r.route)];
  for (const route of routes) {
    const html = await renderPage(route);
    const file = join(stage, route, 'index.html');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
  }
  log(`report: ${routes.length} pages rendered in ${Date.now() - started} ms`);
}

/**
 * Builds the static report of an archive folder into `outDir` and returns the path of its `index.html`.
 * Builds run one at a time in a process (the site's pages find the manifest through the environment, and
 * bundling the site needs the working directory).
 * @example await buildReport({ dataDir: 'export', outDir: 'site', base: '/my-repo/' })
 */
export function buildReport(options: BuildReportOptions): Promise<BuildReportResult> {
  const run = building.then(() => buildOnce(options));
  building = run.catch(() => undefined);
  return run;
}

async function buildOnce(options: BuildReportOptions): Promise<BuildReportResult> {
  const log = options.log ?? (() => {});
  const dataDir = resolve(options.dataDir);
  const outDir = resolve(options.outDir);
  const cacheDir =
    options.cacheDir === false ? null : resolve(options.cacheDir ?? join(outDir, CACHE_FOLDER));
  const started = Date.now();
  // Without a cache folder, the same layout is used in a folder removed at the end.
  const work = cacheDir ?? join(outDir, `${CACHE_FOLDER}-${process.pid}`);
  const stage = join(work, 'stage');
  mkdirSync(work, { recursive: true });

  const previousManifest = process.env[MANIFEST_ENV];
  const manifestFile = join(work, 'manifest.json');
  // The site's bundle is there unless its sources changed since the package was built: then it is made now,
  // while the archive is still being written.
  const server = siteServer({ log });
  server.catch(() => undefined);
  let plan: RenderPlan;
  let manifest: SiteManifest;
  try {
    process.env[MANIFEST_ENV] = manifestFile;
    resetManifest();
    await options.archive;
    await computeParts(pendingParts({ dataDir, cacheDir: work }), log);
    manifest = buildManifest({ dataDir, cacheDir: work, title: options.title ?? 'cctrail', log });
    plan = planRender(manifest, join(work, 'render.json'), options.base ?? '/', outDir);
    if (plan.incremental) manifest.render = plan.render;
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const sessions = manifest.projects.reduce((a, p) => a + p.sessions.length, 0);
    log(
      `report: ${manifest.projects.length} projects, ${sessions} sessions read in ${Date.now() - started} ms`,
    );
    await prerender(manifestFile, manifest, log);
    rmSync(stage, { recursive: true, force: true });
    await renderPages(await server, manifest, stage, log);
  } catch (error) {
    // A bundling started before the failure finishes first: it owns the working directory meanwhile.
    await server.catch(() => undefined);
    rmSync(cacheDir === null ? work : stage, { recursive: true, force: true });
    throw error;
  } finally {
    if (previousManifest === undefined) delete process.env[MANIFEST_ENV];
    else process.env[MANIFEST_ENV] = previousManifest;
    resetManifest();
  }

  mkdirSync(outDir, { recursive: true });
  const renderState = recordRender(plan, stage);
  const assembled = assembleSite({
    stage,
    outDir,
    fragments: join(work, 'fragments'),
    state: join(work, 'pages.json'),
    keep: new Set(['_cctrail/mermaid.min.js', '_cctrail/search-index.js', ...plan.kept]),
    ignore: new Set([CACHE_FOLDER, basename(work)]),
  });
  if (cacheDir) writeFileSync(plan.stateFile, JSON.stringify(renderState));
  if (plan.incremental)
    log(`report: pages of ${plan.render.length} changed sessions rendered, ${plan.keptSessions} kept`);
  rmSync(stage, { recursive: true, force: true });
  log(`report: ${assembled.written} files written, ${assembled.removed} removed`);

  // Assets that Astro does not handle: Mermaid's IIFE build and the search index, both classic scripts.
  const assets = join(outDir, '_cctrail');
  mkdirSync(assets, { recursive: true });
  const require = createRequire(import.meta.url);
  copyFileSync(
    join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js'),
    join(assets, 'mermaid.min.js'),
  );
  const items: SearchItem[] = [];
  for (const p of manifest.projects) {
    for (const s of p.sessions) {
      items.push({
        t: sessionTitle(s),
        k: 'session',
        p: p.name,
        x: [
          s.summary.firstPrompt?.slice(0, 400) ?? '',
          s.id,
          ...new Set(s.sidechains.map((c) => c.agentType)),
        ].join(' '),
        u: pageHref('', sessionRoute(p.slug, s.slug)),
        d: s.summary.startedAt,
      });
      for (const c of s.sidechains) {
        items.push({
          t: `${c.agentType}${c.description ? `: ${c.description}` : ''}`,
          k: 'agent',
          p: p.name,
          x: `${sessionTitle(s)} ${c.id}`,
          u: pageHref('', sidechainRoute(p.slug, s.slug, c.slug)),
          d: c.startedAt,
        });
      }
    }
  }
  writeFileSync(join(assets, 'search-index.js'), searchIndexScript(items));
  if (cacheDir) pruneCache(cacheDir, manifest);
  else rmSync(work, { recursive: true, force: true });
  const pages = assembled.pages + plan.kept.filter((f) => f.endsWith('.html')).length;
  log(`report: ${pages} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { indexHtml: join(outDir, 'index.html'), pages };
}
