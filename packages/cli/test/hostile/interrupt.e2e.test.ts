import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lockFolder } from '../../src/runtime/folder-lock.js';
import { writeBigProjects } from './big-projects.js';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const REPORT_BUILT = existsSync(
  fileURLToPath(new URL('../../../../apps/report/dist/index.js', import.meta.url)),
);
const work = await mkdtemp(join(tmpdir(), 'cctrail-interrupt-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);
const projects = join(work, 'projects');
await writeBigProjects(projects, 12, 1_000_000);
/** Process ids of the runs started, whose spool folders must not outlive them. */
const pids: number[] = [];
const cache = join(work, 'cache');

function start(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: string | null; stderr: string }>;
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', CCTRAIL_DEBUG: '', CCTRAIL_CACHE_DIR: cache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) pids.push(child.pid);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, done };
}

/** Runs a command and sends it a signal when a file whose path matches appears under `watched`. */
async function interrupt(args: string[], watched: string, when: RegExp, signal: NodeJS.Signals) {
  await mkdir(watched, { recursive: true });
  const { child, done } = start(args);
  let sent = false;
  const watcher = watch(watched, { recursive: true }, (_event, name) => {
    if (!sent && name && when.test(String(name))) {
      sent = true;
      child.kill(signal);
    }
  });
  const result = await done;
  watcher.close();
  return { ...result, sent };
}

/** Every file under a folder with its bytes, by relative path. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), await readFile(path, 'latin1'));
  }
  return files;
}

async function temporaries(...dirs: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of await readdir(dir, { recursive: true })) if (/\.tmp-\d+$/.test(name)) found.push(name);
  }
  for (const name of await readdir(tmpdir())) {
    const pid = /^cctrail-spool-(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && pids.includes(Number(pid))) found.push(name);
  }
  return found;
}

async function expectSameFolders(a: string, b: string) {
  const [left, right] = await Promise.all([snapshot(a), snapshot(b)]);
  expect([...left.keys()].sort()).toEqual([...right.keys()].sort());
  for (const [path, bytes] of left) expect(bytes === right.get(path), path).toBe(true);
}

describe('interrupted runs', () => {
  const clean = join(work, 'clean-export');

  it('export: no temporary file after a signal at any point, and the next run equals a clean run', async () => {
    const first = start(['export', projects, '-o', clean]);
    expect((await first.done).code).toBe(0);
    const out = join(work, 'export');
    const points: [RegExp, NodeJS.Signals][] = [
      [/\.tmp-\d+$/, 'SIGINT'],
      [/sessions\/.*\.json$/, 'SIGTERM'],
      [/index\.json\.tmp-\d+$/, 'SIGINT'],
    ];
    let interrupted = 0;
    for (const [when, signal] of points) {
      const run = await interrupt(['export', projects, '-o', out], out, when, signal);
      if (run.signal !== null || run.code === 130 || run.code === 143) interrupted++;
      expect(run.stderr).not.toContain('internal error');
      expect(await temporaries(out, cache)).toEqual([]);
    }
    expect(interrupted).toBeGreaterThan(0);
    const next = start(['export', projects, '-o', out]);
    expect((await next.done).code).toBe(0);
    await expectSameFolders(out, clean);
  }, 120_000);

  it('export: a second writer of one folder fails fast with a clear message', async () => {
    const out = join(work, 'shared');
    await mkdir(out, { recursive: true });
    // The folder's lock held by a live run, as a first export holds it while it writes: here this test's own
    // process, for as long as the second run takes (a real first export of these projects can end before the
    // second starts, and then nothing is refused: CI saw that race).
    const release = lockFolder(out, cache);
    let refused: Awaited<ReturnType<typeof start>['done']>;
    try {
      refused = await start(['export', projects, '-o', out]).done;
    } finally {
      release();
    }
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`another cctrail run (process ${process.pid}) is writing to `);
    expect(await readdir(out)).toEqual([]);
    // Once the lock is free, the same command writes the folder.
    expect((await start(['export', projects, '-o', out]).done).code).toBe(0);
    await expectSameFolders(out, clean);
  }, 120_000);

  it.skipIf(!REPORT_BUILT)(
    'report: no temporary file after a signal, and the next run equals a clean run',
    async () => {
      const cleanSite = join(work, 'clean-site');
      const first = start(['report', projects, '-o', cleanSite]);
      expect((await first.done).code).toBe(0);
      const out = join(work, 'site');
      const points: [string, RegExp, NodeJS.Signals][] = [
        [cache, /archive\/.*\.tmp-\d+$/, 'SIGINT'],
        [out, /\.html$/, 'SIGTERM'],
      ];
      for (const [watched, when, signal] of points) {
        const run = await interrupt(['report', projects, '-o', out], watched, when, signal);
        expect(run.stderr).not.toContain('internal error');
        expect(await temporaries(out, cache)).toEqual([]);
      }
      const next = start(['report', projects, '-o', out]);
      expect((await next.done).code).toBe(0);
      await expectSameFolders(out, cleanSite);
    },
    180_000,
  );
});
