/**
 * The postings of the transcript index as text, best first: a term's documents grouped by the term's weight in
 * them, heaviest group first, each group in increasing document order, so that the search page reads the best
 * documents of a term from the start of its list without decoding the rest. Each posting is one number,
 * `(gap − 1) × WEIGHTS + (weight − 1)`, where the gap is the distance from the previous document of the same
 * group (from −1 for a group's first: a change of weight starts a group). Numbers are written as base-64
 * digits, five bits a digit, low bits first; a digit of the first half of the alphabet ends a number, one of
 * the second half goes on. The search page reads them with this module's `PostingsReader` (compiled into
 * `_cctrail/search-match.js` from `src/browser/`).
 */

/** The digits: 0–31 end a number, 32–63 continue it. No quote, backslash or comma (term files use commas). */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Distinct weights of a term in a document (1 … WEIGHTS). */
export const WEIGHTS = 8;

/** A term's postings: documents, each once, each with its weight (1 … WEIGHTS). */
export interface Postings {
  docs: number[];
  weights: number[];
}

/** Writes a posting list (in any order; each document once, weights 1 … WEIGHTS) best first. */
export function encodePostings(p: Postings): string {
  // Most terms are in one document of a session: its one number.
  const weight = p.weights[0] as number;
  if (p.docs.length === 1 && weight >= 1 && weight <= WEIGHTS)
    return digits((p.docs[0] as number) * WEIGHTS + weight - 1);
  // Documents are added in increasing order: each weight's group is read off in that order, heaviest first.
  const ordered = isIncreasing(p.docs);
  let out = '';
  for (let weight = WEIGHTS; weight >= 1; weight--) {
    const docs: number[] = [];
    for (let i = 0; i < p.docs.length; i++) if (p.weights[i] === weight) docs.push(p.docs[i] as number);
    if (!ordered) docs.sort((a, b) => a - b);
    let last = -1;
    for (const doc of docs) {
      out += digits((doc - last - 1) * WEIGHTS + (weight - 1));
      last = doc;
    }
  }
  return out;
}

function isIncreasing(list: readonly number[]): boolean {
  for (let i = 1; i < list.length; i++) if ((list[i] as number) <= (list[i - 1] as number)) return false;
  return true;
}

/** One number's digits, low bits first. */
export function digits(n: number): string {
  let out = '';
  let v = n;
  while (v >= 32) {
    out += DIGITS[32 + (v % 32)];
    v = Math.floor(v / 32);
  }
  return out + DIGITS[v];
}

/** Digit values by character code (−1: not a digit). */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;

/** Reads a posting list written by `encodePostings`, best first; throws on a character that is not a digit. */
export function decodePostings(text: string): Postings {
  const docs: number[] = [];
  const weights: number[] = [];
  const reader = new PostingsReader(text);
  while (reader.next()) {
    docs.push(reader.doc);
    weights.push(reader.weight);
  }
  return { docs, weights };
}

/** The number of postings in a list written by `encodePostings` (its documents), without decoding it. */
export function countPostings(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 && (VALUE[code] as number) >= 0 && (VALUE[code] as number) < 32) count++;
  }
  return count;
}

/**
 * A posting list written by `encodePostings`, read one posting at a time, best first, so that a reader of the
 * best documents decodes no more than it reads (the search page). `doc` and `weight` are the current
 * posting's once `next()` returned true; `next()` throws on a character that is not a digit.
 */
export class PostingsReader {
  /** The current posting's document (−1 before the first). */
  doc = -1;
  /** The current posting's weight (1 … WEIGHTS; 0 before the first). */
  weight = 0;
  private at = 0;

  /** @param text Postings written by `encodePostings`. */
  constructor(private readonly text: string) {}

  /** Moves to the next posting; false at the end of the list (an unfinished last number is no posting). */
  next(): boolean {
    const text = this.text;
    let v = 0;
    let scale = 1;
    while (this.at < text.length) {
      const i = this.at++;
      const code = text.charCodeAt(i);
      const d = code < 128 ? (VALUE[code] as number) : -1;
      if (d < 0) throw new Error(`not a postings digit: ${JSON.stringify(text[i])}`);
      if (d >= 32) {
        v += (d - 32) * scale;
        scale *= 32;
        continue;
      }
      v += d * scale;
      const weight = (v % WEIGHTS) + 1;
      if (weight !== this.weight) {
        this.weight = weight;
        this.doc = -1;
      }
      this.doc += Math.floor(v / WEIGHTS) + 1;
      return true;
    }
    return false;
  }
}

/**
 * A posting list written by `encodePostings` with its documents numbered from `base` (what `PostingsMerge` writes
 * for it alone): only the first posting of each group of one weight changes, its gap being from −1.
 */
