import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownTemporary, removeTemporaries } from '../src/runtime/temporaries.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-temporaries-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

describe('removeTemporaries', () => {
  it('sweeps a shallow folder at its top level only, the others all the way down', () => {
    const own = `.tmp-${process.pid}`;
    const site = join(work, 'site');
    const cache = join(work, 'cache');
    for (const dir of [join(site, 's', 'p'), join(cache, 'archive')]) mkdirSync(dir, { recursive: true });
    const planted = [
      join(site, `.cctrail-report.json${own}`),
      join(site, 's', 'p', `index.html${own}`),
      join(cache, 'archive', `index.json${own}`),
      join(cache, `other.json.tmp-${process.pid + 1}`),
    ];
    for (const file of planted) writeFileSync(file, 'torn');
    expect(removeTemporaries([site, cache], ownTemporary, [site])).toBe(2);
    expect(planted.map((file) => existsSync(file))).toEqual([false, true, false, true]);
    expect(removeTemporaries([site, cache], ownTemporary)).toBe(1);
    expect(existsSync(planted[1]!)).toBe(false);
  });
});
