import { digits, WEIGHTS } from './search-codec.js';

/**
 * The last line of a session's search piece (`pieceText`): `[["term","postings"],…]`, each term with its postings
 * as `encodePostings` writes them, what `scriptJson` writes for that list. It is written as bytes, after the piece's
 * other lines (`ByteText`), not as a string for every term's postings joined with the others: a term (letters and
 * digits) and postings (`encodePostings`' digits) have nothing that JSON or a script escapes.
 *
 * @param out Where the line is written.
 * @param terms The terms, in the order they are written.
 * @param docs The postings' documents, each term's from `starts[term * WEIGHTS]` to `starts[(term + 1) * WEIGHTS]`,
 *   heaviest first, each weight's in increasing order.
 * @param weights Their weights (1 … `WEIGHTS`).
 */
export function writeTermsLine(
  out: ByteText,
  terms: readonly string[],
  docs: Int32Array,
  weights: Uint8Array,
  starts: Int32Array,
): void {
  out.reserve(2 + 16 * terms.length + 4 * docs.length);
  out.byte(OPEN);
  for (let term = 0; term < terms.length; term++) {
    const text = terms[term] as string;
    const from = starts[term * WEIGHTS] as number;
    const to = starts[(term + 1) * WEIGHTS] as number;
    // A number is at most 7 digits (5 bits each); a character at most 3 bytes.
    out.reserve(8 + 3 * text.length + 7 * (to - from));
    if (term > 0) out.byte(COMMA);
    out.byte(OPEN);
    out.byte(QUOTE);
    out.text(text);
    out.byte(QUOTE);
    out.byte(COMMA);
    out.byte(QUOTE);
    postings(out, docs, weights, from, to);
    out.byte(QUOTE);
    out.byte(CLOSE);
  }
  out.reserve(1);
  out.byte(CLOSE);
}

/** The postings `from` … `to` (one term's, heaviest first, each weight's in increasing order), as `encodePostings`. */
function postings(out: ByteText, docs: Int32Array, weights: Uint8Array, from: number, to: number): void {
  let weight = 0;
  let last = -1;
  for (let at = from; at < to; at++) {
    const w = weights[at] as number;
    // A change of weight starts a group, whose first gap is from −1.
    if (w !== weight) {
      weight = w;
      last = -1;
    }
    const doc = docs[at] as number;
    out.number((doc - last - 1) * WEIGHTS + (w - 1));
    last = doc;
  }
}

const OPEN = 0x5b;
const CLOSE = 0x5d;
const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * Text written as UTF-8 bytes into an array that grows: a search piece is made so, and its bytes stored as they are
 * (neither a string of the whole piece nor its encoding made).
 */
export class ByteText {
  private bytes: Uint8Array;
  private at = 0;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }

  /** Starts again from nothing written (keeping the array). */
  clear(): void {
    this.at = 0;
  }

  /** The bytes written. */
  written(): Uint8Array {
    return this.bytes.subarray(0, this.at);
  }

  /** Writes a text of any length, as UTF-8. */
  line(text: string): void {
    if (text.length < LONG_TEXT) {
      this.reserve(3 * text.length);
      this.text(text);
      return;
    }
    // Long ones are encoded by the runtime (at memory speed), with room for three bytes a character.
    this.reserve(3 * text.length);
    this.at += coder().encoder.encodeInto(text, this.bytes.subarray(this.at)).written;
  }

  /** Makes room for `more` bytes. */
  reserve(more: number): void {
    if (this.at + more <= this.bytes.length) return;
    const bytes = new Uint8Array(Math.max(2 * this.bytes.length, this.at + more));
    bytes.set(this.bytes.subarray(0, this.at));
    this.bytes = bytes;
  }

  byte(b: number): void {
    this.bytes[this.at++] = b;
  }

  /** A number's digits (`digits`). */
  number(n: number): void {
    const codes = digitCodes();
    let v = n;
    // Below 2 ** 31 (`digits`' arithmetic, in bits).
    if (v < 2 ** 31) {
      while (v >= 32) {
        this.bytes[this.at++] = codes[32 + (v & 31)] as number;
        v >>>= 5;
      }
    } else {
      while (v >= 32) {
        this.bytes[this.at++] = codes[32 + (v % 32)] as number;
        v = Math.floor(v / 32);
      }
    }
    this.bytes[this.at++] = codes[v] as number;
  }

  /** Text, as UTF-8 (ASCII, most terms, copied one character a byte), room made for it (`reserve`). */
  text(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) {
        this.at += coder().encoder.encodeInto(text.slice(i), this.bytes.subarray(this.at)).written;
        return;
      }
      this.bytes[this.at++] = c;
    }
  }

  toString(): string {
    return coder().decoder.decode(this.written());
  }
}

/** Texts from this length on are encoded by `TextEncoder.encodeInto`, shorter ones character by character. */
const LONG_TEXT = 48;

/** The character codes of `digits`' 64 digits, made on first use. */
let codes: Uint8Array | null = null;
function digitCodes(): Uint8Array {
  codes ??= Uint8Array.from({ length: 64 }, (_, i) => digits(i).charCodeAt(0));
  return codes;
}

let coders: {
  encoder: InstanceType<typeof TextEncoder>;
  decoder: InstanceType<typeof TextDecoder>;
} | null = null;
function coder(): NonNullable<typeof coders> {
  coders ??= { encoder: new TextEncoder(), decoder: new TextDecoder() };
  return coders;
}
