/**
 * How deeply a line's JSON nests. Every later stage may walk a record recursively (`JSON.stringify`, schema
 * validation, a structured clone between threads), so a line nested deeper than `MAX_DEPTH` is not parsed into
 * records: it becomes a diagnostic that keeps its raw text.
 */

/** The deepest nesting of objects and arrays a record may have (real records stay below 30). */
export const MAX_DEPTH = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether the text nests objects and arrays (outside strings) deeper than `limit`. One scan, and the inside of
 * each string is skipped with `indexOf`, so the cost is that of finding the quotes.
 *
 * @param text A line.
 * @param limit The deepest nesting allowed.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_DEPTH): boolean {
  // A text shorter than the limit cannot open more brackets than it has characters.
  if (text.length <= limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i + 1);
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes a string whose text starts at `from` (the text's length when none does). */
function stringEnd(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
  return text.length;
}
