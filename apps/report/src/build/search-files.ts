import { scriptJson } from '../views/search.js';
import { decodePostings, encodePostings, type Postings } from '../views/search-codec.js';

/**
 * The files of the transcript index, merged from the sessions' pieces (`views/search-text.ts`), newest
 * session first: the entries are numbered across the archive in that order.
 *
 * - `_cctrail/search/meta.js`: how many entries, the first term of each term file, and each session's first
 *   entry, link and page links (a few hundred bytes a session), loaded when a query is typed;
 * - `_cctrail/search/t<n>.js`: the terms in sorted order, cut into files of about `TERM_FILE_CHARS`, each
 *   with its postings; a word needs one file, a prefix the files its range of terms spans;
 * - `_cctrail/search/d<n>.js`: `DOCS_PER_FILE` entries a file (page, anchor, first words), loaded for the
 *   results shown.
 *
 * Each is a classic script calling `window.CCTRAIL_SEARCH_META`, `…_TERMS` or `…_DOCS` with a string, so the
 * search page can load them from `file://` (where `fetch` of local files is refused).
 */

/** Characters of a term file, about (a term with more postings gets a file of its own). */
export const TERM_FILE_CHARS = 150_000;
/** Entries in a file of entries. */
export const DOCS_PER_FILE = 256;

/** A file of the transcript index: its path in the site and its text. */
export interface SearchFile {
  name: string;
  text: string;
}

interface Piece {
  s: string;
  r: string[];
  d: [number, string, string][];
  t: [string, string][];
}

/** A string literal (single quotes) holding the text. */
function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The index files of the pieces (texts of `searchPiece`, newest session first).
 *
 * @returns `meta.js` first, then the term files and the entry files; none without any piece.
 */
export function searchFiles(pieces: readonly string[]): SearchFile[] {
  const terms = new Map<string, Postings>();
  const sessions: [number, string, string[]][] = [];
  const docs: [number, string, string][] = [];
  for (const text of pieces) {
    const piece = JSON.parse(text) as Piece;
    const base = docs.length;
    sessions.push([base, piece.s, piece.r]);
    for (const d of piece.d) docs.push(d);
    for (const [term, code] of piece.t) {
      const local = decodePostings(code);
      let all = terms.get(term);
      if (!all) {
        all = { docs: [], weights: [] };
        terms.set(term, all);
      }
      for (let i = 0; i < local.docs.length; i++) {
        all.docs.push(base + (local.docs[i] as number));
        all.weights.push(local.weights[i] as number);
      }
    }
  }
  if (docs.length === 0) return [];
  const termFiles: string[][] = [];
  const firstTerms: string[] = [];
  let chars = Number.POSITIVE_INFINITY;
  for (const term of [...terms.keys()].sort()) {
    const entry = `${term} ${encodePostings(terms.get(term) as Postings)}`;
    if (chars > 0 && chars + entry.length > TERM_FILE_CHARS) {
      termFiles.push([]);
      firstTerms.push(term);
      chars = 0;
    }
    termFiles.at(-1)?.push(entry);
    chars += entry.length + 1;
  }
  const files: SearchFile[] = [
    {
      name: '_cctrail/search/meta.js',
      text: `window.CCTRAIL_SEARCH_META(${literal(
        scriptJson({ n: docs.length, k: DOCS_PER_FILE, t: firstTerms, s: sessions }),
      )});\n`,
    },
  ];
  termFiles.forEach((entries, n) => {
    files.push({
      name: `_cctrail/search/t${n}.js`,
      text: `window.CCTRAIL_SEARCH_TERMS(${n},${literal(entries.join(','))});\n`,
    });
  });
  for (let n = 0; n * DOCS_PER_FILE < docs.length; n++) {
    const part = docs.slice(n * DOCS_PER_FILE, (n + 1) * DOCS_PER_FILE);
    files.push({
      name: `_cctrail/search/d${n}.js`,
      text: `window.CCTRAIL_SEARCH_DOCS(${n},${literal(scriptJson(part))});\n`,
    });
  }
  return files;
}
