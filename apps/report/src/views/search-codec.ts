/**
 * The postings of the transcript index as text: each posting (a document and the weight of the term in it) is
 * one number, `(gap − 1) × WEIGHTS + (weight − 1)` where the gap is the distance from the previous document of
 * the list, written as base-64 digits, five bits a digit, low bits first; a digit of the first half of the
 * alphabet ends a number, one of the second half goes on. The search page (`_cctrail/search.js`) decodes the
 * same way.
 */

/** The digits: 0–31 end a number, 32–63 continue it. No quote, backslash or comma (term files use commas). */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Distinct weights of a term in a document (1 … WEIGHTS). */
export const WEIGHTS = 8;

/** A term's postings: documents in increasing order, each with its weight (1 … WEIGHTS). */
export interface Postings {
  docs: number[];
  weights: number[];
}

/** Writes a posting list (documents increasing, weights 1 … WEIGHTS). */
export function encodePostings(p: Postings): string {
  let out = '';
  let last = -1;
  for (let i = 0; i < p.docs.length; i++) {
    const doc = p.docs[i] as number;
    let v = (doc - last - 1) * WEIGHTS + ((p.weights[i] as number) - 1);
    last = doc;
    while (v >= 32) {
      out += DIGITS[32 + (v % 32)];
      v = Math.floor(v / 32);
    }
    out += DIGITS[v];
  }
  return out;
}

/** Digit values by character code (−1: not a digit). */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;

/** Reads a posting list written by `encodePostings`; throws on a character that is not a digit. */
export function decodePostings(text: string): Postings {
  const docs: number[] = [];
  const weights: number[] = [];
  let last = -1;
  let v = 0;
  let scale = 1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const d = code < 128 ? (VALUE[code] as number) : -1;
    if (d < 0) throw new Error(`not a postings digit: ${JSON.stringify(text[i])}`);
    if (d >= 32) {
      v += (d - 32) * scale;
      scale *= 32;
      continue;
    }
    v += d * scale;
    last += Math.floor(v / WEIGHTS) + 1;
    docs.push(last);
    weights.push((v % WEIGHTS) + 1);
    v = 0;
    scale = 1;
  }
  return { docs, weights };
}
