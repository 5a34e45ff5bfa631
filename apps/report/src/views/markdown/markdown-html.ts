import { toHtml } from 'hast-util-to-html';
import { highlightToHast } from './highlight.js';

/**
 * The pieces of HTML that the renderers of markdown write as the full pipeline writes them (hast-util-to-html's
 * escaping, mdast-util-to-hast's trimmed lines, rehype-sanitize's and `rehypeWebLinksOnly`'s links, shiki's code).
 */

/** Text to HTML text content, as hast-util-to-html writes it. */
export function escapeText(text: string): string {
  if (!text.includes('&') && !text.includes('<')) return text;
  return text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');
}

const ATTRIBUTE_REFERENCES: Record<string, string> = {
  '"': '&#x22;',
  '&': '&#x26;',
  "'": '&#x27;',
  '`': '&#x60;',
};

/** Text to a double-quoted attribute value, as hast-util-to-html writes it. */
export function escapeAttribute(text: string): string {
  return text.replace(/["&'`]/g, (c) => ATTRIBUTE_REFERENCES[c] ?? c);
}

/** Text with the spaces and tabs around its line endings removed, as mdast-util-to-hast does to text (trim-lines). */
export function trimLines(text: string): string {
  return text.includes('\n') ? text.replace(/[ \t]*\n[ \t]*/g, '\n') : text;
}

/** Protocols rehype-sanitize keeps in `href` (the report's schema); compared case-sensitively, as it does. */
const SANITIZE_PROTOCOLS = ['http', 'https', 'mailto'];

/**
 * Whether a link to `href` stays a link: rehype-sanitize keeps its `href` (a relative URL, or one of
 * `SANITIZE_PROTOCOLS`) and `rehypeWebLinksOnly` (markdown.ts) keeps it (web or within the page).
 */
export function webLink(href: string): boolean {
  const colon = href.indexOf(':');
  const before = (c: string) => {
    const at = href.indexOf(c);
    return at > -1 && colon > at;
  };
  const relative = colon < 0 || before('/') || before('?') || before('#');
  if (!relative && !SANITIZE_PROTOCOLS.some((p) => colon === p.length && href.startsWith(p))) return false;
  // Browsers drop tabs, newlines and leading spaces, and read a backslash as a slash.
  const seen = href.replace(/[\u0000-\u0020]/g, '').replace(/\\/g, '/');
  return /^(https?:\/\/|mailto:)/i.test(seen) || /^#./.test(seen);
}

/**
 * The HTML of a code block (`value` with its final line ending, `lang` the first word of its info string or
 * `''`): shiki's when it knows the language, else `<pre><code>` as remark-rehype and rehype-sanitize make it.
 */
export function codeBlockHtml(value: string, lang: string): string {
  const code = {
    type: 'element' as const,
    tagName: 'code',
    properties: lang === '' ? {} : { className: [`language-${lang}`] },
    children: value === '' ? [] : [{ type: 'text' as const, value }],
  };
  const highlighted = highlightToHast(value, lang === '' ? 'text' : lang);
  const tree = highlighted ?? {
    type: 'element' as const,
    tagName: 'pre',
    properties: {},
    children: [code],
  };
  const fast = highlighted ? shikiHtml(highlighted) : undefined;
  return fast ?? toHtml(tree as Parameters<typeof toHtml>[0]);
}

/** A node of shiki's trees: elements with string attributes, and text. */
interface ShikiNode {
  type?: unknown;
  tagName?: unknown;
  properties?: Record<string, unknown>;
  children?: readonly ShikiNode[];
  value?: unknown;
}

/** The attributes of shiki's elements, which hast-util-to-html writes by the same name, their value escaped. */
const SHIKI_ATTRIBUTES = new Set(['class', 'style', 'tabindex']);

/**
 * Shiki's tree (`highlightToHast`) as hast-util-to-html writes it, without its generic walk (which cost as much as
 * the highlighting): elements `pre`, `code` and `span` with non-empty string attributes of `SHIKI_ATTRIBUTES`,
 * and text. Undefined for a tree with anything else, which `toHtml` then writes.
 */
export function shikiHtml(tree: unknown): string | undefined {
  const out: string[] = [];
  const write = (node: ShikiNode): boolean => {
    if (node.type === 'text' && typeof node.value === 'string') {
      out.push(escapeText(node.value));
      return true;
    }
    const tag = node.tagName;
    if (node.type !== 'element' || (tag !== 'pre' && tag !== 'code' && tag !== 'span')) return false;
    let open = `<${tag}`;
    for (const name in node.properties) {
      const value = node.properties[name];
      if (!SHIKI_ATTRIBUTES.has(name) || typeof value !== 'string' || value === '') return false;
      open += ` ${name}="${escapeAttribute(value)}"`;
    }
    out.push(`${open}>`);
    for (const child of node.children ?? []) if (!write(child)) return false;
    out.push(`</${tag}>`);
    return true;
  };
  return write(tree as ShikiNode) ? out.join('') : undefined;
}
