import { WEIGHTS } from './search-codec.js';
import { type ByteText, writeTermsLine } from './terms-line.js';
import { KEY, wordKey, wordScan } from './word-scan.js';

/** BM25's weight of a term counted `count` times in a document of `length` words (`termWeight`). */
type Weigh = (count: number, length: number) => number;

/**
 * The terms of a session's documents and their postings, as `searchPiece` counts them: a document is added by
 * `begin`, its words counted by `countAscii` and `countTerm`, and its terms posted with their weights by `end`.
 * A hash table of its own, whose slots hold numbers, finds a word already seen (most words) without a string made
 * for it nor a look-up in a `Map`: a word of ASCII letters and digits is also read as four numbers, its first
 * `EXACT_KEY` characters lowered (`wordKey`), which tell one word from another of the same length for words of up
 * to `EXACT_KEY` characters (most words); only longer ones are compared character by character. A text's words and
 * their keys are read in WebAssembly where it runs (`word-scan.ts`).
 * Each term's count in the document being added, and its postings, are numbers in typed arrays. `writeTermsLine`
 * writes them as `encodePostings` does.
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
  /** Of each term: its key (`wordKey`, four numbers), and its length (0 for a term of other characters). */
  private keys = new Int32Array(4 << 10);
  private lengths = new Uint8Array(1 << 10);
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
  /** The bytes of the text `countAscii` read last, from 0, when it was ASCII (until it reads another). */
  asciiBytes: Uint8Array | null = null;

  /** Starts document `doc` (the highest so far). */
  begin(doc: number): void {
    this.doc = doc;
    this.seenCount = 0;
    this.words = 0;
  }

  /** Posts each term of the document with its weight in it. */
  end(weigh: Weigh): void {
    // Most terms are once in a document: their weight, the same for all, is computed once.
    const once = this.seenCount > 0 ? weigh(1, this.words) : 0;
    for (let i = 0; i < this.seenCount; i++) {
      const term = this.seen[i] as number;
      const count = this.counts[term] as number;
      this.post(term, this.doc, count === 1 ? once : weigh(count, this.words));
    }
  }

  /**
   * Counts the words of a text of ASCII only, runs of letters (`A`–`Z`, `a`–`z`, lowered) and digits, but those
   * longer than `longest` characters (at most 255). False, and nothing counted, when the text has other characters.
   */
  countAscii(text: string, longest: number): boolean {
    const scan = wordScan();
    if (scan === null) return this.countAsciiHere(text, longest);
    const length = scan.put(text);
    this.asciiBytes = length < 0 ? null : scan.bytes;
    if (length < 0) return false;
    for (let from = 0; from < length; from = scan.next) {
      const words = scan.words(from, longest);
      const { ints, at } = scan;
      for (let k = at; k < at + 8 * words; k += 8) this.countKeyed(text, ints, k);
    }
    return true;
  }

  /** `countAscii` in JavaScript, where WebAssembly cannot run (`wordScan`). */
  private countAsciiHere(text: string, longest: number): boolean {
    // Its UTF-8 bytes are its characters when there are as many.
    scratch ??= { encoder: new TextEncoder(), bytes: new Uint8Array(1 << 16) };
    const bytes = text.length <= scratch.bytes.length ? scratch.bytes : new Uint8Array(text.length);
    const { read, written } = scratch.encoder.encodeInto(text, bytes);
    this.asciiBytes = read !== text.length || written !== read ? null : bytes;
    if (this.asciiBytes === null) return false;
    let start = 0;
    for (let i = 0; i <= written; i++) {
      if (i < written && KEY_DIGITS[bytes[i] as number] !== 0) continue;
      if (i > start && i - start <= longest) this.countWord(text, bytes, start, i);
      start = i + 1;
    }
    return true;
  }

  /** Counts a term (lower case; at most 255 characters). */
  countTerm(term: string): void {
    for (let i = 0; i < term.length; i++) {
      const c = term.charCodeAt(i);
      if (c >= 128 || KEY_DIGITS[c] === 0) {
        this.countOther(term);
        return;
      }
    }
    this.countWord(term, term, 0, term.length);
  }

  /** Counts the word `text.slice(start, end)` (ASCII letters and digits), whose characters `codes` holds too. */
  private countWord(text: string, codes: ArrayLike<number> | string, start: number, end: number): void {
    wordKey(codes, start, end - start);
    // Its record as `WordScan.words` writes them: its key, where it starts and ends, its hash.
    RECORD.set(KEY.subarray(0, 4));
    RECORD[4] = start;
    RECORD[5] = end;
    RECORD[6] = KEY[4] as number;
    this.countKeyed(text, RECORD, 0);
  }

  /**
   * Counts a word of `text` (ASCII letters and digits, in any case) whose record (`WordScan.words`: its key, where it
   * starts and ends, its hash) is `records[at]` on.
   */
  private countKeyed(text: string, records: Int32Array, at: number): void {
    const mask = this.slots.length - 1;
    const start = records[at + 4] as number;
    const end = records[at + 5] as number;
    const hash = records[at + 6] as number;
    const k0 = records[at] as number;
    const k1 = records[at + 1] as number;
    const k2 = records[at + 2] as number;
    const k3 = records[at + 3] as number;
    const length = end - start;
    const keys = this.keys;
    let slot = hash & mask;
    for (;;) {
      const found = this.slots[slot] as number;
      if (found === 0) break;
      const term = found - 1;
      const k = 4 * term;
      if (
        keys[k] === k0 &&
        keys[k + 1] === k1 &&
        keys[k + 2] === k2 &&
        keys[k + 3] === k3 &&
        this.lengths[term] === length &&
        (length <= EXACT_KEY || sameLowered(this.terms[term] as string, text, start))
      ) {
        this.count(term);
        return;
      }
      slot = (slot + 1) & mask;
    }
    const term = this.added(slot, text.slice(start, end).toLowerCase(), hash, length);
    const k = 4 * term;
    this.keys[k] = k0;
    this.keys[k + 1] = k1;
    this.keys[k + 2] = k2;
    this.keys[k + 3] = k3;
    this.count(term);
  }

  /** Counts a term of other characters than ASCII letters and digits (lower case), found by its text. */
  private countOther(term: string): void {
    let hash = 0;
    for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 16777619);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const at = this.slots[slot] as number;
      if (at === 0) break;
      if (this.lengths[at - 1] === 0 && this.terms[at - 1] === term) {
        this.count(at - 1);
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.count(this.added(slot, term, hash, 0));
  }

  /** Counts a word of term `term` in the document being added. */
  private count(term: number): void {
    this.words++;
    if (this.lastDoc[term] !== this.doc) {
      this.lastDoc[term] = this.doc;
      this.counts[term] = 0;
      if (this.seenCount === this.seen.length) this.seen = grown(this.seen);
      this.seen[this.seenCount++] = term;
    }
    this.counts[term] = (this.counts[term] as number) + 1;
  }

  /** Adds a term in the free slot `slot` (`length`: 0 for a term of other characters); its number. */
  private added(slot: number, text: string, hash: number, length: number): number {
    const term = this.terms.length;
    this.terms.push(text);
    this.slots[slot] = term + 1;
    this.newTerm(term, hash, length);
    return term;
  }

  private newTerm(term: number, hash: number, length: number): void {
    if (term === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.lastDoc = grown(this.lastDoc);
      this.counts = grown(this.counts);
      this.keys = grown(this.keys);
      this.lengths = grown(this.lengths);
    }
    this.hashes[term] = hash;
    this.lengths[term] = length;
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
   * Writes the terms and their postings as the piece's last line (`writeTermsLine`): the postings are put in order of
   * term and, within a term, of weight, heaviest first (a counting sort, which keeps the documents in increasing order).
   */
  writeTerms(out: ByteText): void {
    const groups = this.terms.length * WEIGHTS;
    // Group `term * WEIGHTS + WEIGHTS - weight` starts at `starts[group]`.
    const starts = new Int32Array(groups + 1);
    for (let at = 0; at < this.posts; at++) {
      const group = (this.postTerm[at] as number) * WEIGHTS + WEIGHTS - (this.postWeight[at] as number) + 1;
      starts[group] = (starts[group] as number) + 1;
    }
    for (let group = 0; group < groups; group++)
      starts[group + 1] = (starts[group + 1] as number) + (starts[group] as number);
    const next = starts.slice(0, groups);
    const docs = new Int32Array(this.posts);
    const weights = new Uint8Array(this.posts);
    for (let at = 0; at < this.posts; at++) {
      const weight = this.postWeight[at] as number;
      const group = (this.postTerm[at] as number) * WEIGHTS + WEIGHTS - weight;
      const place = next[group] as number;
      next[group] = place + 1;
      docs[place] = this.postDoc[at] as number;
      weights[place] = weight;
    }
    writeTermsLine(out, this.terms, docs, weights, starts);
  }
}

