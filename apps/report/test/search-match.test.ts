import { describe, expect, it } from 'vitest';
import { best, fileRange, match, ranked, termLists } from '../src/browser/matcher.js';
import { marked, snippet } from '../src/browser/snippets.js';
import { encodePostings, WEIGHTS } from '../src/views/search/search-codec.js';
import { queryTerms } from '../src/views/search/search-text.js';

/** What the search page's matcher (`_cctrail/search-match.js`, compiled from `src/browser/`) offers. */
const M = { queryWords: queryTerms, fileRange, termLists, best, match, ranked, snippet, marked };

/** A term file's text as the page keeps it: `,term postings,…,` in sorted order. */
function termFile(terms: Record<string, [number, number][]>): string {
  const entries = Object.keys(terms)
    .sort()
    .map((t) => {
      const p = terms[t] ?? [];
      return `${t} ${encodePostings({ docs: p.map((x) => x[0]), weights: p.map((x) => x[1]) })}`;
    });
  return `,${entries.join(',')},`;
}

/** A deterministic pseudo-random sequence (so a failure can be replayed). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** `count` postings: distinct documents below `n`, random weights. */
function postings(next: () => number, n: number, count: number): [number, number][] {
  const docs = new Set<number>();
  while (docs.size < count) docs.add(Math.floor(next() * n));
  return [...docs].map((d) => [d, 1 + Math.floor(next() * WEIGHTS)]);
}

describe('the search page matcher', () => {
  it('finds a word, and for 3 or more characters every term it starts, at half weight', () => {
    const file = termFile({
      rea: [[1, 8]],
      read: [[2, 1]],
      readme: [[3, 8]],
      ready: [[4, 2]],
      red: [[5, 8]],
    });
    expect(M.termLists([file], 'read').map((l) => l.factor)).toEqual([1, 0.5, 0.5]);
    expect(M.termLists([file], 're')).toEqual([]);
    expect(M.termLists([file, null], 'red')).toHaveLength(1);
    expect(M.queryWords('Read  the-README.md')).toEqual(['read', 'the', 'readme', 'md']);
    // The term files a word needs, by their first terms.
    expect(M.fileRange(['a', 'read', 'ready', 's'], 'read')).toEqual([1, 2]);
    expect(M.fileRange(['a', 'read', 'ready', 's'], 're')).toEqual([0]);
  });

  it("ranks a word's entries by idf × weight, the word itself before terms it only starts", () => {
    const n = 100;
    const file = termFile({
      read: [
        [10, 4],
        [11, 8],
        [12, 1],
      ],
      readme: [
        [10, 8],
        [13, 8],
      ],
    });
    const lists = M.termLists([file], 'read');
    const all = M.ranked(M.match([lists], n), 0, 10);
    expect(all).toEqual([11, 10, 13, 12]);
    expect(M.best(lists, n, 10)).toEqual(all);
  });

  it("reads the same best entries from the lists' heads as from every posting, on random lists", () => {
    const next = random(7);
    for (let round = 0; round < 40; round++) {
      const n = 50 + Math.floor(next() * 3000);
      const terms: Record<string, [number, number][]> = {};
      const names = ['word', 'worda', 'wordb', 'wordzz', 'work'];
      for (const t of names)
        if (next() < 0.8) terms[t] = postings(next, n, 1 + Math.floor(next() * Math.min(n, 400)));
      const lists = M.termLists([termFile(terms)], 'word');
      const found = M.match([lists], n);
      for (const count of [1, 20, 1000]) expect(M.best(lists, n, count)).toEqual(M.ranked(found, 0, count));
      // Later pages follow on from the first.
      expect(M.ranked(found, 0, 20).concat(M.ranked(found, 20, 40))).toEqual(M.ranked(found, 0, 40));
    }
  });

  it('keeps only entries with every word, scored by the sum', () => {
    const file = termFile({
      cart: [
        [1, 8],
        [2, 2],
        [3, 5],
      ],
      empty: [
        [2, 8],
        [3, 1],
        [4, 8],
      ],
    });
    const found = M.match([M.termLists([file], 'cart'), M.termLists([file], 'empty')], 10);
    expect(found.docs).toEqual([2, 3]);
    expect(M.ranked(found, 0, 20)).toEqual([2, 3]);
    expect(M.match([M.termLists([file], 'cart'), M.termLists([file], 'none')], 10).docs).toEqual([]);
  });
});

describe("a result's snippet", () => {
  const long = `${'word '.repeat(40)}the cart is empty here ${'tail '.repeat(40)}`.trim();

  it('is the part of the text around the first word found, cut at spaces, with "…" where cut', () => {
    const cut = M.snippet(long, ['cart'], 60);
    expect(cut).toMatch(/^…word (word )*the cart is empty here (tail )*tail…$/);
    expect(cut.length).toBeLessThanOrEqual(62);
    expect(cut.indexOf('cart')).toBeGreaterThan(5);
    expect(cut.indexOf('cart')).toBeLessThan(30);
  });

  it("finds a word's start from 3 characters, whole words only below, in any case", () => {
    expect(M.snippet(long, ['emp'], 60)).toContain('empty');
    expect(M.snippet(`${'a '.repeat(50)}Cart`, ['cart'], 20)).toBe('…a a a a a a a Cart');
    // "ca" starts "cart" but is too short to match a start: no word found, the text's start.
    expect(M.snippet(long, ['ca'], 60)).toBe(`${long.slice(0, 59).trim()}…`);
  });

  it('is the whole text when short, and the start when no word is found', () => {
    expect(M.snippet('a short text', ['none'], 60)).toBe('a short text');
    expect(M.snippet(long, ['none'], 60)).toMatch(/^word (word )*word…$/);
  });

  it('cuts text into the words found and what is between, keeping hostile text as text', () => {
    const hostile = '<img src=x onerror=alert(1)> Cart&amp; "carts" <mark>cart</mark>';
    const pieces = M.marked(hostile, ['cart']);
    expect(pieces.map((p) => p[0]).join('')).toBe(hostile);
    expect(pieces.filter((p) => p[1]).map((p) => p[0])).toEqual(['Cart', 'carts', 'cart']);
    expect(pieces[0]).toEqual(['<img src=x onerror=alert(1)> ', false]);
    expect(M.marked('nothing here', ['cart'])).toEqual([['nothing here', false]]);
    expect(M.marked('über Über', ['über'])).toEqual([
      ['über', true],
      [' ', false],
      ['Über', true],
    ]);
  });
});