export function shiftedPostings(code: string, base: number): string {
  let out = '';
  let weight = 0;
  // Where the part not yet written starts, and where the number being read does.
  let from = 0;
  let start = 0;
  let v = 0;
  let scale = 1;
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    const d = c < 128 ? (VALUE[c] as number) : -1;
    if (d < 0) throw new Error(`not a postings digit: ${JSON.stringify(code[i])}`);
    if (d >= 32) {
      v += (d - 32) * scale;
      scale *= 32;
      continue;
    }
    v += d * scale;
    const w = (v % WEIGHTS) + 1;
    if (w !== weight) {
      weight = w;
      out += code.slice(from, start) + digits(v + base * WEIGHTS);
      from = i + 1;
    }
    v = 0;
    scale = 1;
    start = i + 1;
  }
  return out + code.slice(from);
}

/**
 * A term's posting list merged from those of consecutive pieces of the index (each written by `encodePostings`,
 * its documents numbered from 0), without decoding them into arrays: a later piece's documents follow the
 * earlier ones', so each of its groups of one weight is appended to the group of that weight as it is, but for
 * its first posting, whose gap is then from the last document of the group so far. `String(merge)` is what
 * `encodePostings` writes for all the documents.
 */
export class PostingsMerge {
  /** The groups so far, heaviest first, and the last document of each. */
  private readonly groups: string[] = new Array<string>(WEIGHTS).fill('');
  private readonly last: number[] = new Array<number>(WEIGHTS).fill(-1);

  /**
   * Appends a posting list; throws on a character that is not a digit.
   * @param code Postings written by `encodePostings`.
   * @param base The number of its document 0, above every document appended before.
   */
  append(code: string, base: number): void {
    let group = -1;
    let doc = -1;
    let run = 0;
    let start = 0;
    let v = 0;
    let scale = 1;
    for (let i = 0; i < code.length; i++) {
      const c = code.charCodeAt(i);
      const d = c < 128 ? (VALUE[c] as number) : -1;
      if (d < 0) throw new Error(`not a postings digit: ${JSON.stringify(code[i])}`);
      if (d >= 32) {
        v += (d - 32) * scale;
        scale *= 32;
        continue;
      }
      v += d * scale;
      const weight = (v % WEIGHTS) + 1;
      const g = WEIGHTS - weight;
      if (g === group) doc += Math.floor(v / WEIGHTS) + 1;
      else {
        if (group >= 0) this.close(group, code.slice(run, start), base + doc);
        group = g;
        doc = Math.floor(v / WEIGHTS);
        const gap = base + doc - (this.last[g] as number) - 1;
        this.groups[g] += digits(gap * WEIGHTS + weight - 1);
        run = i + 1;
      }
      v = 0;
      scale = 1;
      start = i + 1;
    }
    if (group >= 0) this.close(group, code.slice(run), base + doc);
  }

  /**
   * `append(code, base)` of a list another merge wrote (`String(merge)`), whose groups are known
   * (`merge.groupEnds()`): only the first posting of each group is read, the rest of it is appended as it is.
   */
  appendGroups(code: string, ends: Int32Array, base: number): void {
    let at = 0;
    for (let g = 0; g < WEIGHTS; g++) {
      const length = ends[g] as number;
      if (length === 0) continue;
      // The group's first number, whose gap is from −1: its document.
      let i = at;
      let v = 0;
      let scale = 1;
      for (;;) {
        const c = code.charCodeAt(i++);
        const d = c < 128 ? (VALUE[c] as number) : -1;
        if (d < 0) throw new Error(`not a postings digit: ${JSON.stringify(code[i - 1])}`);
        if (d < 32) {
          v += d * scale;
          break;
        }
        v += (d - 32) * scale;
        scale *= 32;
      }
      const gap = base + Math.floor(v / WEIGHTS) - (this.last[g] as number) - 1;
      this.groups[g] += digits(gap * WEIGHTS + WEIGHTS - g - 1) + code.slice(i, at + length);
      this.last[g] = base + (ends[WEIGHTS + g] as number);
      at += length;
    }
  }

  /**
   * What `appendGroups` reads of the merged list: for each group, heaviest first, the length of its text, then
   * (from `WEIGHTS` on) its last document (−1: an empty group).
   */
  groupEnds(): Int32Array {
    const ends = new Int32Array(2 * WEIGHTS);
    for (let g = 0; g < WEIGHTS; g++) {
      ends[g] = (this.groups[g] as string).length;
      ends[WEIGHTS + g] = this.last[g] as number;
    }
    return ends;
  }

  private close(group: number, rest: string, last: number): void {
    this.groups[group] += rest;
    this.last[group] = last;
  }

  /** The merged posting list. */
  toString(): string {
    return this.groups.join('');
  }
}