/** A number for each ASCII letter and digit (1–36, a letter's the same in either case), 0 for the other characters. */
const KEY_DIGITS = /* @__PURE__ */ keyDigits();
/** Where `countAscii` reads a text's bytes (a longer text gets an array of its own), made on first use. */
let scratch: { encoder: InstanceType<typeof TextEncoder>; bytes: Uint8Array } | null = null;
/** The longest words whose key is exact (`wordKey`): words no longer than this are told apart by it. */
const EXACT_KEY = 16;
/** A word's record made in JavaScript (`countWord`), as `WordScan.words` writes them. */
const RECORD = /* @__PURE__ */ new Int32Array(8);

function keyDigits(): Uint8Array {
  const table = new Uint8Array(128);
  for (let c = 0; c < 26; c++) {
    table[97 + c] = 1 + c;
    table[65 + c] = 1 + c;
  }
  for (let c = 0; c < 10; c++) table[48 + c] = 27 + c;
  return table;
}

/** Whether `term` (lower case) is the `term.length` characters of ASCII `text` from `start`, lowered. */
function sameLowered(term: string, text: string, start: number): boolean {
  for (let i = 0; i < term.length; i++)
    if (KEY_DIGITS[term.charCodeAt(i)] !== KEY_DIGITS[text.charCodeAt(start + i)]) return false;
  return true;
}

/** A typed array twice as long, holding the same values first. */
function grown<T extends Int32Array | Uint8Array | Float64Array>(array: T): T {
  const more = new (array.constructor as new (length: number) => T)(array.length * 2);
  more.set(array);
  return more;
}
