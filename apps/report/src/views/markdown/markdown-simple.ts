import { toHtml } from 'hast-util-to-html';
import { highlightToHast } from './highlight.js';
import { inline, trimEnd } from './markdown-inline.js';

/**
 * The fast path of `renderMarkdown`: markdown of the commonest shapes (paragraphs, ATX headings, fenced code;
 * inline: text, backslash escapes, hard breaks, code spans) rendered straight to the HTML the full pipeline
 * (remark, GFM, rehype, sanitize, shiki) gives for it, byte for byte. Anything outside these shapes, or anything
 * the full pipeline might read otherwise (emphasis, links, lists, quotes, HTML, entities, GFM's autolinks and
 * tables...), is not rendered here: `renderSimple` answers `undefined` and the full pipeline renders the text.
 * Tests compare both on every message text of the shared corpus and the fixtures.
 */

/** An ATX heading with its text (no closing sequence, no trailing `#`: those are left to the full pipeline). */
const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*[^\s#])[ \t]*$/;
/** Lines that may open or be a block other than a paragraph, heading or fence: the full pipeline reads them. */
const OTHER_BLOCK =
  /^(?: {0,3}(?:\*(?!\*[^\s*])|[-+>=_|<[]|~~~|```|\d{1,9}[.)]|#{1,6}(?:[ \t]|$))| {4}| {0,3}\t)/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
/** A list item at column 0, its marker followed by one space and its text. */
const LIST_ITEM = /^(?:([-*+])|(\d{1,9})([.)])) (?=[^ \t])(.*)$/;
const BLANK = /^[ \t]*$/;

interface ListItem {
  /** The bullet, or the delimiter of an ordered item: a list goes on while its items have the same. */
  marker: string;
  /** The number of an ordered item. */
  start: number | undefined;
  /** The text of the item's first line. */
  text: string;
}

function listItem(line: string): ListItem | undefined {
  const m = LIST_ITEM.exec(line);
  if (!m) return undefined;
  const text = m[4] ?? '';
  // An item that holds another block (a list, a heading, a quote, a rule, code...) is left to the full pipeline.
  if (LIST_ITEM.test(text) || OTHER_BLOCK.test(text) || FENCE.test(text) || ATX_HEADING.test(text))
    return undefined;
  return { marker: m[1] ?? m[3] ?? '', start: m[2] === undefined ? undefined : Number(m[2]), text };
}

/** Anything at column 0 that looks like a list item, whatever follows its marker. */
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * Whether `line`, right after a line of a list item's paragraph, goes on with that paragraph as lazy text: text at
 * column 0 that starts no block (no list item of any kind, heading, fence, quote, rule, table, HTML...).
 */
function continuesItem(line: string): boolean {
  return (
    /^[^ \t]/.test(line) &&
    !LIST_MARKER.test(line) &&
    !OTHER_BLOCK.test(line) &&
    !FENCE.test(line) &&
    !ATX_HEADING.test(line)
  );
}

/**
 * The list of items of one paragraph each (a line, and lazy lines after it) that starts at `lines[start]`: its
 * HTML goes to `blocks`, and the index of its last line is returned; `undefined` when a line after an item could
 * continue it otherwise (indented text, a quote, a rule...).
 */
function list(lines: string[], start: number, blocks: Block[]): number | undefined {
  const first = listItem(lines[start] ?? '') as ListItem;
  const texts: string[] = [];
  let loose = false;
  let last = start;
  for (let i = start; ; ) {
    const item = listItem(lines[i] ?? '') as ListItem;
    const paragraph = [item.text];
    while (i + 1 < lines.length && continuesItem(lines[i + 1] ?? '')) paragraph.push(lines[++i] ?? '');
    const html = inline(trimEnd(paragraph.join('\n')));
    if (html === undefined) return undefined;
    texts.push(html);
    last = i;
    let next = i + 1;
    while (next < lines.length && BLANK.test(lines[next] ?? '')) next++;
    if (next >= lines.length) break;
    const line = lines[next] ?? '';
    const following = listItem(line);
    if (following?.marker === first.marker) {
      loose ||= next > i + 1;
      i = next;
      continue;
    }
    // Right after an item, only a heading or a fence at column 0 ends the list (and is then read on its own).
    if (next === i + 1 && !following && !/^(?:#|```|~~~)/.test(line)) return undefined;
    if (/^[ \t]/.test(line)) return undefined;
    break;
  }
  const items = texts.map((html) => (loose ? `<li>\n<p>${html}</p>\n</li>` : `<li>${html}</li>`));
  const tag = first.start === undefined ? 'ul' : 'ol';
  const attributes = first.start === undefined || first.start === 1 ? '' : ` start="${first.start}"`;
  blocks.push(`<${tag}${attributes}>\n${items.join('\n')}\n</${tag}>`);
  return last;
}

/** Renders `text` when it is of the shapes this path knows, else `undefined`. */
export function renderSimple(text: string): string | undefined {
  if (text.includes('\r') || text.includes('\0')) return undefined;
  const lines = text.split('\n');
  // A final line ending ends the last line; it does not start an empty one (which an open fence would keep).
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const endParagraph = (): boolean => {
    if (paragraph.length === 0) return true;
    const html = inline(trimEnd(paragraph.join('\n')));
    paragraph = [];
    if (html === undefined) return false;
    blocks.push(`<p>${html}</p>`);
    return true;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (BLANK.test(line)) {
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
    const item = listItem(line);
    if (item) {
      // A bullet or an ordered list from 1 ends a paragraph; another number would be the paragraph's text.
      if (paragraph.length > 0 && item.start !== undefined && item.start !== 1) return undefined;
      if (!endParagraph()) return undefined;
      const end = list(lines, i, blocks);
      if (end === undefined) return undefined;
      i = end;
      continue;
    }
    if (OTHER_BLOCK.test(line)) return undefined;
    paragraph.push(line.replace(/^ {0,3}/, ''));
  }
  if (!endParagraph()) return undefined;
  // Code is highlighted once the whole text is known to take this path (else the full pipeline would do it again).
  return blocks
    .map((block) => (typeof block === 'string' ? block : codeBlock(block.code, block.lang)))
    .join('\n');
}

/** A block's HTML, or fenced code to highlight. */
type Block = string | { code: string; lang: string };

/**
 * A fenced code block opened at `lines[start]` (at column 0): its code goes to `blocks`, and the index of its
 * last line is returned; `undefined` when its info string is one the full pipeline would read otherwise.
 */
function fencedCode(
  lines: string[],
  start: number,
  fence: string,
  info: string,
  blocks: Block[],
): number | undefined {
  if (/[\\&]/.test(info) || (fence.startsWith('`') && info.includes('`'))) return undefined;
  const lang = info.replace(/^[ \t]+/, '').split(/[ \t]/)[0] ?? '';
  if (!/^[\w.+#-]*$/.test(lang)) return undefined;
  const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  let end = start + 1;
  while (end < lines.length && !closing.test(lines[end] ?? '')) end++;
  const body = lines.slice(start + 1, end).join('\n');
  blocks.push({ code: body === '' ? '' : `${body}\n`, lang });
  return end;
}

/** The HTML of fenced code: shiki's when it knows the language, else `<pre><code>` as remark-rehype makes it. */
function codeBlock(value: string, lang: string): string {
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
  return toHtml(tree as Parameters<typeof toHtml>[0]);
}
