import { once } from 'node:events';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ArchiveIndex,
  type ArchiveProject,
  type ArchiveSessionSummary,
  type Session,
  sessionStats,
  usageAcross,
} from '@cctrail/core';
import { insideFolder, writeIfChanged } from './atomic-write.js';
import { buildEach, buildSkeletons } from './build.js';
import type { Io } from './command.js';
import { ExportState, fingerprint } from './export-state.js';
import type { SelectedSession, Selection } from './input.js';
import type { Progress } from './progress.js';
import { NameAllocator } from './sanitize.js';
import { cliVersion } from './version.js';

/** Folder of the session files inside an archive. */
export const SESSIONS_FOLDER = 'sessions';

/** Where an export goes: a folder (`DIR/index.json` + one file per session) or NDJSON on a stream. */
export interface ArchiveSink {
  /** Stores one session; `file` is its archive path (`sessions/<project>/<session>.json`). */
  session(file: string, session: Session): Promise<'written' | 'unchanged'>;
  /** Stores the index, after every session. */
  index(index: ArchiveIndex): Promise<'written' | 'unchanged'>;
  /** What the sink remembers of previous exports (folders only), to skip unchanged sessions. */
  state?: ExportState;
}

/** What an export did. */
export interface ExportResult {
  index: ArchiveIndex;
  /** The sessions without content (for diagnostics and counts). */
  sessions: Session[];
  written: number;
  unchanged: number;
}

/** Serializes a session file: compact JSON, one trailing newline, key order as built (deterministic). */
export function sessionJson(session: Session): string {
  return `${JSON.stringify(session)}\n`;
}

/** Serializes `index.json`: indented for people, one trailing newline. */
export function indexJson(index: ArchiveIndex): string {
  return `${JSON.stringify(index, null, 2)}\n`;
}

/**
 * A sink writing an archive folder. Files are written atomically and only when their bytes change; session
 * files listed by a previous `index.json` that are no longer part of the archive are removed.
 *
 * @param dir The output folder.
 */
export function folderSink(dir: string): ArchiveSink & { removed: number } {
  const state = new ExportState(dir);
  const sink = {
    removed: 0,
    state,
    session: (file: string, session: Session) =>
      writeIfChanged(insideFolder(dir, file), sessionJson(session)),
    async index(index: ArchiveIndex) {
      const previous = await readFile(join(dir, 'index.json'), 'utf8')
        .then((text) => JSON.parse(text) as unknown)
        .catch(() => null);
      const outcome = await writeIfChanged(join(dir, 'index.json'), indexJson(index));
      await state.save();
      sink.removed = await removeStale(dir, previous, index);
      return outcome;
    },
  };
  return sink;
}

/** Removes session files a previous index listed and the new one does not (files this tool wrote only). */
async function removeStale(dir: string, previous: unknown, index: ArchiveIndex): Promise<number> {
  const projects = (previous as { projects?: unknown } | null)?.projects;
  if (!Array.isArray(projects)) return 0;
  const keep = new Set(index.projects.flatMap((p) => p.sessions.map((s) => s.file.toLowerCase())));
  let removed = 0;
  for (const project of projects as { sessions?: { file?: unknown }[] }[]) {
    for (const session of Array.isArray(project?.sessions) ? project.sessions : []) {
      const file = session?.file;
      if (typeof file !== 'string' || keep.has(file.toLowerCase()) || !STALE_FILE.test(file)) continue;
      await rm(insideFolder(dir, file), { force: true });
      removed++;
    }
  }
  return removed;
}

/** The shape of the session paths this tool writes; anything else in an old index is left alone. */
const STALE_FILE = /^sessions\/[A-Za-z0-9_-][\w.-]*\/[A-Za-z0-9_-][\w.-]*\.json$/;

/**
 * A sink streaming NDJSON: one session per line, then the index as the last line.
 *
 * @param stream Usually stdout.
 */
export function streamSink(stream: Io['stdout']): ArchiveSink {
  const write = async (text: string) => {
    if (!stream.write(text)) await once(stream, 'drain');
    return 'written' as const;
  };
  return {
    session: (_file, session) => write(sessionJson(session)),
    index: (index) => write(`${JSON.stringify(index)}\n`),
  };
}

/** Options of `exportArchive`. */
export interface ExportOptions {
  selection: Selection;
  sink: ArchiveSink;
  progress: Progress;
  /** Changes a full session before it is written (redaction); returns nothing. */
  transform?: (session: Session) => void;
  /** Rewrites project slugs in the index and the archive paths (e.g. to hide the user name). */
  renameProject?: (slug: string) => string;
  /** Names the transform and rename options, so a change of options rebuilds every session. */
  variant?: string;
}

/**
 * Exports the selected sessions: first every session is built without content to find duplicates and the
 * archive layout, then each is built again with content, a few at a time, and handed to the sink.
 */
