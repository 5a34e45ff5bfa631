import { describe, expect, it } from 'vitest';
import type { Entry, Session } from '../src/views/model.js';
import { scriptJson } from '../src/views/search/search.js';
import { encodePostings, WEIGHTS } from '../src/views/search/search-codec.js';
import { inQuotes, pieceText } from '../src/views/search/search-piece.js';
import { previewOf } from '../src/views/search/search-preview.js';
import { searchPiece, searchPieceBytes } from '../src/views/search/search-text.js';

/** A small deterministic generator (the same texts on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Every whitespace `\s` knows, characters beside them, a letter outside the BMP, a lone surrogate.
const PARTS = [
  'a',
  'word',
  'Überstraße',
  'x'.repeat(300),
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u200b',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u0085',
  '😀',
  '\ud800',
  '<b>',
  '"',
  "'",
  '\\',
  '\u0001',
];

function text(next: () => number): string {
  let out = '';
  const parts = Math.floor(next() * 400);
  for (let i = 0; i < parts; i++) out += PARTS[Math.floor(next() * PARTS.length)];
  return out;
}

describe('the preview of a search result', () => {
  it("is the text's start with whitespace runs made one space and trimmed, as the expression writes it", () => {
    const next = random(26);
    const expected = (t: string) => t.slice(0, 960).replace(/\s+/g, ' ').trim().slice(0, 240);
    const texts = [
      '',
      ' ',
      '   a   ',
      `${'y'.repeat(239)} z`,
      `${'y'.repeat(239)}  \n z`,
      `${'y'.repeat(240)} `,
    ];
    for (let i = 0; i < 3000; i++) texts.push(text(next));
    for (const t of texts) expect(previewOf(t), JSON.stringify(t.slice(0, 80))).toBe(expected(t));
  });

  it('is the same read from the bytes of an ASCII text', () => {
    const next = random(27);
    const encoder = new TextEncoder();
    for (let i = 0; i < 3000; i++) {
      const t = text(next).replace(/[^\u0000-\u007f]/g, '');
      // The bytes as the term table leaves them: the text's, then those of a longer text read before.
      const bytes = new Uint8Array(t.length + 64).fill(0x41);
      bytes.set(encoder.encode(t));
      expect(previewOf(t, bytes), JSON.stringify(t.slice(0, 80))).toBe(previewOf(t));
    }
  });
});

describe("a piece's entries", () => {
  it('are written as JSON strings for a script, escaped for a single-quoted literal', () => {
    const next = random(28);
    const docs: [number, string, string][] = [];
    for (let i = 0; i < 2000; i++) docs.push([i % 3, `e-${text(next).slice(0, 20)}`, text(next)]);
    const lines = pieceText('s/index.html', ['a', 'b', 'c'], docs, []).split('\n').slice(1, -1);
    expect(lines).toEqual(docs.map(([page, a, l]) => `${page},${inQuotes(scriptJson([a, l]).slice(1, -1))}`));
  });

  it("are written by a session's piece the same, its previews escaped or not as they hold", () => {
    const next = random(29);
    // Texts of a few parts (previews mostly without a character to escape) and of many.
    const texts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let t = i % 2 === 0 ? text(next) : '';
      for (let p = Math.floor(next() * 6); p >= 0; p--) t += PARTS[Math.floor(next() * PARTS.length)];
      if (/\S/.test(t)) texts.push(t);
    }
    const entries = texts.map((t, i) => ({
      uuid: `u${i}`,
      kind: 'message',
      actor: i % 3 === 0 ? 'claude-as-user' : 'human',
      content: [{ type: 'text', text: t }],
    }));
    const piece = searchPiece(
      { entries } as unknown as Session,
      (e: Entry) => ({ route: 'p/', anchor: `e-${e.uuid}` }),
      'p/',
    );
    const lines = (piece ?? '').split('\n').slice(1, -1);
    expect(lines).toEqual(
      texts.map((t, i) => {
        const label = `${i % 3 === 0 ? 'Claude → agent' : 'You'}: ${previewOf(t)}`;
        return `0,${inQuotes(scriptJson([`e-u${i}`, label]).slice(1, -1))}`;
      }),
    );
  });
});

describe('a piece made as bytes', () => {
  const session = (texts: string[]) =>
    ({
      entries: texts.map((t, i) => ({
        uuid: `u${i}`,
        kind: 'message',
        actor: 'human',
        content: [{ type: 'text', text: t }],
      })),
    }) as unknown as Session;
  const locate = (e: Entry) => ({ route: 'p/', anchor: `e-${e.uuid}` });

  it('is the UTF-8 of the piece’s text, each piece its own bytes', () => {
    const texts = [
      'Überstraße über alles',
      `${'long line '.repeat(40)}<b>"quoted"</b>`,
      'ok',
      '日本語のテキスト 𝒳',
    ];
    const first = searchPieceBytes(session(texts), locate, 'p/') as Uint8Array;
    const copy = first.slice();
    // A second piece is written where the first was made: the first's bytes are its own.
    const second = searchPieceBytes(session(['other words', 'x'.repeat(5000)]), locate, 'p/') as Uint8Array;
    expect(first).toEqual(copy);
    expect(Buffer.from(first).toString('utf8')).toBe(searchPiece(session(texts), locate, 'p/'));
    expect(Buffer.from(second).toString('utf8')).toBe(
      searchPiece(session(['other words', 'x'.repeat(5000)]), locate, 'p/'),
    );
    expect(searchPieceBytes(session(['  ']), locate, 'p/')).toBeNull();
  });
});

describe('postings written best first', () => {
  // The grouping as first written: documents grouped by weight, heaviest first, each group in increasing order.
  const reference = (docs: number[], weights: number[]): string => {
    const groups: number[][] = Array.from({ length: WEIGHTS }, () => []);
    for (const [i, d] of docs.entries()) groups[WEIGHTS - (weights[i] as number)]?.push(d);
    const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const digits = (n: number) => {
      let out = '';
      let v = n;
      for (; v >= 32; v = Math.floor(v / 32)) out += DIGITS[32 + (v % 32)];
      return out + DIGITS[v];
    };
    let out = '';
    groups.forEach((g, k) => {
      g.sort((a, b) => a - b);
      let last = -1;
      for (const d of g) {
        out += digits((d - last - 1) * WEIGHTS + (WEIGHTS - 1 - k));
        last = d;
      }
    });
    return out;
  };

  it('are the same for one document, documents in order, and documents in any order', () => {
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const n = 1 + Math.floor(next() * (i % 3 === 0 ? 1 : 40));
      const docs = new Set<number>();
      while (docs.size < n) docs.add(Math.floor(next() * 100_000));
      const list = [...docs];
      if (i % 2 === 0) list.sort((a, b) => a - b);
      const weights = list.map(() => 1 + Math.floor(next() * WEIGHTS));
      expect(encodePostings({ docs: list, weights })).toBe(reference(list, weights));
    }
  });
});

describe('JSON for a script', () => {
  it('escapes what could close or break a script, and leaves other text as JSON.stringify writes it', () => {
    const hostile = { a: '</script>', b: 'x > y', c: '\u2028\u2029', d: ['<', ['>']] };
    const json = scriptJson(hostile);
    expect(json).not.toMatch(/[<>\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(hostile);
    const plain = [
      ['term', 'AbC-_'],
      ['über', 'Q'],
    ];
    expect(scriptJson(plain)).toBe(JSON.stringify(plain));
  });
});
