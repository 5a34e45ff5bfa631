import { describe, expect, it } from 'vitest';
import { DOCS_PER_FILE, searchFiles, TERM_FILE_CHARS } from '../src/build/search-files.js';
import { scriptJson, searchIndexScript } from '../src/views/search.js';
import { decodePostings, encodePostings } from '../src/views/search-codec.js';

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
  it('round-trips documents and weights, one digit for a near document', () => {
    const p = { docs: [0, 1, 2, 40, 5000, 5001], weights: [1, 8, 3, 2, 7, 1] };
    const text = encodePostings(p);
    expect(decodePostings(text)).toEqual(p);
    expect(encodePostings({ docs: [0, 1, 2, 3], weights: [1, 1, 1, 1] })).toHaveLength(4);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(() => decodePostings('A,')).toThrow(/digit/);
  });
});

describe('the files of the transcript index', () => {
  const piece = (s: string, n: number, words: string[]) =>
    JSON.stringify({
      s,
      r: [`${s}p1/index.html`],
      d: Array.from({ length: n }, (_, i) => [0, `e-${s}${i}`, `You: ${words.join(' ')} ${i}`]),
      t: words.map((w, i) => [
        w,
        encodePostings({
          docs: Array.from({ length: n - (i % n) }, (_, d) => d),
          weights: Array(n - (i % n)).fill(2),
        }),
      ]),
    });

  it('numbers entries across sessions and cuts terms in sorted order into bounded files', () => {
    const terms = Array.from({ length: 3000 }, (_, i) => `w${String(i).padStart(4, '0')}x`);
    const files = searchFiles([piece('a/', 300, terms.slice(0, 1500)), piece('b/', 200, terms.slice(1000))]);
    expect(files[0]?.name).toBe('_cctrail/search/meta.js');
    let meta: { n: number; k: number; t: string[]; s: [number, string, string[]][] } | null = null;
    new Function('window', files[0]?.text ?? '')({
      CCTRAIL_SEARCH_META: (text: string) => {
        meta = JSON.parse(text);
      },
    });
    if (!meta) throw new Error('no meta');
    const m = meta as { n: number; k: number; t: string[]; s: [number, string, string[]][] };
    expect(m.n).toBe(500);
    expect(m.s.map((s) => s[0])).toEqual([0, 300]);
    const termFiles = files.filter((f) => /\/t\d+\.js$/.test(f.name));
    expect(termFiles.length).toBe(m.t.length);
    expect(termFiles.length).toBeGreaterThan(1);
    for (const f of termFiles) expect(f.text.length).toBeLessThan(TERM_FILE_CHARS + 200);
    expect([...m.t].sort()).toEqual(m.t);
    // A term both sessions have lists the second session's entries after the first's.
    const all = termFiles.map((f) => f.text).join(',');
    const entry = /w1200x ([^,']+)/.exec(all)?.[1] ?? '';
    const docs = decodePostings(entry).docs;
    expect(docs[0]).toBe(0);
    expect(docs.filter((d) => d >= 300)[0]).toBe(300);
    expect(files.filter((f) => /\/d\d+\.js$/.test(f.name))).toHaveLength(Math.ceil(500 / DOCS_PER_FILE));
  });

  it('is empty without pieces', () => {
    expect(searchFiles([])).toEqual([]);
  });
});
