import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type AgentRun, agentRunOf } from '../views/agents.js';
import { loadIndex, parseSession } from './load.js';
import type { ArchiveSessionSummary, Session } from '../views/model.js';
import { PAGE_SIZE, paginate } from '../views/paginate.js';
import { shortHash, uniqueSlugs } from './slugs.js';
import { activeEntries } from '../views/transcript.js';

/**
 * The site manifest: everything the pages need to know about the archive without opening session files
 * (routes, slugs, page counts, sidechains, branches, agent runs). It is computed once per build by reading one
 * session at a time; each session's part is cached by a hash of its bytes, so a rebuild parses only changed
 * sessions (the CLI exports to a new temporary folder each time: paths and times do not identify a file).
 */

/** Bumped whenever rendering or the cache layout changes, so the cache of older builds is not reused. */
export const RENDER_VERSION = 6;

/** A sidechain as the pages list it. */
export interface ManifestSidechain extends AgentRun {
  /** Unique within its session, used in the route. */
  slug: string;
  pages: number;
}

/** An abandoned branch as the pages list it. */
export interface ManifestBranch {
  /** Position in `Session.branches`. */
  index: number;
  branchPoint: string;
  head: string;
  entries: number;
  startedAt: string | null;
  pages: number;
}

/** One session of the manifest. */
export interface ManifestSession {
  id: string;
  /** Unique within its project, used in routes. */
  slug: string;
  /** Absolute path of the session file. */
  file: string;
  /** Cache key: changes when the file or the renderer changes. */
  key: string;
  summary: ArchiveSessionSummary;
  /** Problems reading the file; the session is then listed with them and has no transcript. */
  loadErrors: string[];
  activeEntries: number;
  pages: number;
  models: string[];
  sidechains: ManifestSidechain[];
  branches: ManifestBranch[];
}

/** One project of the manifest. */
export interface ManifestProject {
  /** Archive folder id. */
  id: string;
  /** Unique (case-insensitively) among projects, used in routes. */
  slug: string;
  /** Display name: the working directory when known. */
  name: string;
  sessions: ManifestSession[];
}

/** The site manifest. */
export interface SiteManifest {
  title: string;
  generator: string;
  dataDir: string;
  cacheDir: string | null;
  projects: ManifestProject[];
  /** Agent types with their unique slug for `/agents/<slug>/` (an array: types are hostile keys). */
  agentTypes: { type: string; slug: string }[];
  /** Problems with `index.json` itself. */
  indexErrors: string[];
  /**
   * Cache keys of the sessions whose pages this build renders; absent: all. An incremental rebuild renders
   * only changed sessions (and the site-wide pages) and keeps the other sessions' pages from the last build.
   */
  render?: string[];
}

/** What the manifest keeps of a session file (cached by the file's identity). */
export interface CachedPart {
  activeEntries: number;
  models: string[];
  sidechains: Omit<ManifestSidechain, 'slug'>[];
  branches: ManifestBranch[];
  loadErrors: string[];
}

/** Summarizes one loaded session for the manifest (pure). */
export function summarizeSession(session: Session): CachedPart {
  return {
    activeEntries: activeEntries(session).length,
    models: session.models ?? [],
    sidechains: session.sidechains.map((sc) => {
      const run = agentRunOf(session, sc);
      return { ...run, pages: paginate(sc.entries).length };
    }),
    branches: session.branches.map((b, index) => ({
      index,
      branchPoint: b.branchPoint,
      head: b.head,
      entries: b.entries,
      startedAt: b.startedAt,
      pages: paginate(b.entries).length,
    })),
    loadErrors: [],
  };
}

/**
 * A session file's cache key: a hash of the renderer version and the file's identity (path, inode, size,
 * modification time). Archives are written atomically (a new inode per write) and only when a file changes,
 * so the key changes exactly when the content may have, without reading hundreds of megabytes to hash them.
 */
export function keyOf(file: string): { key: string; error?: string } {
  try {
    const st = statSync(file);
    const identity = `${RENDER_VERSION}\n${file}\n${st.ino}\n${st.size}\n${st.mtimeMs}`;
    return { key: createHash('sha1').update(identity).digest('hex').slice(0, 16) };
  } catch (error) {
    return { key: shortHash(`missing|${file}`), error: `cannot read ${file}: ${(error as Error).message}` };
  }
}

/** Reads a session file's text, or the reason it cannot be read. */
function readText(file: string): { text: string } | { error: string } {
  try {
    return { text: readFileSync(file, 'utf8') };
  } catch (error) {
    return { error: `cannot read ${file}: ${(error as Error).message}` };
  }
}

/** A session's part from the cache, or computed (and cached when the session loads). */
function partOf(file: string, error: string | undefined, cached: string | null): CachedPart {
  if (cached) {
    try {
      return JSON.parse(readFileSync(cached, 'utf8')) as CachedPart;
    } catch {
      // not cached yet, or unreadable: computed again
    }
  }
  const read = error === undefined ? readText(file) : { error };
  const loaded =
    'text' in read ? parseSession(read.text, file) : { ok: false as const, errors: [read.error] };
  const part = loaded.ok
    ? summarizeSession(loaded.value)
    : { activeEntries: 0, models: [], sidechains: [], branches: [], loadErrors: loaded.errors };
  if (cached && loaded.ok) writeFileSync(cached, JSON.stringify(part));
  return part;
}

/** A session whose manifest part is not in the cache yet: its file, size, and where its part goes. */
export interface PendingPart {
  file: string;
  bytes: number;
  cached: string;
}

/**
 * The sessions of an archive whose parts `buildManifest` would have to compute (reading and parsing their
 * files): `computePart` can compute them beforehand, in worker threads. Empty without a cache folder.
 */
