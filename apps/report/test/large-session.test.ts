import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../src/build/load.js';
import { holdsMoreThan } from '../src/build/paged-read.js';
import { demoSession } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

/**
 * #31: a session file larger than one string can hold (a session of a million lines writes about 1 GB) is not
 * read whole: reading it took its size in memory before failing. The build then reads it page by page
 * (`paged-session.e2e.test.ts`).
 */
describe('a session file too large to read', () => {
  const file = join(tempFolder('cctrail-large-'), 'session.json');
  writeFileSync(file, JSON.stringify(demoSession()));

  it('is refused with its size, without being read', () => {
    const loaded = loadSession(file, 100);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toMatch(
      /^the session file is \d+ bytes, more than the 100 bytes a report can read/,
    );
    expect(loaded.errors[0]).not.toContain(file);
  });

  it('is refused when compressed, without its whole size in memory, and its reason does not say where it is', () => {
    // The report's own archive keeps sessions compressed: a million lines are 20 MB there, 1 GB of JSON.
    const packed = `${file}.br`;
    writeFileSync(packed, brotliCompressSync(JSON.stringify(demoSession())));
    const loaded = loadSession(packed, 100);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.errors).toEqual([
      'the session is more than the 100 bytes of JSON a report can read: its transcript is not shown (`cctrail export` writes every entry)',
    ]);
    expect(loadSession(packed).ok).toBe(true);
  });

  it('is read as before when it fits', () => {
    const loaded = loadSession(file);
    expect(loaded.ok && loaded.value.id).toBe(demoSession().id);
  });

  it('is found over the limit by counting its bytes as a stream, and one packed too small to be is not read', async () => {
    const packed = `${file}.br`;
    const text = JSON.stringify(demoSession());
    writeFileSync(packed, brotliCompressSync(text));
    const size = brotliCompressSync(text).length;
    expect(await holdsMoreThan(packed, size, text.length - 1)).toBe(true);
    expect(await holdsMoreThan(packed, size, text.length)).toBe(false);
    // Its size says it cannot hold more: the file is not opened (here it does not exist).
    expect(await holdsMoreThan(join(file, 'missing.json.br'), 10, 1_000_000)).toBe(false);
    expect(await holdsMoreThan(join(file, 'missing.json.br'), 10_000, 1_000_000)).toBe(false);
    expect(await holdsMoreThan(file, text.length, text.length - 1)).toBe(true);
  });
});
