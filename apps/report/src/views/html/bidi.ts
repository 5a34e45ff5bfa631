/**
 * Bidirectional control characters (embeddings, overrides, isolates, the Arabic letter mark) reorder the text
 * around them when displayed, so a transcript could show code that reads differently from what it is ("Trojan
 * Source"). The archive keeps them as written; what displays text shows each one as a visible `⟦U+202E⟧`
 * instead: every page as a whole (`neutralizeBidiBytes` in `bidi-bytes.ts`, on the bytes the site's bundle
 * renders) and the search page's results, which the browser puts in the page as text.
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
