import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError } from '../src/command-line/errors.js';
import { insideFolder, writeIfChanged } from '../src/files/atomic-write.js';

const dir = await mkdtemp(join(tmpdir(), 'cctrail-write-'));
afterAll(() => rm(dir, { recursive: true, force: true }), 0);

describe('writeIfChanged', () => {
  it('writes, then skips identical bytes, then rewrites changed ones', async () => {
    const file = join(dir, 'a', 'b.json');
    expect(await writeIfChanged(file, '{"x":1}\n')).toBe('written');
    const first = await stat(file);
    expect(await writeIfChanged(file, '{"x":1}\n')).toBe('unchanged');
    expect((await stat(file)).mtimeMs).toBe(first.mtimeMs);
    expect(await writeIfChanged(file, '{"x":2}\n')).toBe('written');
    expect(await readFile(file, 'utf8')).toBe('{"x":2}\n');
    expect(await readdir(join(dir, 'a'))).toEqual(['b.json']);
  });
});

describe('writeIfChanged into a compressed file', () => {
  it('writes the text Brotli-compressed, finds the same text unchanged, rewrites changed text', async () => {
    const file = join(dir, 'c', 's.json.br');
    // Pieces of several batches, so that the stream is fed more than once.
    const text = (n: number) => [
      '{"x":',
      String(n),
      ',"long":"',
      'é'.repeat(1 << 20),
      'a'.repeat(3 << 20),
      '"}\n',
    ];
    expect(await writeIfChanged(file, text(1))).toBe('written');
    const bytes = await readFile(file);
    expect(bytes.byteLength).toBeLessThan(100_000);
    expect(brotliDecompressSync(bytes).toString('utf8')).toBe(text(1).join(''));
    const first = await stat(file);
    expect(await writeIfChanged(file, text(1))).toBe('unchanged');
    expect((await stat(file)).mtimeMs).toBe(first.mtimeMs);
    expect(await writeIfChanged(file, text(2))).toBe('written');
    expect(brotliDecompressSync(await readFile(file)).toString('utf8')).toBe(text(2).join(''));
    expect(await readdir(join(dir, 'c'))).toEqual(['s.json.br']);
  });
});

describe('writeIfChanged of a compressed text too long to compress whole', () => {
  it('writes it as a stream, in batches, the same text once decompressed', async () => {
    const file = join(dir, 'd', 'long.json.br');
    // More than the 16 MiB compressed whole, in pieces of every size (one longer than a batch by itself).
    const pieces = [
      '{"a":"',
      'abcdefgh'.repeat(1 << 20),
      '","b":"',
      '€'.repeat(3 << 20),
      '","c":"',
      'z'.repeat(9 << 20),
      '"}\n',
    ];
    expect(await writeIfChanged(file, pieces)).toBe('written');
    expect(brotliDecompressSync(await readFile(file)).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(
      true,
    );
    expect(await writeIfChanged(file, pieces)).toBe('unchanged');
    expect(await readdir(join(dir, 'd'))).toEqual(['long.json.br']);
  });
});

describe('insideFolder', () => {
  it('resolves archive paths inside the folder', () => {
    expect(insideFolder('/out', 'sessions/p/s.json')).toBe('/out/sessions/p/s.json');
  });

  it.each([
    ['/out/', 'a/b.json'],
    ['/', 'a/b.json'],
    ['out', 'a/b.json'],
    ['/out/../elsewhere', 'a/b.json'],
    ['/out', 'x..y/b..json'],
  ])('resolves %j + %j as `resolve` does', (root, path) => {
    expect(insideFolder(root, path)).toBe(resolve(root, ...path.split('/')));
    // Asked again: the folder is remembered as resolved, or not.
    expect(insideFolder(root, path)).toBe(resolve(root, ...path.split('/')));
  });

  it.each(['../x.json', 'sessions/../../x.json', '/etc/passwd', '', '.', '..x/y.json', 'a\\b.json'])(
    'refuses %j',
    (path) => {
      expect(() => insideFolder('/out', path)).toThrow(CliError);
    },
  );
});

describe('writeIfChanged in pieces', () => {
  it('writes, keeps identical bytes untouched, rewrites changed ones, leaves no temporary file', async () => {
    const file = join(dir, 'sub', 's.json');
    const text = (n: number) => ['{"x":', String(n), ',"long":"', 'é'.repeat(1 << 20), '"}\n'];
    expect(await writeIfChanged(file, text(1))).toBe('written');
    const first = await stat(file);
    expect(await writeIfChanged(file, text(1))).toBe('unchanged');
    expect((await stat(file)).mtimeMs).toBe(first.mtimeMs);
    expect(await writeIfChanged(file, text(2))).toBe('written');
    expect((await readFile(file, 'utf8')).startsWith('{"x":2,')).toBe(true);
    expect(await readdir(join(dir, 'sub'))).toEqual(['s.json']);
  });
});

describe('writeIfChanged of many pieces', () => {
  it('writes the pieces as their joined text, across batches, whatever their sizes and characters', async () => {
    const file = join(dir, 'many.json');
    // Pieces that fill a batch of 1 MiB to just under and just over (3-byte and 4-byte characters), and one
    // larger than a batch.
    const pieces = [
      'x'.repeat((1 << 20) - 2),
      '€',
      'a',
      '😀'.repeat(100_000),
      '\uD800',
      'é'.repeat(1 << 19),
      'z'.repeat(3 << 20),
      '',
      'end',
    ];
    expect(await writeIfChanged(file, pieces)).toBe('written');
    expect((await readFile(file)).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
    expect(await writeIfChanged(file, pieces)).toBe('unchanged');
  });
});
