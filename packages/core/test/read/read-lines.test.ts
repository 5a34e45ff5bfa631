import { describe, expect, it } from 'vitest';
import type { Line } from '../../src/index.js';
import { readLineBatches, readLines } from '../../src/read/read-lines.js';
import { memorySource } from '../helpers.js';

async function lines(text: string | Uint8Array, chunk: number) {
  const out = [];
  for await (const line of readLines(memorySource('f', text, chunk).read())) out.push(line);
  return out;
}

describe('readLines', () => {
  it('splits on newlines whatever the chunk size, keeping byte offsets and line numbers', async () => {
    const text = 'ab\nécd\n\nlast';
    for (const chunk of [1, 2, 3, 5, 1024]) {
      const got = await lines(text, chunk);
      expect(got.map((l) => [l.number, l.offset, l.length, l.text, l.terminated])).toEqual([
        [1, 0, 2, 'ab', true],
        [2, 3, 4, 'écd', true],
        [3, 8, 0, '', true],
        [4, 9, 4, 'last', false],
      ]);
    }
  });

  it('strips a trailing carriage return and yields no line after a final newline', async () => {
    const got = await lines('a\r\nb\r\n', 2);
    expect(got.map((l) => l.text)).toEqual(['a', 'b']);
    expect(got[1]!.length).toBe(1);
  });

  it('flags invalid UTF-8 and decodes it with replacement characters', async () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a, 0x61, 0x0a]);
    const got = await lines(bytes, 3);
    expect(got[0]!.invalidUtf8).toBe(true);
    expect(got[0]!.text).toBe('{\uFFFD\uFFFD}');
    expect(got[1]!.invalidUtf8).toBe(false);
  });

  it('yields nothing for an empty stream', async () => {
    expect(await lines('', 4)).toEqual([]);
  });
});

describe('readLines with a source that reuses its buffer', () => {
  it('keeps lines that span chunks intact', async () => {
    const text = `${'a'.repeat(10)}\n${'b'.repeat(25)}\n${'c'.repeat(7)}\n`;
    const bytes = new TextEncoder().encode(text);
    // One Node Buffer refilled for every chunk, as the file source does.
    const reused = Buffer.alloc(8);
    async function* chunks() {
      for (let at = 0; at < bytes.length; at += 8) {
        const n = Math.min(8, bytes.length - at);
        reused.set(bytes.subarray(at, at + n));
        yield reused.subarray(0, n);
      }
    }
    const got: string[] = [];
    for await (const line of readLines(chunks())) got.push(line.text);
    expect(got).toEqual(['a'.repeat(10), 'b'.repeat(25), 'c'.repeat(7)]);
  });
});

describe('readLineBatches', () => {
  it('gives the lines that end in each chunk together, the same lines as readLines', async () => {
    const text = 'ab\nécd\n\nlast';
    // Chunks of 5 bytes: "ab\né" (é is 2 bytes), "cd\n\nl", "ast".
    const batches: Line[][] = [];
    for await (const batch of readLineBatches(memorySource('f', text, 5).read())) batches.push(batch);
    expect(batches.map((batch) => batch.map((l) => l.text))).toEqual([['ab'], ['écd', ''], ['last']]);
    expect(batches.flat()).toEqual(await lines(text, 5));
  });

  it("hands a large chunk's lines over in batches of about 256 KiB, numbered and placed as in one", async () => {
    // 4,000 lines of 202 bytes in one chunk of 808,000 bytes: their text is not all decoded at once.
    const line = (n: number) => `{"n":${String(n).padStart(6, '0')},"pad":"${'p'.repeat(180)}"}`;
    const text = Array.from({ length: 4000 }, (_, n) => `${line(n)}\n`).join('');
    const batches: Line[][] = [];
    for await (const batch of readLineBatches(memorySource('f', text, text.length).read()))
      batches.push(batch);
    expect(batches.length).toBe(4);
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(1400);
    const all = batches.flat();
    expect(all.map((l) => l.text)).toEqual(Array.from({ length: 4000 }, (_, n) => line(n)));
    expect(all.map((l) => [l.number, l.offset])).toEqual(
      Array.from({ length: 4000 }, (_, n) => [n + 1, n * 202]),
    );
    expect(all).toEqual(await lines(text, 4096));
  });

  it('shrinks long lines as readLines does', async () => {
    const text = `{"type":"user","note":"${'x'.repeat(50)}"}\n{"type":"user"}\n`;
    const [batch] = await (async () => {
      const out: Line[][] = [];
      for await (const b of readLineBatches(memorySource('f', text, 1024).read(), {
        shrinkAbove: 20,
        keep: 4,
      }))
        out.push(b);
      return out;
    })();
    expect(batch!.map((l) => l.text)).toEqual(['{"type":"user","note":"xxxx"}', '{"type":"user"}']);
    expect(batch![0]!.full).toBeDefined();
  });
});

describe('readLines of Node buffers', () => {
  /** Every line of the bytes, read in chunks of `size` as Node buffers or as plain byte arrays. */
  async function read(bytes: Uint8Array, size: number, buffers: boolean, shrinkAbove?: number) {
    async function* chunks() {
      for (let at = 0; at < bytes.length; at += size) {
        const piece = bytes.subarray(at, at + size);
        yield buffers ? Buffer.from(piece) : new Uint8Array(piece);
      }
    }
    const out: Line[] = [];
    const options = shrinkAbove === undefined ? {} : { shrinkAbove, keep: 8 };
    for await (const batch of readLineBatches(chunks(), options))
      for (const line of batch)
        out.push({ ...line, ...(line.full ? { full: new Uint8Array(line.full) } : {}) });
    return out;
  }

  it('gives the lines a read of plain byte arrays gives, whatever the bytes and the chunks', async () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const long = JSON.stringify({ type: 'user', message: { content: 'x'.repeat(60) }, note: 'é'.repeat(20) });
    const texts = [
      encode('{"a":1}\r\n\n\uFEFF{"b":"é🙂"}\n  \nlast'),
      encode(`${long}\n{"c":2}\n${long}\r\n`),
      // Invalid UTF-8 in one line: its chunk is read as before, each line checked.
      new Uint8Array([...encode('{"ok":1}\n{"x":"'), 0xff, ...encode('"}\n{"ok":2}\n')]),
    ];
    for (const bytes of texts) {
      for (const size of [3, 7, 16, 1 << 16]) {
        for (const shrinkAbove of [undefined, 32]) {
          const plain = await read(bytes, size, false, shrinkAbove);
          expect(await read(bytes, size, true, shrinkAbove)).toEqual(plain);
        }
      }
    }
  });
});
