import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cctrail, FIXTURES } from '../helpers.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-stale-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** The temporary folder of the runs: where their locks are. */
const temporary = join(work, 'tmp');

/**
 * Writes the lock of an output folder, as a run with this record would hold it, where runs look for it (and
 * where cctrail before 0.2 looked: `<cache>/locks/`); returns its path.
 */
async function plantLock(out: string, owner: object, cache: string): Promise<string> {
  const name = `${createHash('sha256').update(out).digest('hex').slice(0, 16)}.lock`;
  await mkdir(join(cache, 'locks'), { recursive: true });
  await writeFile(join(cache, 'locks', name), JSON.stringify(owner));
  const dir = join(temporary, `cctrail-${process.getuid?.()}`, 'locks');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(join(dir, '..'), 0o700);
  await writeFile(join(dir, name), JSON.stringify(owner));
  return join(dir, name);
}

it('takes over a lock left by process 1 (a run in a container)', async () => {
  const out = join(work, 'container');
  const cache = join(work, 'cache3');
  const lock = await plantLock(out, { pid: 1, host: hostname(), folder: out }, cache);
  const run = await cctrail(['export', join(FIXTURES, 'linear'), '-o', out], {
    env: { CCTRAIL_CACHE_DIR: cache, TMPDIR: temporary },
  });
  expect(run.stderr).not.toContain('another cctrail run');
  expect(run.code).toBe(0);
  expect(existsSync(lock)).toBe(false);
});

it('exports without a cache folder it can write, and says so', async () => {
  await writeFile(join(work, 'a-file-not-a-folder'), 'x');
  const cache = join(work, 'a-file-not-a-folder', 'cache');
  const out = join(work, 'no-cache');
  const run = await cctrail(['export', join(FIXTURES, 'linear'), '-o', out], {
    env: { CCTRAIL_CACHE_DIR: cache, TMPDIR: temporary },
  });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(`Warning: the cache folder ${cache} cannot be written`);
  expect(existsSync(join(out, 'index.json'))).toBe(true);
});

/** The id of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

it('removes temporary files and spool folders of dead processes, and takes over their lock', async () => {
  const out = join(work, 'archive');
  const cache = join(work, 'cache');
  const dead = deadPid();
  await mkdir(join(out, 'sessions', 'p'), { recursive: true });
  await writeFile(join(out, 'sessions', 'p', `s.json.tmp-${dead}`), 'torn');
  await writeFile(join(out, `index.json.tmp-${dead}`), 'torn');
  const spool = join(temporary, `cctrail-spool-${dead}-abcd1234`);
  await mkdir(spool, { recursive: true });
  const lock = await plantLock(out, { pid: dead, host: hostname(), folder: out }, cache);

  const run = await cctrail(['export', join(FIXTURES, 'linear'), '-o', out], {
    env: { CCTRAIL_CACHE_DIR: cache, TMPDIR: temporary },
  });
  expect(run.code).toBe(0);
  const left = (await readdir(out, { recursive: true })).filter((name) => name.includes('.tmp-'));
  expect(left).toEqual([]);
  expect(existsSync(spool)).toBe(false);
  expect(existsSync(lock)).toBe(false);
});

it('refuses a lock held by a running process', async () => {
  const out = join(work, 'held');
  const cache = join(work, 'cache2');
  await plantLock(out, { pid: process.pid, host: hostname(), folder: out }, cache);
  const run = await cctrail(['export', join(FIXTURES, 'linear'), '-o', out], {
    env: { CCTRAIL_CACHE_DIR: cache, TMPDIR: temporary },
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`another cctrail run (process ${process.pid}) is writing to ${out}`);
  expect(existsSync(join(out, 'index.json'))).toBe(false);
});

it('refuses `report -o <a file>` before building anything', async () => {
  const file = join(work, 'a-file');
  await writeFile(file, 'x');
  const run = await cctrail(['report', join(FIXTURES, 'linear'), '-o', file]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/the output .*a-file is a file; give a folder/);
});

it('looks for the temporaries of dead processes in a report’s folders after a run that did not complete', async () => {
  const out = join(work, 'site');
  const cache = join(work, 'cache-report');
  const env = { CCTRAIL_CACHE_DIR: cache, TMPDIR: temporary };
  expect((await cctrail(['report', join(FIXTURES, 'linear'), '-o', out], { env })).code).toBe(0);
  const [folder] = await readdir(join(cache, 'reports'));
  const mark = join(cache, 'reports', folder!, 'completed');
  expect(existsSync(mark)).toBe(true);
  // A run killed half-way: it removed the mark when it started, and left its temporaries.
  await rm(mark);
  const dead = deadPid();
  const torn = [
    join(out, '_cctrail', `search-index.js.tmp-${dead}`),
    join(cache, 'reports', folder!, 'archive', `index.json.tmp-${dead}`),
  ];
  for (const file of torn) await writeFile(file, 'torn');
  expect((await cctrail(['report', join(FIXTURES, 'linear'), '-o', out], { env })).code).toBe(0);
  expect(torn.map((file) => existsSync(file))).toEqual([false, false]);
  expect(existsSync(mark)).toBe(true);
});
