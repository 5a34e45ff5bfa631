import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fragmentHtml, readFragment, storeFragment } from '../src/build/fragments.js';
import { PackWriter, readEntry } from '../src/build/packs.js';
import { cutPayloads, putPayloadsBack } from '../src/build/shared-payloads.js';
import type { RenderedFragment } from '../src/views/transcript/transcript-fragment.js';
import { tempFolder } from './helpers/temp.js';

/** Large images a session file holds verbatim are kept once in the build cache: cut out of its HTML, put back. */

const dir = tempFolder('cctrail-shared-payloads-');
/** A base64 payload of `n` characters of random bytes (it hardly compresses, as an image does not). */
const payload = (n: number) => randomBytes((n / 4) * 3).toString('base64');
const img = (data: string) => `<img class="shot" src="data:image/png;base64,${data}">`;

describe('shared payloads', () => {
  const big = payload(40_000);
  const other = payload(50_000);
  const small = payload(100);
  const absent = payload(40_000);
  const html = `<p>é ${img(big)}</p>${img(small)}<p>x</p>${img(absent)}${img(other)}<p>end</p>`;
  const session = JSON.stringify({
    entries: [{ data: other }, { text: 'é' }, { data: big }, { data: small }],
  });

  it('cuts the large payloads the session file holds and puts them back byte for byte', () => {
    for (const [name, bytes] of [
      ['s.json', Buffer.from(session)],
      ['s.json.br', brotliCompressSync(session)],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      const { html: stored, cuts } = cutPayloads(html, file);
      expect(cuts.map((c) => c.length)).toEqual([40_000, 50_000]);
      expect(stored).not.toContain(big);
      expect(stored).not.toContain(other);
      // the small one and the one the file does not hold stay
      expect(stored).toContain(img(small));
      expect(stored).toContain(img(absent));
      expect(putPayloadsBack(stored, cuts, file)).toBe(html);
    }
  });

  it('refuses a session file that no longer holds them', () => {
    const file = join(dir, 'changed.json');
    writeFileSync(file, session);
    const { html: stored, cuts } = cutPayloads(html, file);
    writeFileSync(file, session.replace(big.slice(0, 10), 'x'.repeat(10)));
    expect(() => putPayloadsBack(stored, cuts, file)).toThrow(/no longer in/);
  });

  it('stores a fragment without them and gives its HTML whole', () => {
    const file = join(dir, 'fragment-session.json');
    writeFileSync(file, session);
    const fragment = { transcript: html, rereads: [] } as unknown as RenderedFragment;
    const cache = join(dir, 'cache');
    for (const key of ['k1', 'k2']) {
      const pack = new PackWriter(cache, key);
      storeFragment(pack, key, fragment, key === 'k1' ? file : undefined);
      pack.commit();
    }
    const sizes = ['k1', 'k2'].map((k) => readEntry(cache, `${k}.html`)?.byteLength ?? 0);
    expect(sizes[0]).toBeGreaterThan(0);
    expect(sizes[0]!).toBeLessThan(sizes[1]! - 60_000);
    // As the UTF-8 bytes the page renders in place, images put back (k1) or kept (k2).
    for (const key of ['k1', 'k2'])
      expect(Buffer.from(fragmentHtml(cache, key, file)).toString('utf8')).toBe(html);
    expect(readFragment(cache, 'k1')).toEqual({ rereads: [], key: 'k1' });
  });
});
