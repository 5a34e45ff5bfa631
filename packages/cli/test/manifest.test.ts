import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readManifest } from '../src/archive/manifest.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-manifest-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

const record = (kept: string, superseded?: string[]) => ({
  kept,
  size: 1,
  sha256: 'x',
  mtimeMs: 1,
  origin: '/p',
  seenAt: '2026-11-26',
  ...(superseded ? { superseded } : {}),
});

describe('readManifest', () => {
  it('takes only records that name their own kept file and superseded versions (manifests of inputs are data)', async () => {
    await writeFile(
      join(work, 'manifest.json'),
      JSON.stringify({
        schemaVersion: 1,
        sources: {
          'p/ok.jsonl': record('sources/p/ok.jsonl.gz', ['superseded/p/ok.jsonl.2026-11-01.gz']),
          'p/index.jsonl': record('index.json'),
          'p/up.jsonl': record('sources/../../outside.gz'),
          'p/other.jsonl': record('sources/p/ok.jsonl.gz'),
          'p/sup.jsonl': record('sources/p/sup.jsonl.gz', ['sessions/p/x.json']),
          ['__proto__']: record('sources/__proto__.gz'),
        },
        files: { 'index.json': { size: 1, sha256: 'y' }, bad: { size: 'no' } },
      }),
    );
    const manifest = await readManifest(work);
    // A path named like a prototype is an ordinary key.
    expect(Object.keys(manifest.sources)).toEqual(['p/ok.jsonl', '__proto__']);
    expect(Object.keys(manifest.files)).toEqual(['index.json']);
    expect(Object.getPrototypeOf(manifest.sources)).toBeNull();
  });
});
