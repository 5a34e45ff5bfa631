import { HASH_STEP, wordModule } from './word-module.js';

/**
 * The words of a text of ASCII only, read in WebAssembly (`word-module.ts`) for `TermTable.countAscii`: where each
 * starts and ends, its key and its hash (`wordKey`), so that the table is given words and not characters. The text
 * is encoded into the module's memory (`TextEncoder.encodeInto`, at memory speed) and its words read a window at a
 * time (a window ends where no word goes on), their records read back from the same memory: the memory holds the
 * text and one window's records.
 */
export interface WordScan {
  /** Puts `text` into the module's memory: its length, or −1 (nothing put) when it has other characters than ASCII. */
  put(text: string): number;
  /**
   * Reads the words no longer than `longest` characters of a window of the text put, from `from` (0, or where the
   * window before ended): how many. Word `k`'s record is then, from `ints[at + 8 × k]`: its key (4 numbers), where it
   * starts and ends in the text, its hash; `next` is where the window ended (the text's length after the last).
   */
  words(from: number, longest: number): number;
  ints: Int32Array;
  at: number;
  next: number;
  /** The bytes of the text put, from 0 (when it was ASCII). */
  bytes: Uint8Array;
}

/**
 * The key of a word of ASCII letters and digits (`wordKey`, as `word-module.ts` reads it): its first 16 characters
 * lowered, four to a number (the first in the low byte), 0 past its end; then its hash. The key tells apart words
 * of up to 16 characters of the same length.
 */
export const KEY = /* @__PURE__ */ new Int32Array(5);

/**
 * Fills `KEY` with the key and hash of the word of `length` characters from `start` in `codes` (a string's code
 * units or a text's bytes: ASCII letters and digits, in any case).
 */
export function wordKey(codes: ArrayLike<number> | string, start: number, length: number): void {
  const key = KEY;
  key[0] = key[1] = key[2] = key[3] = 0;
  const end = Math.min(length, 16);
  const text = typeof codes === 'string' ? null : codes;
  for (let i = 0; i < end; i++) {
    const c = (text === null ? (codes as string).charCodeAt(start + i) : (text[start + i] as number)) | 0x20;
    key[i >> 2] = (key[i >> 2] as number) | (c << ((i & 3) * 8));
  }
  let hash = Math.imul(length ^ (key[0] as number), HASH_STEP);
  hash = Math.imul(hash ^ (key[1] as number), HASH_STEP);
  hash = Math.imul(hash ^ (key[2] as number), HASH_STEP);
  hash = Math.imul(hash ^ (key[3] as number), HASH_STEP);
  key[4] = hash ^ (hash >>> 16);
}

/** Bytes of a window (about: it ends where no word goes on). */
const WINDOW = 32_768;
/** Where the records go: at 0, room for a window's (a word and what ends it: two bytes at least). */
const RECORDS_AT = 0;
/**
 * Where the text's bytes go: after a window's records, `WINDOW / 2 + 1` of 32 bytes (`word-module.ts`). A number,
 * so that nothing is computed when the module is loaded (the search page's script bundles what it imports).
 */
const TEXT_AT = 524_320;
/** Bytes the module may read past a text (and past a word's start). */
const SLACK = 32;
const PAGE = 65_536;

/** The scan, made on first use; null where WebAssembly cannot run it. */
let made: WordScan | null | undefined;

/** The scan of `countAscii` (null where WebAssembly cannot run it). */
export function wordScan(): WordScan | null {
  if (made === undefined) made = newScan();
  return made;
}

type Words = (text: number, length: number, longest: number, out: number, base: number) => number;
/** What this module uses of the WebAssembly API (which the build's TypeScript libraries do not declare). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
interface Memory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

function newScan(): WordScan | null {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (api === undefined) return null;
  let words: Words;
  let memory: Memory;
  try {
    const { exports } = new api.Instance(new api.Module(wordModule(pagesFor(PAGE))));
    words = exports.words as Words;
    memory = exports.memory as Memory;
  } catch {
    return null;
  }
  const encoder = new TextEncoder();
  // No view yet: the first text makes them.
  let capacity = -1;
  let length = 0;
  const scan: WordScan = {
    bytes: new Uint8Array(0),
    ints: new Int32Array(0),
    at: RECORDS_AT / 4,
    next: 0,
    put(input: string): number {
      if (input.length > capacity) {
        const pages = pagesFor(input.length) - memory.buffer.byteLength / PAGE;
        if (pages > 0) memory.grow(pages);
        capacity = memory.buffer.byteLength - TEXT_AT - SLACK;
        // Views of the memory as it is now (growing it detaches the old ones).
        scan.bytes = new Uint8Array(memory.buffer, TEXT_AT, capacity);
        scan.ints = new Int32Array(memory.buffer);
      }
      const { read, written } = encoder.encodeInto(input, scan.bytes);
      // As many bytes as characters: each is an ASCII character.
      length = read !== input.length || written !== read ? -1 : written;
      return length;
    },
    words(from: number, longest: number): number {
      const to = windowEnd(scan.bytes, from, length);
      scan.next = to;
      return words(TEXT_AT + from, to - from, longest, RECORDS_AT, TEXT_AT);
    },
  };
  return scan;
}

/**
 * Where the window from `from` ends: `WINDOW` bytes on, or before, after a byte that is no letter or digit (so that
 * no word goes on past it); or, when the window is all one run of letters and digits, where that run ends (a window
 * of at most one record).
 */
function windowEnd(bytes: Uint8Array, from: number, length: number): number {
  if (length - from <= WINDOW) return length;
  let to = from + WINDOW;
  while (to > from && inWord(bytes[to - 1] as number)) to--;
  if (to > from) return to;
  to = from + WINDOW;
  while (to < length && inWord(bytes[to] as number)) to++;
  return to;
}

/** Whether an ASCII byte is a letter or a digit. */
function inWord(byte: number): boolean {
  return ((byte | 0x20) - 0x61) >>> 0 < 26 || (byte - 0x30) >>> 0 < 10;
}

/** Pages of memory for a text of `length` bytes, after the records. */
function pagesFor(length: number): number {
  return Math.ceil((TEXT_AT + length + SLACK) / PAGE);
}
