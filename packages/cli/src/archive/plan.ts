import { insideFolder } from '../files/atomic-write.js';
import type { SelectedSession, Selection } from '../input/input.js';
import type { Privacy } from '../privacy/transform.js';
import { codeVersion } from '../runtime/build-id.js';
import { type ExportState, fingerprint, type Reusable } from '../runtime/export-state.js';
import { type FileStat, transcriptBytes } from '../runtime/file-stats.js';
import { forEachOrdered } from '../runtime/pool.js';
import type { SkeletonCache } from '../runtime/skeleton-cache.js';
import type { Spool } from '../runtime/spool.js';
import type { ExportedSession } from '../sessions/session-export.js';
import type { Skeleton } from '../sessions/skeleton.js';
import { sourceStats } from './archive-input.js';
import { type Layout, type Placed, planLayout } from './layout.js';

/** One selected session on its way into the archive: what is known of it before, then during the run. */
export interface Planned extends Placed {
  selected: SelectedSession;
  /** Its place in the selection. */
  index: number;
  /** Its transcripts' size (the order of work) and its files' `fileStats` (the fingerprints). */
  bytes: number;
  files: FileStat[];
  /** Its key in the skeleton cache, and its skeleton (cached, else once built). */
  skeletonKey: string | null;
  skeleton: Skeleton | undefined;
  /** Its archive path in the layout of the whole selection, and the id of its project there. */
  file: string;
  projectId: string;
  /** Where its file is written during the run: into the archive, or into the spool (a stream's sessions). */
  path: string;
  /** Where its file goes if it turns out not to be a transcript. */
  aside: string;
  /** Its `exportPrint`, once planned into an archive folder with an export state (else null). */
  print: string | null;
  /** The previous export of it, when its inputs did not change (then it is not written again). */
  reused: Reusable | null;
  /** What writing it did. */
  exported: ExportedSession | null;
}

/** What `planSessions` needs. */
export interface PlanContext {
  selection: Selection;
  privacy: Privacy;
  /** The archive folder, or null for a stream. */
  dir: string | null;
  state: ExportState | null;
  cache: SkeletonCache;
  spool: Spool;
  /** An archive of sources only: no session file is written. */
  sourcesOnly?: boolean;
  /** Session files are written compressed (`….json.br`); only into a folder. */
  compressed?: boolean;
}

/** Sessions whose fingerprints are taken at once, to find those that need no export. */
const PLANNED_AT_ONCE = 64;

/** The plan of an export: every selected session, and the archive's layout of them all. */
export interface Plan {
  planned: Planned[];
  layout: Layout<Planned>;
}

/**
 * Plans every selected session before any is read: its size, its cached skeleton, its archive path, whether
 * the previous export of it can stay, and where its file is written. The layout is made once, of the whole
 * selection, so a session's path does not depend on which others the time filters keep. A session is written
 * straight into the archive folder, or into the spool when the archive is a stream.
 */
export async function planSessions(context: PlanContext): Promise<Plan> {
  const { selection, privacy, dir, state, cache, spool, sourcesOnly = false, compressed = false } = context;
  const planned = selection.sessions.map((selected, index): Planned => {
    // One `stat` of each file gives both the size and the fingerprints.
    const files = sourceStats(selected);
    const skeletonKey = cache.key(files);
    return {
      id: selected.discovered.id,
      project: selected.discovered.project,
      selected,
      index,
      bytes: transcriptBytes(selected.discovered, files),
      files,
      skeletonKey,
      skeleton: cache.get(skeletonKey),
      file: '',
      projectId: '',
      path: spool.path(index),
      aside: spool.path(index),
      print: null,
      reused: null,
      exported: null,
    };
  });
  const layout = planLayout(planned, privacy, compressed && dir !== null);
  for (const { info, sessions } of layout.projects)
    for (const session of sessions) session.projectId = info.id;
  // Many at a time: one after the other, the round trips of `reuse`'s `stat` would add up, all the more when
  // the main thread is busy (the report bundles its site meanwhile).
  await forEachOrdered(
    planned,
    PLANNED_AT_ONCE,
    async (session) => {
      session.file = layout.files.get(session)!;
      if (dir === null || state === null) return;
      session.path = insideFolder(dir, session.file);
      session.print = exportPrint(session, session.file, privacy);
      session.reused = await state.reuse(session.file, session.print, !sourcesOnly);
    },
    () => undefined,
  );
  return { planned, layout };
}

/**
 * The fingerprint of what a session's archive file depends on: its files (named as shown: paths inside the file
 * are these), the code, the privacy options and its path.
 *
 * @param session The session.
 * @param file Its archive path.
 * @param privacy The export's privacy options.
 */
export function exportPrint(session: Planned, file: string, privacy: Privacy): string {
  return fingerprint([codeVersion(), privacy, file], session.files);
}
