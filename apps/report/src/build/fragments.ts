import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type {
  FragmentMeta,
  RenderedFragment,
  TranscriptFragment,
} from '../views/transcript/transcript-fragment.js';
import { hasEntry, type PackWriter, readEntries, readEntry } from './packs.js';
import { cutPayloads, putPayloadsBack, type SharedPayload } from './shared-payloads.js';

/**
 * Transcript fragments in the build cache, in their session's pack (`packs.ts`): `<key>.html` (the transcript,
 * compressed, filled into its page by the page's render) and `<key>.meta` (the rest, compressed too). Large
 * images that the session file holds verbatim are left out of the HTML, where to find them kept in `<key>.cuts`
 * (`shared-payloads.ts`). Keys carry the session file's version, so an unchanged session is not rendered again.
 * The transcripts are most of the cache's bytes and are written once and read once or twice: brotli's quality 1
 * takes them to about a quarter for little CPU (BENCHMARKS.md, "#26 build cache", "#26 report stages, second
 * round" and "#28 reported runs counted once everywhere, cache margin").
 */

/** Brotli's quality 1: 11 % fewer bytes of HTML than quality 0 for about the same CPU, read back faster. */
const PACKING = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

/** Compresses text for the build cache. */
function packText(text: string): Buffer {
  return brotliCompressSync(text, PACKING);
}

/** The entries of the fragment of `key`. */
function fragmentEntries(key: string): { html: string; meta: string; cuts: string } {
  return { html: `${key}.html`, meta: `${key}.meta`, cuts: `${key}.cuts` };
}

/** True when the fragment of `key` is in the cache. */
export function hasFragment(cacheDir: string, key: string): boolean {
  return hasEntry(cacheDir, fragmentEntries(key).meta);
}

/** True when the pack being written already holds the fragment of `key`: it is kept, not rendered again. */
export function keepFragment(pack: PackWriter, key: string): boolean {
  const names = fragmentEntries(key);
  if (!pack.keep(names.meta)) return false;
  pack.keep(names.html);
  pack.keep(names.cuts);
  return true;
}

/**
 * Puts a rendered fragment into its session's pack.
 *
 * @param sessionFile The session file it was rendered from: large images it holds are not stored again.
 */
export function storeFragment(
  pack: PackWriter,
  key: string,
  fragment: RenderedFragment,
  sessionFile?: string,
): void {
  const names = fragmentEntries(key);
  const { transcript, ...meta } = fragment;
  const { html, cuts } = sessionFile ? cutPayloads(transcript, sessionFile) : { html: transcript, cuts: [] };
  pack.put(names.html, packText(html));
  if (cuts.length > 0) pack.put(names.cuts, Buffer.from(JSON.stringify(cuts), 'utf8'));
  pack.put(names.meta, packText(JSON.stringify(meta)));
}

/** The fragment of `key` from the cache, without its transcript HTML (it stays on disk). */
export function readFragment(cacheDir: string, key: string): TranscriptFragment {
  const meta = readEntry(cacheDir, fragmentEntries(key).meta);
  if (!meta) throw new Error(`the fragment ${key} is missing from the build cache`);
  return { ...(JSON.parse(brotliDecompressSync(meta).toString('utf8')) as FragmentMeta), key };
}

/**
 * The transcript HTML of a cached fragment, as UTF-8 bytes (the images left out of the cache put back), which the
 * page's render (a stream of bytes) takes as they are.
 *
 * @param sessionFile The session file whose key the fragment's is (it holds the images left out of the cache).
 */
export function fragmentHtml(cacheDir: string, key: string, sessionFile: string): Uint8Array {
  const names = fragmentEntries(key);
  const [packed, cutsText] = readEntries(cacheDir, [names.html, names.cuts]);
  if (!packed) throw new Error(`the fragment ${key} is missing from the build cache`);
  const bytes = brotliDecompressSync(packed);
  if (!cutsText) return bytes;
  const cuts = JSON.parse(cutsText.toString('utf8')) as SharedPayload[];
  return Buffer.from(putPayloadsBack(bytes.toString('utf8'), cuts, sessionFile), 'utf8');
}