export function pendingParts(options: Pick<ManifestOptions, 'dataDir' | 'cacheDir'>): PendingPart[] {
  if (!options.cacheDir) return [];
  const dataDir = resolve(options.dataDir);
  const index = loadIndex(join(dataDir, 'index.json'));
  if (!index.ok) return [];
  const partsDir = join(options.cacheDir, 'parts');
  const out: PendingPart[] = [];
  for (const project of index.value.projects) {
    for (const summary of project.sessions) {
      const file = resolve(dataDir, summary.file);
      const { key, error } = keyOf(file);
      const cached = join(partsDir, `${key}.json`);
      if (error === undefined && !existsSync(cached)) out.push({ file, bytes: statSync(file).size, cached });
    }
  }
  return out;
}

/** Computes the manifest part of a pending session into the cache (when its file loads). */
export function computePart(pending: PendingPart): void {
  mkdirSync(dirname(pending.cached), { recursive: true });
  partOf(pending.file, undefined, pending.cached);
}

/**
 * Caches the part of a session file that its writer computed from the session it wrote (with
 * `summarizeSession`), so that the report does not read the file again. Call it after the file is in place:
 * the cache key is the file's identity.
 *
 * @param file The session file, as written.
 * @param part Its part.
 * @param cacheDir The report's cache folder (`BuildReportOptions.cacheDir`).
 */
export function storePart(file: string, part: CachedPart, cacheDir: string): void {
  const { key, error } = keyOf(resolve(file));
  if (error !== undefined) return;
  const cached = join(cacheDir, 'parts', `${key}.json`);
  mkdirSync(dirname(cached), { recursive: true });
  writeFileSync(cached, JSON.stringify(part));
}

/** Options of `buildManifest`. */
export interface ManifestOptions {
  dataDir: string;
  cacheDir: string | null;
  title: string;
  log?: (msg: string) => void;
}

/** Reads the archive folder and computes the manifest, reusing cached session parts. */
export function buildManifest(options: ManifestOptions): SiteManifest {
  const dataDir = resolve(options.dataDir);
  const index = loadIndex(join(dataDir, 'index.json'));
  const manifest: SiteManifest = {
    title: options.title,
    generator: index.ok
      ? `${index.value.generator?.name ?? 'cctrail'} ${index.value.generator?.version ?? ''}`.trim()
      : 'cctrail',
    dataDir,
    cacheDir: options.cacheDir,
    projects: [],
    agentTypes: [],
    indexErrors: index.ok ? [] : index.errors,
  };
  if (!index.ok) return manifest;
  const partsDir = options.cacheDir ? join(options.cacheDir, 'parts') : null;
  if (partsDir) mkdirSync(partsDir, { recursive: true });
  const slugs = siteSlugs(index.value.projects);
  index.value.projects.forEach((project, pi) => {
    const sessions = project.sessions.map((summary, si): ManifestSession => {
      const file = resolve(dataDir, summary.file);
      const { key, error } = keyOf(file);
      const part = partOf(file, error, partsDir ? join(partsDir, `${key}.json`) : null);
      return manifestSession({ summary, slug: slugs[pi]?.sessions[si] ?? 'x', file, key, part });
    });
    manifest.projects.push({
      id: project.id,
      slug: slugs[pi]?.project ?? 'x',
      name: project.cwd ?? project.slug ?? project.id,
      sessions,
    });
  });
  const types = [
    ...new Set(
      manifest.projects.flatMap((p) => p.sessions.flatMap((s) => s.sidechains.map((c) => c.agentType))),
    ),
  ].sort();
  const typeSlugs = uniqueSlugs(types);
  manifest.agentTypes = types.map((type, i) => ({ type, slug: typeSlugs[i] ?? 'x' }));
  return manifest;
}

/**
 * The slugs of an archive's projects and sessions, as routes use them: unique among projects, and among the
 * sessions of a project. They depend on the index only, so an exporter can know them before any session of
 * the archive is written.
 *
 * @param projects The projects of `index.json` (ids, and their sessions' ids), in index order.
 * @returns For each project, its slug and its sessions' slugs, in the same order.
 */
export function siteSlugs(
  projects: readonly { id: string; sessions: readonly { id: string }[] }[],
): { project: string; sessions: string[] }[] {
  const projectSlugs = uniqueSlugs(projects.map((p) => p.id));
  return projects.map((p, i) => ({
    project: projectSlugs[i] ?? 'x',
    sessions: uniqueSlugs(p.sessions.map((s) => s.id)),
  }));
}

/** A session of the manifest, from its index line, its slug, its file and cache key, and its part. */
export function manifestSession(options: {
  summary: ArchiveSessionSummary;
  slug: string;
  file: string;
  key: string;
  part: CachedPart;
}): ManifestSession {
  const { summary, slug, file, key, part } = options;
  const scSlugs = uniqueSlugs(part.sidechains.map((s) => s.id));
  return {
    id: summary.id,
    slug,
    file,
    key,
    summary,
    loadErrors: part.loadErrors,
    activeEntries: part.activeEntries,
    pages: Math.max(1, Math.ceil(part.activeEntries / PAGE_SIZE)),
    models: part.models,
    sidechains: part.sidechains.map((s, i) => ({ ...s, slug: scSlugs[i] ?? 'x' })),
    branches: part.branches,
  };
}

/** Slug of an agent type's page, or null for a type the manifest does not know. */
export function agentSlug(manifest: SiteManifest, type: string): string | null {
  return manifest.agentTypes.find((a) => a.type === type)?.slug ?? null;
}
