import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSession, discover, type Session, sessionSource } from '@cctrail/core';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionChunks, writeChunksIfChanged } from '../src/session-text.js';
import { FIXTURES, fixtureScenarios } from './helpers.js';

const dir = await mkdtemp(join(tmpdir(), 'cctrail-text-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('sessionChunks', () => {
  it.skipIf(fixtureScenarios().length === 0)(
    'gives exactly JSON.stringify(session) for every fixture',
    async () => {
      const discovery = await discover([FIXTURES]);
      let count = 0;
      for (const project of discovery.projects) {
        for (const found of project.sessions) {
          const session = await buildSession(await sessionSource(found));
          expect([...sessionChunks(session)].join('')).toBe(`${JSON.stringify(session)}\n`);
          count++;
        }
      }
      expect(count).toBeGreaterThan(0);
    },
  );

  it('handles empty lists, undefined fields and an empty object', () => {
    const odd = { a: [], entries: [], metadata: [1, undefined], b: undefined, c: 'x' } as unknown as Session;
    expect([...sessionChunks(odd)].join('')).toBe(`${JSON.stringify(odd)}\n`);
    expect([...sessionChunks({} as Session)].join('')).toBe('{}\n');
  });
});

describe('writeChunksIfChanged', () => {
  it('writes, keeps identical bytes untouched, rewrites changed ones, leaves no temporary file', async () => {
    const file = join(dir, 'sub', 's.json');
    const text = (n: number) => ['{"x":', String(n), ',"long":"', 'é'.repeat(1 << 20), '"}\n'];
    expect(await writeChunksIfChanged(file, text(1))).toBe('written');
    const first = await stat(file);
    expect(await writeChunksIfChanged(file, text(1))).toBe('unchanged');
    expect((await stat(file)).mtimeMs).toBe(first.mtimeMs);
    expect(await writeChunksIfChanged(file, text(2))).toBe('written');
    expect((await readFile(file, 'utf8')).startsWith('{"x":2,')).toBe(true);
    expect(await readdir(join(dir, 'sub'))).toEqual(['s.json']);
  });
});
