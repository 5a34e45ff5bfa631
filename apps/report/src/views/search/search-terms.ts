import { digits, WEIGHTS } from './search-codec.js';

/** BM25's weight of a term counted `count` times in a document of `length` words (`termWeight`). */
type Weigh = (count: number, length: number) => number;

/**
 * The terms of a session's documents and their postings, as `searchPiece` counts them: a document is added by
 * `begin`, its words counted by `countAscii` and `countTerm`, and its terms posted with their weights by `end`.
 * A hash table of its own, whose slots hold numbers, finds a word already seen (most words) by its characters
 * where the text holds it, without a string made for it nor a look-up in a `Map`; each term's count in the
 * document being added, and its postings, are numbers in typed arrays. `allPostings` writes them as
 * `encodePostings` does.
 */
export class TermTable {
  /** The terms, in the order they were first seen. */
  readonly terms: string[] = [];
  /** Slots of the hash table: a term's number + 1, 0 when free. */
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 10);
  /** Of each term: the last document that has it, and its count there. */
  private lastDoc = new Int32Array(1 << 10);
  private counts = new Int32Array(1 << 10);
  /** The postings, in the order added (documents in increasing order): term, document, weight. */
  private postTerm = new Int32Array(1 << 12);
  private postDoc = new Int32Array(1 << 12);
  private postWeight = new Uint8Array(1 << 12);
  private posts = 0;
  /** The terms of the document being added, and its words. */
  private seen = new Int32Array(1 << 10);
  private seenCount = 0;
  private words = 0;
  private doc = -1;

  /** Starts document `doc` (the highest so far). */
  begin(doc: number): void {
    this.doc = doc;
    this.seenCount = 0;
    this.words = 0;
  }

  /** Posts each term of the document with its weight in it. */
  end(weigh: Weigh): void {
    for (let i = 0; i < this.seenCount; i++) {
      const term = this.seen[i] as number;
      this.post(term, this.doc, weigh(this.counts[term] as number, this.words));
    }
  }

  /**
   * Counts the words of ASCII text in lower case, runs of `a`–`z` and `0`–`9`, but those longer than `longest`
   * characters.
   */
  countAscii(lower: string, longest: number): void {
    let start = 0;
    let hash = 0;
    const end = lower.length;
    for (let i = 0; i <= end; i++) {
      const c = i < end ? lower.charCodeAt(i) : 0;
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
        hash = Math.imul(hash ^ c, 16777619);
        continue;
      }
      if (i > start && i - start <= longest) this.countAt(lower, start, i, hash);
      start = i + 1;
      hash = 0;
    }
  }

  /** Counts a term (lower case). */
  countTerm(term: string): void {
    let hash = 0;
    for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 16777619);
    this.countAt(term, 0, term.length, hash);
  }

  /** Counts the term `text.slice(start, end)` (lower case), whose hash is `hash`. */
  private countAt(text: string, start: number, end: number, hash: number): void {
    this.words++;
    const mask = this.slots.length - 1;
    const length = end - start;
    let slot = hash & mask;
    let term = -1;
    for (;;) {
      const at = this.slots[slot] as number;
      if (at === 0) break;
      if (this.hashes[at - 1] === hash && same(this.terms[at - 1] as string, text, start, length)) {
        term = at - 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (term < 0) {
      term = this.terms.length;
      this.terms.push(start === 0 && end === text.length ? text : text.slice(start, end));
      this.slots[slot] = term + 1;
      this.newTerm(term, hash);
    }
    if (this.lastDoc[term] !== this.doc) {
      this.lastDoc[term] = this.doc;
      this.counts[term] = 0;
      if (this.seenCount === this.seen.length) this.seen = grown(this.seen);
      this.seen[this.seenCount++] = term;
    }
    this.counts[term] = (this.counts[term] as number) + 1;
  }

  private newTerm(term: number, hash: number): void {
    if (term === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.lastDoc = grown(this.lastDoc);
      this.counts = grown(this.counts);
    }
    this.hashes[term] = hash;
    this.lastDoc[term] = -1;
    // At most half full: a look-up ends at a free slot after few steps.
    if (2 * this.terms.length > this.slots.length) this.rehash();
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let term = 0; term < this.terms.length; term++) {
      let slot = (this.hashes[term] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = term + 1;
    }
    this.slots = slots;
  }

  private post(term: number, doc: number, weight: number): void {
    const at = this.posts++;
    if (at === this.postDoc.length) {
      this.postTerm = grown(this.postTerm);
      this.postDoc = grown(this.postDoc);
      this.postWeight = grown(this.postWeight);
    }
    this.postTerm[at] = term;
    this.postDoc[at] = doc;
    this.postWeight[at] = weight;
  }

  /**
   * The postings of each term (in the order of `terms`), as `encodePostings` writes them: the postings are put in
   * order of term, each term's documents still in increasing order, then each term's are read by weight.
   */
  allPostings(): string[] {
    const terms = this.terms.length;
    const starts = new Int32Array(terms + 1);
    for (let at = 0; at < this.posts; at++) {
      const term = (this.postTerm[at] as number) + 1;
      starts[term] = (starts[term] as number) + 1;
    }
    for (let term = 0; term < terms; term++)
      starts[term + 1] = (starts[term + 1] as number) + (starts[term] as number);
    const next = starts.slice(0, terms);
    const docs = new Int32Array(this.posts);
    const weights = new Uint8Array(this.posts);
    for (let at = 0; at < this.posts; at++) {
      const term = this.postTerm[at] as number;
      const place = next[term] as number;
      next[term] = place + 1;
      docs[place] = this.postDoc[at] as number;
      weights[place] = this.postWeight[at] as number;
    }
    const codes: string[] = [];
    for (let term = 0; term < terms; term++)
      codes.push(written(docs, weights, starts[term] as number, starts[term + 1] as number));
    return codes;
  }
}

/** The postings `from` … `to` (one term's, documents in increasing order) as `encodePostings` writes them. */
function written(docs: Int32Array, weights: Uint8Array, from: number, to: number): string {
  if (to - from === 1) return digitsOf((docs[from] as number) * WEIGHTS + (weights[from] as number) - 1);
  let present = 0;
  for (let at = from; at < to; at++) present |= 1 << (weights[at] as number);
  let out = '';
  for (let weight = WEIGHTS; weight >= 1; weight--) {
    if ((present & (1 << weight)) === 0) continue;
    let last = -1;
    for (let at = from; at < to; at++) {
      if (weights[at] !== weight) continue;
      const doc = docs[at] as number;
      out += digitsOf((doc - last - 1) * WEIGHTS + (weight - 1));
      last = doc;
    }
  }
  return out;
}

/** Numbers whose digits are kept, made once (three digits or fewer: most postings of a session). */
const KEPT = 32_768;
let kept: string[] | null = null;

/** `digits(n)`, kept for the smaller numbers. */
function digitsOf(n: number): string {
  if (n >= KEPT) return digits(n);
  kept ??= Array.from({ length: KEPT }, (_, i) => digits(i));
  return kept[n] as string;
}

/** Whether `term` is the `length` characters of `text` from `start`. */
function same(term: string, text: string, start: number, length: number): boolean {
  if (term.length !== length) return false;
  for (let i = 0; i < length; i++) if (term.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/** A typed array twice as long, holding the same values first. */
function grown<T extends Int32Array | Uint8Array>(array: T): T {
  const more = new (array.constructor as new (length: number) => T)(array.length * 2);
  more.set(array);
  return more;
}
