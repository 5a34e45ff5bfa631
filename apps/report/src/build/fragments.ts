import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FragmentMeta, RenderedFragment, TranscriptFragment } from '../views/transcript-fragment.js';

/**
 * The cache of transcript fragments: `fragments/<key>.html` (the transcript, filled into its page by
 * `assembleSite`) and `fragments/<key>.json` (the rest, written last: it marks completion). Keys carry the
 * session file's version, so an unchanged session is not rendered again.
 */

/** Files of the fragment of `key` in the cache folder. */
function fragmentFiles(cacheDir: string, key: string): { html: string; meta: string } {
  const dir = join(cacheDir, 'fragments');
  return { html: join(dir, `${key}.html`), meta: join(dir, `${key}.json`) };
}

/** True when the fragment of `key` is in the cache. */
export function hasFragment(cacheDir: string, key: string): boolean {
  const files = fragmentFiles(cacheDir, key);
  return existsSync(files.meta) && existsSync(files.html);
}

/** Puts a rendered fragment into the cache. */
export function storeFragment(cacheDir: string, key: string, fragment: RenderedFragment): void {
  const files = fragmentFiles(cacheDir, key);
  const { transcript, ...meta } = fragment;
  mkdirSync(dirname(files.html), { recursive: true });
  writeFileSync(files.html, transcript);
  writeFileSync(files.meta, JSON.stringify(meta));
}

/** The fragment of `key` from the cache, without its transcript HTML (it stays on disk). */
export function readFragment(cacheDir: string, key: string): TranscriptFragment {
  const files = fragmentFiles(cacheDir, key);
  if (!existsSync(files.html)) throw new Error(`the fragment ${key} is missing from the build cache`);
  return { ...(JSON.parse(readFileSync(files.meta, 'utf8')) as FragmentMeta), key };
}

/** The transcript HTML of a cached fragment. */
export function fragmentHtml(cacheDir: string, key: string): string {
  return readFileSync(fragmentFiles(cacheDir, key).html, 'utf8');
}
