import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { normalizeUri } from 'micromark-util-sanitize-uri';
import { codeBlockHtml, escapeText, trimLines } from './markdown-html.js';
import { inline, MAX_DEPTH } from './markdown-it-inline.js';

/**
 * The fast path of `renderMarkdown`: markdown-it's CommonMark parser (with GFM tables) gives tokens, and this
 * module writes them as the full pipeline (remark, remark-gfm, remark-rehype, rehype-sanitize, shiki,
 * rehype-stringify) writes the same document, byte for byte: raw HTML as text, images as links labelled
 * `[image: alt]`, links only to the web or within the page, no ids, fenced code through `highlight.ts`. What
 * markdown-it reads otherwise (GFM's literal autolinks but the plainest, task lists, footnotes, strikethrough;
 * link definitions; the few shapes where micromark departs from CommonMark) is not rendered here:
 * `renderWithMarkdownIt` answers `undefined` and the full pipeline renders the text. Tests compare both on every
 * message text of the shared corpus and the fixtures, and on random and hostile texts.
 */

/**
 * Texts this path leaves to the full pipeline: line endings with `\r`, task list items (a line that starts, after
 * any indent, quote or list marker, with `[ ]` or `[x]` and white space) and footnotes (GFM), which markdown-it reads otherwise,
 * and a tab then spaces before a line ending (a hard break for markdown-it only).
 */
