import { dirname } from 'node:path';
import { loadHighlighter } from '../views/highlight.js';
import { forgetSession, rememberSession } from './load.js';
import {
  type CachedPart,
  keyOf,
  type ManifestProject,
  type ManifestSession,
  manifestSession,
  type SiteManifest,
} from './manifest.js';
import type { ArchiveSessionSummary, Session } from '../views/model.js';
import type { PageProps } from './site.js';
import { allRoutes } from './site.js';
import { fragmentKey, hasFragment, type TranscriptScope, transcriptFragment } from '../views/views.js';

/**
 * Renders the transcript fragments of a set of sessions into the cache, so that Astro's page rendering
 * only reads them. `buildReport` runs this in worker threads, one share of the sessions each: this is where
 * a build spends its time (markdown, highlighting), and it is the part that runs in parallel.
 */

/** A transcript page to render: its session (`project/session` slugs), scope, page and route. */
interface PendingPage {
  session: string;
  project: ManifestProject;
  manifestSession: ManifestSession;
  scope: TranscriptScope;
  page: number;
  route: string;
}

/** Transcript pages whose fragment is not in the cache yet, for the sessions in `keys` (all when omitted). */
function pendingPages(m: SiteManifest, keys?: ReadonlySet<string>): PendingPage[] {
  const out: PendingPage[] = [];
  for (const r of allRoutes(m)) {
    const p = r.props as PageProps;
    if (p.kind !== 'session' && p.kind !== 'sidechain' && p.kind !== 'branch') continue;
    const key = `${p.project}/${p.session}`;
    if (keys && !keys.has(key)) continue;
    const project = m.projects.find((x) => x.slug === p.project);
    const session = project?.sessions.find((x) => x.slug === p.session);
    if (!project || !session) continue;
    const scope: TranscriptScope =
      p.kind === 'session'
        ? { kind: 'main' }
        : p.kind === 'sidechain'
          ? { kind: 'sidechain', slug: p.sidechain }
          : { kind: 'branch', index: p.branch };
    if (hasFragment(m, fragmentKey(project.slug, session, scope, p.page))) continue;
    out.push({ session: key, project, manifestSession: session, scope, page: p.page, route: r.route });
  }
  return out;
}

/**
 * Sessions with pages to render, as `project/session` slug keys, split into at most `n` shares of about equal
 * work (pages not cached yet); empty when everything is cached.
 */
export function shareSessions(m: SiteManifest, n: number): string[][] {
  const weights = new Map<string, number>();
  for (const p of pendingPages(m)) weights.set(p.session, (weights.get(p.session) ?? 0) + 1);
  const shares: { keys: string[]; weight: number }[] = Array.from({ length: Math.max(1, n) }, () => ({
    keys: [],
    weight: 0,
  }));
  for (const [key, weight] of [...weights].sort((a, b) => b[1] - a[1])) {
    const lightest = shares.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.keys.push(key);
    lightest.weight += weight;
  }
  return shares.map((s) => s.keys).filter((k) => k.length > 0);
}

/** Renders (into the cache) the transcript pages of the given sessions not cached yet; returns how many. */
export function prerenderSessions(m: SiteManifest, keys: readonly string[]): number {
  const pages = pendingPages(m, new Set(keys));
  for (const p of pages) transcriptFragment(m, p.project.slug, p.manifestSession, p.scope, p.page, p.route);
  return pages.length;
}

/** A session its writer has just written, with what the site will know of it. */
export interface WrittenSession {
  /** The session file, as written (absolute path). */
  file: string;
  /** The session, equal to the file's content (redacted as the file is). */
  session: Session;
  /** Its line in `index.json`. */
  summary: ArchiveSessionSummary;
  /** Its manifest part (`summarizeSession`). */
  part: CachedPart;
  /** Slugs of its project and of itself (`siteSlugs` of the archive's index). */
  projectSlug: string;
  sessionSlug: string;
  /** The report's cache folder (`BuildReportOptions.cacheDir`). */
  cacheDir: string;
}

/**
 * Renders the transcript fragments of a session that was just written into the cache, from the session in
 * memory: the build then finds them there and neither reads nor parses the file again. Fragments are keyed by
 * the file's identity and the slugs, so if the build sees the session otherwise (other slugs, a file written
 * again), it does not use them and renders its own. Call it after the file is in place.
 *
 * @returns The number of transcript pages rendered.
 */
export async function prerenderWritten(written: WrittenSession): Promise<number> {
  const { key, error } = keyOf(written.file);
  if (error !== undefined) return 0;
  const session = manifestSession({
    summary: written.summary,
    slug: written.sessionSlug,
    file: written.file,
    key,
    part: written.part,
  });
  const manifest: SiteManifest = {
    title: '',
    generator: '',
    dataDir: dirname(written.file),
    cacheDir: written.cacheDir,
    projects: [{ id: written.projectSlug, slug: written.projectSlug, name: '', sessions: [session] }],
    agentTypes: [],
    indexErrors: [],
  };
  await loadHighlighter();
  rememberSession(written.file, key, written.session);
  try {
    return prerenderSessions(manifest, [`${written.projectSlug}/${written.sessionSlug}`]);
  } finally {
    forgetSession(written.file, key);
  }
}
