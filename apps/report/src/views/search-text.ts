import MiniSearch from 'minisearch';
import type { EntryPlace } from './entry-locator.js';
import { pageHref } from './links.js';
import type { ContentBlock, Entry, Session } from './model.js';
import { scriptJson } from './search.js';
import { actorLabel } from './transcript.js';

/**
 * Full-text search inside transcripts: each session becomes one piece of the archive's index (a MiniSearch
 * index of its entries, serialized), computed while the session is loaded (the session is the archive's
 * redacted copy: what the pages show, nothing else). The build groups pieces into classic scripts
 * (`search-pieces.ts`) that the search page loads one after the other.
 */

/** Options of every piece's MiniSearch index; the search page loads pieces with the same `fields`. */
export const PIECE_OPTIONS = { fields: ['x'], idField: 'id' };

/** Most characters of a tool call's input indexed. */
const INPUT_CAP = 1_000;
/** Most characters of a tool result indexed (outputs are most of an archive's text, and mostly code). */
const OUTPUT_CAP = 2_000;
/** Characters of an entry's text kept to show under a result. */
const PREVIEW = 90;
/** Longer terms (hashes, base64, minified code) are not indexed. */
const LONGEST_TERM = 40;

/** The text of an entry that search finds, capped per block (tool outputs are long, and mostly code). */
export function entrySearchText(entry: Entry): string {
  if (entry.kind === 'progress') return '';
  const parts: string[] = [];
  for (const block of entry.content) parts.push(blockText(block));
  return parts.filter((p) => p !== '').join('\n');
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'thinking':
      return block.thinking;
    case 'tool_use':
      return `${block.name} ${inputText(block.input)}`.slice(0, INPUT_CAP);
    case 'tool_result':
      return block.content
        .map((item) => (item.type === 'text' ? item.text : ''))
        .join('\n')
        .slice(0, OUTPUT_CAP);
    default:
      return '';
  }
}

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null) return '';
  const out: string[] = [];
  for (const v of Object.values(input)) {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v))
      for (const item of v) {
        if (typeof item === 'object' && item !== null)
          for (const w of Object.values(item)) if (typeof w === 'string') out.push(w);
      }
  }
  return out.join(' ');
}

/** Words: runs of letters and digits (one regular expression, faster than MiniSearch's default). */
function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u);
}

/** A term as indexed: lower case, or dropped (empty, or too long to be typed). */
function indexTerm(term: string): string | null {
  return term === '' || term.length > LONGEST_TERM ? null : term.toLowerCase();
}

/**
 * The search piece of one session, as the text of a JSON object (safe inside a script):
 * `{ s: session page link, r: [page links], d: [[page, anchor, label], …], i: <MiniSearch> }`, where
 * document `n` of the index is `d[n]` (the page finds the session's title by its link in `search-index.js`).
 * Null when nothing in the session has text.
 *
 * @param session The session (the archive's copy, redacted by the CLI).
 * @param locate Where each entry is shown (`entryLocator`).
 * @param sessionRoute The route of the session's first page.
 */
export function searchPiece(
  session: Session,
  locate: (e: Entry) => EntryPlace | null,
  sessionRoute: string,
): string | null {
  const routes = new Map<string, number>();
  const docs: [number, string, string][] = [];
  const index = new MiniSearch({ ...PIECE_OPTIONS, tokenize: words, processTerm: indexTerm });
  for (const entry of session.entries) {
    const text = entrySearchText(entry);
    if (!/\S/.test(text)) continue;
    const place = locate(entry);
    if (!place) continue;
    let r = routes.get(place.route);
    if (r === undefined) {
      r = routes.size;
      routes.set(place.route, r);
    }
    const preview = text
      .slice(0, PREVIEW * 4)
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, PREVIEW);
    index.add({ id: docs.length, x: text });
    docs.push([r, place.anchor, `${actorLabel(entry)}: ${preview}`]);
  }
  if (docs.length === 0) return null;
  const links = [...routes.keys()].map((route) => pageHref('', route));
  return `{"s":${scriptJson(pageHref('', sessionRoute))},"r":${scriptJson(links)},"d":${scriptJson(docs)},"i":${scriptJson(index)}}`;
}