const LEFT_TO_UNIFIED = /\r|^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*\[[ xX]\](?=[ \t]|$)|\[\^|\t {2,}\n/m;

/** HTML blocks that a blank line does not end (CommonMark's kinds 1 to 5). */
const HTML_TO_TERMINATOR =
  /^[ \t]*<(?:(?:script|pre|style|textarea)(?:[ \t>]|$)|!--|\?|![A-Za-z]|!\[CDATA\[)/i;

const parser = new MarkdownIt('default', { html: true, linkify: false, typographer: false });
// The full pipeline makes a link of every destination and decides later (sanitize, web links only) what stays one.
parser.validateLink = () => true;
parser.normalizeLink = (url) => normalizeUri(url);
parser.normalizeLinkText = (text) => text;
// Strikethrough is left to the full pipeline (see `TILDES`): `~~` stays text here, and the text is left.
parser.disable('strikethrough');
// markdown-it's own rule rewrites every line ending (`\r\n?|\n` to `\n`), copying the text: the same text here.
parser.core.ruler.at('normalize', (state) => {
  let src = state.src;
  if (src.includes('\r')) src = src.replace(/\r\n?/g, '\n');
  if (src.includes('\0')) src = src.replace(/\0/g, '\uFFFD');
  state.src = src;
});

/** A rendered block: `inner` is a paragraph's inline HTML, which a tight list item shows without its `<p>`. */
interface Block {
  html: string;
  inner?: string;
  /** Whether a paragraph is hidden by markdown-it (a tight list's). */
  hidden?: boolean;
}

/** An open container: its kind, its rendered children, and (for a list) its opening tag. */
interface Frame {
  kind: 'root' | 'blockquote' | 'list' | 'item' | 'table' | 'section' | 'row' | 'cell';
  tag: string;
  children: Block[];
  /** A list's items, each the blocks it holds. */
  items: Block[][];
}

/** Renders `text` as the full pipeline does, or `undefined` when it may have syntax this path leaves. */
export function renderWithMarkdownIt(text: string): string | undefined {
  if ((text.includes('[') || text.includes('\r') || text.includes('\t')) && LEFT_TO_UNIFIED.test(text))
    return undefined;
  // markdown-it drops a last line of only spaces at the end of the text (of unclosed fenced code): not after a line ending.
  const env: { references?: Record<string, { href: string; title: string }> } = {};
  const tokens = parser.parse(text.endsWith('\n') ? text : `${text}\n`, env);
  // Link definitions: mdast keeps references to them apart (an image reference becomes text, not a link).
  if (env.references && Object.keys(env.references).length > 0) return undefined;
  const stack: Frame[] = [frame('root', '')];
  const source = { text, lines: undefined as string[] | undefined };
  // Code blocks, by the index their place holds (`\0n\0`: markdown-it turns NUL in the text into U+FFFD).
  const code: [string, string][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.level > MAX_DEPTH) return undefined;
    const top = stack[stack.length - 1] as Frame;
    switch (token.type) {
      case 'paragraph_open': {
        const content = inline(tokens[i + 1] as Token, stack.length > 1);
        if (content === undefined) return undefined;
        top.children.push({ html: `<p>${content}</p>`, inner: content, hidden: token.hidden });
        i += 2;
        break;
      }
      case 'heading_open': {
        const content = inline(tokens[i + 1] as Token, stack.length > 1);
        if (content === undefined) return undefined;
        top.children.push({ html: `<${token.tag}>${content}</${token.tag}>` });
        i += 2;
        break;
      }
      case 'fence':
      case 'code_block': {
        // markdown-it trims the info string of any white space and of decoded references; mdast only of spaces and tabs.
        // (Escapes and references in it are left to the full pipeline, so the info string is as written.)
        // Indented code right after a quote or a list: micromark may end it early (`>\n    - a\n    b`).
        if (
          token.type === 'code_block' &&
          /^(?:blockquote|bullet_list|ordered_list)_close$/.test(tokens[i - 1]?.type ?? '')
        )
          return undefined;
        const line = sourceLine(source, token.map?.[0] ?? 0);
        if (token.type === 'fence' && /[^\S \t]|[&\\]/.test(line)) return undefined;
        // An indented or nested fence left open to a last line of spaces: micromark drops that line, markdown-it not.
        if ((/^\s/.test(line) || stack.length > 1) && /\n[ \t]+$/.test(text)) return undefined;
        // micromark ends unclosed code in a list item or quote before the blank lines that end its container.
        if (stack.length > 1 && token.content.endsWith('\n\n')) return undefined;
        const value = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
        // Highlighted once the whole text is known to be rendered here (else the full pipeline would do it again).
        code.push([value === '' ? '' : `${value}\n`, token.info.trim().split(/\s+/)[0] ?? '']);
        top.children.push({ html: `\0${code.length - 1}\0` });
        break;
      }
      case 'html_block':
        // An unclosed block to the end, or one in a container, keeps a last line ending in mdast.
        if (
          HTML_TO_TERMINATOR.test(token.content) &&
          (stack.length > 1 || (text.endsWith('\n') && token.map?.[1] === lineCount(source)))
        )
          return undefined;
        top.children.push({ html: escapeText(trimLines(token.content.replace(/\n$/, ''))) });
        break;
      case 'hr':
        top.children.push({ html: '<hr>' });
        break;
      case 'blockquote_open':
        stack.push(frame('blockquote', ''));
        break;
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const start = token.attrGet('start');
        // After indented code, micromark reads an ordered list not from 1, or an item that starts with a blank
        // line, as a paragraph.
        const bare = /^[ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]*$/.test(sourceLine(source, token.map?.[0] ?? 0));
        if ((start !== null || bare) && tokens[i - 1]?.type === 'code_block') return undefined;
        stack.push(frame('list', start === null ? token.tag : `${token.tag} start="${start}"`));
        break;
      }
      case 'list_item_open':
        // micromark reads some lists that start with an empty item otherwise (`x\n- *`, `\tcode\n- \n- b`).
        if (tokens[i + 1]?.type === 'list_item_close' && tokens[i - 1]?.type.endsWith('_list_open'))
          return undefined;
        stack.push(frame('item', ''));
        break;
      case 'table_open': {
        // GFM wants a pipe in the delimiter row (`a\n---` is a heading); markdown-it not for one column.
        const first = token.map?.[0] ?? 0;
        if (!sourceLine(source, first + 1).includes('|') || !sourceLine(source, first).includes('|'))
          return undefined;
        stack.push(frame('table', ''));
        break;
      }
      case 'thead_open':
      case 'tbody_open':
        stack.push(frame('section', token.tag));
        break;
      case 'tr_open':
        stack.push(frame('row', ''));
        break;
      case 'th_open':
      case 'td_open': {
        const content = inline(tokens[i + 1] as Token, stack.length > 1);
        if (content === undefined) return undefined;
        const align = /^text-align:(left|right|center)$/.exec(String(token.attrGet('style') ?? ''))?.[1];
        top.children.push({
          html: `<${token.tag}${align ? ` align="${align}"` : ''}>${content}</${token.tag}>`,
        });
        i += 2;
        break;
      }
      default: {
        if (!token.type.endsWith('_close')) return undefined;
        const done = stack.pop() as Frame;
        const parent = stack.at(-1);
        if (!parent) return undefined;
        if (done.kind === 'item') parent.items.push(done.children);
        else parent.children.push({ html: close(done) });
      }
    }
  }
  const root = stack.pop() as Frame;
  const html = root.children.map((block) => block.html).join('\n');
  if (code.length === 0) return html;
  return html.replace(/\0(\d+)\0/g, (_, n: string) =>
    codeBlockHtml(...(code[Number(n)] as [string, string])),
  );
}

/** The number of lines markdown-it sees in the text (a final line ending ends the last line). */
function lineCount(source: { text: string; lines: string[] | undefined }): number {
  source.lines ??= source.text.split('\n');
  return source.text.endsWith('\n') ? source.lines.length - 1 : source.lines.length;
}

/** Line `index` (from 0) of the text. */
function sourceLine(source: { text: string; lines: string[] | undefined }, index: number): string {
  source.lines ??= source.text.split('\n');
  return source.lines[index] ?? '';
}

function frame(kind: Frame['kind'], tag: string): Frame {
  return { kind, tag, children: [], items: [] };
}

/** The HTML of a closed container (not a list item: its list writes it). */
function close(done: Frame): string {
  const inner = done.children.map((block) => block.html);
  switch (done.kind) {
    case 'blockquote':
      return `<blockquote>\n${inner.map((html) => `${html}\n`).join('')}</blockquote>`;
    case 'list': {
      const loose = done.items.some((blocks) => blocks.some((b) => b.inner !== undefined && !b.hidden));
      const tag = done.tag.split(' ')[0];
      return `<${done.tag}>\n${done.items.map((blocks) => item(blocks, loose)).join('\n')}\n</${tag}>`;
    }
    case 'table':
      return `<table>\n${inner.join('\n')}\n</table>`;
    case 'section':
      return `<${done.tag}>\n${inner.join('\n')}\n</${done.tag}>`;
    default:
      return `<tr>\n${inner.join('\n')}\n</tr>`;
  }
}

/** A list item as mdast-util-to-hast writes it: a tight item's paragraphs without `<p>`, line endings around blocks. */
function item(blocks: Block[], loose: boolean): string {
  let out = '';
  blocks.forEach((block, index) => {
    const paragraph = block.inner !== undefined;
    if (loose || index !== 0 || !paragraph) out += '\n';
    out += paragraph && !loose ? block.inner : block.html;
  });
  const tail = blocks.at(-1);
  if (tail && (loose || tail.inner === undefined)) out += '\n';
  return `<li>${out}</li>`;
}
