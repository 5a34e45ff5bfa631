import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover } from '@cctrail/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { exportArchive } from '../src/archive/export-archive.js';
import { JobRunner } from '../src/runtime/job-runner.js';
import { FIXTURES, fixtureScenarios } from './helpers.js';

/**
 * What an export tells its caller while it builds the sessions (`archive/pass-events.ts`): `cctrail report` starts
 * its page threads when the last sessions are being built, and stops the export's workers once all are.
 */

const work = await mkdtemp(join(tmpdir(), 'cctrail-pass-events-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** Every session of the fixtures, selected as the commands select them. */
async function selectAll() {
  const found = await discover([FIXTURES]);
  return {
    root: found.root,
    sessions: found.projects.flatMap((p) =>
      p.sessions.map((discovered) => ({ discovered, root: found.root })),
    ),
    filters: { projects: [], sessions: [], since: null, until: null },
  };
}

describe.skipIf(fixtureScenarios().length === 0)(
  'exportArchive tells when its last sessions are built',
  () => {
    it('once, with the sessions it writes, when no more are left than are built at once', async () => {
      const selection = await selectAll();
      const total = selection.sessions.length;
      const dir = join(work, 'last');
      const skeletonCache = join(work, 'last-skeletons.json');
      const runner = new JobRunner({ CCTRAIL_WORKERS: '0' });
      expect(total).toBeGreaterThan(runner.capacity + 2);
      let built = 0;
      const progress = { tick: () => built++, done() {} };
      const told: { written: number; built: number }[] = [];
      const onLastSessions = (written: number) => told.push({ written, built });
      // Then once all are built, before the index is written (its workers may stop then).
      const onSessionsBuilt = () =>
        told.push({ written: Number(existsSync(join(dir, 'index.json'))), built });
      const events = { onLastSessions, onSessionsBuilt };
      const first = await exportArchive({
        selection,
        target: { dir },
        runner,
        progress,
        skeletonCache,
        ...events,
      });
      expect(told.slice(1)).toEqual([{ written: 0, built: total }]);
      told.pop();
      // Every session is new: each is written (the outcome counts the index too).
      expect(told[0]!.written).toBe(total);
      expect(first.written).toBe(total + 1);
      // Told while the last sessions were being built, not before nor once all were.
      expect(told[0]!.built).toBeLessThan(total);
      expect(total - told[0]!.built).toBeLessThanOrEqual(runner.capacity + 1);
      // Nothing to build: told at once, that nothing is written.
      built = 0;
      told.length = 0;
      await exportArchive({ selection, target: { dir }, runner, progress, skeletonCache, onLastSessions });
      expect(told).toEqual([{ written: 0, built: 0 }]);
    });
  },
);
