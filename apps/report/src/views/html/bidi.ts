/**
 * Bidirectional control characters (embeddings, overrides, isolates, the Arabic letter mark) reorder the text
 * around them when displayed, so a transcript could show code that reads differently from what it is ("Trojan
 * Source"). The archive keeps them as written; what displays text shows each one as a visible `⟦U+202E⟧`
 * instead: every page as a whole (`neutralizeBidiBytes`, on the bytes the site's bundle renders) and the search
 * page's results, which the browser puts in the page as text.
 */

/** The bidirectional control characters, as the body of a regular expression's character class. */
export const BIDI_CLASS = '\\u061C\\u202A-\\u202E\\u2066-\\u2069';

const BIDI_CONTROL = new RegExp(`[${BIDI_CLASS}]`, 'g');

/**
 * Replaces every bidirectional control character by a visible mark naming it.
 *
 * @param text Text from a transcript.
 * @example neutralizeBidi('a\u202Eb') // 'a⟦U+202E⟧b'
 */
export function neutralizeBidi(text: string): string {
  return text.replace(
    BIDI_CONTROL,
    (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`,
  );
}

/**
 * Whether UTF-8 bytes hold a bidirectional control character: U+061C is `D8 9C`, U+202A–U+202E are
 * `E2 80 AA`–`E2 80 AE`, U+2066–U+2069 are `E2 81 A6`–`E2 81 A9`.
 */
function holdsBidi(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(0xe2); at !== -1; at = bytes.indexOf(0xe2, at + 1)) {
    const second = bytes[at + 1];
    const third = bytes[at + 2] ?? 0;
    if (second === 0x80 && third >= 0xaa && third <= 0xae) return true;
    if (second === 0x81 && third >= 0xa6 && third <= 0xa9) return true;
  }
  for (let at = bytes.indexOf(0xd8); at !== -1; at = bytes.indexOf(0xd8, at + 1))
    if (bytes[at + 1] === 0x9c) return true;
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
