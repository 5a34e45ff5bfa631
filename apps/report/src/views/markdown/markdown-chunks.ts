/**
 * Cutting markdown into pieces that render on their own: the HTML of the whole is the HTML of its pieces joined
 * by a line ending, so that the simple pieces of a long message take the fast path and only the others the full
 * pipeline. A piece ends at a blank line after which every open block has ended: the next line starts at
 * column 0 and is not a list item (which could belong to the list before it), and no fenced code is open.
 * Texts where a block may span blank lines in other ways (HTML blocks, fences inside containers or indented)
 * or refer to other places (link definitions, footnotes) outside fenced code are not cut.
 */

/** Anything that could tie blocks across a blank line other than lists and fences at column 0 (HTML blocks). */
const UNCUTTABLE = /\]:|\[\^|<[!?]|<(?:script|pre|style|textarea)|^ {0,3}</i;
/** A fence-like line not at column 0 (in a list item, a quote, indented code...). */
const INNER_FENCE = /^[ \t>][ \t>]*(?:[-*+]|\d{1,9}[.)])?[ \t>]*(?:```|~~~)/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const BLANK = /^[ \t]*$/;

/** The pieces of `text`, each a run of whole lines; one piece when it cannot be cut. */
export function markdownPieces(text: string): string[] {
  const lines = text.split('\n');
  const pieces: string[] = [];
  let from = 0;
  let fence: { char: string; size: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (fence) {
      const closing = CLOSING_FENCE.exec(line)?.[1];
      if (closing?.[0] === fence.char && closing.length >= fence.size) fence = undefined;
      continue;
    }
    const open = FENCE.exec(line);
    const marker = open?.[1] ?? '';
    // A backtick fence with a backtick in its info string is not a fence (the line is a paragraph's).
    if (open && !(marker[0] === '`' && (open[2] ?? '').includes('`'))) {
      fence = { char: marker[0] as string, size: marker.length };
      continue;
    }
    // Outside fenced code (whose lines are only text), anything that may tie blocks together stops the cutting.
    if (UNCUTTABLE.test(line) || INNER_FENCE.test(line)) return [text];
    const after = i > 0 && BLANK.test(lines[i - 1] as string);
    if (after && i > from && /^[^ \t]/.test(line) && !LIST_ITEM.test(line)) {
      pieces.push(lines.slice(from, i).join('\n'));
      from = i;
    }
  }
  pieces.push(lines.slice(from).join('\n'));
  return pieces;
}
