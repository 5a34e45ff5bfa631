/**
 * The JSON strings of a line, in order: where each one's quotes are, every string checked as `JSON.parse` checks
 * it (no control character, valid escapes). A line shrunk before parsing (`shrink-line.ts`) loses bytes of its
 * long strings, which `JSON.parse` then never sees: checked here, the shrunk line is valid JSON exactly when the
 * whole line is. The scan runs in WebAssembly (`string-scan-module.ts`) where it can, else in JavaScript.
 */
import {
  ESCAPES,
  HEX,
  LETTERS_HIGH,
  LETTERS_LOW,
  LINE,
  PAST_END,
  stringScanModule,
} from './string-scan-module.js';

/** Strings found per call of the scan. */
const CAPACITY = 1024;
const PAGE = 65536;

/** What this module uses of the WebAssembly API (which the package's TypeScript libraries do not declare). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
interface Memory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
type Scan = (at: number, end: number, out: number, capacity: number) => number;

/** The WebAssembly scan of this thread, its memory and views of it. */
interface Scanner {
  scan: Scan;
  memory: Memory;
  bytes: Uint8Array;
  words: Int32Array;
}

/** This thread's scanner; null where WebAssembly (with SIMD) cannot run it; undefined until first asked. */
let scanner: Scanner | null | undefined;

function newScanner(): Scanner | null {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (api === undefined) return null;
  let exports: Record<string, unknown>;
  try {
    exports = new api.Instance(new api.Module(stringScanModule(1))).exports;
  } catch {
    return null;
  }
  const memory = exports.memory as Memory;
  const bytes = new Uint8Array(memory.buffer);
  for (const letter of '"\\/bfnrt') bytes[ESCAPES + letter.charCodeAt(0)] = 2;
  bytes[ESCAPES + 0x75] = 6; // u
  for (const digit of '0123456789abcdefABCDEF') bytes[HEX + digit.charCodeAt(0)] = 1;
  // The letters by halves: 0x2_ (`"` and `/`: bit 1), 0x5_ (`\`: 2), 0x6_ (b, f, n: 4), 0x7_ (r, t: 8).
  bytes.set([0, 0, 1 | 4 | 8, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1], LETTERS_LOW);
  bytes.set([0, 0, 1, 0, 0, 2, 4, 8], LETTERS_HIGH);
  return { scan: exports.strings as Scan, memory, bytes, words: new Int32Array(memory.buffer) };
}

/**
 * A cursor over a line's strings: `next()` moves to the next one (`open` and `close`: the indexes of its quotes)
 * and answers false after the last, or at a string that is not valid JSON or not closed (then `valid` is false).
 */
export class StringSpans {
  /** Index of the current string's opening quote. */
  open = -1;
  /** Index of the current string's closing quote. */
  close = -1;
  /** False once a string was found not valid JSON, or not closed. */
  valid = true;
  #pairs: Int32Array;
  #first: number;
  #shift: number;
  #index = 0;
  #count = 0;
  #fill: (from: number) => number;

  /**
   * @param pairs Where the scan writes the quotes' offsets, two a string.
   * @param first The index of the first pair's first number in `pairs`.
   * @param shift What the offsets in `pairs` are more than the line's (where the line is in the scan's memory).
   * @param fill Scans from a line offset on: the number of strings written, or -1 at one not valid.
   */
  constructor(pairs: Int32Array, first: number, shift: number, fill: (from: number) => number) {
    this.#pairs = pairs;
    this.#first = first;
    this.#shift = shift;
    this.#fill = fill;
    this.#count = this.#refill(0);
  }

  /** Moves to the next string; false when there is none (or it is not valid: see `valid`). */
  next(): boolean {
    if (this.#index === this.#count) {
      if (this.#count < CAPACITY) return false;
      this.#count = this.#refill(this.close + 1);
      this.#index = 0;
      if (this.#count === 0) return false;
    }
    const at = this.#first + 2 * this.#index++;
    this.open = this.#pairs[at]! - this.#shift;
    this.close = this.#pairs[at + 1]! - this.#shift;
    return true;
  }

  #refill(from: number): number {
    const count = this.#fill(from);
    if (count >= 0) return count;
    this.valid = false;
    return 0;
  }
}

/**
 * The strings of a line. The cursor is valid until the next call (the line is copied into one memory per thread,
 * grown to the longest line).
 *
 * @param line The line's UTF-8 bytes.
 */
export function stringSpans(line: Uint8Array): StringSpans {
  if (scanner === undefined) scanner = newScanner();
  const out = (LINE + line.length + PAST_END + 7) & ~7;
  const needed = out + 8 * CAPACITY;
  const held = scanner;
  if (held === null || !(held.bytes.length >= needed || grown(held, needed))) {
    const pairs = new Int32Array(2 * CAPACITY);
    return new StringSpans(pairs, 0, 0, (from) => scanStrings(line, from, pairs));
  }
  held.bytes.set(line, LINE);
  const end = LINE + line.length;
  // Offsets in memory are the line's plus `LINE`: the cursor makes them the line's as it reads them.
  return new StringSpans(held.words, out >> 2, LINE, (from) => held.scan(LINE + from, end, out, CAPACITY));
}

/** Grows the scanner's memory to `needed` bytes; false when it cannot (the line is then scanned in JavaScript). */
function grown(held: Scanner, needed: number): boolean {
  try {
    held.memory.grow(Math.ceil((needed - held.bytes.length) / PAGE));
  } catch {
    return false;
  }
  held.bytes = new Uint8Array(held.memory.buffer);
  held.words = new Int32Array(held.memory.buffer);
  return true;
}

const HEX_DIGITS = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/**
 * What the WebAssembly scan does, one byte at a time (where WebAssembly is missing, and to test it by): the quotes
 * of up to `CAPACITY` strings from `from` written to `pairs`, their count, or -1 at a string not valid or not closed.
 *
 * @param line The line's bytes.
 * @param from Where to look for the next string.
 * @param pairs Where the quotes' indexes go, two a string.
 */
export function scanStrings(line: Uint8Array, from: number, pairs: Int32Array): number {
  let count = 0;
  let at = from;
  while (count < CAPACITY) {
    const open = line.indexOf(0x22, at);
    if (open === -1) return count;
    const close = stringEnd(line, open + 1);
    if (close === -1) return -1;
    pairs[2 * count] = open;
    pairs[2 * count + 1] = close;
    count++;
    at = close + 1;
  }
  return count;
}

/** The index of the quote that closes the string whose body starts at `start`, or -1. */
function stringEnd(line: Uint8Array, start: number): number {
  let at = start;
  while (at < line.length) {
    const byte = line[at]!;
    if (byte === 0x22) return at;
    if (byte < 0x20) return -1;
    if (byte !== 0x5c) {
      at += 1;
      continue;
    }
    const letter = line[at + 1] ?? 0;
    if (SIMPLE_ESCAPES.has(letter)) at += 2;
    else if (letter === 0x75 && HEX_DIGITS.test(String.fromCharCode(...line.subarray(at + 2, at + 6))))
      at += 6;
    else return -1;
  }
  return -1;
}
