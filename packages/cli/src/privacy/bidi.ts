/**
 * Bidirectional control characters reorder the text around them when it is displayed ("Trojan Source"): what
 * cctrail publishes (with redaction on) shows each one as a visible `⟦U+202E⟧` instead.
 */

const BIDI_CONTROL = /[\u061C\u202A-\u202E\u2066-\u2069]/g;
const ANY_BIDI = /[\u061C\u202A-\u202E\u2066-\u2069]/;

/**
 * Replaces every bidirectional control character by a visible mark naming it.
 *
 * @param text A string of a session.
 * @returns The new text and how many characters were replaced.
 */
export function neutralizeBidi(text: string): { text: string; count: number } {
  if (!ANY_BIDI.test(text)) return { text, count: 0 };
  let count = 0;
  const out = text.replace(BIDI_CONTROL, (c) => {
    count++;
    return `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`;
  });
  return { text: out, count };
}