export async function exportArchive(options: ExportOptions): Promise<ExportResult> {
  const { selection, sink, progress } = options;
  const skeletons = await buildSkeletons(selection.sessions, selection.filters, progress);
  const layout = planLayout(skeletons.sessions, options.renameProject ?? ((slug) => slug));
  let written = 0;
  let unchanged = 0;
  const summaries = new Map<Session, ArchiveSessionSummary>();
  // Read from the written (transformed) sessions, so redaction and --short-home apply to the index too.
  const cwds = new Map<Session, string | null>();
  // Second pass in index order, so a stream lists sessions as the index does.
  const skeletonOf = new Map(skeletons.sessions.map((skeleton, i) => [skeletons.selected[i]!, skeleton]));
  const selectedOf = new Map(skeletons.sessions.map((skeleton, i) => [skeleton, skeletons.selected[i]!]));
  const ordered = layout.projects.flatMap((project) => project.sessions.map((s) => selectedOf.get(s)!));

  // Sessions whose inputs did not change since the last export into this folder are not rebuilt.
  const prints = new Map<SelectedSession, string>();
  const toBuild: SelectedSession[] = [];
  for (const selected of ordered) {
    const skeleton = skeletonOf.get(selected)!;
    const file = layout.files.get(skeleton)!;
    if (!sink.state) {
      toBuild.push(selected);
      continue;
    }
    const context = [cliVersion(), options.variant ?? '', file, skeleton.duplicateOf];
    const print = await fingerprint(selected.discovered, context);
    prints.set(selected, print);
    const reused = await sink.state.reuse(file, print);
    if (reused) {
      summaries.set(skeleton, reused.summary);
      cwds.set(skeleton, reused.cwd);
      sink.state.remember(file, print, reused.cwd);
      unchanged++;
      progress.tick();
    } else toBuild.push(selected);
  }

  await buildEach(toBuild, true, progress, async (session, selected) => {
    const skeleton = skeletonOf.get(selected)!;
    session.duplicateOf = skeleton.duplicateOf;
    options.transform?.(session);
    const file = layout.files.get(skeleton)!;
    summaries.set(skeleton, summarize(session, file));
    cwds.set(skeleton, session.project.cwd);
    if ((await sink.session(file, session)) === 'written') written++;
    else unchanged++;
    const print = prints.get(selected);
    if (print !== undefined) sink.state?.remember(file, print, session.project.cwd);
  });

  const index: ArchiveIndex = {
    schemaVersion: 1,
    generator: { name: 'cctrail', version: cliVersion() },
    projects: layout.projects.map((project) => ({
      ...project.info,
      cwd: project.sessions.map((s) => cwds.get(s) ?? null).find((cwd) => cwd !== null) ?? null,
      sessions: project.sessions.map((s) => summaries.get(s)!),
    })),
    usage: usageAcross(skeletons.sessions),
  };
  if ((await sink.index(index)) === 'written') written++;
  else unchanged++;
  return { index, sessions: skeletons.sessions, written, unchanged };
}

/** The archive layout: projects with sanitized unique ids, and each session's file path. */
interface Layout {
  projects: { info: Pick<ArchiveProject, 'id' | 'slug'>; sessions: Session[] }[];
  files: Map<Session, string>;
}

/**
 * Assigns archive paths: `sessions/<project id>/<session id>.json`, both ids sanitized and unique
 * (case-insensitively) within their folder. Projects are sorted by slug, sessions by id, so names are stable.
 */
function planLayout(sessions: readonly Session[], rename: (slug: string) => string): Layout {
  const byProject = new Map<string, Session[]>();
  for (const session of sessions) {
    const slug = rename(session.project.slug ?? '');
    const list = byProject.get(slug) ?? [];
    list.push(session);
    byProject.set(slug, list);
  }
  const projectNames = new NameAllocator();
  const files = new Map<Session, string>();
  const projects: Layout['projects'] = [];
  for (const slug of [...byProject.keys()].sort(compare)) {
    const list = byProject.get(slug)!.sort((a, b) => compare(a.id, b.id));
    const id = projectNames.nameFor(slug === '' ? 'project' : slug);
    const sessionNames = new NameAllocator();
    for (const session of list)
      files.set(session, `${SESSIONS_FOLDER}/${id}/${sessionNames.nameFor(session.id)}.json`);
    projects.push({
      info: { id, slug },
      sessions: list,
    });
  }
  return { projects, files };
}

/**
 * The `index.json` line of one session.
 *
 * @param session The built session.
 * @param file Its archive path.
 */
export function summarize(session: Session, file: string): ArchiveSessionSummary {
  const stats = sessionStats(session);
  const start = session.startedAt ? Date.parse(session.startedAt) : Number.NaN;
  const end = session.endedAt ? Date.parse(session.endedAt) : Number.NaN;
  return {
    id: session.id,
    file,
    title: session.title,
    firstPrompt: session.firstPrompt,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    durationMs: Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start),
    entries: stats.entries,
    forks: stats.branches.forks,
    abandonedEntries: stats.branches.abandonedEntries,
    sidechains: stats.sidechains.length,
    compactions: stats.compactions.total,
    toolCalls: stats.tools.calls,
    usage: stats.usage,
    duplicateOf: session.duplicateOf,
    diagnostics: stats.diagnostics,
    sources: session.files.map((f) => f.path),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
