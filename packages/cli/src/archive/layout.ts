import type { ArchiveProject } from '@cctrail/core/archive';
import { COMPRESSED } from '../files/atomic-write.js';
import { NameAllocator } from '../files/sanitize.js';
import { shortenHome } from '../privacy/home-paths.js';
import { redactText } from '../privacy/redact.js';
import type { Privacy } from '../privacy/transform.js';

/** Folder of the session files inside an archive. */
const SESSIONS_FOLDER = 'sessions';

/** What the layout needs of a session: its id and its project's slug. */
export interface Placed {
  id: string;
  project: string | null;
}

/** The archive layout: projects with sanitized unique ids, and each session's file path. */
export interface Layout<T extends Placed> {
  projects: { info: Pick<ArchiveProject, 'id' | 'slug'>; sessions: T[] }[];
  files: Map<T, string>;
}

/**
 * Assigns archive paths: `sessions/<project id>/<session id>.json`, both ids sanitized and unique
 * (case-insensitively) within their folder. Projects are sorted by slug, sessions by id, so names are stable.
 * With `shortHome`, slugs such as `-home-alice-app` are written `~-app` (in the index and the paths).
 * Compressed, files are `….json.br` (see `COMPRESSED`).
 *
 * @param sessions The sessions of the archive.
 * @param privacy The export's privacy options.
 * @param compressed Whether session files are written compressed.
 */
export function planLayout<T extends Placed>(
  sessions: readonly T[],
  privacy: Privacy,
  compressed = false,
): Layout<T> {
  const extension = compressed ? `.json${COMPRESSED}` : '.json';
  const byProject = new Map<string, T[]>();
  for (const session of sessions) {
    // A folder named after a secret must not name the archive's folders nor the pages' addresses.
    const raw = privacy.redact ? redactText(session.project ?? '').text : (session.project ?? '');
    const slug = privacy.shortHome ? shortenHome(raw).text : raw;
    const list = byProject.get(slug) ?? [];
    list.push(session);
    byProject.set(slug, list);
  }
  const projectNames = new NameAllocator();
  const files = new Map<T, string>();
  const projects: Layout<T>['projects'] = [];
  for (const slug of [...byProject.keys()].sort(compare)) {
    const list = byProject.get(slug)!.sort((a, b) => compare(a.id, b.id));
    const id = projectNames.nameFor(projectName(slug));
    const sessionNames = new NameAllocator();
    for (const session of list)
      files.set(session, `${SESSIONS_FOLDER}/${id}/${sessionNames.nameFor(session.id)}${extension}`);
    projects.push({ info: { id, slug }, sessions: list });
  }
  return { projects, files };
}

/**
 * The layout of some of its sessions: each keeps the path the whole layout gave it, and projects left without a
 * session are left out.
 *
 * @param layout The layout of every session.
 * @param sessions The sessions to keep.
 */
export function layoutOf<T extends Placed>(layout: Layout<T>, sessions: readonly T[]): Layout<T> {
  const kept = new Set(sessions);
  const projects = layout.projects
    .map(({ info, sessions: all }) => ({ info, sessions: all.filter((s) => kept.has(s)) }))
    .filter((project) => project.sessions.length > 0);
  return { projects, files: layout.files };
}

function projectName(slug: string): string {
  return slug === '' ? 'project' : slug;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
