import { describe, expect, it } from 'vitest';
import { laneScanner } from '../src/privacy/keyword-lanes.js';
import { KeywordScan } from '../src/privacy/keyword-scan.js';
import { keywordsFromStart } from './keyword-reference.js';

/** A text of `length` characters drawn from `pieces` by a fixed sequence (the same text on every run). */
function textOf(length: number, pieces: readonly string[], seed: number): string {
  let state = seed;
  let text = '';
  while (text.length < length) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    text += pieces[(state >>> 16) % pieces.length];
  }
  return text.slice(0, length);
}

// Lengths around the lanes' parts and the windows of 32,768 characters, the shortest that lanes read included.
const LENGTHS = [512, 513, 515, 1024, 4099, 32767, 32768, 32771, 65536 + 37, 100_001];

describe('laneScanner: four lanes in WebAssembly', () => {
  // The automaton of one keyword, `ab`, by hand: classes a → 1, b → 2 (width 3); states root, `a`, `ab`.
  const classes = new Uint8Array(1 << 16);
  classes[0x61] = 1;
  classes[0x62] = 2;
  // For each state's offset (state × 3) plus a class, the next state's offset; `~` where `ab` ends.
  const next = Int32Array.from([0, 3, 0, 0, 3, ~6, 0, 3, 0]);

  it('reports where each keyword ends, in order, across lanes and windows', () => {
    const scan = laneScanner({ classes, next, width: 3, overlap: 2 }, (_text, i, offset, hits, written) => {
      hits[written++] = i;
      hits[written++] = offset;
      return written;
    });
    expect(scan).not.toBeNull();
    for (const length of LENGTHS) {
      const text = textOf(length, ['a', 'b', 'x', 'ab', 'é', '\u0000'], length);
      const expected: number[] = [];
      for (let at = text.indexOf('ab'); at !== -1; at = text.indexOf('ab', at + 1)) expected.push(at + 1, 6);
      const hits: number[] = [];
      expect(scan!(text, hits)).toBe(expected.length / 2);
      expect(hits.slice(0, expected.length)).toEqual(expected);
    }
  });

  it('is not made for more classes than a byte holds × 4 (the JavaScript scan reads those texts)', () => {
    expect(
      laneScanner({ classes, next, width: 65, overlap: 2 }, (_t, _i, _o, _h, written) => written),
    ).toBeNull();
  });
});

describe('KeywordScan on long texts (read by lanes)', () => {
  const words = [
    'he',
    'she',
    'hers',
    'his',
    'Token',
    'token',
    'https://hooks.slack.com/services/t',
    '\u001b',
  ];
  const anyCase = new Set([5, 6]);
  const scan = new KeywordScan(words.map((word, i) => ({ word, anyCase: anyCase.has(i) })));

  /** What a reading from the start finds (`keywordsFromStart`). */
  const expected = (text: string) => keywordsFromStart(words, (i) => anyCase.has(i), text);

  it('finds what a reading from the start finds, keywords across lanes and windows included', () => {
    const pieces = ['h', 'e', 's', 'r', 'i', 'T', 'o', 'k', 'n', ' ', 'é', '😀', '\u001b', 'TOKEN', 'ushers'];
    for (const length of LENGTHS) {
      const text = textOf(length, [...pieces, 'HTTPS://hooks.slack.com/services/T'], length);
      const hits: number[] = [];
      const count = scan.scan(text, hits);
      const out: string[] = [];
      for (let h = 0; h < 2 * count; h += 2) out.push(`${words[hits[h]!]}@${hits[h + 1]}`);
      expect(out).toEqual(expected(text));
    }
  });

  it('finds the longest keyword where it crosses the edge of a lane or a window', () => {
    const word = 'https://hooks.slack.com/services/t';
    for (const length of [1024, 65536 + 8]) {
      // Each lane's part is a quarter of a window (32,768 characters, or what is left of the text).
      const edges = length > 32768 ? [8192, 16384, 32768, 40960, 65536] : [256, 512, 768];
      for (const edge of edges)
        for (const shift of [-33, -17, -1, 0]) {
          const chars = Array.from({ length }, () => '.');
          chars.splice(edge + shift, word.length, ...word);
          const text = chars.join('').slice(0, length);
          const hits: number[] = [];
          const count = scan.scan(text, hits);
          expect(count).toBe(edge + shift + word.length <= length ? 1 : 0);
          if (count === 1) expect(hits.slice(0, 2)).toEqual([6, edge + shift]);
        }
    }
  });
});
