import { HASH_STEP, RECORD, wordModule } from './word-module.js';

/**
 * The words of a text of ASCII only, read in WebAssembly (`word-module.ts`) for `TermTable.countAscii`: where each
 * starts and ends, its key and its hash (`wordKey`), so that the table is given words and not characters. The text
 * is encoded into the module's memory (`TextEncoder.encodeInto`, at memory speed) and the records are read back
 * from the same memory.
 */
export interface WordScan {
  /**
   * Reads the words of `text` no longer than `longest` characters: how many, or −1 (and nothing read) when the text
   * has other characters than ASCII. Word `k`'s record is then, from `ints[at + 8 × k]`: its key (4 numbers), where
   * it starts, where it ends, its hash; until the next call.
   */
  read(text: string, longest: number): number;
  ints: Int32Array;
  at: number;
  /** The bytes of the last text read (when it was ASCII), from 0, until the next call. */
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

/** Where the text's bytes go. */
const TEXT_AT = 0;
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

type Words = (text: number, length: number, longest: number, out: number) => number;
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
  let text = new Uint8Array(0);
  const scan: WordScan = {
    bytes: text,
    ints: new Int32Array(0),
    at: 0,
    read(input: string, longest: number): number {
      if (input.length > capacity) {
        const pages = pagesFor(input.length) - memory.buffer.byteLength / PAGE;
        if (pages > 0) memory.grow(pages);
        capacity = capacityOf(memory.buffer.byteLength);
        // Views of the memory as it is now (growing it detaches the old ones).
        text = new Uint8Array(memory.buffer, TEXT_AT, capacity);
        scan.bytes = text;
        scan.ints = new Int32Array(memory.buffer);
        scan.at = recordsAt(capacity) / 4;
      }
      const { read, written } = encoder.encodeInto(input, text);
      // As many bytes as characters: each is an ASCII character.
      if (read !== input.length || written !== read) return -1;
      return words(TEXT_AT, written, longest, recordsAt(capacity));
    },
  };
  return scan;
}

/** Where the records go after a text of `capacity` bytes. */
function recordsAt(capacity: number): number {
  return (TEXT_AT + capacity + SLACK + 7) & ~7;
}

/** Bytes for a text of `length` bytes and its records (a word and what ends it: two bytes at least). */
function bytesFor(length: number): number {
  return recordsAt(length) + RECORD * (Math.ceil(length / 2) + 1);
}

function pagesFor(length: number): number {
  return Math.ceil(bytesFor(length) / PAGE);
}

/** The longest text that a memory of `bytes` bytes holds with its records. */
function capacityOf(bytes: number): number {
  let capacity = Math.floor(((bytes - TEXT_AT - SLACK - RECORD - 8) * 2) / (2 + RECORD));
  while (bytesFor(capacity + 1) <= bytes) capacity++;
  while (bytesFor(capacity) > bytes) capacity--;
  return capacity;
}
