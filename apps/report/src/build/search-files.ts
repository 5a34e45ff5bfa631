import { createHash } from 'node:crypto';
import { scriptJson } from '../views/search/search.js';
import { PostingsMerge, shiftedPostings } from '../views/search/search-codec.js';
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

/** A file of the transcript index: its path in the site and its text (and its digest, once computed). */
export interface SearchFile {
  name: string;
  text: string;
  /** `signatureOf(text)`, when the plan computed it already (files of entries, kept for the next build). */
  signature?: string;
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

/** What the files of terms need of a piece: the number of its entries, and each term with its postings. */
export interface PieceTerms {
  n: number;
  t: readonly (readonly [string, string])[];
  /** For each term, its postings' groups when a merge wrote them (`PostingsMerge.groupEnds`), else null. */
  e?: readonly (Int32Array | null)[];
}

/** What the files of a session's entries need of its piece: its page, its pages' links, its entries as written. */
export interface PieceDocs {
  home: string;
  links: readonly string[];
  docs: readonly (readonly [number, string])[];
}

/** The index of the pieces (texts of `searchPiece`, newest session first). */
export function searchFiles(pieces: readonly string[]): SearchIndex {
  const read = pieces.map(readPiece);
  const sessions = read.filter((p) => p.d.length > 0).map((p) => ({ home: p.s, links: p.r, docs: p.d }));
  const names = docsNames(sessions.map((s) => s.home));
  const terms = termFiles(read.map((p) => ({ n: p.d.length, t: p.t })));
  if (terms === null) return { meta: null, files: [] };
  const files = [...terms.files, ...sessions.flatMap((s, i) => docsFiles(names[i] as string, s))];
  return {
    meta: searchMeta(
      terms,
      sessions.map((s) => s.docs.length),
      names,
    ),
    files,
  };
}

/**
 * What the search page needs to find files: entries in all, first term of each file of terms, and each session's
 * first entry and the name of its files.
 * @param counts The numbers of entries of the sessions with entries, in order.
 */
export function searchMeta(
  terms: { n: number; firstTerms: string[] },
  counts: readonly number[],
  names: readonly string[],
): SearchMeta {
  const bases: number[] = [];
  let base = 0;
  for (const count of counts) {
    bases.push(base);
    base += count;
  }
  return { n: terms.n, k: DOCS_PER_FILE, t: terms.firstTerms, b: bases, f: [...names] };
}

/**
 * The terms of consecutive pieces merged into those of one piece of all their entries, in sorted order: each term's
 * postings in the pieces that have it, as written, merged (`PostingsMerge`), never decoded into arrays of numbers.
 * What `encodePostings` writes for all the entries, so that merged pieces can be merged again (a piece's postings
 * whose groups are known, `PieceTerms.e`, are read no further than each group's first posting).
 *
 * @param ends Receives, for each term of the result, its postings' groups when merged here (`PieceTerms.e`).
 */
export function mergeTerms(
  pieces: readonly PieceTerms[],
  ends?: (Int32Array | null)[],
): { n: number; t: [string, string][] } {
  // Each term's postings, with the number of the piece's first entry and the postings' groups when known.
  const terms = new Map<string, (string | number | Int32Array | null)[]>();
  let n = 0;
  for (const piece of pieces) {
    const base = n;
    n += piece.n;
    const { t: list, e: known } = piece;
    for (let i = 0; i < list.length; i++) {
      const [term, code] = list[i] as readonly [string, string];
      const groups = known?.[i] ?? null;
      const all = terms.get(term);
      if (all) all.push(base, code, groups);
      else terms.set(term, [base, code, groups]);
    }
  }
  const t: [string, string][] = [];
  for (const term of [...terms.keys()].sort()) {
    const all = terms.get(term) ?? [];
    terms.delete(term);
    // One piece: its postings as written, numbered from its first entry.
    if (all.length === 3) {
      const base = all[0] as number;
      t.push([term, base === 0 ? (all[1] as string) : shiftedPostings(all[1] as string, base)]);
      ends?.push(null);
      continue;
    }
    const merge = new PostingsMerge();
    for (let i = 0; i < all.length; i += 3) {
      const groups = all[i + 2] as Int32Array | null;
      if (groups === null) merge.append(all[i + 1] as string, all[i] as number);
      else merge.appendGroups(all[i + 1] as string, groups, all[i] as number);
    }
    t.push([term, String(merge)]);
    ends?.push(merge.groupEnds());
  }
  return { n, t };
}

/**
 * The files of terms of the pieces, in order (`mergeTerms`): the terms in sorted order, cut into files of about
 * `TERM_FILE_CHARS`. Null without any entry.
 */
export function termFiles(
  pieces: readonly PieceTerms[],
): { n: number; firstTerms: string[]; files: SearchFile[] } | null {
  const { n, t } = mergeTerms(pieces);
  if (n === 0) return null;
  const entries: string[][] = [];
  const firstTerms: string[] = [];
  let chars = Number.POSITIVE_INFINITY;
  for (const [term, code] of t) {
    const entry = `${term} ${code}`;
    if (chars > 0 && chars + entry.length > TERM_FILE_CHARS) {
      entries.push([]);
      firstTerms.push(term);
      chars = 0;
    }
    entries.at(-1)?.push(entry);
    chars += entry.length + 1;
  }
  const files = entries.map((list, i) => ({
    name: `_cctrail/search/t${i}.js`,
    text: `window.CCTRAIL_SEARCH_TERMS(${i},${literal(list.join(','))});\n`,
  }));
  return { n, firstTerms, files };
}

/** The names of the sessions' files of entries, in order (`docsName`, each unlike those before it). */
export function docsNames(homes: readonly string[]): string[] {
  const taken = new Set<string>();
  return homes.map((home) => {
    const name = docsName(home, taken);
    taken.add(name);
    return name;
  });
}

/** The files of a session's entries, `DOCS_PER_FILE` a file, named after `name`. */
export function docsFiles(name: string, { home, links, docs }: PieceDocs): SearchFile[] {
  const files: SearchFile[] = [];
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
  return files;
}
