import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodePostings } from '../src/views/search/search-codec.js';
import { readPiece } from '../src/views/search/search-piece.js';
import { searchPiece, termWeight } from '../src/views/search/search-text.js';
import { entry, linearSession } from './helpers/demo.js';

/** A small deterministic generator (the same texts on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * What a piece's terms are, counted the plain way: each document's words (runs of letters and digits), lower case,
 * none longer than 40 characters, counted in a `Map`; each term's documents with its weight, in the order terms
 * were first seen.
 */
function reference(texts: readonly string[]): [string, string][] {
  const postings = new Map<string, { docs: number[]; weights: number[] }>();
  texts.forEach((text, doc) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (word.length > 40) continue;
      const term = word.toLowerCase();
      counts.set(term, (counts.get(term) ?? 0) + 1);
      length++;
    }
    for (const [term, count] of counts) {
      let p = postings.get(term);
      if (!p) {
        p = { docs: [], weights: [] };
        postings.set(term, p);
      }
      p.docs.push(doc);
      p.weights.push(termWeight(count, length));
    }
  });
  return [...postings].map(([term, p]) => [term, encodePostings(p)]);
}

// Words that differ only in case or length, letters outside ASCII (one that lowers to two characters), the
// longest term and one longer, digits, separators.
const WORDS = [
  'cart',
  'Cart',
  'CART',
  'carts',
  'car',
  'über',
  'ÜBER',
  'İstanbul',
  'x'.repeat(40),
  'y'.repeat(41),
  '2026',
  'a1b2',
  'ĳ',
  '日本語',
];
const GAPS = [' ', '  ', '.', '-', '\n', '_', '/', '😀'];

describe("a session's search terms", () => {
  it('are the words of its entries counted one by one, with their weights, in the order first seen', () => {
    const next = random(26);
    const texts: string[] = [];
    for (let doc = 0; doc < 900; doc++) {
      let text = '';
      const words = 1 + Math.floor(next() * 60);
      // Most entries ASCII only (read without Unicode's tables), some not; many terms seen once (the table grows).
      const ascii = next() < 0.7;
      for (let i = 0; i < words; i++) {
        const r = next();
        const word =
          r < 0.5
            ? `w${Math.floor(next() * 6000).toString(36)}`
            : (WORDS[Math.floor(next() * WORDS.length)] as string);
        text += ascii ? word.replace(/[^\u0000-\u007f]/g, 'q') : word;
        text += ascii
          ? (GAPS[Math.floor(next() * 6)] as string)
          : (GAPS[Math.floor(next() * GAPS.length)] as string);
      }
      texts.push(text);
    }
    const session = linearSession('terms', 0);
    session.entries = texts.map((text, i) => entry(`t-${i}`, null, { content: [{ type: 'text', text }] }));
    const piece = searchPiece(session, (e) => ({ route: 's/p/x/', anchor: `e-${e.uuid}` }), 's/p/x/');
    const terms = readPiece(piece as string).t;
    expect(terms.length).toBeGreaterThan(4096);
    expect(terms).toEqual(reference(texts));
  });

  it('tell apart long words that differ only past their first letters, in ASCII text and not', () => {
    // Past sixteen letters a word's key (its first sixteen letters) is no longer exact: words that differ only in
    // their last letters have the same key, many of them so that some meet in the table.
    const next = random(27);
    const many: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let word = 'abcdefghijklmnop';
      while (word.length < 30) word += 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(next() * 36)];
      many.push(next() < 0.5 ? word : word.toUpperCase());
    }
    const long = [
      'abcdefghijklmnopa',
      'abcdefghijklmnopb',
      'ABCDEFGHIJKLMNOPB',
      'abcdefghijklmnop9',
      'zzzzzzzzzzzz',
    ];
    const texts = [
      long.join(' '),
      `${[...long].reverse().join('\n')} zzzzzzzzzzzy`,
      `über ${long.join(' ')} ÜBER`,
      'abcdefghijklmnopb',
      many.join(' '),
      [...many].reverse().join(' '),
    ];
    const session = linearSession('long', 0);
    session.entries = texts.map((text, i) => entry(`l-${i}`, null, { content: [{ type: 'text', text }] }));
    const piece = searchPiece(session, (e) => ({ route: 's/p/x/', anchor: `e-${e.uuid}` }), 's/p/x/');
    const terms = readPiece(piece as string).t;
    expect(terms.map(([term]) => term).slice(0, 6)).toEqual([
      'abcdefghijklmnopa',
      'abcdefghijklmnopb',
      'abcdefghijklmnop9',
      'zzzzzzzzzzzz',
      'zzzzzzzzzzzy',
      'über',
    ]);
    expect(terms).toEqual(reference(texts));
  });
});

describe("a session's search terms without WebAssembly", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('are those read with it, in long texts too', async () => {
    // Words of every length around the key's sixteen letters and the longest term, across the module's blocks of
    // sixteen bytes and its windows, and texts longer than its memory holds at first (it grows).
    const next = random(28);
    const texts: string[] = [];
    for (let doc = 0; doc < 60; doc++) {
      let text = '';
      const words = doc % 20 === 0 ? 12_000 : 1 + Math.floor(next() * 300);
      for (let i = 0; i < words; i++) {
        const length = 1 + Math.floor(next() * 44);
        let word = next() < 0.3 ? 'Abcdefghijklmnopqrs'.slice(0, length) : '';
        while (word.length < length) word += 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789'[Math.floor(next() * 36)];
        text += word + (GAPS[Math.floor(next() * 6)] as string).repeat(1 + Math.floor(next() * 3));
      }
      texts.push(text);
    }
    // Runs of letters longer than a window of the module's (32 KiB): one from a window's start to 10 bytes past its end.
    texts.push(
      `${'ab '.repeat(10_000)}${'X'.repeat(32_778)} tail ${'cD '.repeat(20_000)}${'y'.repeat(70_000)}`,
    );
    const pieceOf = async () => {
      const { searchPiece: piece } = await import('../src/views/search/search-text.js');
      const session = linearSession('plain', 0);
      session.entries = texts.map((text, i) => entry(`p-${i}`, null, { content: [{ type: 'text', text }] }));
      return piece(session, (e) => ({ route: 's/p/x/', anchor: `e-${e.uuid}` }), 's/p/x/');
    };
    const read = await pieceOf();
    expect(texts.some((text) => text.length > 1 << 18)).toBe(true);
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    expect(await pieceOf()).toBe(read);
    expect(readPiece(read as string).t).toEqual(reference(texts));
  });
});
