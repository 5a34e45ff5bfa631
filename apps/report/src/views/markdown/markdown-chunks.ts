/**
 * Cutting markdown into pieces that render on their own: the HTML of the whole is the HTML of its pieces joined
 * by a line ending, so that the simple pieces of a long message take the fast path and only the others the full
 * pipeline. A piece ends at a blank line after which every open block has ended: the next line starts at
 * column 0 and is not a list item (which could belong to the list before it), and no fenced code is open.
 * A fence inside a list item or a quote does not stop the cutting: the line at column 0 after the blank line
 * ends its container, and so the fence. Texts where a block may span blank lines in other ways (HTML blocks that
 * end only at their closing tag, fences indented by one to three spaces, which may be the document's) or refer
 * to other places (link definitions, footnotes) outside fenced code are not cut.
 */

/**
 * Anything that could tie blocks across a blank line other than lists and fences at column 0: link definitions,
 * footnotes, and the start of an HTML block that a blank line does not end (`<!--`, `<?`, `<!X`, `<![CDATA[`,
 * `<script`, `<pre`, `<style`, `<textarea`) at the start of a line or of a quote or list item on it.
 */
const UNCUTTABLE = /\]:|\[\^|^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t>]+)*<(?:[!?]|script|pre|style|textarea)/i;
/** A fence indented by one to three spaces: at the top level it would be the document's, and go on past blank lines. */
const INNER_FENCE = /^ {1,3}(?:```|~~~)/;
/** A line that may start an HTML block that a blank line ends: until that blank line, a fence-like line is its text. */
const HTML_START = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t>]+)*</;
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
  let html = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (fence) {
      const closing = CLOSING_FENCE.exec(line)?.[1];
      if (closing?.[0] === fence.char && closing.length >= fence.size) fence = undefined;
      continue;
    }
    html = BLANK.test(line) ? false : html || HTML_START.test(line);
    const open = FENCE.exec(line);
    // Whether the fence opens depends on whether the HTML before it is a block: not known here.
    if (open && html) return [text];
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
