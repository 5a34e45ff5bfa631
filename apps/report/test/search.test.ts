import { describe, expect, it } from 'vitest';
import { entryPlace } from '../src/browser/matcher.js';
import {
  DOCS_PER_FILE,
  mergeTerms,
  type SearchFile,
  searchFiles,
  TERM_FILE_CHARS,
} from '../src/build/search-files.js';
import { scriptJson, searchIndexScript } from '../src/views/search/search.js';
import {
  countPostings,
  decodePostings,
  encodePostings,
  PostingsMerge,
  PostingsReader,
  shiftedPostings,
  WEIGHTS,
} from '../src/views/search/search-codec.js';
import { pieceText, readPiece } from '../src/views/search/search-piece.js';
import { termWeight } from '../src/views/search/search-text.js';

describe('search index', () => {
  it('is a classic script assigning window.CCTRAIL_SEARCH', () => {
    const js = searchIndexScript([{ t: 'a', k: 'session', p: 'p', x: '', u: 's/p/a/index.html', d: null }]);
    expect(js).toMatch(/^window\.CCTRAIL_SEARCH = \[\{"t":"a"/);
    const context: { window: { CCTRAIL_SEARCH?: unknown } } = { window: {} };
    new Function('window', js)(context.window);
    expect(context.window.CCTRAIL_SEARCH).toHaveLength(1);
  });
  it('cannot be broken out of by hostile titles', () => {
    const json = scriptJson({ t: '</script><script>alert(1)</script>\u2028' });
    expect(json).not.toContain('<');
    expect(json).not.toContain('\u2028');
    expect(JSON.parse(json)).toEqual({ t: '</script><script>alert(1)</script>\u2028' });
  });
});

describe('postings as text', () => {
  it('round-trips documents and weights, best first, one digit for a near document of the same weight', () => {
    const p = { docs: [0, 1, 2, 40, 5000, 5001, 5002], weights: [1, 8, 3, 2, 7, 1, 8] };
    const text = encodePostings(p);
    // Heaviest first, documents increasing within a weight.
    expect(decodePostings(text)).toEqual({
      docs: [1, 5002, 5000, 2, 40, 0, 5001],
      weights: [8, 8, 7, 3, 2, 1, 1],
    });
    expect(encodePostings({ docs: [3, 0, 2, 1], weights: [1, 1, 1, 1] })).toHaveLength(4);
    expect(decodePostings(encodePostings({ docs: [3, 0, 2, 1], weights: [1, 1, 1, 1] })).docs).toEqual([
      0, 1, 2, 3,
    ]);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(() => decodePostings('A,')).toThrow(/digit/);
    expect(() => decodePostings('Aé')).toThrow(/digit/);
    expect(() => decodePostings('A\u{1F600}')).toThrow(/digit/);
  });

  it('are read one posting at a time (the search page), and counted without decoding', () => {
    const text = encodePostings({ docs: [7, 3, 900, 4], weights: [2, 2, 5, 1] });
    expect(countPostings(text)).toBe(4);
    const reader = new PostingsReader(text);
    const read: [number, number][] = [];
    while (read.length < 2 && reader.next()) read.push([reader.doc, reader.weight]);
    // The two best postings, the rest of the list not read yet (a bad digit after them is not seen).
    expect(read).toEqual([
      [900, 5],
      [3, 2],
    ]);
    const cut = new PostingsReader(`${encodePostings({ docs: [1], weights: [8] })}é`);
    expect(cut.next()).toBe(true);
    expect(() => cut.next()).toThrow(/digit/);
    // An unfinished last number (a digit that goes on, then the end) is no posting.
    expect(decodePostings(`${encodePostings({ docs: [1], weights: [8] })}g`).docs).toEqual([1]);
  });
});

describe('postings merged piece by piece', () => {
  it('write for one piece alone its postings renumbered from its first document', () => {
    const lists = [
      { docs: [0], weights: [8] },
      { docs: [5], weights: [1] },
      { docs: [0, 1, 2, 40, 41, 1000], weights: [3, 3, 8, 1, 3, 8] },
      { docs: [7, 9, 11], weights: [2, 2, 2] },
    ];
    for (const p of lists)
      for (const base of [0, 1, 3, 4, 700, 70_000]) {
        const renumbered = { docs: p.docs.map((d) => d + base), weights: p.weights };
        expect(shiftedPostings(encodePostings(p), base)).toBe(encodePostings(renumbered));
        const merge = new PostingsMerge();
        merge.append(encodePostings(p), base);
        expect(String(merge)).toBe(encodePostings(renumbered));
      }
    expect(() => shiftedPostings('A,', 2)).toThrow(/digit/);
  });

  it("write what encodePostings writes for all the pieces' documents, renumbered", () => {
    // Pieces of 3, 70 and 2 documents (numbered from 0 each); weights and gaps chosen so that groups start
    // and end in every piece and a first posting needs more digits once renumbered.
    const pieces = [
      { docs: [0, 2, 1], weights: [8, 8, 3] },
      { docs: [69, 0, 35, 36, 1], weights: [8, 1, 3, 3, 1] },
      { docs: [], weights: [] },
      { docs: [1, 0], weights: [1, 5] },
    ];
    const bases = [0, 3, 73, 73];
    const merge = new PostingsMerge();
    const all = { docs: [] as number[], weights: [] as number[] };
    pieces.forEach((p, i) => {
      merge.append(encodePostings(p), bases[i] as number);
      all.docs.push(...p.docs.map((d) => d + (bases[i] as number)));
      all.weights.push(...p.weights);
    });
    expect(String(merge)).toBe(encodePostings(all));
    expect(decodePostings(String(merge)).docs).toEqual([0, 2, 72, 73, 1, 38, 39, 3, 4, 74]);
    expect(() => new PostingsMerge().append('A,', 0)).toThrow(/digit/);
  });

  it('merge again, blocks of pieces merged, into what one merge of all the pieces writes', () => {
    // Pieces of 1 to 40 documents, each term in some of them with weights 1 … WEIGHTS.
    const pieces = Array.from({ length: 9 }, (_, p) => {
      const n = 1 + ((p * 17) % 40);
      const t: [string, string][] = [];
      for (const [w, term] of ['a', 'b', 'c', 'd'].entries()) {
        if ((p + w) % 3 === 0) continue;
        const docs = Array.from({ length: n }, (_, d) => d).filter((d) => (d + w + p) % (w + 2) !== 0);
        t.push([term, encodePostings({ docs, weights: docs.map((d) => 1 + ((d * (w + 3)) % WEIGHTS)) })]);
      }
      return { n, t };
    });
    const all = mergeTerms(pieces);
    expect(all.t.map(([term]) => term)).toEqual(['a', 'b', 'c', 'd']);
    for (const cut of [1, 2, 4, 9]) {
      const blocks = [];
      // The same blocks with their postings' groups known to the merge (every other one: both kinds in one merge).
      const grouped = [];
      for (let i = 0; i < pieces.length; i += cut) {
        blocks.push(mergeTerms(pieces.slice(i, i + cut)));
        const e: (Int32Array | null)[] = [];
        const block = mergeTerms(pieces.slice(i, i + cut), e);
        grouped.push((i / cut) % 2 === 0 ? { ...block, e } : block);
      }
      expect(mergeTerms(blocks)).toEqual(all);
      expect(mergeTerms(grouped)).toEqual(all);
    }
    // What one posting list of all the documents is, renumbered piece after piece.
    const a = { docs: [] as number[], weights: [] as number[] };
    let base = 0;
    for (const piece of pieces) {
      const code = piece.t.find(([term]) => term === 'a')?.[1];
      const own = decodePostings(code ?? '');
      a.docs.push(...own.docs.map((d) => d + base));
      a.weights.push(...own.weights);
      base += piece.n;
    }
    expect(all.t[0]?.[1]).toBe(encodePostings(a));
  });
});

describe("a term's weight in an entry", () => {
  it("grows with its count, less and less, and falls with the entry's length", () => {
    expect(termWeight(1, 60)).toBeLessThan(termWeight(3, 60));
    expect(termWeight(3, 60)).toBeLessThan(termWeight(50, 60) + 1);
    expect(termWeight(50, 60)).toBeLessThanOrEqual(WEIGHTS);
    expect(termWeight(2, 2_000)).toBeLessThan(termWeight(2, 20));
    expect(termWeight(1, 100_000)).toBe(1);
  });
});

describe('the files of the transcript index', () => {
  it("hold every entry's anchor and label as written, whatever characters they have", () => {
    const hostile = "it's a \\ back\\slash, </script><b>, \u2028 \u2029 \n\t \u0000 \ud800 é 😀 '";
    const text = pieceText(
      'h/',
      ['h/p1/index.html'],
      [[0, `e-'1`, hostile]],
      [['x', encodePostings({ docs: [0], weights: [1] })]],
    );
    expect(text).not.toMatch(/<|\u2028|\u2029/);
    expect(readPiece(text).d).toHaveLength(1);
    const { files } = searchFiles([text]);
    const docs = files.find((f) => /\/e[0-9a-f]+-0\.js$/.test(f.name));
    let part: { s: [string, string[]][]; d: [number, number, string, string][] } | null = null;
    new Function('window', docs?.text ?? '')({
      CCTRAIL_SEARCH_DOCS: (_n: string, json: string) => {
        part = JSON.parse(json);
      },
    });
    expect(part).toEqual({ s: [['h/', ['h/p1/index.html']]], d: [[0, 0, `e-'1`, hostile]] });
  });

  const piece = (s: string, n: number, words: string[]) =>
    pieceText(
      s,
      [`${s}p1/index.html`],
      Array.from({ length: n }, (_, i) => [0, `e-${s}${i}`, `You: ${words.join(' ')} ${i}`] as const),
      words.map((w, i) => [
        w,
        encodePostings({
          docs: Array.from({ length: n - (i % n) }, (_, d) => d),
          weights: Array(n - (i % n)).fill(2),
        }),
      ]),
    );

  it('numbers entries across sessions and cuts terms in sorted order into bounded files', () => {
    const terms = Array.from({ length: 3000 }, (_, i) => `w${String(i).padStart(4, '0')}x`);
    const { meta, files } = searchFiles([
      piece('a/', 300, terms.slice(0, 1500)),
      piece('b/', 200, terms.slice(1000)),
    ]);
    if (!meta) throw new Error('no meta');
    expect(meta.n).toBe(500);
    const termFiles = files.filter((f) => /\/t\d+\.js$/.test(f.name));
    expect(termFiles.length).toBe(meta.t.length);
    expect(termFiles.length).toBeGreaterThan(1);
    for (const f of termFiles) expect(f.text.length).toBeLessThan(TERM_FILE_CHARS + 200);
    expect([...meta.t].sort()).toEqual(meta.t);
    // A term both sessions have lists the second session's entries after the first's.
    const all = termFiles.map((f) => f.text).join(',');
    const docs = decodePostings(/w1200x ([^,']+)/.exec(all)?.[1] ?? '').docs;
    expect(docs[0]).toBe(0);
    expect(docs.filter((d) => d >= 300)[0]).toBe(300);
    // Entries files: a session's entries, DOCS_PER_FILE a file, found from an entry's number by `entryPlace`.
    const docFiles = files.filter((f) => /\/e[0-9a-f]+-\d+\.js$/.test(f.name));
    expect(docFiles).toHaveLength(Math.ceil(300 / DOCS_PER_FILE) + Math.ceil(200 / DOCS_PER_FILE));
    expect(meta.b).toEqual([0, 300]);
    const entry = (d: number) => {
      const [name, at] = entryPlace(meta, d);
      const file = docFiles.find((f) => f.name === `_cctrail/search/${name}.js`) as SearchFile;
      let part: { s: [string, string[]][]; d: [number, number, string, string][] } | null = null;
      new Function('window', file.text)({
        CCTRAIL_SEARCH_DOCS: (called: string, text: string) => {
          expect(called).toBe(name);
          part = JSON.parse(text);
        },
      });
      const p = part as unknown as { s: [string, string[]][]; d: [number, number, string, string][] };
      const e = p.d[at] as [number, number, string, string];
      return `${p.s[e[0]]?.[0]} ${p.s[e[0]]?.[1][e[1]]} ${e[2]}`;
    };
    for (const d of [0, 63, 64, 299, 300, 363, 364, 499])
      expect(entry(d)).toBe(d < 300 ? `a/ a/p1/index.html e-a/${d}` : `b/ b/p1/index.html e-b/${d - 300}`);
  });

  it("leaves a session's files of entries as they were when another session changes", () => {
    const before = searchFiles([piece('a/', 100, ['x', 'y']), piece('b/', 200, ['y', 'z'])]);
    const after = searchFiles([piece('a/', 130, ['x', 'y', 'w']), piece('b/', 200, ['y', 'z'])]);
    const filesOf = (index: typeof before, session: number) => {
      const name = index.meta?.f[session];
      return index.files.filter((f) => f.name.startsWith(`_cctrail/search/${name}-`));
    };
    // b's entries are numbered from 100 before and from 130 after; its files are the same, under the same names.
    expect(before.meta?.b).toEqual([0, 100]);
    expect(after.meta?.b).toEqual([0, 130]);
    expect(filesOf(after, 1)).toHaveLength(Math.ceil(200 / DOCS_PER_FILE));
    expect(filesOf(after, 1)).toEqual(filesOf(before, 1));
    expect(filesOf(after, 0)).not.toEqual(filesOf(before, 0));
  });

  it("lists in each entries file only the pages of its entries, so a session's pages are not repeated", () => {
    // One entry on each page, as in a chain of agents (a page per agent).
    const pagesOf = (n: number) =>
      pieceText(
        'c/',
        Array.from({ length: n }, (_, i) => `c/agent/${i}/index.html`),
        Array.from({ length: n }, (_, i) => [i, `e-${i}`, `Agent: step ${i}`] as const),
        [
          [
            'step',
            encodePostings({ docs: Array.from({ length: n }, (_, d) => d), weights: Array(n).fill(2) }),
          ],
        ],
      );
    const entriesOf = (files: SearchFile[]) =>
      files
        .filter((f) => /\/e[0-9a-f]+-\d+\.js$/.test(f.name))
        .flatMap((f) => {
          let part = { s: [] as [string, string[]][], d: [] as [number, number, string, string][] };
          new Function('window', f.text)({
            CCTRAIL_SEARCH_DOCS: (_n: string, text: string) => {
              part = JSON.parse(text);
            },
          });
          for (const s of part.s) expect(s[1].length).toBeLessThanOrEqual(DOCS_PER_FILE);
          return part.d.map((e) => `${part.s[e[0]]?.[0]}${part.s[e[0]]?.[1][e[1]]}#${e[2]}`);
        });
    const small = searchFiles([pagesOf(1000)]).files;
    expect(entriesOf(small)).toEqual(
      Array.from({ length: 1000 }, (_, i) => `c/c/agent/${i}/index.html#e-${i}`),
    );
    // Ten times the pages, about ten times the characters (a quadratic index would be a hundred times).
    const chars = (files: SearchFile[]) => files.reduce((a, f) => a + f.text.length, 0);
    const big = searchFiles([pagesOf(10_000)]).files;
    expect(chars(big) / chars(small)).toBeLessThan(15);
  });

  it('is empty without pieces', () => {
    expect(searchFiles([])).toEqual({ meta: null, files: [] });
  });
});
