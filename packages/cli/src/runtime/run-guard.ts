/**
 * What a command that writes a folder holds for the length of its run: the folder's lock, and a promise that
 * no temporary file outlives the run. Temporaries of dead processes are removed when the run starts; its own
 * when it ends, on SIGINT and SIGTERM (then the process exits with 128 + the signal's number), and when the
 * process exits after an error.
 */

import { unlinkSync, writeFileSync } from 'node:fs';
import { lockFolder } from './folder-lock.js';
import { ownTemporary, removeTemporaries, removeTemporaryFilesLater, staleTemporary } from './temporaries.js';

/** A run's hold on its folders. */
export interface RunGuard {
  /** Removes this run's temporaries, releases the lock and the signal handlers. Safe to call twice. */
  release(): void;
  /**
   * Ends a run that completed: first lets a signal that came during the last synchronous work be handled (the
   * process then exits with the signal's code and never resolves this), then `release`.
   */
  finish(): Promise<void>;
}

const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Locks an output folder and guards the folders a run writes in.
 *
 * @param output The output folder (absolute): locked, and swept of temporaries.
 * @param others Other folders the run writes temporaries in (the report's cache folder).
 * @param cache The cache root, where the lock lives.
 * @param stop On a signal, stops what still writes (the worker threads) before the temporaries are removed.
 * @param options `outputInPlace`: the output folder's files are written in place, with no temporary file but at
 *   its top level (a report's site). `cleanEnd`: a file, in a folder of the run's own, that says the last run of
 *   these folders completed (written when one does, removed when one starts): then no temporary of a dead
 *   process can be there, and the folders are not walked for them (a rebuild's thousands of folders).
 */
export function guardRun(
  output: string,
  others: readonly string[],
  cache: string,
  stop: () => Promise<void> = async () => {},
  options: { outputInPlace?: boolean; cleanEnd?: string } = {},
): RunGuard {
  const unlock = lockFolder(output, cache);
  const dirs = [output, ...others];
  // The spool folders of dead processes at once; their files in the folders while the run goes on (done by its
  // end: `finish`), as walking an output folder of thousands of pages costs a rebuild a tenth of its time.
  removeTemporaries([], staleTemporary);
  // A run killed before its end (its own temporaries left) removed the mark when it started.
  const stale = takeMark(options.cleanEnd)
    ? Promise.resolve()
    : removeTemporaryFilesLater(dirs, staleTemporary);
  let released = false;
  const release = (completed = false) => {
    if (released) return;
    released = true;
    for (const signal of Object.keys(SIGNALS)) process.off(signal, onSignal);
    process.off('exit', onExit);
    // A run that completed has no write under way: in an output folder written in place (a report's site), only
    // its top level can hold this run's temporaries (the folder's record), and its thousands of folders are not
    // walked again. A run stopped half-way is swept everywhere.
    removeTemporaries(dirs, ownTemporary, completed && options.outputInPlace ? [output] : []);
    if (completed && options.cleanEnd !== undefined) {
      try {
        writeFileSync(options.cleanEnd, '');
      } catch {
        // Not marked: the next run walks the folders.
      }
    }
    unlock();
  };
  const onExit = () => release();
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const code = 128 + (SIGNALS[signal as keyof typeof SIGNALS] ?? 0);
    // Should the run's own end come first, it does not end with 0.
    process.exitCode = code;
    const exit = () => {
      release();
      process.exit(code);
    };
    stop().then(exit, exit);
  };
  for (const signal of Object.keys(SIGNALS)) process.on(signal, onSignal);
  // A run that ends with an error releases when the process exits.
  process.on('exit', onExit);
  const finish = async () => {
    // A signal is delivered to its handler on a turn of the event loop, which a long synchronous step delays.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await stale;
    if (stopping) return new Promise<void>(() => {});
    release(true);
  };
  return { release: () => release(), finish };
}

/** Removes a run's mark of a clean end; whether it was there. */
function takeMark(file: string | undefined): boolean {
  if (file === undefined) return false;
  try {
    unlinkSync(file);
    return true;
  } catch {
    return false;
  }
}
