import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../src/build/files.js';
import { PageWriter } from '../src/build/page-writer.js';
import { SiteWriter } from '../src/build/site-writer.js';
import { tempFolder } from './helpers/temp.js';

function put(root: string, rel: string, text: string) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

describe('PageWriter', () => {
  const dir = tempFolder('cctrail-page-writer-');
  const outDir = join(dir, 'out');
  const stage = join(dir, 'stage');
  const state = join(dir, 'pages.json');
  /** One build's writing of the files in `stage`, through a writer of its own; returns what it did. */
  const writeAll = (previous: string[] = []) => {
    const site = new SiteWriter(outDir);
    const pages = new PageWriter({ site, state });
    for (const rel of filesUnder(stage)) pages.put(rel, readFileSync(join(stage, rel)));
    const result = pages.finish();
    const removed = site.removeStale(previous);
    return { ...result, removed };
  };

  it('writes pages as they are, skips unchanged files, removes only stale files it wrote', () => {
    put(stage, 'index.html', '<main>index</main>');
    put(stage, 's/a/index.html', '<main><p>transcript ✓</p></main>');
    put(stage, 's/old/index.html', 'stale');
    put(stage, '_cctrail/style.css', 'body{}');
    put(outDir, 'notes/index.html', 'not ours');
    put(outDir, '_cctrail/kept.js', 'kept');
    expect(writeAll()).toEqual({ pages: 3, written: 4, removed: 0 });
    expect(readFileSync(join(outDir, 's/a/index.html'), 'utf8')).toBe('<main><p>transcript ✓</p></main>');

    // The page leaves the site: removed with its folder, because the last build wrote it; nothing else goes.
    rmSync(join(stage, 's/old'), { recursive: true });
    expect(writeAll(['index.html', 's/a/index.html', 's/old/index.html', '_cctrail/style.css'])).toEqual({
      pages: 2,
      written: 0,
      removed: 1,
    });
    expect(() => statSync(join(outDir, 's/old'))).toThrow();
    expect(readFileSync(join(outDir, '_cctrail/kept.js'), 'utf8')).toBe('kept');
    expect(readFileSync(join(outDir, 'notes/index.html'), 'utf8')).toBe('not ours');

    // A page whose bytes change is written again; one removed from the folder since is written back.
    put(stage, 's/a/index.html', '<main><p>new</p></main>');
    rmSync(join(outDir, 'index.html'));
    expect(writeAll()).toMatchObject({ written: 2, removed: 0 });
    expect(readFileSync(join(outDir, 's/a/index.html'), 'utf8')).toBe('<main><p>new</p></main>');
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toBe('<main>index</main>');
  });

  it('puts a compressed file decompressed, again when it changes or the folder lost it', () => {
    const compressed = join(dir, 'mermaid.min.js.br');
    const known = join(dir, 'mermaid.json');
    const once = () => {
      const pages = new PageWriter({ site: new SiteWriter(outDir), state });
      pages.putCompressed('_cctrail/mermaid.min.js', compressed, known);
      return pages.finish().written;
    };
    const target = join(outDir, '_cctrail/mermaid.min.js');
    writeFileSync(compressed, brotliCompressSync('mermaid 1'));
    expect(once()).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('mermaid 1');
    expect(once()).toBe(0);
    rmSync(target);
    expect(once()).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('mermaid 1');
    writeFileSync(compressed, brotliCompressSync('mermaid 2'));
    expect(once()).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('mermaid 2');
    // A remembered digest that is damaged only costs a decompression.
    writeFileSync(known, '{');
    expect(once()).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('mermaid 2');
  });
});
