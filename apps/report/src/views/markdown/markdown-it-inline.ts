import type Token from 'markdown-it/lib/token.mjs';
import { normalizeUri } from 'micromark-util-sanitize-uri';
import { escapeAttribute, escapeText, trimLines, webLink } from './markdown-html.js';

/**
 * The inline part of `renderWithMarkdownIt` (`markdown-it.ts`): the children of markdown-it's inline tokens
 * written as the full pipeline writes the same text; `undefined` for anything GFM may read otherwise.
 */

/** Deepest nesting rendered here: markdown-it stops parsing at its `maxNesting` (100), micromark does not. */
export const MAX_DEPTH = 50;

/**
 * Text (outside code, HTML and link destinations) that GFM may read otherwise: literal autolinks (`http(s)://`,
 * `www.`, e-mail addresses). Strikethrough: see `TILDES`.
 */
const GFM_IN_TEXT = /https?:\/\/|www\.|[\w.+-]@[\w-]/i;

/**
 * Tildes in the text of a paragraph: GFM's strikethrough takes one or two (markdown-it only two), so text with
 * two or more is left to the full pipeline; a single one can only be a tilde.
 */
const TILDES = /~/g;

/** The HTML of an inline token's children, or `undefined` for a token this path does not know. */
export function inline(token: Token, nested: boolean): string | undefined {
  let out = '';
  const links: boolean[] = [];
  const children = token.children ?? [];
  if (ambiguousEmphasis(token.content)) return undefined;
  let tildes = 0;
  for (const child of children)
    if ((child.type === 'text' || child.type === 'image') && child.content.includes('~'))
      tildes += (child.content.match(TILDES) ?? []).length;
  if (tildes > 1) return undefined;
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as Token;
    if (child.level > MAX_DEPTH) return undefined;
    switch (child.type) {
      case 'text': {
        const next = children[i + 1]?.type;
        const html = textHtml(next === 'softbreak' ? child.content.replace(/[ \t]+$/, '') : child.content, {
          first: i === 0 || isBreak(children[i - 1]?.type),
          last: next === undefined || isBreak(next),
          linked: links.length > 0,
        });
        if (html === undefined) return undefined;
        out += html;
        break;
      }
      case 'softbreak':
        out += '\n';
        break;
      case 'hardbreak':
        out += '<br>\n';
        break;
      case 'code_inline':
        // Only spaces: micromark keeps them all, markdown-it takes one off each end.
        if (/^ +$/.test(child.content)) return undefined;
        out += `<code>${escapeText(child.content)}</code>`;
        break;
      case 'html_inline':
        // micromark reads a tag alone on a lazy line of a quote or list item as an HTML block: left to it.
        if (nested && isBreak(children[i - 1]?.type)) return undefined;
        out += escapeText(trimLines(child.content));
        break;
      case 'em_open':
      case 'strong_open':
        out += `<${child.tag}>`;
        break;
      case 'em_close':
      case 'strong_close':
        out += `</${child.tag}>`;
        break;
      case 'link_open': {
        const open = anchor(child);
        links.push(open !== '<span>');
        out += open;
        break;
      }
      case 'link_close':
        out += links.pop() ? '</a>' : '</span>';
        break;
      case 'image': {
        const description = altText(child.children ?? []);
        if (description === undefined) return undefined;
        const alt = trimLines(description);
        const open = anchor(child, 'src');
        out += `${open}${escapeText(`[image${alt ? `: ${alt}` : ''}]`)}${open === '<span>' ? '</span>' : '</a>'}`;
        break;
      }
      default:
        return undefined;
    }
  }
  return out;
}

function isBreak(type: string | undefined): boolean {
  return type === 'softbreak' || type === 'hardbreak';
}

/** A run of `*` or `_`. */
const DELIMITER_RUN = /\*+|_+/g;
const BOTH_SIDES_TAKEN = /\S[*_]+\S/;
const WHITE_SPACE = /^$|\s/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;

/**
 * Whether the source of a paragraph's inline content has a `*` or `_` run that can both open and close
 * emphasis: its pairing then depends on CommonMark's rule of three, which micromark applies to what is left of a
 * run and markdown-it to the whole run (as the spec says), so such text is left to the full pipeline.
 */
