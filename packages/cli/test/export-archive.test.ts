import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { discover } from '@cctrail/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionKey } from '../src/archive/archive-input.js';
import { exportArchive } from '../src/archive/export-archive.js';
import type { Selection } from '../src/input/input.js';
import { JobRunner } from '../src/runtime/job-runner.js';
import type { Job } from '../src/runtime/jobs.js';
import { fixtureScenarios } from './helpers.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-archive-writer-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

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

/** The sessions under a folder, selected as the commands select them. */
async function selectAll(root: string, filters: Partial<Selection['filters']> = {}): Promise<Selection> {
  const found = await discover([root]);
  return {
    root: found.root,
    sessions: found.projects.flatMap((p) =>
      p.sessions.map((discovered) => ({ discovered, root: found.root })),
    ),
    filters: { projects: [], sessions: [], since: null, until: null, ...filters },
  };
}

/** A runner in this thread that records the session of every job it runs (in a worker or here). */
function countingRunner() {
  const runner = new JobRunner({ CCTRAIL_WORKERS: '0' });
  const jobs: string[] = [];
  const record = (job: Job) => {
    // Keeping sources is not a read of a session.
    if (job.kind !== 'keep') jobs.push(`${job.kind} ${job.input.discovered.id}`);
  };
  const run = runner.run.bind(runner);
  runner.run = ((job: Job) => {
    record(job);
    return run(job);
  }) as JobRunner['run'];
  const runHere = runner.runHere.bind(runner);
  runner.runHere = ((job: Job) => {
    record(job);
    return runHere(job);
  }) as JobRunner['runHere'];
  return { runner, jobs };
}

const quiet = { tick() {}, done() {} };

/** Every file under a folder (but the export state) with its text, by relative path. */
async function folderText(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === '.cctrail-state.json' || entry.name === 'manifest.json') continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length)] = await readFile(path, 'utf8');
  }
  return out;
}

