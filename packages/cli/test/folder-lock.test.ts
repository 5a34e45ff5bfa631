import { readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cacheName } from '../src/runtime/cache-dir.js';
import { lockFolder, lockRoot } from '../src/runtime/folder-lock.js';

const work = await mkdtemp(join(tmpdir(), 'cctrail-lock-'));
afterAll(() => rm(work, { recursive: true, force: true }), 0);

/** The boot id and the start time of this process, as a lock records them. */
function identity(): { boot: string; start: string } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return {
    boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    start: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '',
  };
}

it('a symbolic link to a locked folder is the same folder', async () => {
  const out = join(work, 'out');
  await mkdir(out);
  await symlink(out, join(work, 'link'));
  const release = lockFolder(out, join(work, 'cache'));
  try {
    expect(() => lockFolder(join(work, 'link'), join(work, 'cache'))).toThrow(/another cctrail run/);
  } finally {
    release();
  }
  // Released: the next run takes it.
  lockFolder(join(work, 'link'), join(work, 'cache'))();
});

it('a run with another cache meets the lock all the same', () => {
  const out = join(work, 'two-caches');
  const release = lockFolder(out, join(work, 'cache-a'));
  try {
    expect(() => lockFolder(out, join(work, 'cache-b'))).toThrow(/another cctrail run/);
  } finally {
    release();
  }
});

it("takes over a lock of process 1 (a container's run), of another boot, or of a process started later", async () => {
  const out = join(work, 'stale');
  const path = join(lockRoot(join(work, 'cache')), `${cacheName(out)}.lock`);
  await mkdir(join(path, '..'), { recursive: true });
  const { boot, start } = identity();
  // This very process, but started at another time: its id was reused.
  const stale = [
    { pid: 1, host: hostname(), folder: out },
    { pid: 1, host: hostname(), boot, start: '1', script: '/usr/bin/cctrail', folder: out },
    { pid: process.pid, host: hostname(), boot: 'another-boot', start, script: null, folder: out },
    { pid: process.pid, host: hostname(), boot, start: `${start}0`, script: null, folder: out },
  ];
  for (const owner of stale) {
    await writeFile(path, JSON.stringify(owner));
    lockFolder(out, join(work, 'cache'))();
  }
  // This process as it is: a live run.
  await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), boot, start, script: null }));
  expect(() => lockFolder(out, join(work, 'cache'))).toThrow(`another cctrail run (process ${process.pid})`);
  await rm(path);
});

it('keeps the locks in a folder of this user only', () => {
  const root = join(lockRoot(join(work, 'cache')), '..');
  expect(statSync(root).mode & 0o777).toBe(0o700);
  expect(root.startsWith(tmpdir())).toBe(true);
});
