import { once } from 'node:events';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type ArchiveIndex,
  type ArchiveProject,
  type ArchiveSessionSummary,
  totalUsage,
} from '@cctrail/core';
import { indexJson } from './archive-json.js';
import { insideFolder, writeIfChanged } from './atomic-write.js';
import { buildSkeletons } from './build.js';
import type { Io } from './command.js';
import { ExportState, fingerprint } from './export-state.js';
import { fileStats, transcriptBytes } from './file-stats.js';
import type { SelectedSession, Selection } from './input.js';
import type { JobRunner } from './job-runner.js';
import { type ExportJob, type ExportResult, LEAN_ABOVE_BYTES, type Privacy, type Skeleton } from './jobs.js';
import { forEachHeaviestFirst, forEachOrdered } from './pool.js';
import type { Progress } from './progress.js';
import { shortenHome } from './redact.js';
import { NameAllocator } from './sanitize.js';
import { cliVersion, codeVersion } from './version.js';

/** Folder of the session files inside an archive. */
export const SESSIONS_FOLDER = 'sessions';

/** Where an export goes: a folder (`DIR/index.json` + one file per session) or NDJSON on a stream. */
export type ArchiveTarget = { dir: string } | { stream: Io['stdout'] };

/** Options of `exportArchive`. */
export interface ExportOptions {
  selection: Selection;
  target: ArchiveTarget;
  runner: JobRunner;
  progress: Progress;
  /** Redaction and home-path shortening (the `report` command). */
  privacy?: Privacy;
  /** The report's cache folder, to cache each written session's manifest part in (the `report` command). */
  partsCacheDir?: string;
  /** A file to keep the first pass's skeletons in, so that unchanged sessions are not read again. */
  skeletonCache?: string;
  /**
   * Called once the first pass is done, before any session is written: the input is known to hold transcripts
   * and the archive's layout is fixed (`report` then starts building the site).
   */
  onPlanned?: () => void;
}

/** What an export did. */
export interface ExportOutcome {
  index: ArchiveIndex;
  /** The sessions' skeletons (for diagnostics and counts). */
  sessions: Skeleton[];
  written: number;
  unchanged: number;
  /** Session files of a previous export that left the selection and were removed. */
  removed: number;
  /** Secrets redacted and home paths shortened (with `privacy`). */
  redacted: number;
  shortened: number;
}

const NO_PRIVACY: Privacy = { redact: false, shortHome: false };

/** Sessions whose fingerprints are taken at once, to find those that need no export. */
const PLANNED_AT_ONCE = 64;

/**
 * Exports the selected sessions. First every session is built without content, to find duplicates and
 * the archive layout; then each session is built again with content and written (a few at a time, in
 * worker threads), skipping sessions whose inputs did not change since the last export into the folder.
 * The index comes last, so a folder always has an index that matches complete session files. When the
 * filters leave no session, a folder is not touched.
 */
