/**
 * An Aho-Corasick automaton over many keywords, compiled to a table of transitions: one pass over a string
 * finds every keyword in it, overlapping ones included. Letters are read without their case (ASCII only), so
 * that one automaton serves keywords in any letter case and exact ones alike; a keyword of exact case is checked
 * against the text where it is found. The npm packages measured (BENCHMARKS.md, #26) build their automata of
 * maps and read text by grapheme: 2 to 66 MB/s on transcript strings, where this table reads 400 MB/s and more
 * (1 GB/s and more for long strings, which WebAssembly reads: `keyword-lanes.ts`).
 */

import { laneScanner, type WriteHits } from './keyword-lanes.js';

/** A keyword to find. */
export interface Keyword {
  word: string;
  /** Found in any letter case (ASCII letters), else as written. */
  anyCase: boolean;
}

/** Lower case of an ASCII letter, other code units as they are. */
function fold(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code | 0x20 : code;
}

// Texts from this length on are scanned as two halves (`compiledScan`); it is at least twice the longest keyword's.
const HALVED_SHORTEST = 256;
// Texts from this length on are scanned in WebAssembly by four lanes (`keyword-lanes.ts`), where it runs.
const LANES_SHORTEST = 512;

/** The keywords found in texts by one pass each. */
export class KeywordScan {
  /**
   * The class of each UTF-16 code unit (0: not in any keyword, every code unit past ASCII among them): a table of
   * all 65,536, so that the scan reads a class without a test per character.
   */
  readonly #classes = new Uint8Array(1 << 16);
  /**
   * Finds every keyword in a text, in one pass (a function compiled for this automaton's tables).
   *
   * @param hits Receives each keyword found (its index) and where it starts, a pair of numbers each, in the order
   *   the keywords end, written from its start (an array the caller reuses: no function call or allocation per
   *   keyword, and none to empty it; what is past the pairs of this scan is left from earlier ones).
   * @returns How many keywords were found (pairs written).
   */
  readonly scan: (text: string, hits: number[]) => number;

  /**
   * Compiles the automaton.
   *
   * @param keywords ASCII keywords; a keyword's index is what `scan` reports.
   */
  constructor(keywords: readonly Keyword[]) {
    let width = 1;
    for (const { word } of keywords)
      for (let i = 0; i < word.length; i++) {
        const code = fold(word.charCodeAt(i));
        if (code >= 128) throw new RangeError(`keyword ${JSON.stringify(word)}: ASCII only`);
        if (this.#classes[code] === 0) this.#classes[code] = width++;
      }
    for (let upper = 0x41; upper <= 0x5a; upper++) this.#classes[upper] = this.#classes[upper | 0x20]!;
    // The trie of the folded keywords.
    const children: Map<number, number>[] = [new Map()];
    const ends: number[][] = [[]];
    keywords.forEach(({ word }, index) => {
      let state = 0;
      for (let i = 0; i < word.length; i++) {
        const symbol = this.#classes[fold(word.charCodeAt(i))]!;
        let child = children[state]!.get(symbol);
        if (child === undefined) {
          child = children.length;
          children.push(new Map());
          ends.push([]);
          children[state]!.set(symbol, child);
        }
        state = child;
      }
      ends[state]!.push(index);
    });
    // Breadth first: each state's failure state is complete before its children need it.
    const next = new Int32Array(children.length * width);
    const failure = new Int32Array(children.length);
    const queue: number[] = [];
    for (let symbol = 0; symbol < width; symbol++) {
      const child = children[0]!.get(symbol) ?? 0;
      next[symbol] = child;
      if (child !== 0) queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[failure[state]!]!);
      for (let symbol = 0; symbol < width; symbol++) {
        const child = children[state]!.get(symbol);
        if (child === undefined) next[state * width + symbol] = next[failure[state]! * width + symbol]!;
        else {
          failure[child] = next[failure[state]! * width + symbol]!;
          next[state * width + symbol] = child;
          queue.push(child);
        }
      }
    }
    // Each entry is the next state's offset in the table (state × width), negated (`~`) when keywords end there:
    // the scan then needs no multiplication, and one sign test tells it whether to look at what ended.
    const offsets = new Int32Array(next.length);
    for (let i = 0; i < next.length; i++) {
      const state = next[i]!;
      offsets[i] = ends[state]!.length > 0 ? ~(state * width) : state * width;
    }
    const automaton: Automaton = {
      keywords,
      classes: this.#classes,
      next: offsets,
      width,
      ends: ends.map((list) => (list.length > 0 ? list : undefined)),
      overlap: Math.max(1, ...keywords.map(({ word }) => word.length)),
    };
    if (2 * automaton.overlap > HALVED_SHORTEST) throw new RangeError('keywords longer than 128 characters');
    this.scan = compiledScan(automaton);
  }
}

