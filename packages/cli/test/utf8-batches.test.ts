import { describe, expect, it } from 'vitest';
import { type Batch, utf8Batches } from '../src/files/utf8-batches.js';

/** The batches of a text, each copied (their buffer is reused), with whether each said it was the last. */
async function collect(pieces: string[], gather: number): Promise<{ bytes: Buffer; last: boolean }[]> {
  const out: Batch[] = [];
  for await (const { bytes, last } of utf8Batches(pieces, gather))
    out.push({ bytes: Buffer.from(bytes), last });
  return out;
}

describe('utf8Batches', () => {
  it('gathers a text of up to `gather` bytes whole into one batch, growing its buffer', async () => {
    const pieces = ['x'.repeat(1 << 20), 'é'.repeat(1 << 20), '😀'.repeat(1 << 18), 'end'];
    const batches = await collect(pieces, 16 << 20);
    expect(batches.map((b) => b.last)).toEqual([true]);
    expect(batches[0]?.bytes.equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
  });

  it('cuts a longer text into batches, the last one marked, a piece larger than the buffer alone', async () => {
    const pieces = ['a'.repeat(300_000), 'b'.repeat(300_000), 'c'.repeat(3 << 20), '€'.repeat(200_000), 'd'];
    const batches = await collect(pieces, 0);
    expect(batches.length).toBeGreaterThan(2);
    expect(batches.map((b) => b.last)).toEqual([...batches.slice(1).map(() => false), true]);
    expect(Buffer.concat(batches.map((b) => b.bytes)).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(
      true,
    );
  });

  it('gives texts encoded at the same time buffers of their own', async () => {
    const one = utf8Batches(['one '.repeat(100_000)], 16 << 20);
    const two = utf8Batches(['two '.repeat(100_000)], 16 << 20);
    const first = await one.next();
    const second = await two.next();
    expect(first.value?.bytes.toString('utf8')).toBe('one '.repeat(100_000));
    expect(second.value?.bytes.toString('utf8')).toBe('two '.repeat(100_000));
    await one.return(undefined);
    await two.return(undefined);
    // The buffer kept for the next text does not carry the last one's bytes into it.
    const [again] = await collect(['x'], 16 << 20);
    expect(again?.bytes.toString('utf8')).toBe('x');
  });
});
