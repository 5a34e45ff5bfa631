import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeTerms } from '../src/build/search-files.js';
import { blocksOf, type PieceRecord, writeSearchState } from '../src/build/search-state.js';
import { encodePostings, WEIGHTS } from '../src/views/search/search-codec.js';
import { tempFolder } from './helpers/temp.js';

/**
 * The blocks of the transcript index a build keeps for the next (`build/search-state.ts`): a rebuild reads them
 * with their terms' groups, so that merging them reads no further than each group's first posting, and merges
 * them into what a merge of the pieces themselves writes.
 */

/** Pieces of 1 to 40 entries, each term in some of them with weights 1 … WEIGHTS, and their records. */
function pieces(count: number): { records: PieceRecord[]; terms: Map<string, [string, string][]> } {
  const records: PieceRecord[] = [];
  const terms = new Map<string, [string, string][]>();
  for (let p = 0; p < count; p++) {
    const n = 1 + ((p * 17) % 40);
    const t: [string, string][] = [];
    for (const [w, term] of ['a', 'b', 'c', 'd', `only-${p}`].entries()) {
      if ((p + w) % 3 === 0) continue;
      const docs = Array.from({ length: n }, (_, d) => d).filter((d) => (d + w + p) % (w + 2) !== 0);
      if (docs.length === 0) continue;
      t.push([term, encodePostings({ docs, weights: docs.map((d) => 1 + ((d * (w + 3)) % WEIGHTS)) })]);
    }
    records.push({ k: `piece-${p}`, s: `s/${p}/index.html`, n });
    terms.set(
      `piece-${p}`,
      t.sort(([x], [y]) => (x < y ? -1 : 1)),
    );
  }
  return { records, terms };
}

describe('the blocks a build keeps of the transcript index', () => {
  it('are read back with their terms’ groups, and merge into what the pieces merge into', () => {
    const cache = tempFolder('cctrail-search-state-');
    const { records, terms } = pieces(90);
    const text = (r: PieceRecord) => JSON.stringify(terms.get(r.k));
    const merged = blocksOf(cache, records, text);
    expect(merged.length).toBeGreaterThan(1);
    expect(merged.every((block) => block.text !== undefined)).toBe(true);
    writeSearchState(cache, records, merged);
    expect(readdirSync(join(cache, 'search-blocks'))).toHaveLength(merged.length);

    const kept = blocksOf(cache, records, () => {
      throw new Error('a kept block reads no piece');
    });
    expect(kept.map((block) => block.b)).toEqual(merged.map((block) => block.b));
    for (const [i, block] of kept.entries()) {
      expect(block.text).toBeUndefined();
      expect(block.t).toEqual(merged[i]?.t);
      // The groups the merge wrote (a term of one piece has none), as the block's merge knew them.
      expect(block.e).toEqual(merged[i]?.e);
      expect(block.e?.some((ends) => ends !== null)).toBe(true);
    }
    const all = mergeTerms(records.map((r) => ({ n: r.n, t: terms.get(r.k) ?? [] })));
    expect(mergeTerms(kept)).toEqual(all);
    expect(mergeTerms(merged)).toEqual(all);
  });

  it('are kept compressed only where Brotli halves them, and read back either way', () => {
    // Terms of digests' base64 (6 bits a character: Brotli cannot halve them), and terms that repeat one word (it can).
    const noise = (i: number) =>
      Array.from({ length: 8 }, (_, j) => createHash('sha512').update(`${i}-${j}`).digest('base64')).join('');
    const pieceOf = (k: string, term: (i: number) => string) => {
      const t: [string, string][] = Array.from({ length: 400 }, (_, i) => [
        term(i),
        encodePostings({ docs: [i % 7], weights: [1] }),
      ]);
      return { record: { k, s: `s/${k}/index.html`, n: 7 }, t: t.sort(([x], [y]) => (x < y ? -1 : 1)) };
    };
    for (const [name, term, extension] of [
      ['random', noise, '.txt'],
      ['repeated', (i: number) => `searchterm${String(i).padStart(4, '0')}`, '.txt.br'],
    ] as const) {
      const cache = tempFolder(`cctrail-search-state-${name}-`);
      const piece = pieceOf(`${name}-piece`, term);
      const text = () => JSON.stringify(piece.t);
      const merged = blocksOf(cache, [piece.record], text);
      writeSearchState(cache, [piece.record], merged);
      const files = readdirSync(join(cache, 'search-blocks'));
      expect(files, name).toEqual([`${merged[0]?.b}${extension}`]);
      if (extension === '.txt')
        expect(readFileSync(join(cache, 'search-blocks', files[0] ?? ''), 'utf8')).toContain(piece.t[0]?.[0]);
      const kept = blocksOf(cache, [piece.record], () => {
        throw new Error('a kept block reads no piece');
      });
      expect(kept[0]?.text).toBeUndefined();
      expect(kept[0]?.t).toEqual(merged[0]?.t);
      expect(kept[0]?.e).toEqual(merged[0]?.e);
      // Written again, the block's other file goes.
      writeSearchState(cache, [], []);
      expect(readdirSync(join(cache, 'search-blocks'))).toEqual([]);
    }
  });
});
