import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../src/build/build.js';
import { PackWriter } from '../src/build/packs.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * A rebuild merges the transcript index from what the last build kept (`build/search-state.ts`): the terms of the
 * sessions that did not change, and the digests of their files of entries. Its files must be those a build from
 * nothing writes.
 */

const tmp = tempFolder('cctrail-search-rebuild-');
const dataDir = join(tmp, 'data');
const site = join(tmp, 'site');

function archive(): void {
  writeArchive(dataDir, [
    {
      id: 'shop',
      cwd: '/home/dev/shop',
      sessions: [linearSession('alpha', 140), linearSession('beta', 300), demoSession()],
    },
  ]);
}

/** The files of the transcript index in a site, by path. */
function searchFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const folder = join(dir, '_cctrail', 'search');
  for (const name of readdirSync(folder).sort()) files.set(name, readFileSync(join(folder, name), 'utf8'));
  files.set('search-index.js', readFileSync(join(dir, '_cctrail', 'search-index.js'), 'utf8'));
  return files;
}

/** The names of a pack's entries, from its index (`build/packs.ts`: the index, its length, 8 bytes of magic). */
function packNames(file: string): string[] {
  const bytes = readFileSync(file);
  const length = bytes.readUInt32LE(bytes.length - 12);
  const index = bytes.subarray(bytes.length - 12 - length, bytes.length - 12).toString('utf8');
  return (JSON.parse(index) as [string, number, number][]).map(([name]) => name);
}

/** The files a build without a cache writes for the archive as it is now. */
async function fromNothing(name: string): Promise<Map<string, string>> {
  const out = join(tmp, name);
  await buildReport({ dataDir, outDir: out, cacheDir: false });
  return searchFiles(out);
}

describe('the transcript index of a rebuild', () => {
  it('reads no piece when no session changed', async () => {
    archive();
    const out = join(tmp, 'site-0');
    await buildReport({ dataDir, outDir: out });
    const cache = join(out, '.cctrail-cache');
    const pieces = readdirSync(join(cache, 'packs')).flatMap((f) =>
      packNames(join(cache, 'packs', f)).filter((n) => n.endsWith('-search')),
    );
    expect(pieces).toHaveLength(3);
    // Pieces said to have nothing to search: a rebuild that read them again would drop every entry.
    for (const piece of pieces) {
      const key = piece.slice(0, piece.indexOf('-'));
      const pack = new PackWriter(cache, key);
      for (const name of packNames(join(cache, 'packs', `${key}.pack`))) if (name !== piece) pack.keep(name);
      pack.put(piece, brotliCompressSync('null'));
      pack.commit();
    }
    await buildReport({ dataDir, outDir: out });
    const rebuilt = searchFiles(out);
    expect([...rebuilt.values()].some((text) => text.includes('Prompt number 138'))).toBe(true);
    expect(rebuilt).toEqual(await fromNothing('cold-0'));
  });

  it('is what a build from nothing writes after a session changed', async () => {
    await buildReport({ dataDir, outDir: site });
    // beta has more entries (its file alone is written again): the entries after its own are numbered anew.
    writeFileSync(join(dataDir, 'shop', 'beta.json'), JSON.stringify(linearSession('beta', 330)));
    await buildReport({ dataDir, outDir: site });
    const rebuilt = searchFiles(site);
    expect([...rebuilt.values()].some((text) => text.includes('Prompt number 328'))).toBe(true);
    expect(rebuilt).toEqual(await fromNothing('cold-1'));
  });

  it('writes again a file of entries the output folder lost, as a build from nothing writes it', async () => {
    const lost = [...searchFiles(site).keys()].filter((name) => /^e[0-9a-f]+-\d+\.js$/.test(name));
    expect(lost.length).toBeGreaterThan(3);
    for (const name of lost) rmSync(join(site, '_cctrail', 'search', name));
    await buildReport({ dataDir, outDir: site });
    expect(searchFiles(site)).toEqual(await fromNothing('cold-2'));
  });
});
