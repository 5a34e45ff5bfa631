import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { buildReport as BuildReport } from '../src/build/build.js';
import type * as Manifest from '../src/build/manifest.js';
import type { PageThreads, pageThreads as PageThreadsOf } from '../src/build/page-threads.js';
import { signatureOf } from '../src/build/page-writer.js';
import type { pagesOf as PagesOf } from '../src/build/site-pages.js';
import type { CachedPart } from '../src/views/site/session-part.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { scenarioProjects } from './helpers/fixtures.js';
import { tempFolder } from './helpers/temp.js';

/**
 * #26: a large site's pages are rendered and written by worker threads (`page-threads.ts`), and recorded by the
 * main thread in their order. Threads run the compiled package (`dist/`, made by `pnpm build`, which the tests depend on), so
 * this file builds with it. `CCTRAIL_TEST_PAGE_THREADS_FROM` lowers (or raises) the number of pages from which
 * threads are used: the same archive built both ways gives the same files, byte for byte, the same record of the
 * output folder and the same digests kept for the next build. `CCTRAIL_TEST_SESSION_THREADS_FROM` does the same for
 * the session files the build reads itself, in threads from so many bytes: in the threaded build, they are too.
 */

const PACKAGE = resolve(import.meta.dirname, '..');
const DIST = join(PACKAGE, 'dist');
const tmp = tempFolder('cctrail-page-threads-');
const dataDir = join(tmp, 'data');
const CORES = Math.min(4, availableParallelism());

/** A module of the compiled package. */
async function built<T>(rel: string): Promise<T> {
  if (!existsSync(join(DIST, rel))) throw new Error('build the package first (pnpm build)');
  return (await import(pathToFileURL(join(DIST, rel)).href)) as T;
}

/** The threads of this process (Linux; null elsewhere): page threads stopped are gone from it. */
function osThreads(): number | null {
  try {
    return Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return null;
  }
}

/** Page threads not started, from the compiled package's public entry. */
async function newThreads(): Promise<PageThreads> {
  return (await built<{ pageThreads: typeof PageThreadsOf }>('index.js')).pageThreads();
}

/** The entry of the site's bundle. */
async function bundleEntry(): Promise<string> {
  const { siteServer } = await built<{ siteServer: () => Promise<{ entry: string }> }>(
    'build/site-server.js',
  );
  return (await siteServer()).entry;
}

/** The OS threads before, page threads started ahead of a build (checked running), and the build. */
async function startedAhead() {
  const before = osThreads();
  const threads = await newThreads();
  threads.bundle(Promise.resolve(await bundleEntry()));
  threads.start(1_000_000);
  // Started (their number is known once the bundle is), before the build.
  await new Promise((resolve) => setImmediate(resolve));
  if (before !== null) expect(osThreads()).toBe(before + CORES);
  const { buildReport } = await built<{ buildReport: typeof BuildReport }>('index.js');
  return { before, threads, buildReport };
}

/** Files of a folder, relative to it, sorted. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

/**
 * Builds the archive into `name` (its output folder and cache) with threads from `from` pages, and sessions read
 * in threads from `sessionsFrom` bytes; its log.
 */
async function buildWith(
  name: string,
  from: string | undefined,
  sessionsFrom?: string,
  pageThreads?: PageThreads,
): Promise<string[]> {
  const { buildReport } = await built<{ buildReport: typeof BuildReport }>('index.js');
  const log: string[] = [];
  if (from === undefined) delete process.env.CCTRAIL_TEST_PAGE_THREADS_FROM;
  else process.env.CCTRAIL_TEST_PAGE_THREADS_FROM = from;
  if (sessionsFrom === undefined) delete process.env.CCTRAIL_TEST_SESSION_THREADS_FROM;
  else process.env.CCTRAIL_TEST_SESSION_THREADS_FROM = sessionsFrom;
  try {
    await buildReport({
      dataDir,
      outDir: join(tmp, name, 'out'),
      cacheDir: join(tmp, name, 'cache'),
      log: (m) => log.push(m),
      ...(pageThreads ? { pageThreads } : {}),
    });
  } finally {
    delete process.env.CCTRAIL_TEST_PAGE_THREADS_FROM;
    delete process.env.CCTRAIL_TEST_SESSION_THREADS_FROM;
  }
  return log;
}

/** How many threads rendered the pages (or read the sessions), from a build's log. */
function threadsOf(log: string[], step = 'pages rendered and written'): number {
  const line = log.find((m) => m.includes(step));
  return Number(line?.match(/ by (\d+) threads? /)?.[1] ?? Number.NaN);
}

