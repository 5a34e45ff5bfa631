/**
 * Temporary files of cctrail runs: a file being written is `<name>.tmp-<pid>` (see `atomic-write.ts`) and a
 * spool folder `cctrail-spool-<pid>-<hex>` in the system's temporary folder. A run removes its own when it ends
 * (whatever the reason) and those of processes that no longer exist when it starts.
 */

import { readdirSync, rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRunning } from '@cctrail/core/node';

const TEMPORARY_FILE = /^.+\.tmp-(\d{1,7})$/;
const SPOOL = /^cctrail-spool-(\d{1,7})-[0-9a-f]+$/;

/**
 * Removes the temporary files under folders (recursively) and the spool folders whose owner `owned` says so.
 * Synchronous, so a signal handler can call it before the process exits. Missing folders are skipped.
 *
 * @param dirs Folders cctrail writes in (an output folder, a cache folder).
 * @param owned Whether a temporary of this process id is to be removed.
 * @param shallow Those of `dirs` looked at without their subfolders.
 * @returns How many were removed.
 */
export function removeTemporaries(
  dirs: readonly string[],
  owned: (pid: number) => boolean,
  shallow: readonly string[] = [],
): number {
  let removed = 0;
  for (const dir of dirs) {
    let entries: Entry[];
    try {
      entries = readdirSync(dir, { withFileTypes: true, recursive: !shallow.includes(dir) });
    } catch {
      continue;
    }
    for (const path of temporariesIn(entries, owned)) {
      rmSync(path, { force: true });
      removed++;
    }
  }
  let spools: string[] = [];
  try {
    spools = readdirSync(tmpdir());
  } catch {
    // no temporary folder: nothing spooled
  }
  for (const name of spools) {
    const match = SPOOL.exec(name);
    if (!match || !owned(Number(match[1]))) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/**
 * `removeTemporaries` of the files only, walking the folders in libuv's pool while the run goes on: for the
 * temporaries of other processes, which this run's own never collide with (an output folder of thousands of
 * pages takes 60–180 ms to walk on the thread). Never rejects.
 *
 * @param dirs Folders cctrail writes in.
 * @param owned Whether a temporary of this process id is to be removed.
 */
export async function removeTemporaryFilesLater(
  dirs: readonly string[],
  owned: (pid: number) => boolean,
): Promise<void> {
  const folders = [...dirs];
  const list = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory()) folders.push(join(dir, entry.name));
    const found = temporariesIn(
      entries.map((entry) => ({ name: entry.name, parentPath: dir, isFile: () => entry.isFile() })),
      owned,
    );
    await Promise.all(found.map((path) => rm(path, { force: true }).catch(() => undefined)));
  };
  // A few folders listed at a time (Node's own recursive listing waits for each folder before the next).
  let active = 0;
  await new Promise<void>((done) => {
    const next = () => {
      while (active < WALKERS && folders.length > 0) {
        active++;
        void list(folders.pop()!).finally(() => {
          active--;
          next();
        });
      }
      if (active === 0) done();
    };
    next();
  });
}

/** How many folders `removeTemporaryFilesLater` lists at a time. */
const WALKERS = 8;

/** An entry of a folder listed recursively. */
type Entry = { name: string; parentPath: string; isFile(): boolean };

/** The paths of the temporary files among entries whose owner `owned` says so. */
function temporariesIn(entries: readonly Entry[], owned: (pid: number) => boolean): string[] {
  const paths: string[] = [];
  for (const entry of entries) {
    const match = TEMPORARY_FILE.exec(entry.name);
    if (match && entry.isFile() && owned(Number(match[1]))) paths.push(join(entry.parentPath, entry.name));
  }
  return paths;
}

/** Whether a temporary belongs to this process. */
export function ownTemporary(pid: number): boolean {
  return pid === process.pid;
}

/** Whether a temporary belongs to a process that is gone. */
export function staleTemporary(pid: number): boolean {
  return !isRunning(pid);
}
