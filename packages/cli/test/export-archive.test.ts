import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover } from '@cctrail/core';
import { afterAll, describe, expect, it } from 'vitest';
import { exportArchive } from '../src/archive/export-archive.js';
import type { Selection } from '../src/input.js';
import { JobRunner } from '../src/runtime/job-runner.js';
import { fixtureScenarios } from './helpers.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-archive-writer-'));
afterAll(() => rm(work, { recursive: true, force: true }));

describe.skipIf(fixtureScenarios().length === 0)('exportArchive', () => {
  it('writes where its relative folders pointed when it started, though the working directory then changes', async () => {
    // The report's site builder changes directory once the layout is planned, while sessions are written.
    const scenario = fixtureScenarios()[0]!;
    const found = await discover([scenario]);
    const selection: Selection = {
      root: found.root,
      sessions: found.projects.flatMap((p) =>
        p.sessions.map((discovered) => ({ discovered, root: found.root })),
      ),
      filters: { projects: [], sessions: [], since: null, until: null },
    };
    const elsewhere = join(work, 'elsewhere');
    await mkdir(elsewhere);
    const previous = process.cwd();
    process.chdir(work);
    try {
      const outcome = await exportArchive({
        selection,
        target: { dir: 'out' },
        runner: new JobRunner({ CCTRAIL_WORKERS: '0' }),
        progress: { tick() {}, done() {} },
        skeletonCache: join('cache', 'skeletons.json'),
        onPlanned: () => process.chdir(elsewhere),
      });
      expect(outcome.written).toBeGreaterThan(0);
    } finally {
      process.chdir(previous);
    }
    expect(existsSync(join(work, 'out', 'index.json'))).toBe(true);
    expect(existsSync(join(work, 'cache', 'skeletons.json'))).toBe(true);
    expect(await readdir(elsewhere)).toEqual([]);
  });
});