function ambiguousEmphasis(source: string): boolean {
  // A run that can both open and close has no white space on either side.
  if (!BOTH_SIDES_TAKEN.test(source)) return false;
  for (const match of source.matchAll(DELIMITER_RUN)) {
    const end = match.index + match[0].length;
    const before = source.slice(
      /[\udc00-\udfff]/.test(source[match.index - 1] ?? '') ? match.index - 2 : match.index - 1,
      match.index,
    );
    const after = end < source.length ? String.fromCodePoint(source.codePointAt(end) ?? 32) : '';
    const left =
      !WHITE_SPACE.test(after) &&
      (!PUNCTUATION.test(after) || WHITE_SPACE.test(before) || PUNCTUATION.test(before));
    const right =
      !WHITE_SPACE.test(before) &&
      (!PUNCTUATION.test(before) || WHITE_SPACE.test(after) || PUNCTUATION.test(after));
    const star = match[0].startsWith('*');
    const open = left && (star || !right || PUNCTUATION.test(before));
    const close = right && (star || !left || PUNCTUATION.test(after));
    if (open && close) return true;
  }
  return false;
}

/**
 * A web address in text that GFM makes a link of (a literal autolink), in the plainest shape only: between spaces,
 * a domain of letters, digits and hyphens with a dot, a path of word characters, hyphens and slashes. GFM's
 * rules for other shapes (trailing punctuation, parentheses, underscores, `www.`, e-mail addresses) are left to it.
 */
const PLAIN_URL =
  /(?<=^| )https?:\/\/[A-Za-z\d][A-Za-z\d-]*(?:\.[A-Za-z\d][A-Za-z\d-]*)+(?:\/[\w/-]*)?(?= |$)/gi;

/**
 * A text token's HTML: escaped, its plain web addresses made links; `undefined` when GFM may read it otherwise.
 * `first`/`last`: whether it starts/ends a line (what GFM's literal autolinks may touch is then known).
 */
function textHtml(text: string, at: { first: boolean; last: boolean; linked: boolean }): string | undefined {
  if (!GFM_IN_TEXT.test(text)) return escapeText(text);
  if (at.linked) return undefined;
  let out = '';
  let from = 0;
  for (const match of text.matchAll(PLAIN_URL)) {
    const url = match[0];
    const end = match.index + url.length;
    if ((match.index === 0 && !at.first) || (end === text.length && !at.last)) return undefined;
    const before = text.slice(from, match.index);
    if (GFM_IN_TEXT.test(before)) return undefined;
    const href = normalizeUri(url);
    out += webLink(href)
      ? `${escapeText(before)}<a href="${escapeAttribute(href)}">${escapeText(url)}</a>`
      : `${escapeText(before)}<span>${escapeText(url)}</span>`;
    from = end;
  }
  const rest = text.slice(from);
  return GFM_IN_TEXT.test(rest) ? undefined : out + escapeText(rest);
}

/** The opening tag of a link (or an image's link): `<a href title>` for a web link, else `<span>`. */
function anchor(token: Token, attribute = 'href'): string {
  const href = String(token.attrGet(attribute) ?? '');
  if (!webLink(href)) return '<span>';
  const title = token.attrGet('title');
  const titled = title === null ? '' : ` title="${escapeAttribute(String(title))}"`;
  return `<a href="${escapeAttribute(href)}"${titled}>`;
}

/** An image's description as plain text, as mdast's `alt` (mdast-util-to-string) has it; `undefined` as `inline`. */
function altText(children: Token[]): string | undefined {
  let out = '';
  for (const child of children) {
    if (child.type === 'softbreak') out += '\n';
    else if (child.type === 'image') {
      const inner = altText(child.children ?? []);
      if (inner === undefined) return undefined;
      out += inner;
    } else if (child.type === 'text' && GFM_IN_TEXT.test(child.content)) return undefined;
    else if (child.type === 'text' || child.type === 'code_inline' || child.type === 'html_inline')
      out += child.content;
  }
  return out;
}
