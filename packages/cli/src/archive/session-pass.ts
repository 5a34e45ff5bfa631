import { inTimeRange } from '../input/input.js';
import type { JobRunner } from '../runtime/job-runner.js';
import { type ExportJob, LEAN_ABOVE_BYTES, type SkeletonJob } from '../runtime/jobs.js';
import { forEachHeaviestFirst } from '../runtime/pool.js';
import type { SkeletonCache } from '../runtime/skeleton-cache.js';
import { releaseHeap } from '../sessions/release-heap.js';
import type { ReportTarget } from '../sessions/session-export.js';
import type { Skeleton } from '../sessions/skeleton.js';
import type { Progress } from '../terminal/progress.js';
import type { Planned } from './plan.js';

/** What `buildSessions` needs. */
export interface PassContext {
  runner: JobRunner;
  progress: Progress;
  cache: SkeletonCache;
  /** The time filters, privacy options and duplicate guesses of the jobs. */
  range: ExportJob['request']['range'];
  privacy: ExportJob['request']['privacy'];
  /** For `cctrail report`: the folders its site is built from, for sessions written into the archive. */
  report?: Omit<ReportTarget, 'project'>;
  /** An archive of sources only: sessions are built for their index lines, no file is written. */
  sourcesOnly?: boolean;
  /** The archive written into: its own sessions (read again from its sources) are not counted in the progress. */
  dir?: string | null;
  /** Told of each skeleton as soon as it is known. */
  found: (skeleton: Skeleton) => void;
}

/**
 * The one pass over the sessions' transcripts: each session not known already is built once, in a worker
 * thread (a huge one in this thread, without content), and written where its plan says; a session the previous
 * export can keep is only read for its skeleton, and not even that when the skeleton is cached. The largest
 * sessions go first, so the workers finish together.
 *
 * @param planned The sessions, as `planSessions` left them; their `skeleton` and `exported` are filled in.
 * @param context The runner and what the jobs need.
 */
export async function buildSessions(planned: readonly Planned[], context: PassContext): Promise<void> {
  const { runner, progress } = context;
  const reading = planned.filter((session) => needsReading(session, context));
  // A few small sessions (a rebuild after some changed) are built in this thread: starting the workers and loading
  // their modules would cost more than the work.
  const here =
    reading.length <= FEW_HERE &&
    reading.reduce((bytes, session) => bytes + session.bytes, 0) <= SMALL_HERE_BYTES;
  await forEachHeaviestFirst(
    planned,
    (session) => session.bytes,
    runner.capacity,
    async (session) => {
      if (needsReading(session, context)) await build(session, context, here);
      if (context.dir == null || session.selected.archive?.dir !== context.dir)
        progress.tick(session.id.slice(0, 8));
    },
    () => undefined,
  );
}

/**
 * Whether a session's transcripts must be read: unless its skeleton is cached and says that it stays out of
 * the archive (the time filters) or that its file can stay as it is.
 */
function needsReading(session: Planned, context: PassContext): boolean {
  const known = session.skeleton;
  return known === undefined || (session.reused === null && inTimeRange(known.digest.stats, context.range));
}

/** At most this many sessions to read, of at most `SMALL_HERE_BYTES` together, are built in this thread. */
const FEW_HERE = 4;
const SMALL_HERE_BYTES = 16 * 1024 * 1024;

/**
 * Builds one session: its skeleton alone when its file can stay, else its export; in this thread when `here` (or
 * when it is huge), else in a worker.
 */
async function build(session: Planned, context: PassContext, here: boolean): Promise<void> {
  const { runner, cache } = context;
  const { discovered, root, kept } = session.selected;
  const input = { discovered, root, ...(kept ? { shown: kept.files } : {}) };
  const huge = session.bytes > LEAN_ABOVE_BYTES;
  // A huge session is built in this thread, one at a time (see `JobRunner.runHere`).
  const run = <J extends SkeletonJob | ExportJob>(job: J) =>
    huge || here ? runner.runHere(job) : runner.run(job);
  const cached = session.skeleton !== undefined;
  let skeleton: Skeleton;
  if (session.reused !== null) {
    skeleton = await run<SkeletonJob>({ kind: 'skeleton', input });
  } else {
    const result = await run<ExportJob>({
      kind: 'export',
      input,
      request: {
        file: session.file,
        path: session.path,
        aside: session.aside,
        privacy: context.privacy,
        range: context.range,
        lean: huge,
        ...(context.sourcesOnly ? { write: false } : {}),
        // A spooled file is copied into the archive later: the site would not find what is prepared for it.
        ...(context.report && session.path !== session.aside
          ? { report: { ...context.report, project: session.projectId } }
          : {}),
      },
    });
    skeleton = result.skeleton;
    session.exported = result.exported;
  }
  // What a huge session held is given back before the next step starts (the report's site builder).
  if (huge) releaseHeap();
  session.skeleton = skeleton;
  if (!cached) cache.put(session.skeletonKey, skeleton);
  context.found(skeleton);
}
