/**
 * The inline part of `renderSimple` (`markdown-simple.ts`): text, backslash escapes, hard breaks, code spans and
 * `**strong**`, rendered as the full pipeline renders them; `undefined` for anything else.
 */

/** Characters that never start anything in the inline text this path renders (scanned over in one step). */
const INERT = /[^\\`_&<\n*[\]~|@]+/y;
/** What may start a GFM autolink literal (`http://`, `www.`; e-mail addresses need an `@`, which is not rendered here). */
const AUTOLINK = /:\/\/|www\./i;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const ALPHANUMERIC = /[A-Za-z0-9]/;

/** Text to HTML text content, as hast-util-to-html writes it. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

/** The inline HTML of a paragraph's or heading's text, or `undefined` when it has syntax this path leaves. */
export function inline(text: string): string | undefined {
  if (AUTOLINK.test(text)) return undefined;
  let out = '';
  let strong = false;
  let i = 0;
  while (i < text.length) {
    INERT.lastIndex = i;
    if (INERT.test(text)) {
      out += text.slice(i, INERT.lastIndex);
      i = INERT.lastIndex;
      continue;
    }
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1] ?? '';
      if (next === '\n') {
        out += '<br>\n';
        i = skipIndent(text, i + 2);
      } else if (next !== '' && ASCII_PUNCTUATION.test(next)) {
        out += escapeText(next);
        i += 2;
      } else {
        out += '\\';
        i += 1;
      }
    } else if (c === '`') {
      const span = codeSpan(text, i);
      if (span === undefined) return undefined;
      out += span.html;
      i = span.end;
    } else if (c === '\n') {
      // The spaces and tabs before a line ending were copied as they are: they go, or make a hard break.
      let start = i;
      while (text[start - 1] === ' ' || text[start - 1] === '\t') start--;
      const spaces = text.slice(start, i);
      if (spaces.length >= 2 && spaces.includes('\t')) return undefined;
      out = `${out.slice(0, out.length - spaces.length)}${spaces.length >= 2 ? '<br>\n' : '\n'}`;
      i = skipIndent(text, i + 1);
    } else if (c === '_' && ALPHANUMERIC.test(text[i - 1] ?? '') && ALPHANUMERIC.test(text[i + 1] ?? '')) {
      out += '_';
      i += 1;
    } else if (c === '&' && !/[A-Za-z0-9#]/.test(text[i + 1] ?? '')) {
      out += '&#x26;';
      i += 1;
    } else if (c === '<' && !/[A-Za-z/!?]/.test(text[i + 1] ?? '')) {
      out += '&#x3C;';
      i += 1;
    } else if (c === '*') {
      // Only `**` runs that can only open or only close, alternating: then they pair as they come.
      if (text[i + 1] !== '*' || text[i + 2] === '*' || text[i - 1] === '*') return undefined;
      const side = delimiterSide(text[i - 1], text[i + 2]);
      if (side === undefined || (side === 'open') === strong) return undefined;
      strong = side === 'open';
      out += strong ? '<strong>' : '</strong>';
      i += 2;
    } else {
      return undefined;
    }
  }
  return strong ? undefined : out;
}

/**
 * Whether a `**` run between `before` and `after` (`undefined` at either end of the text) can only open or only
 * close emphasis (CommonMark's left- and right-flanking runs); `undefined` when it can do both or neither, or
 * when a neighbour is not ASCII (Unicode's white space and punctuation are left to the full pipeline).
 */
function delimiterSide(before: string | undefined, after: string | undefined): 'open' | 'close' | undefined {
  if ((before !== undefined && before > '\x7f') || (after !== undefined && after > '\x7f')) return undefined;
  const space = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || c === '\n';
  const punctuation = (c: string | undefined) => c !== undefined && ASCII_PUNCTUATION.test(c);
  const left = !space(after) && (!punctuation(after) || space(before) || punctuation(before));
  const right = !space(before) && (!punctuation(before) || space(after) || punctuation(after));
  if (left === right) return undefined;
  return left ? 'open' : 'close';
}

/** `text` without its final spaces and tabs (other white space is content). */
export function trimEnd(text: string): string {
  let end = text.length;
  while (text[end - 1] === ' ' || text[end - 1] === '\t') end--;
  return text.slice(0, end);
}

function skipIndent(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/**
 * The code span opened by the backtick run at `start`, or the run itself as text when nothing closes it;
 * `undefined` for a span over more than one line (its line endings and indents are left to the full pipeline).
 */
function codeSpan(text: string, start: number): { html: string; end: number } | undefined {
  let open = start;
  while (text[open] === '`') open++;
  const size = open - start;
  let at = open;
  for (;;) {
    const next = text.indexOf('`', at);
    if (next < 0) return { html: '`'.repeat(size), end: open };
    let close = next;
    while (text[close] === '`') close++;
    if (close - next === size) {
      let content = text.slice(open, next);
      if (content.includes('\n')) return undefined;
      if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content))
        content = content.slice(1, -1);
      return { html: `<code>${escapeText(content)}</code>`, end: close };
    }
    at = close;
  }
}
