import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionRoute } from '../views/html/links.js';
import type { SiteManifest } from '../views/site/site-model.js';
import { agentPageKeys } from './agent-page-keys.js';
import { sessionPagesCodeKey } from './code-keys.js';

/**
 * Incremental rebuilds: session pages depend only on their session (its key covers the code of its
 * transcript fragments), on the code of the session pages (`sessionPagesCodeKey`) and the site bundle that
 * renders them, and on what every page shows (title, generator, base path, project names, agent slugs). When none of that changed since the last build, only
 * sessions whose content changed (or that are new, or moved) are rendered again; the other sessions' pages
 * stay as they are. So do the agents' pages whose keys did not change (`agentPageKeys`).
 */

/** What the last build rendered: the site-wide signature, each session's route and pages, the agents' pages' keys. */
export interface RenderState {
  signature: string;
  sessions: Record<string, { prefix: string; files: string[] }>;
  pages?: Record<string, string>;
}

/** Which sessions this build renders with Astro, and which pages it keeps from the last build. */
export interface RenderPlan {
  stateFile: string;
  signature: string;
  incremental: boolean;
  /** Keys of the sessions rendered (all of them when not incremental). */
  render: string[];
  /** Output files kept from the last build (pages of unchanged sessions, agents' pages of unchanged keys). */
  kept: string[];
  keptSessions: number;
  /** The routes of the agents' pages kept, and the key of each agents' page (`agentPageKeys`). */
  keptPages: string[];
  pageKeys: Map<string, string>;
  prefixes: Map<string, string>;
  previous: RenderState | null;
}

/**
 * Plans this build's rendering against the state the last build left in `stateFile` (see the module comment).
 * @param bundle The keys of the site's bundle: of what it draws the pages of sessions with
 *   (`SiteBundle.sessionPagesKey`), and of all of it (`SiteBundle.key`, which the agents' pages are drawn by).
 */
export function planRender(
  manifest: SiteManifest,
  stateFile: string,
  base: string,
  outDir: string,
  bundle: { sessionPagesKey: string; key: string },
): RenderPlan {
  const signature = createHash('sha1')
    .update(
      JSON.stringify([
        sessionPagesCodeKey(),
        bundle.sessionPagesKey,
        manifest.title,
        manifest.generator,
        base,
        manifest.agentTypes,
        manifest.projects.map((p) => [p.slug, p.name]),
        ...(manifest.repo ? [manifest.repo] : []),
      ]),
    )
    .digest('hex');
  let previous: RenderState | null = null;
  try {
    previous = JSON.parse(readFileSync(stateFile, 'utf8')) as RenderState;
  } catch {
    previous = null;
  }
  const prefixes = new Map<string, string>();
  for (const p of manifest.projects)
    for (const s of p.sessions) prefixes.set(s.key, sessionRoute(p.slug, s.slug));
  const incremental = previous?.signature === signature && existsSync(join(outDir, 'index.html'));
  const render: string[] = [];
  const kept: string[] = [];
  let keptSessions = 0;
  for (const [key, prefix] of prefixes) {
    const before = incremental ? previous?.sessions[key] : undefined;
    if (before && before.prefix === prefix && before.files.every((f) => existsSync(join(outDir, f)))) {
      kept.push(...before.files);
      keptSessions++;
    } else render.push(key);
  }
  const pageKeys = agentPageKeys(manifest, signature, bundle.key);
  const keptPages: string[] = [];
  for (const [route, key] of pageKeys) {
    const file = `${route}index.html`;
    if (incremental && previous?.pages?.[route] === key && existsSync(join(outDir, file))) {
      kept.push(file);
      keptPages.push(route);
    }
  }
  return {
    stateFile,
    signature,
    incremental,
    render,
    kept,
    keptSessions,
    keptPages,
    pageKeys,
    prefixes,
    previous,
  };
}

/**
 * The render state after this build: rendered sessions' pages as rendered, kept sessions' as before.
 * @param files The files this build rendered (`renderedFiles`).
 */
export function recordRender(plan: RenderPlan, files: readonly string[]): RenderState {
  const sessions: RenderState['sessions'] = {};
  const rendered = new Set(plan.render);
  for (const [key, prefix] of plan.prefixes) {
    if (!rendered.has(key) && plan.previous?.sessions[key]) {
      sessions[key] = plan.previous.sessions[key];
      continue;
    }
    // Routes end in `/`: the session's files are those below its route.
    sessions[key] = { prefix, files: files.filter((f) => f.startsWith(prefix)) };
  }
  return { signature: plan.signature, sessions, pages: Object.fromEntries(plan.pageKeys) };
}
