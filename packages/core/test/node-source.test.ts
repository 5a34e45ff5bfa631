import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource, readLines } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cctrail-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
