import { once } from 'node:events';
import type { Usage } from '@cctrail/core';
import { type CostTotals, responseTotals } from '@cctrail/core/archive';
import type { Io } from '../command-line/command.js';
import { insideFolder, type WriteOutcome, writeIfChanged } from '../files/atomic-write.js';
import { type Privacy, privacyTransform } from '../privacy/transform.js';
import type { ExportState, PrivacyTally } from '../runtime/export-state.js';
import { fileText } from '../runtime/spool.js';
import type { IndexedSession } from './index-file.js';
import type { Layout } from './layout.js';
import { exportPrint, type Planned } from './plan.js';

/** A session settled in its place: its index line and project directory, and what writing it did. */
interface Settled extends IndexedSession, PrivacyTally {
  outcome: WriteOutcome;
}

/** What settling the sessions needs. */
export interface SettleContext {
  target: { dir: string } | { stream: Io['stdout'] };
  state: ExportState | null;
  privacy: Privacy;
  /** An archive of sources only: there is no session file to settle. */
  sourcesOnly?: boolean;
}

/** What settling the sessions gave: their index lines, the archive's usage, and what was written. */
export interface SettledSessions {
  indexed: Map<Planned, IndexedSession>;
  usage: Usage;
  /** The archive's cost, each API response counted once, per day, model and project. */
  cost: CostTotals;
  tally: { written: number; unchanged: number } & PrivacyTally;
}

/**
 * Settles every session of the layout, in index order: into the archive folder (remembered in its export state),
 * or onto the stream; each index line gets its `duplicateOf`, a fact of the whole archive that only `index.json`
 * holds (session files hold what their own transcripts say, so none is written again for it).
 *
 * @param layout The archive's layout, of built sessions whose duplicates are marked.
 * @param context Where the archive goes, and its privacy options.
 */
export async function settleSessions(
  layout: Layout<Planned>,
  context: SettleContext,
): Promise<SettledSessions> {
  const { target, state, privacy } = context;
  const quiet = privacyTransform(privacy);
  const tally = { written: 0, unchanged: 0, redacted: 0, shortened: 0, byRule: {} as Record<string, number> };
  const indexed = new Map<Planned, IndexedSession>();
  const ordered = layout.projects.flatMap((project) => project.sessions);
  for (const session of ordered) {
    const file = layout.files.get(session)!;
    let settled: Settled;
    if ('stream' in target) {
      settled = await streamSession(session, target.stream);
    } else {
      settled = context.sourcesOnly
        ? withoutFile(session)
        : await settleInFolder(session, insideFolder(target.dir, file));
      // The plan's print, when it is of this path (the layouts of a run share their files).
      const print = () =>
        (session.file === file ? session.print : null) ?? exportPrint(session, file, privacy);
      state?.remember(file, print(), settled.cwd, settled);
    }
    settled.summary.file = quiet(file);
    settled.summary.duplicateOf = quiet(session.skeleton!.digest.stats.duplicateOf);
    // A line reused from the previous index may carry the status it had then.
    delete settled.summary.archived;
    const status = session.selected.archive?.status;
    if (status) settled.summary.archived = { ...status };
    indexed.set(session, settled);
    tally.redacted += settled.redacted;
    tally.shortened += settled.shortened;
    for (const [rule, count] of Object.entries(settled.byRule))
      tally.byRule[rule] = (tally.byRule[rule] ?? 0) + count;
    tally[settled.outcome]++;
  }
  // In selection order, as the digests were read before.
  const sessions = [...ordered].sort((a, b) => a.index - b.index);
  const { usage, cost } = responseTotals(
    sessions.map((s) => ({ project: s.skeleton!.project, responses: s.skeleton!.digest.responses })),
  );
  return { indexed, usage, cost, tally };
}

/**
 * Puts a session's file where it belongs in the archive folder: a file written aside during the run (a session
 * that was not known to be a transcript) is copied there. Transcripts are never read again.
 *
 * @param session The session, built (or kept from the previous export).
 * @param path The absolute path of its archive file.
 */
async function settleInFolder(session: Planned, path: string): Promise<Settled> {
  const { reused, exported } = session;
  if (reused !== null) return { ...reused, outcome: 'unchanged' };
  if (exported === null) throw new Error(`session ${session.id} was not exported`);
  const outcome =
    exported.path === path ? exported.outcome : await writeIfChanged(path, fileText(exported.path));
  return { ...exported, outcome };
}

/** A session of an archive of sources only: its index line, no file. */
function withoutFile(session: Planned): Settled {
  const settled = session.reused ?? session.exported;
  if (settled === null) throw new Error(`session ${session.id} was not exported`);
  return { ...settled, outcome: 'unchanged' };
}

/**
 * Writes a spooled session file to a stream, as one NDJSON line.
 *
 * @param session The session, built.
 * @param stream Where to write.
 */
async function streamSession(session: Planned, stream: Io['stdout']): Promise<Settled> {
  const { exported } = session;
  if (exported === null) throw new Error(`session ${session.id} was not exported`);
  for await (const piece of fileText(exported.path)) await write(stream, piece);
  return { ...exported, outcome: 'written' };
}

/** Writes to a stream, waiting when it is full. */
export async function write(stream: Io['stdout'], text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}
