import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/build/build.js';
import { prepareSession } from '../src/build/prepare.js';
import type { Session } from '../src/views/model.js';
import { entrySearchText } from '../src/views/search/search-text.js';
import { demoSession, linearSession, summaryOf, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * `prepareSession` caches what a build computes from a session file, from the session in memory: the build
 * then reads no file, and its pages are those it makes from the files. What does not match the file or the
 * routes the build assigns is ignored.
 */

const tmp = tempFolder('cctrail-prepare-');

const sessions = (): Session[] => [demoSession(), linearSession('long', 450)];

/** Every file of a folder, by path. */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  return files;
}

/** Builds the site of `data` into `name` with the cache `name-cache`; returns its session passes' log lines. */
async function build(data: string, name: string): Promise<string[]> {
  const logged: string[] = [];
  await buildReport({
    dataDir: data,
    outDir: join(tmp, name),
    cacheDir: join(tmp, `${name}-cache`),
    log: (m) => logged.push(m),
  });
  return logged.filter((m) => m.includes('session files read'));
}

/** Prepares each session of the archive `data` (project `shop`) into the cache of `name`. */
async function prepare(
  data: string,
  name: string,
  list: Session[],
  project = 'shop',
  texts?: (s: Session) => string[],
): Promise<number> {
  let pages = 0;
  for (const s of list) {
    const line = { ...summaryOf(s, `shop/${s.id}.json`), project };
    const options = { dataDir: data, cacheDir: join(tmp, `${name}-cache`), entryTexts: texts?.(s) };
    pages += await prepareSession(s, line, options);
  }
  return pages;
}

let reference: Map<string, string>;
beforeAll(async () => {
  const data = writeArchive(join(tmp, 'data'), [{ id: 'shop', cwd: '/home/dev/shop', sessions: sessions() }]);
  expect(await build(data, 'reference')).toHaveLength(1);
  reference = filesOf(join(tmp, 'reference'));
});

describe('prepareSession', () => {
  it('spares the build every read, with the same pages', async () => {
    const data = writeArchive(join(tmp, 'data'), [
      { id: 'shop', cwd: '/home/dev/shop', sessions: sessions() },
    ]);
    expect(await prepare(data, 'prepared', sessions())).toBe(6);
    // Preparing again renders nothing: all is cached.
    expect(await prepare(data, 'prepared', sessions())).toBe(0);
    expect(await build(data, 'prepared')).toEqual([]);
    expect(filesOf(join(tmp, 'prepared'))).toEqual(reference);
  });

  it('makes the search index from the texts of the entries given, the same pages and index', async () => {
    const data = writeArchive(join(tmp, 'texts-data'), [
      { id: 'shop', cwd: '/home/dev/shop', sessions: sessions() },
    ]);
    expect(await prepare(data, 'texts', sessions(), 'shop', (s) => s.entries.map(entrySearchText))).toBe(6);
    expect(await build(data, 'texts')).toEqual([]);
    expect(filesOf(join(tmp, 'texts'))).toEqual(reference);
    // The texts given are those indexed (a caller gives each entry's `entrySearchText`).
    const other = writeArchive(join(tmp, 'zebra-data'), [
      { id: 'shop', cwd: '/home/dev/shop', sessions: sessions() },
    ]);
    await prepare(other, 'zebra', sessions(), 'shop', (s) =>
      s.entries.map((e) => `${entrySearchText(e)} zebra`),
    );
    await build(other, 'zebra');
    const index = [...filesOf(join(tmp, 'zebra'))].filter(([path]) => path.includes('search'));
    expect(index.some(([, text]) => text.includes('zebra'))).toBe(true);
  });

  it('is ignored for a file written again since', async () => {
    const data = join(tmp, 'stale-data');
    const old = sessions();
    old[1] = linearSession('long', 120);
    writeArchive(data, [{ id: 'shop', cwd: '/home/dev/shop', sessions: old }]);
    await prepare(data, 'stale', old);
    writeArchive(data, [{ id: 'shop', cwd: '/home/dev/shop', sessions: sessions() }]);
    expect(await build(data, 'stale')).toHaveLength(1);
    expect(filesOf(join(tmp, 'stale'))).toEqual(reference);
  });

  it('is ignored for routes the build does not assign', async () => {
    const data = writeArchive(join(tmp, 'routes-data'), [
      { id: 'shop', cwd: '/home/dev/shop', sessions: sessions() },
    ]);
    await prepare(data, 'routes', sessions(), 'Shop Two');
    // The parts are route-free and used; the transcripts, rendered for other routes, are rendered again.
    const read = await build(data, 'routes');
    expect(read).toHaveLength(1);
    expect(read[0]).toMatch(/^report: 2 session files read, 6 transcript pages rendered/);
    expect(filesOf(join(tmp, 'routes'))).toEqual(reference);
  });

  it('prepares nothing for a session that is not the line’s', async () => {
    const data = join(tmp, 'data');
    const line = { ...summaryOf(linearSession('long', 450), 'shop/long.json'), project: 'shop' };
    const other = { dataDir: data, cacheDir: join(tmp, 'other-cache') };
    expect(await prepareSession(demoSession(), line, other)).toBe(0);
  });
});
