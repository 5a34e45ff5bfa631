import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover } from '@cctrail/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import type { Filters, SelectedSession } from '../src/input/input.js';
import { JobRunner } from '../src/runtime/job-runner.js';
import type { Job } from '../src/runtime/jobs.js';
import { buildSkeletons } from '../src/sessions/skeletons.js';
import { FIXTURES, fixtureScenarios } from './helpers.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-skeletons-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

const NO_FILTERS: Filters = { projects: [], sessions: [], since: null, until: null };
const quiet = { tick() {}, done() {} };

/** A runner in this thread that counts the sessions it builds. */
function countingRunner() {
  const runner = new JobRunner({ CCTRAIL_WORKERS: '0' });
  const built: string[] = [];
  const run = runner.run.bind(runner);
  runner.run = ((job: Job) => {
    if (job.kind !== 'keep') built.push(job.input.discovered.id);
    return run(job);
  }) as JobRunner['run'];
  return { runner, built };
}

/** `buildSkeletons`, once its cache file is written (it is written while a caller combines the skeletons). */
async function builtAndSaved(...args: Parameters<typeof buildSkeletons>) {
  const skeletons = await buildSkeletons(...args);
  await skeletons.saved;
  return skeletons;
}

/** The sessions found in `root`, each selected with it. */
async function sessionsIn(root: string): Promise<SelectedSession[]> {
  return (await discover([root])).projects.flatMap((p) =>
    p.sessions.map((discovered) => ({ discovered, root })),
  );
}

/** The fixtures copied into a folder of the work folder, and the sessions found there. */
async function copiedFixtures(name: string): Promise<SelectedSession[]> {
  const root = join(work, name);
  await cp(FIXTURES, root, { recursive: true });
  return sessionsIn(root);
}

describe.skipIf(fixtureScenarios().length === 0)('buildSkeletons with a cache file', () => {
  it('reads again only the sessions whose files changed, with the same result', async () => {
    const root = join(work, 'projects');
    await cp(FIXTURES, root, { recursive: true });
    const select = () => sessionsIn(root);
    const cacheFile = join(work, 'skeletons.json');

    const first = countingRunner();
    const before = await builtAndSaved(await select(), NO_FILTERS, quiet, first.runner, cacheFile);
    expect(first.built.length).toBe(before.sessions.length);
    expect(Object.keys(JSON.parse(await readFile(cacheFile, 'utf8')).skeletons)).toHaveLength(
      before.sessions.length,
    );

    const second = countingRunner();
    const again = await builtAndSaved(await select(), NO_FILTERS, quiet, second.runner, cacheFile);
    expect(second.built).toEqual([]);
    expect(again.sessions).toEqual(before.sessions);

    // One transcript grows: that session alone is read again, and its skeleton follows the change.
    const changed = before.sessions.find((s) => s.digest.stats.entries > 1)!;
    const file = (await select()).find((s) => s.discovered.id === changed.id)!.discovered.mainFile!;
    await appendFile(file, '\n{"type":"summary","summary":"later","leafUuid":"x"}\n');
    const third = countingRunner();
    const after = await builtAndSaved(await select(), NO_FILTERS, quiet, third.runner, cacheFile);
    expect(third.built).toEqual([changed.id]);
    const now = after.sessions.find((s) => s.id === changed.id)!;
    expect(now.digest.stats.lines).toBe(changed.digest.stats.lines + 2);

    // A damaged line costs its session a new build, and only that.
    const lines = (await readFile(cacheFile, 'utf8')).split('\n');
    const damaged = lines.findIndex((line) => line.includes(`"id":${JSON.stringify(changed.id)}`));
    expect(damaged).toBeGreaterThan(0);
    lines[damaged] = `${lines[damaged]!.slice(0, 80)}…`;
    await writeFile(cacheFile, lines.join('\n'));
    const fourth = countingRunner();
    const repaired = await builtAndSaved(await select(), NO_FILTERS, quiet, fourth.runner, cacheFile);
    expect(fourth.built).toEqual([changed.id]);
    expect(repaired.sessions).toEqual(after.sessions);
    expect(await readFile(cacheFile, 'utf8')).not.toContain('…');
  });

  it('keeps the skeletons of sessions a run did not select only when told to', async () => {
    const all = await copiedFixtures('partial');
    const cacheFile = join(work, 'partial.json');
    const entries = async () => Object.keys(JSON.parse(await readFile(cacheFile, 'utf8')).skeletons).length;
    await builtAndSaved(all, NO_FILTERS, quiet, countingRunner().runner, cacheFile);
    expect(await entries()).toBe(all.length);

    // One session, its file changed: its skeleton is replaced, the others stay.
    const one = all.find((s) => s.discovered.mainFile !== null)!;
    await appendFile(one.discovered.mainFile!, '\n');
    const partial = countingRunner();
    await builtAndSaved([one], NO_FILTERS, quiet, partial.runner, cacheFile, { keepOthers: true });
    expect(partial.built).toEqual([one.discovered.id]);
    expect(await entries()).toBe(all.length);
    const again = countingRunner();
    await builtAndSaved(all, NO_FILTERS, quiet, again.runner, cacheFile);
    expect(again.built).toEqual([]);

    // Without `keepOthers`, the file keeps that run's sessions only.
    await builtAndSaved([one], NO_FILTERS, quiet, countingRunner().runner, cacheFile);
    expect(await entries()).toBe(1);
  });

  it("keys the cache by the caller's keys when it has them, and asks for each once", async () => {
    const all = await copiedFixtures('keyed');
    const cacheFile = join(work, 'keyed.json');
    const asked: number[] = [];
    const keyOf = (index: number) => {
      asked.push(index);
      return `key-${index}`;
    };
    await builtAndSaved(all, NO_FILTERS, quiet, countingRunner().runner, cacheFile, { keyOf });
    expect(asked.sort((a, b) => a - b)).toEqual(all.map((_, index) => index));
    const keys = Object.keys(JSON.parse(await readFile(cacheFile, 'utf8')).skeletons);
    expect(keys.sort()).toEqual(all.map((_, index) => `key-${index}`).sort());
    // The same keys find every skeleton again.
    const again = countingRunner();
    await builtAndSaved(all, NO_FILTERS, quiet, again.runner, cacheFile, { keyOf });
    expect(again.built).toEqual([]);
  });
});
