import { createHash } from 'node:crypto';
import { scriptJson } from '../views/search/search.js';
import { PostingsMerge } from '../views/search/search-codec.js';
import { inQuotes, readPiece } from '../views/search/search-piece.js';

/**
 * The files of the transcript index, merged from the sessions' pieces (`views/search/search-text.ts`), newest
 * session first: the entries are numbered across the archive in that order.
 *
 * - `_cctrail/search/t<n>.js`: the terms in sorted order, cut into files of about `TERM_FILE_CHARS`, each
 *   with its postings; a word needs one file, a prefix the files its range of terms spans;
 * - `_cctrail/search/e<digest>-<n>.js`: a session's entries, `DOCS_PER_FILE` a file (page, anchor, first
 *   words), and the links of the pages they are on, loaded for the results shown. A file holds one session's
 *   entries and is named after the session's page, so that what another session does leaves it as it is.
 *
 * Each is a classic script calling `window.CCTRAIL_SEARCH_TERMS` or `…_DOCS` with its name and a string, so
 * the search page can load them from `file://` (where `fetch` of local files is refused). What the page needs
 * to find a term's file (`SearchMeta`) goes into `search-index.js`.
 */

/** Characters of a term file, about (a term with more postings gets a file of its own). */
export const TERM_FILE_CHARS = 100_000;
/** Entries in a file of entries. */
export const DOCS_PER_FILE = 64;

/**
 * How the search page finds the files of a query: entries in all, entries a file, first term of each file, and
 * for each session with entries (in the order entries are numbered) its first entry and the name of its files.
 */
interface SearchMeta {
  n: number;
  k: number;
  t: string[];
  b: number[];
  f: string[];
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

/**
 * The name of a session's files of entries: a digest of its page's route, so that it does not depend on where the
 * session stands in the archive (a rebuild after one session changed rewrites only that session's files).
 */
function docsName(home: string, taken: ReadonlySet<string>): string {
  const digest = createHash('sha1').update(home).digest('hex');
  for (let length = 12; length < digest.length; length += 4) {
    const name = `e${digest.slice(0, length)}`;
    if (!taken.has(name)) return name;
  }
  return `e${digest}-${taken.size}`;
}

/** The index of the pieces (texts of `searchPiece`, newest session first). */
export function searchFiles(pieces: readonly string[]): SearchIndex {
  // Each term's postings in the pieces that have it, as written, with the number of the piece's first entry:
  // merged term by term in sorted order (`PostingsMerge`), never decoded into arrays of numbers.
  const terms = new Map<string, (string | number)[]>();
  // Each session with entries: its page, its pages' links, and its entries (page in the list, anchor and label
  // as written in files).
  const sessions: { home: string; links: string[]; docs: [number, string][] }[] = [];
  let n = 0;
  for (const text of pieces) {
    const piece = readPiece(text);
    const base = n;
    if (piece.d.length > 0) sessions.push({ home: piece.s, links: piece.r, docs: piece.d });
    n += piece.d.length;
    for (const [term, code] of piece.t) {
      const all = terms.get(term);
      if (all) all.push(base, code);
      else terms.set(term, [base, code]);
    }
  }
  if (n === 0) return { meta: null, files: [] };
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
  const bases: number[] = [];
  const names: string[] = [];
  const taken = new Set<string>();
  let base = 0;
  for (const { home, links, docs } of sessions) {
    const name = docsName(home, taken);
    taken.add(name);
    bases.push(base);
    names.push(name);
    base += docs.length;
    for (let part = 0; part * DOCS_PER_FILE < docs.length; part++) {
      // Entries name their page by its place in the list of the pages this file's entries are on (not all the
      // session's pages: a session with a page per agent would otherwise repeat them in every file, quadratic in
      // its agents).
      const pages = new Map<number, number>();
      const entries = docs.slice(part * DOCS_PER_FILE, (part + 1) * DOCS_PER_FILE).map(([r, text]) => {
        let page = pages.get(r);
        if (page === undefined) {
          page = pages.size;
          pages.set(r, page);
        }
        return `[0,${page},${text}]`;
      });
      const own = [[home, [...pages.keys()].map((r) => links[r])]];
      files.push({
        name: `_cctrail/search/${name}-${part}.js`,
        // What `literal(scriptJson({ s: own, d: entries }))` writes, the entries' text as the pieces hold it.
        text: `window.CCTRAIL_SEARCH_DOCS('${name}-${part}','{"s":${inQuotes(scriptJson(own))},"d":[${entries.join(',')}]}');\n`,
      });
    }
  }
  return { meta: { n, k: DOCS_PER_FILE, t: firstTerms, b: bases, f: names }, files };
}
