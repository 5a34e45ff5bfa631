import { Buffer } from 'node:buffer';
import { neutralizeBidi } from './bidi.js';

/**
 * The pages' bytes with bidirectional control characters shown as marks (`bidi.ts`). On the server only: it reads
 * the bytes as a `Buffer`, whose `indexOf` is native (a `Uint8Array`'s took ten times as long), and `bidi.ts` is
 * also compiled for the browser, where `Buffer` is not a name.
 */

/**
 * Whether UTF-8 bytes hold a bidirectional control character: U+061C is `D8 9C`, U+202A–U+202E are
 * `E2 80 AA`–`E2 80 AE`, U+2066–U+2069 are `E2 81 A6`–`E2 81 A9`.
 */
function holdsBidi(bytes: Uint8Array): boolean {
  // A view of the same memory, not a copy.
  const page = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = page.indexOf(0xe2); at !== -1; at = page.indexOf(0xe2, at + 1)) {
    const second = page[at + 1];
    const third = page[at + 2] ?? 0;
    if (second === 0x80 && third >= 0xaa && third <= 0xae) return true;
    if (second === 0x81 && third >= 0xa6 && third <= 0xa9) return true;
  }
  for (let at = page.indexOf(0xd8); at !== -1; at = page.indexOf(0xd8, at + 1))
    if (page[at + 1] === 0x9c) return true;
  return false;
}

/**
 * A page's UTF-8 bytes with every bidirectional control character shown as a visible mark (`neutralizeBidi`):
 * its text, attributes, title and the text its scripts read (Mermaid's labels) alike. Bytes without one (nearly
 * every page) are returned as they are, after a search for their lead bytes.
 *
 * @param bytes A page as UTF-8.
 */
export function neutralizeBidiBytes(bytes: Uint8Array): Uint8Array {
  if (!holdsBidi(bytes)) return bytes;
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  return new TextEncoder().encode(neutralizeBidi(text));
}
