import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Job, JobResult, PackedResult } from './jobs.js';

/**
 * The jobs' code (@cctrail/core and what builds a session), loaded when this thread first needs it: `start()`
 * creates the workers first, so that they load their own modules while this thread loads its.
 */
let jobsModule: Promise<typeof import('./jobs.js')> | undefined;
const jobs = () => (jobsModule ??= import('./jobs.js'));

/** `runJob` of `jobs.ts`, run in this thread. */
async function runJob<J extends Job>(job: J): Promise<JobResult<J>> {
  return (await jobs()).runJob(job);
}

/** Jobs each worker is given at once: one parsing while the next one's file is read. */
const PER_WORKER = 2;

/**
 * Jobs each worker is given at once when this thread takes jobs too: while this thread runs one, it cannot
 * hand out more, so the workers hold a queue long enough to outlast it even when this thread waits for a core
 * (on a busy machine, a worker holding 6 ran dry 5 % of its time). The last jobs are the smallest
 * (`forEachHeaviestFirst`), so a long queue leaves little to wait for at the end.
 */
const PER_WORKER_SHARED = 16;

/**
 * The young generation of a worker, in MiB: twice V8's default (48), so that the garbage of a session (its lines'
 * text, its file's JSON) dies young instead of being scavenged over and over while the session it belongs to is
 * still alive (BENCHMARKS.md, "#26 redaction and GC shares, ninth round").
 */
const YOUNG_GENERATION_MB = 96;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  /** Whether the worker has loaded its modules: a job posted before waits in its port. */
  ready: boolean;
  /** The jobs posted to it and not answered yet, by id. */
  jobs: Map<number, Job>;
}

/**
 * Runs jobs in worker threads, one per core (2 to 4), so sessions are parsed in parallel; with
 * `shareThisThread`, this thread takes jobs too, beside one worker fewer. Falls back to the main thread when
 * workers are not available (e.g. running from sources) or `CCTRAIL_WORKERS=0`.
 */
export class JobRunner {
  readonly #slots: Slot[] = [];
  readonly #pending = new Map<number, Pending>();
  readonly #queue: (Pending & { job: Job })[] = [];
  #here: Promise<unknown> = Promise.resolve();
  readonly #script: URL;
  readonly #workers: number;
  #started = false;
  #closing = false;
  #closed: Promise<void> | undefined;
  #next = 0;
  /** Whether this thread takes jobs too, and whether it is running one. */
  readonly #share: boolean;
  #hereBusy = false;
  readonly #perWorker: number;

  /** How many jobs may usefully be in flight. */
  readonly capacity: number;

  /** Whether jobs run in worker threads (else in this thread, as they are submitted). */
  get parallel(): boolean {
    return this.#workers > 0;
  }

  /**
   * Workers start with the first job, so a run that has nothing to build starts none.
   *
   * @param env The environment: `CCTRAIL_WORKERS` sets the number of workers (0 = none).
   * @param options `shareThisThread`: this thread runs jobs too, with one worker fewer (for a run whose main
   *   thread has nothing else to do, such as `stats`): one thread less to start and warm up. `script`: the
   *   workers' module (default `build-worker.js` beside this one), for tests.
   */
  constructor(env: NodeJS.ProcessEnv, options: { shareThisThread?: boolean; script?: URL } = {}) {
    this.#script = options.script ?? new URL('./build-worker.js', import.meta.url);
    const share = options.shareThisThread === true && env.CCTRAIL_WORKERS === undefined;
    const wanted =
      env.CCTRAIL_WORKERS === undefined
        ? defaultWorkers() - (share ? 1 : 0)
        : Number(env.CCTRAIL_WORKERS) || 0;
    const usable = this.#script.protocol === 'file:' && existsSync(fileURLToPath(this.#script));
    this.#workers = usable ? Math.max(0, Math.min(wanted, 8)) : 0;
    this.#share = share && this.#workers > 0;
    this.#perWorker = this.#share ? PER_WORKER_SHARED : PER_WORKER;
    this.capacity = this.#workers === 0 ? 3 : this.#workers * this.#perWorker + (this.#share ? 1 : 0);
  }

