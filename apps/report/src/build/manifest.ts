import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { applyTeammates } from '../views/agents/teammate-view.js';
import type { ArchiveIndex, ArchiveProject, ArchiveSessionSummary } from '../views/model.js';
import type { CachedPart } from '../views/site/session-part.js';
import type { ManifestSession, SiteManifest } from '../views/site/site-model.js';
import { sessionCodeKey } from './code-keys.js';
import { fileError, type Loaded, loadIndex } from './load.js';
import { type PackWriter, readEntry } from './packs.js';
import { shortHash, uniqueSlugs } from './slugs.js';

/**
 * The site manifest (`views/site/site-model.ts`), computed once per build from the archive's index and one part per
 * session (`views/site/session-part.ts`). Parts are cached by the session file's identity, so a rebuild reads only
 * changed sessions (the CLI exports to a new temporary folder each time: paths and times do not identify a
 * file).
 */

/**
 * A session file's cache key: a hash of the code of what is cached per session file (`sessionCodeKey`: its
 * part, fragments and search piece) and of the file's identity (path, inode, size, modification time).
 * Archives are written atomically (a new inode per write) and only when a file changes, so the key changes
 * exactly when the content may have, without reading hundreds of megabytes to hash them.
 * @returns The key, and the file's size from the same `stat` (0 when it cannot be read).
 */
export function keyOf(file: string): { key: string; bytes: number; error?: string } {
  try {
    const st = statSync(file);
    const identity = `${sessionCodeKey()}\n${file}\n${st.ino}\n${st.size}\n${st.mtimeMs}`;
    return { key: createHash('sha1').update(identity).digest('hex').slice(0, 16), bytes: st.size };
  } catch (error) {
    return {
      key: shortHash(`missing|${file}`),
      bytes: 0,
      error: fileError(file, error),
    };
  }
}

/** A session of the archive as the index lists it, with its file, cache key and slugs. */
export interface ListedSession {
  /** Absolute path of the session file. */
  file: string;
  key: string;
  /** Why the file cannot be read, when it cannot. */
  keyError?: string;
  /** Size of the file in bytes (0 when it cannot be read). */
  bytes: number;
  summary: ArchiveSessionSummary;
  projectSlug: string;
  sessionSlug: string;
}

/** The archive folder as its index lists it. */
export interface ArchiveListing {
  dataDir: string;
  index: Loaded<ArchiveIndex>;
  projects: { project: ArchiveProject; slug: string; sessions: ListedSession[] }[];
}

/** Reads an archive folder's `index.json` and lists its sessions with their files, versions and slugs. */
export function listArchive(dataDir: string): ArchiveListing {
  const dir = resolve(dataDir);
  const index = loadIndex(join(dir, 'index.json'));
  if (!index.ok) return { dataDir: dir, index, projects: [] };
  const slugs = siteSlugs(index.value.projects);
  const projects = index.value.projects.map((project, pi) => ({
    project,
    slug: slugs[pi]?.project ?? 'x',
    sessions: project.sessions.map((summary, si): ListedSession => {
      const file = resolve(dir, summary.file);
      const { key, bytes, error } = keyOf(file);
      return {
        file,
        key,
        ...(error === undefined ? {} : { keyError: error }),
        bytes,
        summary,
        projectSlug: slugs[pi]?.project ?? 'x',
        sessionSlug: slugs[pi]?.sessions[si] ?? 'x',
      };
    }),
  }));
  return { dataDir: dir, index, projects };
}

/** The entry of a session version's part in its pack (`packs.ts`). */
function partEntry(key: string): string {
  return `${key}.part`;
}

/** The cached part of a session version, or null when it is not cached (or unreadable). */
export function cachedPart(cacheDir: string, key: string): CachedPart | null {
  try {
    const bytes = readEntry(cacheDir, partEntry(key));
    return bytes ? (JSON.parse(bytes.toString('utf8')) as CachedPart) : null;
  } catch {
    return null;
  }
}

/** Caches the part of a session version in its pack. */
export function cachePart(pack: PackWriter, key: string, part: CachedPart): void {
  pack.put(partEntry(key), Buffer.from(JSON.stringify(part), 'utf8'));
}

