import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSession, discover, sessionSource } from '@cctrail/core';
import { afterAll, describe, expect, it } from 'vitest';
import { displayPath } from '../src/display.js';
import { runJob } from '../src/jobs.js';
import { writeChunksIfChanged } from '../src/session-text.js';
import { FIXTURES, fixtureScenarios } from './helpers.js';

const dir = await mkdtemp(join(tmpdir(), 'cctrail-text-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('export job', () => {
  it.skipIf(fixtureScenarios().length === 0)(
    'writes every fixture exactly as JSON.stringify of the session built with content',
    async () => {
      const discovery = await discover([FIXTURES]);
      let count = 0;
      for (const project of discovery.projects) {
        for (const found of project.sessions) {
          const full = await buildSession(await sessionSource(found, (path) => displayPath(FIXTURES, path)));
          // Whole, and without content (read back from the transcript while writing).
          for (const leanAboveBytes of [Number.POSITIVE_INFINITY, 0]) {
            const result = await runJob({
              kind: 'export',
              input: { discovered: found, root: FIXTURES },
              duplicateOf: null,
              file: 'sessions/p/s.json',
              privacy: { redact: false, shortHome: false },
              dir: null,
              leanAboveBytes,
            });
            expect(result.text?.join('')).toBe(`${JSON.stringify(full)}\n`);
          }
          count++;
        }
      }
      expect(count).toBeGreaterThan(0);
    },
  );
});

describe('export job with privacy options', () => {
  const hostile = join(FIXTURES, 'hostile-content');
  it.skipIf(!existsSync(hostile))(
    'redacts the same way whole and without content, index line included',
    async () => {
      const [found] = (await discover([hostile])).projects.flatMap((p) => p.sessions);
      const results = [];
      for (const leanAboveBytes of [Number.POSITIVE_INFINITY, 0]) {
        results.push(
          await runJob({
            kind: 'export',
            input: { discovered: found!, root: hostile },
            duplicateOf: null,
            file: 'sessions/p/s.json',
            privacy: { redact: true, shortHome: true },
            dir: null,
            leanAboveBytes,
          }),
        );
      }
      const [whole, lean] = results;
      expect(lean).toEqual(whole);
      expect(whole!.redacted).toBeGreaterThanOrEqual(10);
      const text = whole!.text!.join('');
      expect(text).toContain('[REDACTED:');
      expect(text).not.toContain('/home/dev/');
      expect(JSON.stringify(whole!.summary)).not.toMatch(/sk-ant-|\/home\/dev\//);
    },
  );
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
