import { countPostings, PostingsReader } from '../views/search/search-codec.js';
import { isPrefixTerm } from '../views/search/search-text.js';

/**
 * How the search page finds and ranks entries in the transcript index. A term file's text is
 * `,term postings,term postings,…,` in sorted order, postings written by `views/search/search-codec.ts` (best first)
 * and read by its `PostingsReader`. An entry's score for a word is the best over the word's terms (the word
 * itself and, for a word of 3 or more characters, each longer term it starts, at half weight) of
 * idf × weight; for a query, the sum over its words, entries lacking a word left out.
 */

/** The factor of a longer term a word starts (the word itself: 1). */
const PREFIX_WEIGHT = 0.5;

/** A word's posting list in a term file: the postings of one term, and its factor. */
export interface TermList {
  code: string;
  factor: number;
}

/** The entries with every word of a query and their scores (by entry); `sorted` once `docs` is by score. */
export interface Found {
  docs: number[];
  score: Float64Array;
  sorted: boolean;
}

/**
 * The numbers of the term files a word needs: its own or, for a prefix, every file its range of terms spans.
 * @param first The first term of each file, in order.
 */
export function fileRange(first: readonly string[], word: string): number[] {
  let lo = 0;
  while (lo + 1 < first.length && (first[lo + 1] as string) <= word) lo++;
  let hi = lo;
  if (isPrefixTerm(word)) while (hi + 1 < first.length && (first[hi + 1] as string).startsWith(word)) hi++;
  const out: number[] = [];
  for (let n = lo; n <= hi; n++) out.push(n);
  return out;
}

/**
 * A word's lists in its term files: the word's and, for a prefix, those of each longer term it starts (they
 * follow it in sorted order).
 * @param files The texts of the files `fileRange` named (null: a file that did not load).
 */
export function termLists(files: readonly (string | null)[], word: string): TermList[] {
  const out: TermList[] = [];
  const isPrefix = isPrefixTerm(word);
  for (const file of files) {
    if (!file) continue;
    let at = file.indexOf(',' + word + (isPrefix ? '' : ' '));
    while (at >= 0 && at < file.length - 1) {
      const space = file.indexOf(' ', at);
      const end = file.indexOf(',', space);
      const term = file.slice(at + 1, space);
      if (!term.startsWith(word)) break;
      out.push({ code: file.slice(space + 1, end), factor: term === word ? 1 : PREFIX_WEIGHT });
      if (!isPrefix) break;
      at = end;
    }
  }
  return out;
}

/** A list read one posting at a time, best first, with each posting's score (`n`: entries, for the idf). */
class Cursor {
  score = 0;
  private readonly reader: PostingsReader;
  private readonly idf: number;

  constructor(list: TermList, n: number) {
    const df = countPostings(list.code);
    this.idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * list.factor;
    this.reader = new PostingsReader(list.code);
  }

  /** The current posting's entry. */
  get doc(): number {
    return this.reader.doc;
  }

  /** Moves to the next posting; false at the end. */
  next(): boolean {
    if (!this.reader.next()) return false;
    this.score = this.idf * this.reader.weight;
    return true;
  }
}

const ahead = (a: Cursor, b: Cursor): boolean => a.score > b.score || (a.score === b.score && a.doc < b.doc);

/**
 * The best `count` entries for one word (its lists), in order, reading only the heads of the lists: the list
 * whose next posting ranks first goes next, and an entry's first posting is its best.
 */
export function best(lists: readonly TermList[], n: number, count: number): number[] {
  let live = lists.map((l) => new Cursor(l, n)).filter((c) => c.next());
  const out: number[] = [];
  const seen = new Set<number>();
  while (out.length < count && live.length > 0) {
    let top = live[0] as Cursor;
    for (let k = 1; k < live.length; k++) if (ahead(live[k] as Cursor, top)) top = live[k] as Cursor;
    if (!seen.has(top.doc)) {
      seen.add(top.doc);
      out.push(top.doc);
    }
    if (!top.next()) live = live.filter((c) => c !== top);
  }
  return out;
}

/** Every entry with every word (`words`: each word's lists), with its score. */
export function match(words: readonly (readonly TermList[])[], n: number): Found {
  let total: Float64Array | null = null;
  for (const lists of words) {
    const scores = new Float64Array(n);
    for (const list of lists) {
      const c = new Cursor(list, n);
      while (c.next()) if (c.score > (scores[c.doc] as number)) scores[c.doc] = c.score;
    }
    if (total === null) total = scores;
    else
      for (let d = 0; d < n; d++)
        total[d] =
          (total[d] as number) > 0 && (scores[d] as number) > 0
            ? (total[d] as number) + (scores[d] as number)
            : 0;
  }
  const docs: number[] = [];
  if (total) for (let d = 0; d < n; d++) if ((total[d] as number) > 0) docs.push(d);
  return { docs, score: total ?? new Float64Array(0), sorted: false };
}

/**
 * Entries `from` … `to` of a match in order of score (then newest first), the first ones picked without
 * sorting all.
 */
export function ranked(found: Found, from: number, to: number): number[] {
  const score = found.score;
  const better = (a: number, b: number) =>
    (score[a] as number) > (score[b] as number) || (score[a] === score[b] && a < b);
  if (from > 0 && !found.sorted) {
    found.docs.sort((a, b) => (score[b] as number) - (score[a] as number) || a - b);
    found.sorted = true;
  }
  if (found.sorted) return found.docs.slice(from, to);
  const top: number[] = [];
  for (const d of found.docs) {
    if (top.length === to && !better(d, top[to - 1] as number)) continue;
    let i = top.length === to ? to - 1 : top.length;
    while (i > 0 && better(d, top[i - 1] as number)) {
      top[i] = top[i - 1] as number;
      i--;
    }
    top[i] = d;
  }
  return top;
}

/** The file holding entry `d` of the index, and the entry's place in it (its session's files hold `meta.k` each). */
export function entryPlace(
  meta: { b: readonly number[]; f: readonly string[]; k: number },
  d: number,
): [string, number] {
  let lo = 0;
  let hi = meta.b.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((meta.b[mid] as number) <= d) lo = mid;
    else hi = mid - 1;
  }
  const local = d - (meta.b[lo] ?? 0);
  return [`${meta.f[lo]}-${Math.floor(local / meta.k)}`, local % meta.k];
}
