import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { buildReport as BuildReport } from '../src/build/build.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * #26: the search index covers every session, whatever pages a build renders, so a rebuild after one session
 * changed plans it in a thread of its own (from `SEARCH_THREAD_FROM` sessions; from one here, through
 * `CCTRAIL_TEST_SEARCH_THREAD_FROM`) while it renders its few pages in the main thread. Its output must be what
 * a build from nothing writes, in one thread. Threads run the compiled package (`dist/`).
 */

const DIST = join(resolve(import.meta.dirname, '..'), 'dist');
const tmp = tempFolder('cctrail-rebuild-search-thread-');
const dataDir = join(tmp, 'data');

async function buildReport(...args: Parameters<typeof BuildReport>): ReturnType<typeof BuildReport> {
  if (!existsSync(join(DIST, 'index.js'))) throw new Error('build the package first (pnpm build)');
  const module = (await import(pathToFileURL(join(DIST, 'index.js')).href)) as {
    buildReport: typeof BuildReport;
  };
  return module.buildReport(...args);
}

/** Every file of a site but its folder's record, by path. */
function siteFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === '.cctrail-report.json') continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path, 'latin1'));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

afterEach(() => {
  delete process.env.CCTRAIL_TEST_SEARCH_THREAD_FROM;
});

describe.skipIf(availableParallelism() < 2)('a rebuild after one session changed', () => {
  it('plans the search index in a thread, and writes what a build from nothing writes', async () => {
    writeArchive(dataDir, [
      {
        id: 'shop',
        cwd: '/home/dev/shop',
        sessions: [linearSession('alpha', 140), linearSession('beta', 300), demoSession()],
      },
    ]);
    const site = { dataDir, outDir: join(tmp, 'site'), cacheDir: join(tmp, 'cache') };
    await buildReport(site);
    writeFileSync(join(dataDir, 'shop', 'beta.json'), JSON.stringify(linearSession('beta', 330)));
    process.env.CCTRAIL_TEST_SEARCH_THREAD_FROM = '1';
    const log: string[] = [];
    await buildReport({ ...site, log: (m) => log.push(m) });
    delete process.env.CCTRAIL_TEST_SEARCH_THREAD_FROM;
    expect(log).toContain('report: pages of 1 changed sessions rendered, 2 kept');
    expect(
      log.some((m) => /^report: \d+ files of the search index written by a thread of their own/.test(m)),
    ).toBe(true);
    const cold = join(tmp, 'cold');
    const coldLog: string[] = [];
    await buildReport({ dataDir, outDir: cold, cacheDir: false, log: (m) => coldLog.push(m) });
    expect(coldLog.some((m) => m.includes('by a thread of their own'))).toBe(false);
    const rebuilt = siteFiles(site.outDir);
    expect([...rebuilt.values()].some((text) => text.includes('Prompt number 328'))).toBe(true);
    expect(rebuilt).toEqual(siteFiles(cold));
  });
});