  /**
   * Runs a job on the least busy worker (or here when there are none). A worker is given at most
   * `PER_WORKER` jobs at once; the others wait here, so callers may submit many jobs ahead.
   */
  run<J extends Job>(job: J): Promise<JobResult<J>> {
    this.start();
    if (this.#slots.length === 0) return runJob(job);
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, resolve: resolve as (value: unknown) => void, reject });
      this.#dispatch();
    });
  }

  /**
   * Runs a job in this thread, after the jobs given here before it: for huge sessions, whose worker heap
   * would stay on top of this thread's and several of which at once would hold several structures.
   */
  runHere<J extends Job>(job: J): Promise<JobResult<J>> {
    const turn = this.#here.then(() => runJob(job));
    this.#here = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Hands waiting jobs to ready workers that have room, then, when it shares the work, to this thread, then to
   * workers still loading: this thread starts on the first job while the workers load (tens to hundreds of
   * milliseconds), and the jobs a loading worker holds are there when it is ready, not handed out only once
   * this thread has finished its own job (its messages wait until then).
   */
  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = this.#roomIn(true);
      if (slot === null) {
        // With no worker left (they stopped), this thread runs what is left.
        if ((this.#share || this.#slots.length === 0) && !this.#hereBusy) {
          this.#runOneHere();
          continue;
        }
        const loading = this.#share ? this.#roomIn(false) : null;
        if (loading === null) return;
        this.#post(loading);
        continue;
      }
      this.#post(slot);
    }
  }

  /** The worker with the fewest jobs among those with room that are ready (or, with `ready` false, loading). */
  #roomIn(ready: boolean): Slot | null {
    return this.#slots.reduce<Slot | null>(
      (best, s) =>
        s.ready === ready && s.jobs.size < this.#perWorker && (best === null || s.jobs.size < best.jobs.size)
          ? s
          : best,
      null,
    );
  }

  /** Posts the next waiting job to a worker. */
  #post(slot: Slot): void {
    const { job, ...pending } = this.#queue.shift()!;
    const id = this.#next++;
    slot.jobs.set(id, job);
    this.#pending.set(id, pending);
    slot.worker.postMessage({ id, job });
  }

  /** Runs the next waiting job in this thread, once pending messages (finished jobs) have been handled. */
  #runOneHere(): void {
    const { job, resolve, reject } = this.#queue.shift()!;
    this.#hereBusy = true;
    setImmediate(() => {
      runJob(job)
        .then(resolve, reject)
        .finally(() => {
          this.#hereBusy = false;
          this.#dispatch();
        });
    });
  }

  /**
   * Starts the workers now (they start with the first job otherwise): a worker takes tens of milliseconds to
   * load, which can overlap with finding the sessions.
   */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    for (let i = 0; i < this.#workers; i++) {
      const worker = new Worker(this.#script, {
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      });
      const slot: Slot = { worker, ready: false, jobs: new Map() };
      worker.on('message', (message: WorkerMessage | { ready: true }) => {
        if ('ready' in message) {
          slot.ready = true;
          this.#dispatch();
          return;
        }
        slot.jobs.delete(message.id);
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        const { result } = message;
        if (message.ok && result !== undefined)
          jobs().then(({ unpackResult }) => pending?.resolve(unpackResult(result)), pending?.reject);
        else pending?.reject(toError(message.error));
        this.#dispatch();
      });
      worker.on('error', (error) => this.#failAll(error));
      worker.on('exit', (code) => this.#stopped(slot, code));
      this.#slots.push(slot);
    }
  }

  /**
   * A worker stopped without being asked to (it exited, or failed and `#failAll` ran): the jobs it held fail,
   * or wait again when it stopped before it was ready (it started none of them); the waiting ones go to the
   * other workers, or to this thread when none is left.
   */
  #stopped(slot: Slot, code: number): void {
    if (this.#closing) return;
    const at = this.#slots.indexOf(slot);
    if (at < 0) return;
    this.#slots.splice(at, 1);
    const unstarted: (Pending & { job: Job })[] = [];
    for (const [id, job] of slot.jobs) {
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      if (pending === undefined) continue;
      if (slot.ready) pending.reject(new Error(`a worker thread stopped (exit code ${code}) during its job`));
      else unstarted.push({ job, ...pending });
    }
    this.#queue.unshift(...unstarted);
    slot.jobs.clear();
    this.#dispatch();
  }

  /** Stops the workers (once: a second call returns the first one's promise). */
  close(): Promise<void> {
    this.#closed ??= this.#stop();
    return this.#closed;
  }

  async #stop(): Promise<void> {
    this.#closing = true;
    await Promise.all(this.#slots.map((slot) => slot.worker.terminate()));
    this.#slots.length = 0;
  }

  #failAll(error: unknown): void {
    for (const pending of [...this.#pending.values(), ...this.#queue]) pending.reject(error);
    this.#pending.clear();
    this.#queue.length = 0;
  }
}

function defaultWorkers(): number {
  return Math.min(4, Math.max(2, availableParallelism()));
}

/** What a worker posts back for a job (see `build-worker.ts`). */
interface WorkerMessage {
  id: number;
  ok: boolean;
  result?: PackedResult;
  error?: WorkerError;
}

interface WorkerError {
  message: string;
  code?: string;
  path?: string;
}

/** Rebuilds an error posted by a worker, keeping `code` and `path` for the error boundary. */
function toError(posted: WorkerError | undefined): Error {
  const error = new Error(posted?.message ?? 'worker failed') as NodeJS.ErrnoException;
  if (posted?.code !== undefined) error.code = posted.code;
  if (posted?.path !== undefined) error.path = posted.path;
  return error;
}
