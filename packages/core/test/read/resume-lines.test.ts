import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Line, readLines } from '../../src/read/read-lines.js';
import {
  checkResume,
  FILE_START,
  pointAfterLines,
  type ResumePoint,
  readOn,
} from '../../src/read/resume-lines.js';

const CORPUS = fileURLToPath(new URL('../../../../../shared/corpus/claude-projects', import.meta.url));
let present = false;
try {
  present = statSync(CORPUS).isDirectory();
} catch {}

/** Every `.jsonl` file below a folder. */
function transcripts(root: string): string[] {
  const out: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.name.endsWith('.jsonl')) out.push(p);
    }
  }
  return out.sort();
}

/** A seeded PRNG (mulberry32): the same cuts on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bytes delivered in chunks of random sizes. */
async function* chunked(bytes: Uint8Array, next: () => number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * 4096);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function wholeRead(bytes: Uint8Array): Promise<Line[]> {
  const lines: Line[] = [];
  for await (const line of readLines(
    (async function* () {
      yield bytes;
    })(),
  ))
    lines.push(line);
  return lines;
}

/** A file as it grows: the first `size` bytes of `bytes`. */
function grown(bytes: Uint8Array, size: number) {
  return {
    size,
    bytes: (offset: number, length: number) => bytes.subarray(offset, Math.min(size, offset + length)),
  };
}

/** Follows a file written up to each of `cuts` in turn, reading on from where it stopped. */
async function follow(
  bytes: Uint8Array,
  cuts: number[],
  next: () => number,
): Promise<{ lines: Line[]; point: ResumePoint }> {
  const lines: Line[] = [];
  let point = FILE_START;
  for (const cut of cuts) {
    const check = checkResume(point, grown(bytes, cut));
    expect(check.kind).toBe('resume');
    point = await readOn(chunked(bytes.subarray(point.offset, cut), next), point, (batch) =>
      lines.push(...batch),
    );
  }
  return { lines, point };
}

describe.skipIf(!present)('readOn over the shared corpus', () => {
  const files = present ? transcripts(CORPUS) : [];

  it('gives the lines of a whole read when a file grows in chunks that split lines', async () => {
    const next = random(29);
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      const cuts: number[] = [];
      for (let at = 0; at < bytes.length; ) {
        at = Math.min(bytes.length, at + 1 + Math.floor(next() * 20_000));
        cuts.push(at);
      }
      const whole = await wholeRead(bytes);
      const { lines, point } = await follow(bytes, cuts, next);
      expect(lines, file).toEqual(whole.filter((l) => l.terminated));
      const last = whole.at(-1);
      expect(point.offset, file).toBe(last && !last.terminated ? last.offset : bytes.length);
    }
  });

  it('finds, without decoding, the point a read of the same bytes stops at', async () => {
    const next = random(11);
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      const cut = Math.floor(next() * (bytes.length + 1));
      const read = await readOn(chunked(bytes.subarray(0, cut), next), FILE_START, () => {});
      expect(await pointAfterLines(chunked(bytes.subarray(0, cut), next)), file).toEqual(read);
    }
  });

  it('gives the lines of a whole read when a file grows a line at a time', async () => {
    const next = random(7);
    for (const file of files.slice(0, 6)) {
      const bytes = new Uint8Array(readFileSync(file));
      const cuts: number[] = [];
      for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) cuts.push(at + 1);
      const { lines, point } = await follow(bytes, cuts, next);
      expect(lines, file).toEqual((await wholeRead(bytes)).filter((l) => l.terminated));
      expect(point.lines).toBe(cuts.length);
    }
  });
});

describe('checkResume', () => {
  const text = new TextEncoder().encode('{"a":1}\n{"b":2}\n{"c":');
  const read = async (bytes: Uint8Array, size: number) =>
    readOn(chunked(bytes.subarray(0, size), random(1)), FILE_START, () => {});

  it('resumes after the last whole line, keeping the partial one for the next read', async () => {
    const point = await read(text, text.length);
    expect([point.offset, point.lines]).toEqual([16, 2]);
    const more = new TextEncoder().encode('{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(checkResume(point, grown(more, more.length)).kind).toBe('resume');
    const lines: Line[] = [];
    const after = await readOn(chunked(more.subarray(16), random(2)), point, (b) => lines.push(...b));
    expect(lines.map((l) => [l.number, l.offset, l.text])).toEqual([[3, 16, '{"c":3}']]);
    expect([after.offset, after.lines]).toEqual([24, 3]);
  });

  it('reads a shrunk or rewritten file again from the start, and says why', async () => {
    const point = await read(text, text.length);
    expect(checkResume(point, grown(text, 10))).toEqual({
      kind: 'restart',
      reason: 'shrank',
      from: FILE_START,
    });
    const rewritten = new TextEncoder().encode('{"z":1}\n{"b":2}\n{"c":3}\n');
    expect(checkResume(point, grown(rewritten, rewritten.length))).toMatchObject({ reason: 'rewritten' });
    const shifted = new TextEncoder().encode('{"a":1}\n{"bb":2}\n{"c":3}\n');
    expect(checkResume(point, grown(shifted, shifted.length))).toMatchObject({ reason: 'rewritten' });
  });
});
