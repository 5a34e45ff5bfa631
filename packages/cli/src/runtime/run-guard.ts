/**
 * What a command that writes a folder holds for the length of its run: the folder's lock, and a promise that
 * no temporary file outlives the run. Temporaries of dead processes are removed when the run starts; its own
 * when it ends, on SIGINT and SIGTERM (then the process exits with 128 + the signal's number), and when the
 * process exits after an error.
 */

import { lockFolder } from './folder-lock.js';
import { ownTemporary, removeTemporaries, staleTemporary } from './temporaries.js';

/** A run's hold on its folders. */
export interface RunGuard {
  /** Removes this run's temporaries, releases the lock and the signal handlers. Safe to call twice. */
  release(): void;
}

const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Locks an output folder and guards the folders a run writes in.
 *
 * @param output The output folder (absolute): locked, and swept of temporaries.
 * @param others Other folders the run writes temporaries in (the report's cache folder).
 * @param cache The cache root, where the lock lives.
 * @param stop On a signal, stops what still writes (the worker threads) before the temporaries are removed.
 */
export function guardRun(
  output: string,
  others: readonly string[],
  cache: string,
  stop: () => Promise<void> = async () => {},
): RunGuard {
  const unlock = lockFolder(output, cache);
  const dirs = [output, ...others];
  removeTemporaries(dirs, staleTemporary);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    for (const signal of Object.keys(SIGNALS)) process.off(signal, onSignal);
    process.off('exit', release);
    removeTemporaries(dirs, ownTemporary);
    unlock();
  };
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const exit = () => {
      release();
      process.exit(128 + (SIGNALS[signal as keyof typeof SIGNALS] ?? 0));
    };
    stop().then(exit, exit);
  };
  for (const signal of Object.keys(SIGNALS)) process.on(signal, onSignal);
  // A run that ends with an error releases when the process exits.
  process.on('exit', release);
  return { release };
}
