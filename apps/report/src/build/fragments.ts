import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type {
  FragmentMeta,
  RenderedFragment,
  TranscriptFragment,
} from '../views/transcript/transcript-fragment.js';
import { cutPayloads, putPayloadsBack, type SharedPayload } from './shared-payloads.js';

/**
 * The cache of transcript fragments: `fragments/<key>.html.br` (the transcript, compressed, filled into its page
 * by `assembleSite`) and `fragments/<key>.json.br` (the rest, compressed too, written last: it marks completion).
 * Large images that the session file holds verbatim are left out of the HTML, where to find them kept in
 * `fragments/<key>.cuts.json` (`shared-payloads.ts`). Keys carry the session file's version, so an unchanged
 * session is not rendered again. The transcripts are most
 * of the cache's bytes and are written once and read once or twice: brotli's quality 1 takes them to about a
 * quarter for little CPU (BENCHMARKS.md, "#26 build cache", "#26 report stages, second round" and "#28 reported
 * runs counted once everywhere, cache margin").
 */

/** Brotli's quality 1: 11 % fewer bytes of HTML than quality 0 for about the same CPU, read back faster. */
const PACKING = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

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
function fragmentFiles(cacheDir: string, key: string): { html: string; meta: string; cuts: string } {
  const dir = join(cacheDir, 'fragments');
  return { html: htmlFile(dir, key), meta: join(dir, `${key}.json.br`), cuts: join(dir, `${key}.cuts.json`) };
}

/** True when the fragment of `key` is in the cache. */
export function hasFragment(cacheDir: string, key: string): boolean {
  const files = fragmentFiles(cacheDir, key);
  return existsSync(files.meta) && existsSync(files.html);
}

/**
 * Puts a rendered fragment into the cache.
 *
 * @param sessionFile The session file it was rendered from: large images it holds are not stored again.
 */
export function storeFragment(
  cacheDir: string,
  key: string,
  fragment: RenderedFragment,
  sessionFile?: string,
): void {
  const files = fragmentFiles(cacheDir, key);
  const { transcript, ...meta } = fragment;
  const { html, cuts } = sessionFile ? cutPayloads(transcript, sessionFile) : { html: transcript, cuts: [] };
  mkdirSync(dirname(files.html), { recursive: true });
  writeFileSync(files.html, packText(html));
  if (cuts.length > 0) writeFileSync(files.cuts, JSON.stringify(cuts));
  else rmSync(files.cuts, { force: true });
  writeFileSync(files.meta, packText(JSON.stringify(meta)));
}

/** The fragment of `key` from the cache, without its transcript HTML (it stays on disk). */
export function readFragment(cacheDir: string, key: string): TranscriptFragment {
  const files = fragmentFiles(cacheDir, key);
  if (!existsSync(files.html)) throw new Error(`the fragment ${key} is missing from the build cache`);
  return { ...(JSON.parse(unpackFile(files.meta).toString('utf8')) as FragmentMeta), key };
}

/**
 * The transcript HTML of a cached fragment, as UTF-8 bytes (the images left out of the cache put back), which the
 * page's render (a stream of bytes) takes as they are.
 *
 * @param sessionFile The session file whose key the fragment's is (it holds the images left out of the cache).
 */
export function fragmentHtml(cacheDir: string, key: string, sessionFile: string): Uint8Array {
  const files = fragmentFiles(cacheDir, key);
  const bytes = unpackFile(files.html);
  if (!existsSync(files.cuts)) return bytes;
  const cuts = JSON.parse(readFileSync(files.cuts, 'utf8')) as SharedPayload[];
  return Buffer.from(putPayloadsBack(bytes.toString('utf8'), cuts, sessionFile), 'utf8');
}
