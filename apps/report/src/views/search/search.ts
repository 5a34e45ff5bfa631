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
  const json = JSON.stringify(value);
  // One read of the text when nothing is to be escaped (a piece's terms and postings never are).
  return UNSAFE.test(json) ? json.replace(UNSAFE_ALL, (c) => ESCAPED[c] as string) : json;
}

const UNSAFE = /[<>\u2028\u2029]/;
const UNSAFE_ALL = /[<>\u2028\u2029]/g;
const ESCAPED: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

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
