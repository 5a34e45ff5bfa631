/**
 * The postings of the transcript index as text, best first: a term's documents grouped by the term's weight in
 * them, heaviest group first, each group in increasing document order, so that the search page reads the best
 * documents of a term from the start of its list without decoding the rest. Each posting is one number,
 * `(gap − 1) × WEIGHTS + (weight − 1)`, where the gap is the distance from the previous document of the same
 * group (from −1 for a group's first: a change of weight starts a group). Numbers are written as base-64
 * digits, five bits a digit, low bits first; a digit of the first half of the alphabet ends a number, one of
 * the second half goes on. The search page (`_cctrail/search-match.js`) decodes the same way.
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
  const groups: number[][] = Array.from({ length: WEIGHTS }, () => []);
  for (let i = 0; i < p.docs.length; i++)
    groups[WEIGHTS - (p.weights[i] as number)]?.push(p.docs[i] as number);
  let out = '';
  groups.forEach((docs, g) => {
    docs.sort((a, b) => a - b);
    let last = -1;
    for (const doc of docs) {
      let v = (doc - last - 1) * WEIGHTS + (WEIGHTS - 1 - g);
      last = doc;
      while (v >= 32) {
        out += DIGITS[32 + (v % 32)];
        v = Math.floor(v / 32);
      }
      out += DIGITS[v];
    }
  });
  return out;
}

/** Digit values by character code (−1: not a digit). */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS.charCodeAt(i)] = i;

/** Reads a posting list written by `encodePostings`, best first; throws on a character that is not a digit. */
export function decodePostings(text: string): Postings {
  const docs: number[] = [];
  const weights: number[] = [];
  let last = -1;
  let group = 0;
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
    const weight = (v % WEIGHTS) + 1;
    if (weight !== group) {
      group = weight;
      last = -1;
    }
    last += Math.floor(v / WEIGHTS) + 1;
    docs.push(last);
    weights.push(weight);
    v = 0;
    scale = 1;
  }
  return { docs, weights };
}
