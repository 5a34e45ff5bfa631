import { sessionTitle } from '@cctrail/core';
import { pageHref, sessionRoute, sidechainRoute } from '../html/links.js';
import type { SiteManifest } from '../site/site-model.js';

/**
 * The search index: a classic script file (`search-index.js`) assigning `window.CCTRAIL_SEARCH`, so search
 * works from `file://` where `fetch` of local JSON is blocked.
 */

/** One searchable item. */
export interface SearchItem {
  /** Title. */
  t: string;
  /** Kind: `session` or `agent`. */
  k: 'session' | 'agent';
  /** Project display name. */
  p: string;
  /** Text searched besides the title (first prompt, agent types and descriptions). */
  x: string;
  /** Route of the page, relative to the site root, ending in `index.html`. */
  u: string;
  /** Start time, when known. */
  d: string | null;
}

/** Serializes JSON for a script: `<`, U+2028 and U+2029 escaped so no text can close or break the script. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The content of `search-index.js`: the items, and what the search page needs to find the files of the
 * transcript index (`build/search-files.ts`; null when there is none).
 */
export function searchIndexScript(items: readonly SearchItem[], transcripts: unknown = null): string {
  return `window.CCTRAIL_SEARCH = ${scriptJson(items)};\nwindow.CCTRAIL_SEARCH_FILES = ${scriptJson(transcripts)};\n`;
}

/** The search items of a site: every session, and every sub-agent run under its session's title. */
export function searchItems(m: SiteManifest): SearchItem[] {
  const items: SearchItem[] = [];
  for (const p of m.projects) {
    for (const s of p.sessions) {
      items.push({
        t: sessionTitle({ ...s.summary, id: s.id }),
        k: 'session',
        p: p.name,
        x: [
          s.summary.firstPrompt?.slice(0, 400) ?? '',
          s.id,
          ...new Set(s.sidechains.map((c) => c.agentType)),
        ].join(' '),
        u: pageHref('', sessionRoute(p.slug, s.slug)),
        d: s.summary.startedAt,
      });
      for (const c of s.sidechains) {
        items.push({
          t: `${c.agentType}${c.description ? `: ${c.description}` : ''}`,
          k: 'agent',
          p: p.name,
          x: `${sessionTitle({ ...s.summary, id: s.id })} ${c.id}`,
          u: pageHref('', sidechainRoute(p.slug, s.slug, c.slug)),
          d: c.startedAt,
        });
      }
    }
  }
  return items;
}