/** The tables of an automaton, as its scan reads them. */
interface Automaton {
  keywords: readonly Keyword[];
  /** The class of each UTF-16 code unit. */
  classes: Uint8Array;
  /** For each state's offset plus a class, the next state's offset, negated (`~`) when keywords end there. */
  next: Int32Array;
  width: number;
  /** For each state, the keywords that end there (indexes into `keywords`), or none. */
  ends: readonly (readonly number[] | undefined)[];
  /** The longest keyword's length. */
  overlap: number;
}

/**
 * The scan of a text over one automaton's tables. They are the closure's own constants, which the optimizing
 * compiler builds into the loop's code (a method reading them from its object ran 15 % slower). A long text is
 * read as two halves in one loop, a step of each per turn: each step waits for the table entry of the step before
 * it, and the two halves' steps do not wait for each other. The second half's scan starts the longest keyword's
 * length before its half, so that it finds every keyword ending in its half, and reports only those; the first
 * half reports the keywords that end in it. The first half's hits, then the second's: in the order they end.
 */
function compiledScan({ keywords, classes, next, width, ends, overlap }: Automaton) {
  const lengths = Int32Array.from(keywords, ({ word }) => word.length);
  // The keywords of exact case, as written; null for the others.
  const exact = keywords.map(({ word, anyCase }) => (anyCase ? null : word));
  /** Writes the keywords that end at `i` (the scan is at `offset`) into `hits` from `written`; returns where to go on. */
  const found: WriteHits = (text, i, offset, hits, written) => {
    // `| 0`: an integer index, which keeps the scan's loop in optimized code.
    const list = ends[(offset / width) | 0]!;
    for (let k = 0; k < list.length; k++) {
      const index = list[k]!;
      const start = i + 1 - lengths[index]!;
      const word = exact[index];
      if (word === null || text.startsWith(word!, start)) {
        hits[written++] = index;
        hits[written++] = start;
      }
    }
    return written;
  };
  // The second half's hits, until they are copied after the first's.
  const later: number[] = [];
  const lanes = laneScanner({ classes, next, width, overlap }, found);
  return (text: string, hits: number[]): number => {
    const length = text.length;
    if (length >= LANES_SHORTEST && lanes !== null) return lanes(text, hits);
    let written = 0;
    if (length < HALVED_SHORTEST) {
      let offset = 0;
      for (let i = 0; i < length; i++) {
        const to = next[offset + classes[text.charCodeAt(i)]!]!;
        if (to >= 0) {
          offset = to;
          continue;
        }
        offset = ~to;
        written = found(text, i, offset, hits, written);
      }
      return written >> 1;
    }
    const half = length >> 1;
    // The second half's scan is at `from + i` when the first's is at `i`.
    const from = half - overlap;
    let first = 0;
    let second = 0;
    let written2 = 0;
    for (let i = 0; i < half; i++) {
      const a = next[first + classes[text.charCodeAt(i)]!]!;
      const b = next[second + classes[text.charCodeAt(from + i)]!]!;
      if ((a | b) >= 0) {
        first = a;
        second = b;
        continue;
      }
      if (a < 0) {
        first = ~a;
        written = found(text, i, first, hits, written);
      } else first = a;
      if (b < 0) {
        second = ~b;
        if (from + i >= half) written2 = found(text, from + i, second, later, written2);
      } else second = b;
    }
    for (let i = from + half; i < length; i++) {
      const to = next[second + classes[text.charCodeAt(i)]!]!;
      if (to >= 0) {
        second = to;
        continue;
      }
      second = ~to;
      written2 = found(text, i, second, later, written2);
    }
    for (let j = 0; j < written2; j++) hits[written++] = later[j]!;
    return written >> 1;
  };
}
