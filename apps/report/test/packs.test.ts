import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneCache } from '../src/build/cache.js';
import { hasEntry, PackWriter, readEntries, readEntry } from '../src/build/packs.js';
import type { SiteManifest } from '../src/views/site/site-model.js';
import { tempFolder } from './helpers/temp.js';

/** The build cache's packs: one file per session version, written whole and renamed, read by entry name. */

const tmp = tempFolder('cctrail-packs-');
const A = 'aaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbb';
const bytes = (text: string) => Buffer.from(text, 'utf8');
const text = (b: Buffer | null) => b?.toString('utf8') ?? null;

function write(cache: string, key: string, entries: Record<string, string>, keep: string[] = []): void {
  const pack = new PackWriter(cache, key);
  for (const name of keep) pack.keep(name);
  for (const [name, value] of Object.entries(entries)) pack.put(name, bytes(value));
  pack.commit();
}

describe('packs', () => {
  it('are one file per session, read back by name, missing entries read as null', () => {
    const cache = join(tmp, 'read');
    write(cache, A, { [`${A}.part`]: '{"p":1}', [`${A}-x-main-1.html`]: 'é'.repeat(3000) });
    write(cache, B, { [`${B}-x-search`]: 'null' });
    expect(readdirSync(join(cache, 'packs')).sort()).toEqual([`${A}.pack`, `${B}.pack`]);
    expect(text(readEntry(cache, `${A}.part`))).toBe('{"p":1}');
    expect(readEntries(cache, [`${A}-x-main-1.html`, `${A}-x-main-1.cuts`]).map(text)).toEqual([
      'é'.repeat(3000),
      null,
    ]);
    expect(hasEntry(cache, `${B}-x-search`)).toBe(true);
    expect(hasEntry(cache, `${B}.part`)).toBe(false);
    expect(hasEntry(cache, 'cccccccccccccccc.part')).toBe(false);
  });

  it('are complete or absent: nothing is read before the commit, an aborted or cut pack is not read', () => {
    const cache = join(tmp, 'atomic');
    const pack = new PackWriter(cache, A);
    pack.put(`${A}.part`, bytes('{}'));
    expect(hasEntry(cache, `${A}.part`)).toBe(false);
    pack.abort();
    expect(readdirSync(join(cache, 'packs'))).toEqual([]);
    write(cache, A, { [`${A}.part`]: '{}', [`${A}-x-main-1.meta`]: 'meta' });
    const file = join(cache, 'packs', `${A}.pack`);
    const whole = readFileSync(file);
    // As a write cut short would leave it (the index and its mark are last).
    writeFileSync(file, whole.subarray(0, whole.length - 3));
    expect(hasEntry(cache, `${A}.part`)).toBe(false);
    expect(readEntry(cache, `${A}-x-main-1.meta`)).toBeNull();
    expect(() => new PackWriter(cache, A).put(`${B}.part`, bytes('{}'))).toThrow(/not of the pack/);
  });

  it('keep the entries asked for when written again, and are not written when nothing is put', () => {
    const cache = join(tmp, 'keep');
    write(cache, A, { [`${A}.part`]: 'part', [`${A}-old-main-1.html`]: 'old', [`${A}-x-main-1.html`]: 'x' });
    const file = join(cache, 'packs', `${A}.pack`);
    const first = statSync(file);
    const unchanged = new PackWriter(cache, A);
    expect(unchanged.keep(`${A}.part`)).toBe(true);
    expect(unchanged.keep(`${A}-y-main-1.html`)).toBe(false);
    unchanged.commit();
    expect(statSync(file).ino).toBe(first.ino);
    write(cache, A, { [`${A}-y-main-1.html`]: 'y', [`${A}-x-main-1.html`]: 'x2' }, [
      `${A}.part`,
      `${A}-x-main-1.html`,
    ]);
    expect(statSync(file).ino).not.toBe(first.ino);
    expect(text(readEntry(cache, `${A}.part`))).toBe('part');
    expect(text(readEntry(cache, `${A}-x-main-1.html`))).toBe('x2');
    expect(text(readEntry(cache, `${A}-y-main-1.html`))).toBe('y');
    expect(hasEntry(cache, `${A}-old-main-1.html`)).toBe(false);
    expect(readdirSync(join(cache, 'packs'))).toEqual([`${A}.pack`]);
  });

  it('are pruned when their session left, with temporaries of stopped writers and the files of before packs', () => {
    const cache = join(tmp, 'prune');
    write(cache, A, { [`${A}.part`]: 'a' });
    write(cache, B, { [`${B}.part`]: 'b' });
    const packs = join(cache, 'packs');
    // A process id above the kernel's largest (4194304) runs nowhere.
    writeFileSync(join(packs, `${A}.pack.tmp-9999999`), 'cut');
    writeFileSync(join(packs, `${A}.pack.tmp-${process.pid}`), 'being written');
    for (const folder of ['parts', 'fragments']) {
      mkdirSync(join(cache, folder), { recursive: true });
      writeFileSync(join(cache, folder, `${A}.json`), '{}');
    }
    writeFileSync(join(cache, 'search-index.json'), '{}');
    // What the cache does not name as its own is left: a folder and a file put there by hand.
    mkdirSync(join(packs, 'kept by hand'));
    writeFileSync(join(packs, 'notes.txt'), 'mine');
    writeFileSync(join(cache, 'parts', 'notes.txt'), 'mine');
    const manifest = { projects: [{ sessions: [{ key: A }] }] } as unknown as SiteManifest;
    pruneCache(cache, manifest);
    expect(readdirSync(packs).sort()).toEqual([
      `${A}.pack`,
      `${A}.pack.tmp-${process.pid}`,
      'kept by hand',
      'notes.txt',
    ]);
    expect(readdirSync(join(cache, 'parts'))).toEqual(['notes.txt']);
    expect(readdirSync(join(cache, 'fragments'))).toEqual([]);
    expect(existsSync(join(cache, 'search-index.json'))).toBe(true);
  });
});