describe.skipIf(fixtureScenarios().length === 0)('exportArchive reads each session once', () => {
  const duplicates = fixtureScenarios().find((s) => s.endsWith('duplicates'))!;

  it('runs one export job per session, and none for unchanged sessions whose skeletons are cached', async () => {
    const selection = await selectAll(duplicates);
    const dir = join(work, 'once');
    const skeletonCache = join(work, 'once-skeletons.json');
    const first = countingRunner();
    const written = await exportArchive({
      selection,
      target: { dir },
      runner: first.runner,
      progress: quiet,
      skeletonCache,
    });
    expect(first.jobs.sort()).toEqual(selection.sessions.map((s) => `export ${s.discovered.id}`).sort());
    expect(written.sessions.some((s) => s.digest.stats.duplicateOf !== null)).toBe(true);
    const again = countingRunner();
    const kept = await exportArchive({
      selection,
      target: { dir },
      runner: again.runner,
      progress: quiet,
      skeletonCache,
    });
    expect(again.jobs).toEqual([]);
    expect(kept.unchanged).toBe(selection.sessions.length + 1);
    expect(kept.index).toEqual(written.index);
    // Without a skeleton cache, an unchanged session is read for its skeleton only.
    const uncached = countingRunner();
    await exportArchive({ selection, target: { dir }, runner: uncached.runner, progress: quiet });
    expect(uncached.jobs.sort()).toEqual(selection.sessions.map((s) => `skeleton ${s.discovered.id}`).sort());
  });

  it('marks duplicates in the index alone when a session containing them appears, as a fresh export does', async () => {
    const input = join(work, 'growing');
    await cp(duplicates, input, { recursive: true });
    const files = (await selectAll(input)).sessions.map((s) => s.discovered.mainFile!);
    // The largest session contains the others: without it, none is a duplicate.
    const sizes = await Promise.all(files.map(async (f) => (await readFile(f)).length));
    const largest = files[sizes.indexOf(Math.max(...sizes))]!;
    const held = join(work, 'held.jsonl');
    await rename(largest, held);
    const dir = join(work, 'growing-archive');
    const before = await exportArchive({
      selection: await selectAll(input),
      target: { dir },
      runner: countingRunner().runner,
      progress: quiet,
    });
    expect(before.sessions.every((s) => s.digest.stats.duplicateOf === null)).toBe(true);
    await rename(held, largest);
    const counting = countingRunner();
    const after = await exportArchive({
      selection: await selectAll(input),
      target: { dir },
      runner: counting.runner,
      progress: quiet,
    });
    expect(after.sessions.some((s) => s.digest.stats.duplicateOf !== null)).toBe(true);
    // Only the session that came back is written, and the index: its duplicates' files hold nothing that changed.
    expect(after.written).toBe(2);
    expect(after.unchanged).toBe(before.written - 1);
    const fresh = join(work, 'growing-fresh');
    await exportArchive({
      selection: await selectAll(input),
      target: { dir: fresh },
      runner: countingRunner().runner,
      progress: quiet,
    });
    expect(await folderText(dir)).toEqual(await folderText(fresh));
    // A stream gives the same sessions, each on one line, then the index.
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    await exportArchive({
      selection: await selectAll(input),
      target: { stream },
      runner: countingRunner().runner,
      progress: quiet,
    });
    const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
    const sessions = Object.entries(await folderText(fresh)).filter(([name]) => name.includes('sessions/'));
    expect(lines.slice(0, -1).sort()).toEqual(sessions.map(([, text]) => text.trimEnd()).sort());
  });

  it('gives a session the same name whatever sessions the time filters keep', async () => {
    // Two ids that differ only in case: the second one needs a suffix, also when the first is filtered out.
    const input = join(work, 'names', 'project');
    await mkdir(input, { recursive: true });
    const line = (uuid: string, sessionId: string, timestamp: string) =>
      JSON.stringify({
        type: 'user',
        uuid,
        parentUuid: null,
        sessionId,
        timestamp,
        message: { role: 'user', content: 'hi' },
      });
    await writeFile(join(input, 'Ab.jsonl'), `${line('u1', 'Ab', '2020-01-01T00:00:00Z')}\n`);
    await writeFile(join(input, 'ab.jsonl'), `${line('u2', 'ab', '2025-01-01T00:00:00Z')}\n`);
    const dir = join(work, 'names-archive');
    const all = await exportArchive({
      selection: await selectAll(input),
      target: { dir: join(work, 'names-all') },
      runner: countingRunner().runner,
      progress: quiet,
    });
    expect(all.index.projects[0]!.sessions.map((s) => s.file)).toEqual([
      'sessions/project/Ab.json',
      expect.stringMatching(/^sessions\/project\/ab-[0-9a-f]{8}\.json$/),
    ]);
    const since = Date.parse('2024-01-01');
    const counting = countingRunner();
    const some = await exportArchive({
      selection: await selectAll(input, { since }),
      target: { dir },
      runner: counting.runner,
      progress: quiet,
    });
    expect(counting.jobs.sort()).toEqual(['export Ab', 'export ab']);
    const named = all.index.projects[0]!.sessions[1]!.file;
    expect(some.index.projects[0]!.sessions.map((s) => s.file)).toEqual([named]);
    expect(Object.keys(await folderText(dir)).sort()).toEqual(['/index.json', `/${named}`]);
  });

  it('reads sessions that moved from the input into the archive neither again nor writes them again', async () => {
    const input = join(work, 'moving', 'projects');
    await cp(duplicates, input, { recursive: true });
    const dir = join(work, 'moving-archive');
    const skeletonCache = join(work, 'moving-skeletons.json');
    const all = await selectAll(input);
    const first = await exportArchive({
      selection: { ...all, inputs: [input] },
      target: { dir },
      runner: countingRunner().runner,
      progress: quiet,
      keepSources: true,
      skeletonCache,
    });
    const before = await folderText(dir);
    // Only one session is selected now: the others are read from the archive's kept sources.
    const one = all.sessions[0]!;
    const counting = countingRunner();
    const found = new Set(all.sessions.map((s) => sessionKey(s.discovered.project, s.discovered.id)));
    const ticks: string[] = [];
    const second = await exportArchive({
      selection: { ...all, sessions: [one], inputs: [input], found },
      target: { dir },
      runner: counting.runner,
      // The command's progress bar counts the sessions it selected: the archive's own are not ticked.
      progress: { tick: (label) => ticks.push(label ?? ''), done() {} },
      keepSources: true,
      skeletonCache,
    });
    expect(counting.jobs).toEqual([]);
    expect(ticks).toEqual([one.discovered.id.slice(0, 8)]);
    expect(second.archived.kept).toBe(first.sessions.length - 1);
    const after = await folderText(dir);
    for (const [path, text] of Object.entries(before))
      if (path !== '/index.json') expect(after[path], path).toBe(text);
  });
});
