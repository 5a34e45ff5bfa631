import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../src/node/index.js';
import { readLines } from '../../src/read/read-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'cctrail-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }), 0);

/** Every line's number, offset and text, as the line reader sees a source. */
async function linesOf(path: string, blocking: boolean) {
  const out: string[] = [];
  for await (const line of readLines(fileSource(path, path, { blocking }).read())) {
    out.push(`${line.number}:${line.offset}:${line.terminated}:${line.text}`);
  }
  return out;
}

describe('fileSource', () => {
  it.each([
    ['an empty file', ''],
    ['a small file without a final newline', '{"a":1}\n{"b":"é"}'],
    // Over the size read in one piece: chunks, lines across chunks, a 3 MiB line.
    [
      'a 20 MiB file',
      Array.from({ length: 40 }, (_, i) =>
        JSON.stringify({ i, pad: 'x'.repeat(i === 7 ? 3 << 20 : 400_000 + i) }),
      )
        .join('\n')
        .concat('\n'),
    ],
  ])('reads %s the same with blocking calls as through the thread pool', async (_name, text) => {
    const path = join(dir, `${text.length}.jsonl`);
    writeFileSync(path, text);
    const blocking = await linesOf(path, true);
    expect(blocking).toEqual(await linesOf(path, false));
    expect(blocking.length).toBe(text.split('\n').length - (text === '' || text.endsWith('\n') ? 1 : 0));
  });
});

describe('fileSource buffers', () => {
  const texts = [3000, 50, 70_000, 10, 2_000_000, 400].map((size, i) =>
    Array.from({ length: 5 }, (_, line) => JSON.stringify({ i, line, pad: String(i).repeat(size) })).join(
      '\n',
    ),
  );
  const paths = texts.map((text, i) => {
    const path = join(dir, `reuse-${i}.jsonl`);
    writeFileSync(path, text);
    return path;
  });

  it.each([true, false])(
    'are reused across files without mixing their bytes (blocking: %s)',
    async (blocking) => {
      const expected = texts.map((text) => text.split('\n'));
      const readAll = async (path: string) => {
        const out: string[] = [];
        for await (const line of readLines(fileSource(path, path, { blocking }).read())) out.push(line.text);
        return out;
      };
      // One after the other (each file gets a buffer another one used), then all at once.
      for (const [i, path] of paths.entries()) expect(await readAll(path)).toEqual(expected[i]);
      expect(await Promise.all(paths.map(readAll))).toEqual(expected);
    },
  );

  it('lets a reader stop early, then reads the next file whole', async () => {
    const big = join(dir, 'reuse-big.jsonl');
    writeFileSync(big, `${JSON.stringify({ pad: 'x'.repeat(20 << 20) })}\n{"after":1}\n`);
    for await (const line of readLines(fileSource(big, big).read())) {
      expect(line.number).toBe(1);
      break;
    }
    const lines: string[] = [];
    for await (const line of readLines(fileSource(paths[2]!, paths[2]!).read())) lines.push(line.text);
    expect(lines).toEqual(texts[2]!.split('\n'));
  });
});

describe('fileSource with blocking reads on the main thread', () => {
  it('lets the event loop turn between the chunks of a large file (signals, workers’ messages)', async () => {
    const path = join(dir, 'large-blocking.jsonl');
    // Larger than any buffer the reader keeps for reuse, so it comes in several chunks.
    writeFileSync(path, `${JSON.stringify({ pad: 'x'.repeat(96 << 20) })}\n`);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const seen: boolean[] = [];
    for await (const _chunk of fileSource(path, path, { blocking: true }).read()) seen.push(turned);
    expect(seen.length).toBeGreaterThan(2);
    // The loop turned after the first chunk, long before the last.
    expect(seen.slice(1, -1).every(Boolean)).toBe(true);
  });
});
