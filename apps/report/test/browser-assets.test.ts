import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BrowserAsset, browserAssets, PAGE_SCRIPTS } from '../src/build/browser-assets.js';
import { encodePostings } from '../src/views/search/search-codec.js';
import { queryTerms } from '../src/views/search/search-text.js';

/**
 * The files the pages load from `_cctrail/`, made from `src/browser/` by the package's build: classic scripts
 * (they run from file://), made of the package's own code, the search page's compiled from the modules that
 * write the index, and the stylesheet from its parts in order. (The browser tests run them in chromium.)
 */

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let assets: BrowserAsset[] = [];
const asset = (name: string) => assets.find((a) => a.name === name) as BrowserAsset;
beforeAll(async () => {
  assets = await browserAssets(PACKAGE);
});

describe('the page scripts', () => {
  it('are one classic script each, with no module syntax', () => {
    expect(assets.map((a) => a.name)).toEqual([
      ...PAGE_SCRIPTS.map((s) => `_cctrail/${s}.js`),
      '_cctrail/style.css',
    ]);
    for (const script of PAGE_SCRIPTS) {
      const { text } = asset(`_cctrail/${script}.js`);
      // A function body cannot hold `import` or `export` declarations: a module would not parse.
      expect(() => new Function(text), script).not.toThrow();
      expect(text.trimEnd().endsWith('})();'), script).toBe(true);
    }
  });

  it("are made of the package's own sources only (no part of @cctrail/core or of a dependency)", () => {
    for (const { inputs } of assets)
      for (const input of inputs) expect(input).toMatch(/^src\/(browser|views)\//);
  });

  it("compile the index's decoder and tokenizer into the search page's matcher", () => {
    expect(asset('_cctrail/search-match.js').inputs).toEqual(
      expect.arrayContaining(['src/views/search/search-codec.ts', 'src/views/search/search-text.ts']),
    );
    const page: { CCTRAIL_MATCH?: Record<string, (...args: unknown[]) => unknown> } = {};
    new Function('window', asset('_cctrail/search-match.js').text)(page);
    const M = page.CCTRAIL_MATCH ?? {};
    const query = 'Ünïcode İstanbul, README-2 and ' + 'x'.repeat(41);
    expect(M.queryWords?.(query)).toEqual(queryTerms(query));
    const file = `,readme ${encodePostings({ docs: [4, 9, 2], weights: [1, 8, 8] })},`;
    expect(M.best?.(M.termLists?.([file], 'readme'), 10, 5)).toEqual([2, 9, 4]);
  });
});

describe('the stylesheet', () => {
  it('is the parts of src/browser/styles in the order of their names, the themes first', () => {
    const styles = join(PACKAGE, 'src', 'browser', 'styles');
    const parts = readdirSync(styles).sort();
    const { text } = asset('_cctrail/style.css');
    expect(parts[0]).toBe('00-theme.css');
    let at = -1;
    for (const part of parts) {
      const place = text.indexOf(readFileSync(join(styles, part), 'utf8'));
      expect(place, part).toBeGreaterThan(at);
      at = place;
    }
  });
});

describe("the site's copies", () => {
  it('are what the sources make now (the build wrote them before bundling the site)', () => {
    for (const { name, text } of assets)
      expect(readFileSync(join(PACKAGE, 'site', 'public', name), 'utf8'), name).toBe(text);
  });
});
