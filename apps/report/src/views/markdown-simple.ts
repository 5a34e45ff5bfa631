import { toHtml } from 'hast-util-to-html';
import { highlightToHast } from './highlight.js';

/**
 * The fast path of `renderMarkdown`: markdown of the commonest shapes (paragraphs, ATX headings, fenced code;
 * inline: text, backslash escapes, hard breaks, code spans) rendered straight to the HTML the full pipeline
 * (remark, GFM, rehype, sanitize, shiki) gives for it, byte for byte. Anything outside these shapes, or anything
 * the full pipeline might read otherwise (emphasis, links, lists, quotes, HTML, entities, GFM's autolinks and
 * tables...), is not rendered here: `renderSimple` answers `undefined` and the full pipeline renders the text.
 * Tests compare both on every message text of the shared corpus and the fixtures.
 */

/** Characters that never start anything in the inline text this path renders (scanned over in one step). */
const INERT = /[^\\`_&<\n \t*[\]~|@]+/y;
/** What may start a GFM autolink literal (`http://`, `www.`; e-mail addresses need an `@`, which is not rendered here). */
const AUTOLINK = /:\/\/|www\./i;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const ALPHANUMERIC = /[A-Za-z0-9]/;

/** An ATX heading with its text (no closing sequence, no trailing `#`: those are left to the full pipeline). */
const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*[^\s#])[ \t]*$/;
/** Lines that may open or be a block other than a paragraph, heading or fence: the full pipeline reads them. */
const OTHER_BLOCK = /^(?: {0,3}(?:[-+*>=_|<[]|~~~|```|\d{1,9}[.)]|#{1,6}(?:[ \t]|$))| {4}| {0,3}\t)/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;

/** Text to HTML text content, as hast-util-to-html writes it. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

/** Renders `text` when it is of the shapes this path knows, else `undefined`. */
export function renderSimple(text: string): string | undefined {
  if (text.includes('\r') || text.includes('\0')) return undefined;
  const lines = text.split('\n');
  // A final line ending ends the last line; it does not start an empty one (which an open fence would keep).
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const blocks: string[] = [];
  let paragraph: string[] = [];
  const endParagraph = (): boolean => {
    if (paragraph.length === 0) return true;
    const html = inline(paragraph.join('\n').replace(/[ \t]+$/, ''));
    paragraph = [];
    if (html === undefined) return false;
    blocks.push(`<p>${html}</p>`);
    return true;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^[ \t]*$/.test(line)) {
      if (!endParagraph()) return undefined;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      if (!endParagraph()) return undefined;
      const end = fencedCode(lines, i, fence[1] ?? '', fence[2] ?? '', blocks);
      if (end === undefined) return undefined;
      i = end;
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      if (!endParagraph()) return undefined;
      const html = inline(heading[2] ?? '');
      if (html === undefined) return undefined;
      blocks.push(`<h${heading[1]?.length}>${html}</h${heading[1]?.length}>`);
      continue;
    }
    if (OTHER_BLOCK.test(line)) return undefined;
    paragraph.push(line.replace(/^ {0,3}/, ''));
  }
  if (!endParagraph()) return undefined;
  return blocks.join('\n');
}

/**
 * A fenced code block opened at `lines[start]` (at column 0): its HTML goes to `blocks`, and the index of its
 * last line is returned; `undefined` when its info string is one the full pipeline would read otherwise.
 */
function fencedCode(lines: string[], start: number, fence: string, info: string, blocks: string[]): number | undefined {
  if (/[\\&]/.test(info) || (fence.startsWith('`') && info.includes('`'))) return undefined;
  const lang = info.replace(/^[ \t]+/, '').split(/[ \t]/)[0] ?? '';
  if (!/^[\w.+#-]*$/.test(lang)) return undefined;
  const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  let end = start + 1;
  while (end < lines.length && !closing.test(lines[end] ?? '')) end++;
  const body = lines.slice(start + 1, end).join('\n');
  const value = body === '' ? '' : `${body}\n`;
  const code = {
    type: 'element' as const,
    tagName: 'code',
    properties: lang === '' ? {} : { className: [`language-${lang}`] },
    children: value === '' ? [] : [{ type: 'text' as const, value }],
  };
  const tree = highlightToHast(value, lang === '' ? 'text' : lang) ?? {
    type: 'element' as const,
    tagName: 'pre',
    properties: {},
    children: [code],
  };
  blocks.push(toHtml(tree as Parameters<typeof toHtml>[0]));
  return end;
}

/** The inline HTML of a paragraph's or heading's text, or `undefined` when it has syntax this path leaves. */
function inline(text: string): string | undefined {
  if (AUTOLINK.test(text)) return undefined;
  let out = '';
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
    } else if (c === ' ' || c === '\t' || c === '\n') {
      let end = i;
      while (text[end] === ' ' || text[end] === '\t') end++;
      const spaces = text.slice(i, end);
      if (text[end] !== '\n') {
        out += spaces;
        i = end;
      } else if (spaces.length >= 2 && !spaces.includes('\t')) {
        out += '<br>\n';
        i = skipIndent(text, end + 1);
      } else if (spaces.length >= 2) {
        return undefined;
      } else {
        out += '\n';
        i = skipIndent(text, end + 1);
      }
    } else if (c === '_' && ALPHANUMERIC.test(text[i - 1] ?? '') && ALPHANUMERIC.test(text[i + 1] ?? '')) {
      out += '_';
      i += 1;
    } else if (c === '&' && !/[A-Za-z0-9#]/.test(text[i + 1] ?? '')) {
      out += '&#x26;';
      i += 1;
    } else if (c === '<' && !/[A-Za-z/!?]/.test(text[i + 1] ?? '')) {
      out += '&#x3C;';
      i += 1;
    } else {
      return undefined;
    }
  }
  return out;
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