export async function exportArchive(options: ExportOptions): Promise<ExportOutcome> {
  const { selection, runner, progress } = options;
  // What `onPlanned` starts may change the working directory while sessions are written (the report's site
  // builder does): every folder is made absolute first.
  const target: ArchiveTarget =
    'dir' in options.target ? { dir: resolve(options.target.dir) } : options.target;
  const partsCacheDir = options.partsCacheDir === undefined ? undefined : resolve(options.partsCacheDir);
  const skeletonCache = options.skeletonCache === undefined ? undefined : resolve(options.skeletonCache);
  const privacy = options.privacy ?? NO_PRIVACY;
  const skeletons = await buildSkeletons(
    selection.sessions,
    selection.filters,
    progress,
    runner,
    skeletonCache,
  );
  const layout = planLayout(skeletons.sessions, privacy);
  options.onPlanned?.();
  const empty = skeletons.sessions.length === 0;
  const usage = totalUsage(skeletons.sessions.map((skeleton) => skeleton.digest.responses));
  // Duplicates and usage are known: their inputs can go before the second pass needs the memory.
  for (const { digest } of skeletons.sessions) {
    digest.uuids = [];
    digest.responses = [];
  }
  const dir = 'dir' in target ? target.dir : null;
  const state = dir === null ? null : new ExportState(dir);
  const outcome: Omit<ExportOutcome, 'index'> = {
    sessions: skeletons.sessions,
    written: 0,
    unchanged: 0,
    removed: 0,
    redacted: 0,
    shortened: 0,
  };
  const summaries = new Map<Skeleton, ArchiveSessionSummary>();
  // The project's working directory is read from the written (possibly shortened) sessions.
  const cwds = new Map<Skeleton, string | null>();
  const selectedOf = new Map(skeletons.sessions.map((skeleton, i) => [skeleton, skeletons.selected[i]!]));
  // Index order, so a stream lists sessions as the index does.
  const ordered = layout.projects.flatMap((project) => project.sessions);
  const slugs = partsCacheDir ? await siteSlugsOf(layout) : null;

  const toBuild: { skeleton: Skeleton; selected: SelectedSession; print: string | null; bytes: number }[] =
    [];
  // Sessions are planned many at a time: one after the other, the round trips of `reuse`'s `stat` would add
  // up, all the more when the main thread is busy (the report bundles its site meanwhile).
  await forEachOrdered(
    ordered,
    PLANNED_AT_ONCE,
    async (skeleton) => {
      // Paths inside the files are relative to the input root, so it is part of the fingerprint too.
      const selected = selectedOf.get(skeleton)!;
      // One `stat` of each file gives both the fingerprint and the size (the order of work).
      const files = fileStats(selected.discovered);
      const bytes = transcriptBytes(selected.discovered, files);
      if (state === null) return { print: null, reused: null, bytes };
      const file = layout.files.get(skeleton)!;
      const duplicateOf = skeleton.digest.stats.duplicateOf;
      const context = [codeVersion(), privacy, file, duplicateOf, selected.root];
      const print = fingerprint(selected.discovered, context, files);
      return { print, reused: await state.reuse(file, print), bytes };
    },
    ({ print, reused, bytes }, skeleton) => {
      const selected = selectedOf.get(skeleton)!;
      if (state === null || print === null || reused === null) {
        toBuild.push({ skeleton, selected, print, bytes });
        return;
      }
      summaries.set(skeleton, reused.summary);
      cwds.set(skeleton, reused.cwd);
      state.remember(layout.files.get(skeleton)!, print, reused.cwd, reused);
      // The file holds what was redacted when it was written: the count covers the whole archive.
      outcome.redacted += reused.redacted;
      outcome.shortened += reused.shortened;
      outcome.unchanged++;
      progress.tick();
    },
  );

  const exportOne = (item: (typeof toBuild)[number]): Promise<ExportResult> => {
    const { skeleton, selected } = item;
    const job: ExportJob = {
      kind: 'export',
      input: { discovered: selected.discovered, root: selected.root },
      duplicateOf: skeleton.digest.stats.duplicateOf,
      file: layout.files.get(skeleton)!,
      privacy,
      dir,
      partsCacheDir: partsCacheDir ?? null,
      slugs: slugs?.get(skeleton) ?? null,
    };
    // A huge session is exported in this thread, one at a time (see `JobRunner.runHere`).
    return item.bytes > LEAN_ABOVE_BYTES ? runner.runHere(job) : runner.run(job);
  };
  const written = async (result: ExportResult, { skeleton, print }: (typeof toBuild)[number]) => {
    progress.tick(skeleton.id.slice(0, 8));
    summaries.set(skeleton, result.summary);
    cwds.set(skeleton, result.cwd);
    outcome.redacted += result.redacted;
    outcome.shortened += result.shortened;
    if (result.outcome === 'unchanged') outcome.unchanged++;
    else outcome.written++;
    if ('stream' in target) for (const piece of result.text ?? []) await write(target.stream, piece);
    if (state !== null && print !== null) state.remember(result.summary.file, print, result.cwd, result);
  };
  if (dir !== null && runner.parallel) {
    // Into a folder, a result is a summary: the largest sessions go first, so the workers finish together.
    await forEachHeaviestFirst(toBuild, (item) => item.bytes, runner.capacity, exportOne, written);
  } else {
    // A stream's results hold whole session texts: a bounded window, in order.
    await forEachOrdered(toBuild, runner.capacity, exportOne, written);
  }

  const index: ArchiveIndex = {
    schemaVersion: 1,
    generator: { name: 'cctrail', version: cliVersion() },
    projects: layout.projects.map((project) => ({
      ...project.info,
      cwd: project.sessions.map((s) => cwds.get(s) ?? null).find((cwd) => cwd !== null) ?? null,
      sessions: project.sessions.map((s) => summaries.get(s)!),
    })),
    usage,
  };
  if ('stream' in target) {
    await write(target.stream, `${JSON.stringify(index)}\n`);
    return { ...outcome, index };
  }
  // Filters that match nothing leave an existing archive as it is.
  if (empty) return { ...outcome, index };
  const indexFile = join(target.dir, 'index.json');
  const previous = await readFile(indexFile, 'utf8')
    .then((text) => JSON.parse(text) as unknown)
    .catch(() => null);
  if ((await writeIfChanged(indexFile, indexJson(index))) === 'written') outcome.written++;
  else outcome.unchanged++;
  await state?.save();
  outcome.removed = await removeStale(target.dir, previous, index);
  return { ...outcome, index };
}

