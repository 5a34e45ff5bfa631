import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { SkeletonCache } from '../src/runtime/skeleton-cache.js';
import type { Skeleton } from '../src/sessions/skeleton.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-skeleton-cache-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** A skeleton as the cache sees it (it keeps the JSON text and checks only the id). */
const skeleton = (id: string): Skeleton =>
  ({ id, project: 'p', notATranscript: false, diagnostics: [] }) as never;

/** Keys spread over blocks `a` (two), `b` and `c`: the block is the key's first hex digit. */
const KEYS = { a1: 'a1'.padEnd(64, '0'), a2: 'a2'.padEnd(64, '0'), b1: 'b1'.padEnd(64, '0') };

async function filled(dir: string): Promise<void> {
  const cache = await SkeletonCache.openBlocks(dir);
  for (const [id, key] of Object.entries(KEYS)) cache.put(key, skeleton(id));
  await cache.save();
}

const blockText = (file: string) => brotliDecompressSync(readFileSync(file)).toString('utf8');

describe('SkeletonCache in blocks', () => {
  it('keeps each skeleton in the block of its key, and reads them all back', async () => {
    const dir = join(work, 'round-trip');
    await filled(dir);
    expect(readdirSync(dir).sort()).toEqual(['a.json.br', 'b.json.br']);
    expect(blockText(join(dir, 'a.json.br'))).toContain('"id":"a2"');
    const again = await SkeletonCache.openBlocks(dir);
    for (const [id, key] of Object.entries(KEYS)) expect(again.get(key)?.id).toBe(id);
    expect(again.get('c'.padEnd(64, '0'))).toBeUndefined();
  });

  it('rewrites only the blocks whose skeletons changed', async () => {
    const dir = join(work, 'changed');
    await filled(dir);
    // Block b holds the same skeleton in other bytes (another quality): kept as it is unless written again.
    const b = join(dir, 'b.json.br');
    const other = brotliCompressSync(brotliDecompressSync(readFileSync(b)), {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    });
    writeFileSync(b, other);
    const a = readFileSync(join(dir, 'a.json.br'));
    // A run where session a2 changed: its old key goes, its new one (block c) comes; a1 and b1 are unchanged.
    const cache = await SkeletonCache.openBlocks(dir);
    expect(cache.get(KEYS.a1)?.id).toBe('a1');
    expect(cache.get(KEYS.b1)?.id).toBe('b1');
    const moved = 'c2'.padEnd(64, '0');
    cache.put(moved, skeleton('a2'));
    await cache.save();
    expect(readFileSync(b)).toEqual(other);
    expect(readFileSync(join(dir, 'a.json.br'))).not.toEqual(a);
    expect(blockText(join(dir, 'a.json.br'))).not.toContain('"id":"a2"');
    expect(blockText(join(dir, 'c.json.br'))).toContain('"id":"a2"');
    const again = await SkeletonCache.openBlocks(dir);
    expect(again.get(KEYS.a2)).toBeUndefined();
    expect(again.get(moved)?.id).toBe('a2');
  });

  it('removes a block that keeps nothing, and a damaged one', async () => {
    const dir = join(work, 'emptied');
    await filled(dir);
    writeFileSync(join(dir, 'f.json.br'), 'not brotli');
    const cache = await SkeletonCache.openBlocks(dir);
    cache.get(KEYS.a1);
    cache.get(KEYS.a2);
    await cache.save();
    expect(readdirSync(dir)).toEqual(['a.json.br']);
  });

  it('reads the one file of an earlier version once, then keeps blocks only', async () => {
    const dir = join(work, 'upgraded');
    const legacy = join(work, 'skeletons.json.br');
    const old = await SkeletonCache.open(legacy);
    for (const [id, key] of Object.entries(KEYS)) old.put(key, skeleton(id));
    await old.save();
    expect(existsSync(legacy)).toBe(true);
    const cache = await SkeletonCache.openBlocks(dir, legacy);
    for (const [id, key] of Object.entries(KEYS)) expect(cache.get(key)?.id).toBe(id);
    await cache.save();
    expect(existsSync(legacy)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['a.json.br', 'b.json.br']);
    const again = await SkeletonCache.openBlocks(dir, legacy);
    expect(again.get(KEYS.b1)?.id).toBe('b1');
  });

  it('reads any text of a skeleton back as it was, writes it again byte for byte, and passes over a damaged line', async () => {
    const dir = join(work, 'texts');
    // Text of every width, a quote and a colon, a comma at the end: none of them ends a skeleton.
    const odd = { ...skeleton('a1'), project: 'é 中文 🙂 "x": ,', diagnostics: [{ message: 'ends with,' }] };
    const first = await SkeletonCache.openBlocks(dir);
    first.put(KEYS.a1, odd as never);
    first.put(KEYS.b1, skeleton('b1'));
    await first.save();
    const written = blockText(join(dir, 'a.json.br'));
    // A damaged line between two skeletons.
    const damaged = written.replace('\n"a1', `\n"${'a3'.padEnd(64, '0')}":{"id":\n"a1`);
    writeFileSync(join(dir, 'a.json.br'), brotliCompressSync(damaged));
    const cache = await SkeletonCache.openBlocks(dir);
    expect(cache.get(KEYS.a1)).toEqual(odd);
    expect(cache.get('a3'.padEnd(64, '0'))).toBeUndefined();
    expect(cache.get(KEYS.b1)?.id).toBe('b1');
    // Block a is written again (a2 built into it): a1 goes as it was read.
    cache.put(KEYS.a2, skeleton('a2'));
    await cache.save();
    const again = blockText(join(dir, 'a.json.br'));
    const line = (text: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith(`"${KEYS.a1}"`))
        ?.replace(/,$/, '');
    expect(line(again)).toBe(line(written));
  });
});

describe('SkeletonCache in one file', () => {
  it('writes one JSON document: every skeleton under its key, in the order of the keys, one a line', async () => {
    const file = join(work, 'one', 'skeletons.json');
    const cache = await SkeletonCache.open(file);
    // Put out of order: the file holds them sorted.
    for (const id of ['b1', 'a2', 'a1'] as const) cache.put(KEYS[id], skeleton(id));
    await cache.save();
    const text = readFileSync(file, 'utf8');
    const document = JSON.parse(text) as { schemaVersion: number; skeletons: Record<string, Skeleton> };
    expect(document.schemaVersion).toBe(1);
    expect(Object.entries(document.skeletons).map(([key, s]) => [key, s.id])).toEqual([
      [KEYS.a1, 'a1'],
      [KEYS.a2, 'a2'],
      [KEYS.b1, 'b1'],
    ]);
    expect(text.split('\n')).toHaveLength(6);
    const again = await SkeletonCache.open(file);
    for (const [id, key] of Object.entries(KEYS)) expect(again.get(key)?.id).toBe(id);
  });
});
