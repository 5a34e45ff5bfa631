/**
 * What a search result shows, and which words a page marks: the words of a text that a query's terms find (a
 * word of the text that is one of them or, for a term of 3 or more characters, starts with it, as terms
 * match in the index), the part of the text around the first one (`snippet`), and the text cut into plain
 * pieces and words found (`marked`), which the page inserts as text nodes and `<mark>` elements, never as HTML.
 * A text node shows bidirectional control characters as they are, reordering what is around them: the pieces
 * show each as a visible mark instead (`neutralizeBidi`), as the pages do.
 */

import { neutralizeBidi } from '../views/html/bidi.js';
import { termFinds, WORD } from '../views/search/search-text.js';

/**
 * Which of a query's terms finds a word of a text (its place in `terms`), or −1.
 * @param word The word as the text has it (any case).
 * @param terms The query's terms (`queryTerms`).
 */
function termFinding(word: string, terms: readonly string[]): number {
  const w = word.toLowerCase();
  return terms.findIndex((term) => termFinds(term, w));
}

/** Each word of a text found by the query's terms, in order: [start, end, which term]. */
export function wordsFound(text: string, terms: readonly string[]): [number, number, number][] {
  const out: [number, number, number][] = [];
  const run = new RegExp(WORD);
  for (let m = run.exec(text); m; m = run.exec(text)) {
    const k = termFinding(m[0], terms);
    if (k >= 0) out.push([m.index, m.index + m[0].length, k]);
  }
  return out;
}

/**
 * At most about `width` characters of a text around the first of the query's words it has (from a little
 * before it, cut at spaces, "…" where cut), or its start when it has none.
 */
export function snippet(text: string, terms: readonly string[], width: number): string {
  if (text.length <= width) return text;
  const first = wordsFound(text, terms)[0];
  if (!first) return text.slice(0, width).replace(/\s+\S*$/, '') + '…';
  let start = Math.max(0, Math.min(first[0] - Math.floor(width / 4), text.length - width));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < first[0]) start = space + 1;
  }
  let end = Math.min(text.length, start + width);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space >= first[1]) end = space;
  }
  return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
}

/**
 * A text in pieces, [text, found] in order: the query's words (found true) and what is between them, each with
 * its bidirectional control characters shown as visible marks.
 */
export function marked(text: string, terms: readonly string[]): [string, boolean][] {
  const out: [string, boolean][] = [];
  let at = 0;
  for (const [start, end] of wordsFound(text, terms)) {
    if (start > at) out.push([neutralizeBidi(text.slice(at, start)), false]);
    out.push([neutralizeBidi(text.slice(start, end)), true]);
    at = end;
  }
  if (at < text.length) out.push([neutralizeBidi(text.slice(at)), false]);
  return out;
}
