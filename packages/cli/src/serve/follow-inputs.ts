/**
 * Watches the transcripts a report is built from (chokidar: inotify on Linux, FSEvents on macOS), and runs a
 * rebuild shortly after they change: new projects, sessions and agent files included. Changes that arrive
 * during a rebuild are gathered for the next one; rebuilds never overlap. With an `absorb` step, changed files
 * go to it first, without waiting for a rebuild under way (the append path of `cctrail serve`), and only the
 * files it hands back are rebuilt.
 */

/** Options of `followInputs`. */
export interface FollowOptions {
  /** Folders or transcript files to watch. */
  paths: readonly string[];
  /** Runs one rebuild; told which files changed since the last one. Its errors go to `onError`. */
  rebuild: (changed: readonly string[]) => Promise<void>;
  /** A rebuild failed, or the watcher did. */
  onError: (error: unknown) => void;
  /** How long to wait after the last change before rebuilding (ms, default 150). */
  debounceMs?: number;
  /**
   * How long a change waits for its rebuild at most, however closely more changes follow it (ms, default 2000):
   * a session appended to faster than the debounce is still rebuilt when it asks for it.
   */
  maxWaitMs?: number;
  /**
   * Takes changed files before any rebuild (never two at once, but while a rebuild runs); resolves to the
   * files that still need one. Its errors go to `onError`, and its files are then rebuilt.
   */
  absorb?: (changed: readonly string[]) => Promise<readonly string[]>;
  /** How long `absorb` waits after a change (ms, default 30). */
  absorbMs?: number;
}

/** A running watch. */
export interface Follower {
  /** Stops watching, then waits for the rebuild under way, if any. */
  close(): Promise<void>;
  /** Settles once no rebuild is running or waiting. */
  idle(): Promise<void>;
  /** Asks for a rebuild of these files (after the debounce), as if they had changed. */
  queue(files: readonly string[]): void;
  /** Tells of files that changed though the watcher did not say so: they go the way of any change. */
  changed(files: readonly string[]): void;
}

/** What a transcript folder holds that a report reads: transcripts and agents' `.meta.json` files. */
const READ = /\.(jsonl|json)$/i;

/**
 * Starts watching; resolves once the watcher has seen the existing files.
 *
 * @param options What to watch and what to run.
 */
export async function followInputs(options: FollowOptions): Promise<Follower> {
  const debounceMs = options.debounceMs ?? 150;
  const maxWaitMs = options.maxWaitMs ?? 2000;
  // Loaded when a command watches: the other commands start without it.
  const { watch } = await import('chokidar');
  const watcher = watch([...options.paths], {
    ignoreInitial: true,
    // projects/<project>/<session>/subagents/agent-*.jsonl is the deepest layout; a bound keeps a wrong path
    // (a home folder) from watching a whole disk.
    depth: 6,
    ignored: (path, stats) => stats?.isFile() === true && !READ.test(path),
  });
  let changed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  /** When the first change waiting for the next rebuild came (ms since the epoch). */
  let first = 0;
  let running: Promise<void> | null = null;
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (running || timer || changed.size > 0) return;
    for (const wake of idleWaiters) wake();
    idleWaiters = [];
  };
  const start = () => {
    timer = null;
    if (closed || running || changed.size === 0) return settle();
    const files = [...changed].sort();
    changed = new Set();
    running = options
      .rebuild(files)
      .catch(options.onError)
      .finally(() => {
        running = null;
        // Changes seen during the rebuild: another one at once.
        if (changed.size > 0 && !closed) start();
        else settle();
      });
  };
  const schedule = (path: string) => {
    if (closed || !READ.test(path)) return;
    const now = Date.now();
    if (timer) clearTimeout(timer);
    else first = now;
    changed.add(path);
    timer = setTimeout(start, Math.max(0, Math.min(debounceMs, first + maxWaitMs - now)));
  };
  const absorber = options.absorb ? absorbing(options.absorb, options, schedule, () => !closed) : null;
  const seen = (path: string) => {
    if (closed || !READ.test(path)) return;
    if (absorber) absorber.add(path);
    else schedule(path);
  };
  watcher.on('add', seen).on('change', seen).on('unlink', seen);
  watcher.on('error', options.onError);
  await new Promise<void>((resolve) => watcher.once('ready', resolve));

  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      changed.clear();
      await watcher.close();
      await running;
      settle();
    },
    idle() {
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settle();
      });
    },
    queue(files) {
      for (const file of files) schedule(file);
    },
    changed(files) {
      for (const file of files) seen(file);
    },
  };
}

/** The absorb step: changed files gathered for a short while, handed over one batch at a time. */
function absorbing(
  absorb: NonNullable<FollowOptions['absorb']>,
  options: FollowOptions,
  rebuild: (path: string) => void,
  alive: () => boolean,
): { add(path: string): void } {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  const run = () => {
    timer = null;
    if (running || pending.size === 0 || !alive()) return;
    const files = [...pending].sort();
    pending = new Set();
    running = true;
    absorb(files)
      .then(
        (rest) => {
          for (const file of rest) rebuild(file);
        },
        (error: unknown) => {
          options.onError(error);
          for (const file of files) rebuild(file);
        },
      )
      .finally(() => {
        running = false;
        if (pending.size > 0) run();
      });
  };
  return {
    add(path) {
      pending.add(path);
      if (timer) clearTimeout(timer);
      timer = setTimeout(run, options.absorbMs ?? 30);
    },
  };
}
