import { scriptJson } from '../views/search/search.js';
import { PostingsMerge } from '../views/search/search-codec.js';
import { inQuotes, readPiece } from '../views/search/search-piece.js';

/**
 * The files of the transcript index, merged from the sessions' pieces (`views/search/search-text.ts`), newest
 * session first: the entries are numbered across the archive in that order.
 *
 * - `_cctrail/search/t<n>.js`: the terms in sorted order, cut into files of about `TERM_FILE_CHARS`, each
 *   with its postings; a word needs one file, a prefix the files its range of terms spans;
 * - `_cctrail/search/d<n>.js`: `DOCS_PER_FILE` entries a file (page, anchor, first words) and the links of
 *   the pages they are on, loaded for the results shown.
 *
 * Each is a classic script calling `window.CCTRAIL_SEARCH_TERMS` or `…_DOCS` with its number and a string, so
 * the search page can load them from `file://` (where `fetch` of local files is refused). What the page needs
 * to find a term's file (`SearchMeta`) goes into `search-index.js`.
 */

/** Characters of a term file, about (a term with more postings gets a file of its own). */
export const TERM_FILE_CHARS = 100_000;
/** Entries in a file of entries. */
export const DOCS_PER_FILE = 64;

/** How the search page finds the files of a query: entries in all, entries a file, first term of each file. */
interface SearchMeta {
  n: number;
  k: number;
  t: string[];
}

/** The transcript index: what the page needs to find files (null without any entry), and the files. */
export interface SearchIndex {
  meta: SearchMeta | null;
  files: SearchFile[];
}

/** A file of the transcript index: its path in the site and its text. */
export interface SearchFile {
  name: string;
  text: string;
}

/** A string literal (single quotes) holding the text. */
function literal(text: string): string {
  return `'${inQuotes(text)}'`;
}

/** The index of the pieces (texts of `searchPiece`, newest session first). */
export function searchFiles(pieces: readonly string[]): SearchIndex {
  // Each term's postings in the pieces that have it, as written, with the number of the piece's first entry:
  // merged term by term in sorted order (`PostingsMerge`), never decoded into arrays of numbers.
  const terms = new Map<string, (string | number)[]>();
  const sessions: [string, string[]][] = [];
  // Each entry: its session, its page in the session's list, and its anchor and label as written in files.
  const docs: [number, number, string][] = [];
  for (const text of pieces) {
    const piece = readPiece(text);
    const base = docs.length;
    sessions.push([piece.s, piece.r]);
    for (const d of piece.d) docs.push([sessions.length - 1, ...d]);
    for (const [term, code] of piece.t) {
      const all = terms.get(term);
      if (all) all.push(base, code);
      else terms.set(term, [base, code]);
    }
  }
  if (docs.length === 0) return { meta: null, files: [] };
  const termFiles: string[][] = [];
  const firstTerms: string[] = [];
  let chars = Number.POSITIVE_INFINITY;
  for (const term of [...terms.keys()].sort()) {
    const merge = new PostingsMerge();
    const all = terms.get(term) ?? [];
    for (let i = 0; i < all.length; i += 2) merge.append(all[i + 1] as string, all[i] as number);
    terms.delete(term);
    const entry = `${term} ${merge}`;
    if (chars > 0 && chars + entry.length > TERM_FILE_CHARS) {
      termFiles.push([]);
      firstTerms.push(term);
      chars = 0;
    }
    termFiles.at(-1)?.push(entry);
    chars += entry.length + 1;
  }
  const files = termFiles.map((entries, n) => ({
    name: `_cctrail/search/t${n}.js`,
    text: `window.CCTRAIL_SEARCH_TERMS(${n},${literal(entries.join(','))});\n`,
  }));
  for (let n = 0; n * DOCS_PER_FILE < docs.length; n++) {
    // Entries name their session by its place in the file's own list of sessions, and their page by its place
    // in that session's list of the pages this file's entries are on (not all its pages: a session with a
    // page per agent would otherwise repeat them in every file, quadratic in its agents).
    const local = new Map<number, { at: number; pages: Map<number, number> }>();
    const part = docs.slice(n * DOCS_PER_FILE, (n + 1) * DOCS_PER_FILE).map(([s, r, text]) => {
      let own = local.get(s);
      if (!own) {
        own = { at: local.size, pages: new Map() };
        local.set(s, own);
      }
      let page = own.pages.get(r);
      if (page === undefined) {
        page = own.pages.size;
        own.pages.set(r, page);
      }
      return `[${own.at},${page},${text}]`;
    });
    const own = [...local].map(([s, { pages }]) => {
      const [home, links] = sessions[s] as [string, string[]];
      return [home, [...pages.keys()].map((r) => links[r])];
    });
    files.push({
      name: `_cctrail/search/d${n}.js`,
      // What `literal(scriptJson({ s: own, d: entries }))` writes, the entries' text as the pieces hold it.
      text: `window.CCTRAIL_SEARCH_DOCS(${n},'{"s":${inQuotes(scriptJson(own))},"d":[${part.join(',')}]}');\n`,
    });
  }
  return { meta: { n: docs.length, k: DOCS_PER_FILE, t: firstTerms }, files };
}
