/**
 * Where a transcript page built by the report holds its last cards: from the element of a card's first entry
 * (`<article id="e-<uuid>">`, or a compaction's separator) to the end of the `<div class="transcript">` holding
 * it. The live path draws the same cards anew (with the entries appended since) and puts them there. Everything
 * between is the report's own markup, its tags balanced: the end is found by counting `<div>`s.
 */

/** A part of a page, by character offsets (`end` excluded). */
export interface PagePart {
  start: number;
  end: number;
}

const DIVS = /<div[\s>]|<\/div>/g;

/**
 * The part of a page from the card whose first entry has an anchor to the end of its transcript.
 *
 * @param html The page.
 * @param anchor The element id of the card's first entry (`e-<uuid>`).
 * @returns The part, or null when the page has no card starting there (the entry is not on it, or is not the
 *   first of its card).
 */
export function transcriptTail(html: string, anchor: string): PagePart | null {
  const at = html.indexOf(` id="${anchor}"`);
  if (at < 0) return null;
  const start = html.lastIndexOf('<', at);
  if (!html.startsWith('<article ', start) && !html.startsWith('<div class="compaction"', start)) return null;
  const divs = new RegExp(DIVS);
  divs.lastIndex = start;
  let depth = 0;
  for (let tag = divs.exec(html); tag !== null; tag = divs.exec(html)) {
    if (tag[0] !== '</div>') depth++;
    else if (depth === 0) return { start, end: tag.index };
    else depth--;
  }
  return null;
}

/**
 * A page with its last cards replaced.
 *
 * @param html The page.
 * @param part Where its last cards are (`transcriptTail`).
 * @param cards The cards' HTML now.
 */
export function spliceTail(html: string, part: PagePart, cards: string): string {
  return `${html.slice(0, part.start)}${cards}${html.slice(part.end)}`;
}
