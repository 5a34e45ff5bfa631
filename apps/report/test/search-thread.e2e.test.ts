import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { buildReport as BuildReport } from '../src/build/build.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { scenarioProjects } from './helpers/fixtures.js';
import { tempFolder } from './helpers/temp.js';

/**
 * #26: a large site's search index is planned and written by a thread of its own (`search-thread.ts`) while its
 * pages are rendered. The output folder's writer stays in charge: the thread's files are recorded before any is
 * written, and the thread's writer follows no link, as the build's own. Threads run the compiled package (`dist/`),
 * and are used from one page on here (`CCTRAIL_TEST_PAGE_THREADS_FROM`).
 */

const DIST = join(resolve(import.meta.dirname, '..'), 'dist');
const tmp = tempFolder('cctrail-search-thread-');
const dataDir = join(tmp, 'data');
const CORES = Math.min(4, availableParallelism());
const SEARCH = '_cctrail/search';

async function buildReport(...args: Parameters<typeof BuildReport>): ReturnType<typeof BuildReport> {
  if (!existsSync(join(DIST, 'index.js'))) throw new Error('build the package first (pnpm build)');
  const module = (await import(pathToFileURL(join(DIST, 'index.js')).href)) as {
    buildReport: typeof BuildReport;
  };
  return module.buildReport(...args);
}

/** Builds the archive into `name` (its output folder and cache), with threads; its log. */
async function buildInto(name: string, force = false): Promise<string[]> {
  const log: string[] = [];
  process.env.CCTRAIL_TEST_PAGE_THREADS_FROM = '1';
  await buildReport({
    dataDir,
    outDir: join(tmp, name, 'out'),
    cacheDir: join(tmp, name, 'cache'),
    force,
    log: (m) => log.push(m),
  });
  return log;
}

/** The files of the output folder's record. */
function recorded(name: string): string[] {
  const record = readFileSync(join(tmp, name, 'out', '.cctrail-report.json'), 'utf8');
  return (JSON.parse(record) as { files: string[] }).files;
}

beforeAll(async () => {
  const projects = [];
  for (const scenario of ['rewind', 'compaction']) projects.push(...(await scenarioProjects(scenario)));
  projects.push({ id: 'long', cwd: '/home/dev/long', sessions: [linearSession('long', 300), demoSession()] });
  writeArchive(dataDir, projects);
}, 120_000);

afterEach(() => {
  delete process.env.CCTRAIL_TEST_PAGE_THREADS_FROM;
});

describe.skipIf(CORES < 2)('the search thread', () => {
  it('writes the index when the pages are rendered in threads', async () => {
    const log = await buildInto('threaded');
    expect(
      log.some((m) => /^report: \d+ files of the search index written by a thread of their own/.test(m)),
    ).toBe(true);
    const files = readdirSync(join(tmp, 'threaded', 'out', SEARCH));
    expect(files.length).toBeGreaterThan(1);
    expect(recorded('threaded')).toEqual(expect.arrayContaining(files.map((f) => `${SEARCH}/${f}`)));
  });

  it('has its files recorded before it writes any', async () => {
    const names = readdirSync(join(tmp, 'threaded', 'out', SEARCH)).sort();
    // The first file it writes (the first of the terms) cannot be written: a folder is in its place.
    mkdirSync(join(tmp, 'blocked', 'out', SEARCH, 't0.js'), { recursive: true });
    await expect(buildInto('blocked', true)).rejects.toThrow();
    expect(readdirSync(join(tmp, 'blocked', 'out', SEARCH))).toEqual(['t0.js']);
    // Nothing of the index was written, and all of it is recorded: the next build knows those files as its own.
    expect(recorded('blocked')).toEqual(expect.arrayContaining(names.map((f) => `${SEARCH}/${f}`)));
  });

  it('follows no link: a link where its folder goes is replaced, and its target left as it was', async () => {
    const outside = join(tmp, 'outside');
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(tmp, 'linked', 'out', '_cctrail'), { recursive: true });
    symlinkSync(outside, join(tmp, 'linked', 'out', SEARCH));
    await buildInto('linked', true);
    expect(readdirSync(outside)).toEqual([]);
    const files = readdirSync(join(tmp, 'threaded', 'out', SEARCH)).sort();
    expect(readdirSync(join(tmp, 'linked', 'out', SEARCH)).sort()).toEqual(files);
    for (const file of files)
      expect(readFileSync(join(tmp, 'linked', 'out', SEARCH, file), 'utf8')).toBe(
        readFileSync(join(tmp, 'threaded', 'out', SEARCH, file), 'utf8'),
      );
  });
});
