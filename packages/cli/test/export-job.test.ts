import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildSession, discover, sessionSource } from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import { displayPath } from '../src/display.js';
import { runJob } from '../src/jobs.js';
import { FIXTURES, fixtureScenarios } from './helpers.js';

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
