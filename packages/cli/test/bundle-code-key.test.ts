import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The key of the bundle's code, which the report's caches are keyed by: written beside the chunks when the
 * bundle is made (`scripts/bundle.mjs`), so that a build reads it instead of hashing every chunk. It must be
 * the digest the report's `code-keys.ts` makes of the chunks when the file is missing.
 */

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const bundle = join(dist, 'bundle');
const report = dirname(createRequire(import.meta.url).resolve('@cctrail/report/package.json'));

describe('the bundle', () => {
  it('holds the key of its code, the digest of its chunks', async () => {
    const { closureHash } = (await import(
      pathToFileURL(join(report, 'dist', 'build', 'code-keys.js')).href
    )) as { closureHash: (entries: readonly string[], root?: string) => string };
    const chunks = readdirSync(bundle)
      .filter((name) => /\.m?js$/.test(name))
      .map((name) => join(bundle, name));
    expect(chunks.length).toBeGreaterThan(10);
    expect(readFileSync(join(bundle, 'code.key'), 'utf8').trim()).toBe(closureHash(chunks, dist));
  });
});
