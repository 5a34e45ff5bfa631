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
 * Whether the text nests objects and arrays (outside strings) deeper than `limit`. Nesting needs a bracket per
 * level, so a text with few opening brackets (anywhere, strings included: they are counted with `indexOf`) is
 * not scanned; otherwise one scan, the inside of each string skipped with `indexOf`.
 *
 * @param text A line.
 * @param limit The deepest nesting allowed.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_DEPTH): boolean {
  // A text shorter than the limit cannot open more brackets than it has characters.
  if (text.length <= limit || !opensMoreThan(text, limit)) return false;
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

/** Whether the text holds more than `limit` opening brackets (`{` and `[`), in strings or not. */
function opensMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1))
    if (++count > limit) return true;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1))
    if (++count > limit) return true;
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
