/**
 * Where the report folder has the last transcript page of a transcript file: the page its live entries go to.
 */

import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * The URL path of the last transcript page of a transcript's session (a main file) or agent (a file under
 * `<session>/subagents/`), when the report has that page; null otherwise (a session the report does not show,
 * or whose folder is not found under one name).
 */
export function lastPage(root: string, file: string): string | null {
  const name = slug(basename(file, '.jsonl'));
  const agent = basename(dirname(file)) === 'subagents';
  const session = agent ? slug(basename(dirname(dirname(file)))) : name;
  let projects: string[];
  try {
    projects = readdirSync(join(root, 's'));
  } catch {
    return null;
  }
  const found = projects.filter((p) => existsSync(join(root, 's', p, session, 'index.html')));
  if (found.length !== 1) return null;
  const base = agent ? `s/${found[0]}/${session}/agent/${name}` : `s/${found[0]}/${session}`;
  if (!existsSync(join(root, base, 'index.html'))) return null;
  let last = 1;
  for (const entry of readdirSync(join(root, base))) {
    const page = /^p(\d+)$/.exec(entry);
    if (page && existsSync(join(root, base, entry, 'index.html'))) last = Math.max(last, Number(page[1]));
  }
  return `/${base}/${last > 1 ? `p${last}/` : ''}`;
}

/** The report's slug of an id (ids of sessions and agents are already `[a-z0-9-]` but for case). */
function slug(id: string): string {
  return id.toLowerCase();
}
