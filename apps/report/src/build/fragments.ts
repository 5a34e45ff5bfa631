import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type {
  FragmentMeta,
  RenderedFragment,
  TranscriptFragment,
} from '../views/transcript/transcript-fragment.js';

/**
 * The cache of transcript fragments: `fragments/<key>.html.br` (the transcript, compressed, filled into its page
 * by `assembleSite`) and `fragments/<key>.json` (the rest, written last: it marks completion). Keys carry the
 * session file's version, so an unchanged session is not rendered again. The transcripts are most of the
 * cache's bytes and are written once and read once or twice: brotli's fastest quality takes them to about a
 * quarter for little CPU (BENCHMARKS.md, "#26 build cache" and "#26 report stages, second round").
 */

/** Brotli's fastest quality: a quarter of the bytes of HTML, at half the CPU of gzip's fastest level. */
const PACKING = { params: { [constants.BROTLI_PARAM_QUALITY]: 0 } };

/** Compresses text for the build cache. */
function packText(text: string): Buffer {
  return brotliCompressSync(text, PACKING);
}

/** The bytes of a file of the build cache written by `packText`. */
function unpackFile(file: string): Buffer {
  return brotliDecompressSync(readFileSync(file));
}

/** The file of the transcript HTML of fragment `key`, in the cache's `fragments` folder. */
function htmlFile(fragmentsDir: string, key: string): string {
  return join(fragmentsDir, `${key}.html.br`);
}

/** Files of the fragment of `key` in the cache folder. */
function fragmentFiles(cacheDir: string, key: string): { html: string; meta: string } {
  const dir = join(cacheDir, 'fragments');
  return { html: htmlFile(dir, key), meta: join(dir, `${key}.json`) };
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
  writeFileSync(files.html, packText(transcript));
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
  return unpackFile(fragmentFiles(cacheDir, key).html).toString('utf8');
}