/** The part of a session version in the pack already there (the one `pack` writes anew), or null. */
export function packedPart(pack: PackWriter, key: string): CachedPart | null {
  try {
    const bytes = pack.old(partEntry(key));
    return bytes ? (JSON.parse(bytes.toString('utf8')) as CachedPart) : null;
  } catch {
    return null;
  }
}

/** Keeps the cached part of a session version in the pack written (it is in the pack already there). */
export function keepPart(pack: PackWriter, key: string): void {
  pack.keep(partEntry(key));
}

/** Options of `buildManifest`. */
export interface ManifestOptions {
  listing: ArchiveListing;
  /** The part of every session of the listing, by file. */
  parts: ReadonlyMap<string, CachedPart>;
  cacheDir: string | null;
  title: string;
}

/** The site manifest of an archive listing and its sessions' parts. */
export function buildManifest(options: ManifestOptions): SiteManifest {
  const { listing } = options;
  const index = listing.index;
  const manifest: SiteManifest = {
    title: options.title,
    generator: index.ok
      ? `${index.value.generator?.name ?? 'cctrail'} ${index.value.generator?.version ?? ''}`.trim()
      : 'cctrail',
    dataDir: listing.dataDir,
    cacheDir: options.cacheDir,
    projects: [],
    agentTypes: [],
    indexErrors: index.ok ? [] : index.errors,
    ...(index.ok && index.value.conversations ? { conversations: index.value.conversations } : {}),
    ...(index.ok && index.value.teammates ? { teammates: index.value.teammates } : {}),
    ...(index.ok && index.value.diagnostics ? { skipped: index.value.diagnostics } : {}),
  };
  if (index.ok && index.value.cost) manifest.cost = index.value.cost;
  for (const { project, slug, sessions } of listing.projects) {
    manifest.projects.push({
      id: project.id,
      slug,
      name: project.cwd ?? project.slug ?? project.id,
      folder: project.slug ?? null,
      sessions: sessions.map((s) => {
        const part = options.parts.get(s.file);
        if (!part) throw new Error(`no part for ${s.file}: the session pass did not run`);
        return manifestSession(s, part);
      }),
    });
  }
  const types = [
    ...new Set(
      manifest.projects.flatMap((p) => p.sessions.flatMap((s) => s.sidechains.map((c) => c.agentType))),
    ),
  ].sort();
  const typeSlugs = uniqueSlugs(types);
  manifest.agentTypes = types.map((type, i) => ({ type, slug: typeSlugs[i] ?? 'x' }));
  applyTeammates(manifest);
  return manifest;
}

/**
 * The slugs of an archive's projects and sessions, as routes use them: unique among projects, and among the
 * sessions of a project. They depend on the index only.
 *
 * @param projects The projects of `index.json` (ids, and their sessions' ids), in index order.
 * @returns For each project, its slug and its sessions' slugs, in the same order.
 */
function siteSlugs(
  projects: readonly { id: string; sessions: readonly { id: string }[] }[],
): { project: string; sessions: string[] }[] {
  const projectSlugs = uniqueSlugs(projects.map((p) => p.id));
  return projects.map((p, i) => ({
    project: projectSlugs[i] ?? 'x',
    sessions: uniqueSlugs(p.sessions.map((s) => s.id)),
  }));
}

/**
 * A session of the manifest, from the archive's listing of it (its index line, slug, file and cache key) and its
 * part.
 */
export function manifestSession(
  listed: Pick<ListedSession, 'summary' | 'sessionSlug' | 'file' | 'key'>,
  part: CachedPart,
): ManifestSession {
  const { summary, sessionSlug: slug, file, key } = listed;
  const scSlugs = uniqueSlugs(part.sidechains.map((s) => s.id));
  return {
    id: summary.id,
    slug,
    file,
    key,
    summary,
    loadErrors: part.loadErrors,
    activeEntries: part.activeEntries,
    pages: Math.max(1, part.activePages),
    models: part.models,
    sidechains: part.sidechains.map((s, i) => ({ ...s, slug: scSlugs[i] ?? 'x' })),
    branches: part.branches,
    cost: part.cost ?? null,
  };
}
