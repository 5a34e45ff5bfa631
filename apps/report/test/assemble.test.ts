import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleSite, fragmentMarker } from '../src/build/assemble.js';
import { tempFolder } from './helpers/temp.js';

function put(root: string, rel: string, text: string) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

describe('assembleSite', () => {
  const dir = tempFolder('cctrail-assemble-');
  const o = {
    stage: join(dir, 'stage'),
    outDir: join(dir, 'out'),
    fragments: join(dir, 'fragments'),
    state: join(dir, 'pages.json'),
    keep: new Set(['_cctrail/kept.js']),
    ignore: new Set(['.cache']),
  };

  it('refuses keys outside the safe alphabet', () => {
    expect(() => fragmentMarker('../x')).toThrow();
    expect(fragmentMarker('ab-1.c')).toBe('<!--cctrail-fragment:ab-1.c-->');
  });

  it('puts fragments in place, skips unchanged files and removes stale ones', () => {
    put(o.stage, 'index.html', '<main>index</main>');
    put(o.stage, 's/a/index.html', `<main>${fragmentMarker('k1')}</main>`);
    put(o.stage, '_cctrail/style.css', 'body{}');
    put(o.fragments, 'k1.html', '<p>transcript ✓</p>');
    put(o.outDir, 'old/index.html', 'stale');
    put(o.outDir, '_cctrail/kept.js', 'kept');
    put(o.outDir, '.cache/x', 'cache');
    const first = assembleSite(o);
    expect(first).toEqual({ pages: 2, written: 3, removed: 1 });
    expect(readFileSync(join(o.outDir, 's/a/index.html'), 'utf8')).toBe('<main><p>transcript ✓</p></main>');
    expect(readFileSync(join(o.outDir, '_cctrail/kept.js'), 'utf8')).toBe('kept');
    expect(readFileSync(join(o.outDir, '.cache/x'), 'utf8')).toBe('cache');
    expect(() => statSync(join(o.outDir, 'old'))).toThrow();

    // Same stage again: nothing written. A page whose fragment key changes is written again.
    expect(assembleSite(o).written).toBe(0);
    put(o.stage, 's/a/index.html', `<main>${fragmentMarker('k2')}</main>`);
    put(o.fragments, 'k2.html', '<p>new</p>');
    expect(assembleSite(o)).toMatchObject({ written: 1, removed: 0 });
    expect(readFileSync(join(o.outDir, 's/a/index.html'), 'utf8')).toBe('<main><p>new</p></main>');
  });

  it('says when a fragment is missing instead of failing', () => {
    put(o.stage, 's/b/index.html', `<main>${fragmentMarker('nope')}</main>`);
    assembleSite(o);
    expect(readFileSync(join(o.outDir, 's/b/index.html'), 'utf8')).toContain('missing from the build cache');
  });
});
