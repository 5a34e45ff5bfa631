/**
 * Relative links. Every page knows its route (`''` for the index, `s/proj/sess/` for a session); links are
 * made relative to it and always end in `index.html`, so the site works from `file://` and under any base.
 */

/** `../` repeated once per folder of `route` (a route is `''` or folders ending in `/`). */
export function prefixFor(route: string): string {
  const depth = route.split('/').filter((s) => s !== '').length;
  return '../'.repeat(depth);
}

/** Link from the page at `from` to the page at `to` (both routes), pointing at its `index.html`. */
export function pageHref(from: string, to: string, hash?: string): string {
  const target = `${prefixFor(from)}${normalizeRoute(to)}index.html`;
  return hash ? `${target}#${hash}` : target;
}

/** Link from the page at `from` to a file of the site (e.g. `_cctrail/style.css`). */
export function assetHref(from: string, file: string): string {
  return `${prefixFor(from)}${file.replace(/^\/+/, '')}`;
}

/** Makes a route canonical: no leading slash, one trailing slash (or `''`). */
export function normalizeRoute(route: string): string {
  const parts = route.split('/').filter((s) => s !== '');
  return parts.length === 0 ? '' : `${parts.join('/')}/`;
}

/** Route of a project's session page (page 1) or a later transcript page. */
export function sessionRoute(project: string, session: string, page = 1): string {
  return page > 1 ? `s/${project}/${session}/p${page}/` : `s/${project}/${session}/`;
}

/** Route of a sidechain's transcript page. */
export function sidechainRoute(project: string, session: string, sidechain: string, page = 1): string {
  const base = `s/${project}/${session}/agent/${sidechain}/`;
  return page > 1 ? `${base}p${page}/` : base;
}

/** Route of an abandoned branch's page (`index` is the branch's position in `Session.branches`). */
export function branchRoute(project: string, session: string, index: number): string {
  return `s/${project}/${session}/branch/${index + 1}/`;
}

/** Route of the agents overview or of one agent type's page. */
export function agentsRoute(agentType?: string): string {
  return agentType ? `agents/${agentType}/` : 'agents/';
}

/** Id of an entry's anchor in a transcript. */
export function entryAnchor(uuid: string): string {
  return `e-${uuid.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
