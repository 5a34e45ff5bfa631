import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fragmentMarker, SiteAssembler } from '../src/build/assemble.js';
import { filesUnder } from '../src/build/files.js';
import { packText } from '../src/build/fragments.js';
import { SiteWriter } from '../src/build/site-writer.js';
import { tempFolder } from './helpers/temp.js';

function put(root: string, rel: string, text: string) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

describe('SiteAssembler', () => {
  const dir = tempFolder('cctrail-assemble-');
  const outDir = join(dir, 'out');
  const stage = join(dir, 'stage');
  const fragments = join(dir, 'fragments');
  const state = join(dir, 'pages.json');
  /** A fragment's transcript as the build cache holds it (`fragments.ts`). */
  const storeHtml = (key: string, html: string) => {
    mkdirSync(fragments, { recursive: true });
    writeFileSync(join(fragments, `${key}.html.gz`), packText(html));
  };
  /** One build's assembly of the files in `stage`, through a writer of its own; returns what it did. */
  const assemble = (previous: string[] = []) => {
    const site = new SiteWriter(outDir);
    const assembler = new SiteAssembler({ site, fragments, state });
    for (const rel of filesUnder(stage)) assembler.put(rel, readFileSync(join(stage, rel)));
    const result = assembler.finish();
    const removed = site.removeStale(previous);
    return { ...result, removed };
  };

  it('refuses keys outside the safe alphabet', () => {
    expect(() => fragmentMarker('../x')).toThrow();
    expect(fragmentMarker('ab-1.c')).toBe('<!--cctrail-fragment:ab-1.c-->');
  });

  it('puts fragments in place, skips unchanged files, removes only stale files it wrote', () => {
    put(stage, 'index.html', '<main>index</main>');
    put(stage, 's/a/index.html', `<main>${fragmentMarker('k1')}</main>`);
    put(stage, 's/old/index.html', 'stale');
    put(stage, '_cctrail/style.css', 'body{}');
    storeHtml('k1', '<p>transcript ✓</p>');
    put(outDir, 'notes/index.html', 'not ours');
    put(outDir, '_cctrail/kept.js', 'kept');
    expect(assemble()).toEqual({ pages: 3, written: 4, removed: 0 });
    expect(readFileSync(join(outDir, 's/a/index.html'), 'utf8')).toBe('<main><p>transcript ✓</p></main>');

    // The page leaves the site: removed with its folder, because the last build wrote it; nothing else goes.
    rmSync(join(stage, 's/old'), { recursive: true });
    expect(assemble(['index.html', 's/a/index.html', 's/old/index.html', '_cctrail/style.css'])).toEqual({
      pages: 2,
      written: 0,
      removed: 1,
    });
    expect(() => statSync(join(outDir, 's/old'))).toThrow();
    expect(readFileSync(join(outDir, '_cctrail/kept.js'), 'utf8')).toBe('kept');
    expect(readFileSync(join(outDir, 'notes/index.html'), 'utf8')).toBe('not ours');

    // A page whose fragment key changes is written again.
    put(stage, 's/a/index.html', `<main>${fragmentMarker('k2')}</main>`);
    storeHtml('k2', '<p>new</p>');
    expect(assemble()).toMatchObject({ written: 1, removed: 0 });
    expect(readFileSync(join(outDir, 's/a/index.html'), 'utf8')).toBe('<main><p>new</p></main>');
  });

  it('says when a fragment is missing instead of failing', () => {
    put(stage, 's/b/index.html', `<main>${fragmentMarker('nope')}</main>`);
    assemble();
    expect(readFileSync(join(outDir, 's/b/index.html'), 'utf8')).toContain('missing from the build cache');
  });
});
