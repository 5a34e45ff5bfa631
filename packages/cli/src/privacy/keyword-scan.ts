/**
 * An Aho-Corasick automaton over many keywords, compiled to a table of transitions: one pass over a string
 * finds every keyword in it, overlapping ones included. Letters are read without their case (ASCII only), so
 * that one automaton serves keywords in any letter case and exact ones alike; a keyword of exact case is checked
 * against the text where it is found. The npm packages measured (BENCHMARKS.md, #26) build their automata of
 * maps and read text by grapheme: 2 to 66 MB/s on transcript strings, where this table reads 400 MB/s and more.
 */

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

/** The keywords found in texts by one pass each. */
export class KeywordScan {
  readonly #keywords: readonly Keyword[];
  /**
   * The class of each UTF-16 code unit (0: not in any keyword, every code unit past ASCII among them): a table of
   * all 65,536, so that the scan reads a class without a test per character.
   */
  readonly #classes = new Uint8Array(1 << 16);
  readonly #width: number;
  /** The next state for each state and class (see the constructor). */
  readonly #next: Int32Array;
  /** For each state, the keywords that end there (indexes into `#keywords`), or none. */
  readonly #ends: (readonly number[] | undefined)[];

  /**
   * Compiles the automaton.
   *
   * @param keywords ASCII keywords; a keyword's index is what `scan` reports.
   */
  constructor(keywords: readonly Keyword[]) {
    this.#keywords = keywords;
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
    this.#next = new Int32Array(next.length);
    for (let i = 0; i < next.length; i++) {
      const state = next[i]!;
      this.#next[i] = ends[state]!.length > 0 ? ~(state * width) : state * width;
    }
    this.#ends = ends.map((list) => (list.length > 0 ? list : undefined));
    this.#width = width;
  }

  /**
   * Finds every keyword in a text, in one pass.
   *
   * @param hits Receives each keyword found (its index) and where it starts, a pair of numbers each, in the order
   *   the keywords end, written from its start (an array the caller reuses: no function call or allocation per
   *   keyword, and none to empty it; what is past the pairs of this scan is left from earlier ones).
   * @returns How many keywords were found (pairs written).
   */
  scan(text: string, hits: number[]): number {
    const classes = this.#classes;
    const next = this.#next;
    const length = text.length;
    let offset = 0;
    let written = 0;
    for (let i = 0; i < length; i++) {
      const to = next[offset + classes[text.charCodeAt(i)]!]!;
      if (to >= 0) {
        offset = to;
        continue;
      }
      offset = ~to;
      written = this.#found(text, i, offset, hits, written);
    }
    return written >> 1;
  }

  /** Writes the keywords that end at `i` (the scan is at `offset`) into `hits` from `written`; returns where to go on. */
  #found(text: string, i: number, offset: number, hits: number[], written: number): number {
    // `| 0`: an integer index, which keeps the scan's loop in optimized code.
    for (const index of this.#ends[(offset / this.#width) | 0]!) {
      const { word, anyCase } = this.#keywords[index]!;
      const start = i + 1 - word.length;
      if (anyCase || text.startsWith(word, start)) {
        hits[written++] = index;
        hits[written++] = start;
      }
    }
    return written;
  }
}