beforeAll(async () => {
  const projects = [];
  for (const scenario of ['rewind', 'subagents-meta', 'compaction', 'damaged', 'agents-2026'])
    projects.push(...(await scenarioProjects(scenario)));
  // Pages of prompts and answers, and the demo's tool calls, images and agents.
  projects.push({ id: 'long', cwd: '/home/dev/long', sessions: [linearSession('long', 700), demoSession()] });
  writeArchive(dataDir, projects);
}, 120_000);

afterEach(() => {
  delete process.env.CCTRAIL_TEST_PAGE_THREADS_FROM;
  delete process.env.CCTRAIL_TEST_SESSION_THREADS_FROM;
});

describe('pages rendered in worker threads', () => {
  it.skipIf(CORES < 2)('are the files a build in one thread writes, recorded the same', async () => {
    const one = await buildWith('one', '1000000');
    // Its sessions read in threads too: a few small files are read in this thread, as in the build above.
    const threaded = await buildWith('threaded', '1', '0');
    expect(threadsOf(one)).toBe(1);
    expect(threadsOf(threaded)).toBe(CORES);
    expect(threadsOf(one, 'session files read')).toBe(1);
    expect(threadsOf(threaded, 'session files read')).toBe(CORES);
    // The search index too is written by a thread of its own in the threaded build (`search-thread.ts`).
    const bySearchThread = (log: string[]) => log.some((m) => m.includes('search index written by a thread'));
    expect([bySearchThread(one), bySearchThread(threaded)]).toEqual([false, true]);
    const out = (name: string) => join(tmp, name, 'out');
    const files = filesOf(out('one'));
    expect(files.filter((f) => f.endsWith('.html')).length).toBeGreaterThan(20);
    expect(filesOf(out('threaded'))).toEqual(files);
    for (const file of files)
      expect(
        readFileSync(join(out('threaded'), file)).equals(readFileSync(join(out('one'), file))),
        file,
      ).toBe(true);
    // The record lists every file of the folder (the record itself aside), in both.
    const record = JSON.parse(readFileSync(join(out('threaded'), '.cctrail-report.json'), 'utf8')) as {
      files: string[];
    };
    expect(record.files).toEqual(files.filter((f) => f !== '.cctrail-report.json'));
    // The digests kept for the next build: the same files, in the same order, with the same digests.
    const state = (name: string) => readFileSync(join(tmp, name, 'cache', 'pages.json'), 'utf8');
    expect(state('threaded')).toBe(state('one'));
  });

  it.skipIf(CORES < 2)(
    'write only the pages that changed since the last build, as one thread does',
    async () => {
      if (!existsSync(join(tmp, 'threaded', 'out'))) await buildWith('threaded', '1', '0');
      const out = join(tmp, 'threaded', 'out');
      const page = filesOf(out).find((f) => f.endsWith('.html') && f.includes('/'))!;
      const written = (log: string[]) => log.find((m) => /files written/.test(m));
      // Nothing changed: every page is rendered again by the threads, and none is written.
      const mtime = statSync(join(out, page)).mtimeMs;
      expect(written(await buildWith('threaded', '1', '0'))).toBe('report: 0 files written, 0 removed');
      expect(statSync(join(out, page)).mtimeMs).toBe(mtime);
      // A page the folder lost is written back, by its thread.
      rmSync(join(out, page));
      expect(written(await buildWith('threaded', '1', '0'))).toBe('report: 1 files written, 0 removed');
      expect(readFileSync(join(out, page)).equals(readFileSync(join(tmp, 'one', 'out', page)))).toBe(true);
    },
  );

  it('are not used for a small site (no threads to start for a handful of pages)', async () => {
    const log = await buildWith('small', undefined);
    const pages = filesOf(join(tmp, 'small', 'out')).filter((f) => f.endsWith('.html')).length;
    expect(pages).toBeLessThan(300);
    expect(threadsOf(log)).toBe(1);
  });

  /** The manifest of a build of the archive in one thread (into `name`), its cache, pages and the bundle's entry. */
  const builtSite = async (name: string) => {
    await buildWith(name, '1000000');
    const { listArchive, cachedPart, buildManifest } = await built<typeof Manifest>('build/manifest.js');
    const entry = await bundleEntry();
    const cacheDir = join(tmp, name, 'cache');
    const listing = listArchive(dataDir);
    const parts = new Map<string, CachedPart>();
    for (const p of listing.projects)
      for (const s of p.sessions) parts.set(s.file, cachedPart(cacheDir, s.key) as CachedPart);
    const manifest = buildManifest({ listing, parts, cacheDir, title: 't' });
    // Exactly the site's pages: a number past them would fail in a thread and race the error looked for.
    const { pagesOf } = await built<{ pagesOf: typeof PagesOf }>('build/site-pages.js');
    return { entry, cacheDir, manifest, pages: pagesOf(manifest, cacheDir) };
  };

  it.skipIf(CORES < 2)('write the pages themselves, given the output folder: digests come back', async () => {
    const { entry, cacheDir, manifest, pages } = await builtSite('written');
    const outDir = join(tmp, 'by-threads');
    mkdirSync(outDir);
    const done: { bytes?: Uint8Array; written?: boolean; signature: string }[] = [];
    const work = { manifest, cacheDir, output: { outDir, known: {} } };
    await (await newThreads()).render(entry, work, 3, 2, (d) => done.push(d));
    expect(done.map((d) => [d.bytes, d.written])).toEqual([0, 1, 2].map(() => [undefined, true]));
    const page = (at: number) => readFileSync(join(outDir, `${pages[at]!.route}index.html`));
    expect(done.map((d) => d.signature)).toEqual([0, 1, 2].map((at) => signatureOf(page(at))));
  });

  it.skipIf(CORES < 2)("stop at a page's error and reject with it", async () => {
    const { entry, cacheDir, manifest, pages } = await builtSite('failing');
    const count = pages.length;
    // The pages before a session's are rendered; the first transcript page finds no fragment in an empty cache.
    const written: number[] = [];
    await expect(
      (await newThreads()).render(entry, { manifest, cacheDir: join(tmp, 'empty') }, count, 2, (done) =>
        written.push(done.at),
      ),
    ).rejects.toThrow(/missing from the build cache/);
    expect(written).toEqual(written.map((_, i) => i));
    // An error of the main thread's writing stops the threads the same way.
    await expect(
      (await newThreads()).render(entry, { manifest, cacheDir }, count, 2, () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    // A thread that failed while it waited for its pages (here: no bundle to load) fails the rendering.
    const broken = await newThreads();
    const missing = join(tmp, 'no-bundle', 'entry.mjs');
    broken.bundle(Promise.resolve(missing));
    broken.start(1_000_000);
    await expect(broken.render(missing, { manifest, cacheDir }, count, 2, () => {})).rejects.toThrow(
      /Cannot find module/,
    );
  });
});

describe('page threads started ahead of the build', () => {
  it.skipIf(CORES < 2)('render its pages as threads started by the build do, and stop with it', async () => {
    // The build before: the first test's, in one thread.
    if (!existsSync(join(tmp, 'one', 'out'))) await buildWith('one', '1000000');
    const before = osThreads();
    const threads = await newThreads();
    // Before the build knows its bundle: they start once it does.
    threads.start(1_000_000);
    const log = await buildWith('ahead', '1', undefined, threads);
    expect(threadsOf(log)).toBe(CORES);
    expect(log.find((m) => m.includes('pages rendered and written'))).toMatch(
      /; the threads started \d+ ms before$/,
    );
    const files = filesOf(join(tmp, 'one', 'out'));
    expect(filesOf(join(tmp, 'ahead', 'out'))).toEqual(files);
    for (const file of files)
      expect(
        readFileSync(join(tmp, 'ahead', 'out', file)).equals(readFileSync(join(tmp, 'one', 'out', file))),
        file,
      ).toBe(true);
    expect(osThreads()).toBe(before);
    expect(threads.size).toBe(0);
  });

  it.skipIf(CORES < 2)('are stopped unused when the site is small', async () => {
    const { before, threads, buildReport } = await startedAhead();
    const log: string[] = [];
    // The threads running when the pages are written: none, they were stopped once the build knew its pages.
    let rendering: number | null = Number.NaN;
    await buildReport({
      dataDir,
      outDir: join(tmp, 'small-ahead', 'out'),
      cacheDir: join(tmp, 'small-ahead', 'cache'),
      pageThreads: threads,
      log: (m) => {
        log.push(m);
        if (m.includes('pages rendered and written')) rendering = osThreads();
      },
    });
    expect(threadsOf(log)).toBe(1);
    expect(rendering).toBe(before);
    expect(osThreads()).toBe(before);
  });

  it.skipIf(CORES < 2)('are stopped when the build fails', async () => {
    const { before, threads, buildReport } = await startedAhead();
    await expect(
      buildReport({
        dataDir,
        outDir: join(tmp, 'failed', 'out'),
        archive: Promise.reject(new Error('the export failed')),
        pageThreads: threads,
      }),
    ).rejects.toThrow('the export failed');
    expect(osThreads()).toBe(before);
  });
});