/** Writes to a stream, waiting when it is full. */
async function write(stream: Io['stdout'], text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
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

/** The archive layout: projects with sanitized unique ids, and each session's file path. */
interface Layout {
  projects: { info: Pick<ArchiveProject, 'id' | 'slug'>; sessions: Skeleton[] }[];
  files: Map<Skeleton, string>;
}

/**
 * Assigns archive paths: `sessions/<project id>/<session id>.json`, both ids sanitized and unique
 * (case-insensitively) within their folder. Projects are sorted by slug, sessions by id, so names are stable.
 * With `shortHome`, slugs such as `-home-alice-app` are written `~-app` (in the index and the paths).
 */
function planLayout(sessions: readonly Skeleton[], privacy: Privacy): Layout {
  const byProject = new Map<string, Skeleton[]>();
  for (const session of sessions) {
    const raw = session.project ?? '';
    const slug = privacy.shortHome ? shortenHome(raw).text : raw;
    const list = byProject.get(slug) ?? [];
    list.push(session);
    byProject.set(slug, list);
  }
  const projectNames = new NameAllocator();
  const files = new Map<Skeleton, string>();
  const projects: Layout['projects'] = [];
  for (const slug of [...byProject.keys()].sort(compare)) {
    const list = byProject.get(slug)!.sort((a, b) => compare(a.id, b.id));
    const id = projectNames.nameFor(slug === '' ? 'project' : slug);
    const sessionNames = new NameAllocator();
    for (const session of list)
      files.set(session, `${SESSIONS_FOLDER}/${id}/${sessionNames.nameFor(session.id)}.json`);
    projects.push({ info: { id, slug }, sessions: list });
  }
  return { projects, files };
}

/**
 * The slugs the report's site gives each session's project and the session itself, from the layout (which
 * fixes the index's projects and sessions), or null when the report builder is not installed.
 */
async function siteSlugsOf(
  layout: Layout,
): Promise<Map<Skeleton, { project: string; session: string }> | null> {
  const parts = await import('@cctrail/report/parts').catch(() => null);
  if (parts === null) return null;
  const slugs = parts.siteSlugs(
    layout.projects.map((p) => ({ id: p.info.id, sessions: p.sessions.map((s) => ({ id: s.id })) })),
  );
  const bySkeleton = new Map<Skeleton, { project: string; session: string }>();
  layout.projects.forEach((p, pi) => {
    p.sessions.forEach((s, si) => {
      const site = slugs[pi];
      if (site) bySkeleton.set(s, { project: site.project, session: site.sessions[si] ?? 'x' });
    });
  });
  return bySkeleton;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
