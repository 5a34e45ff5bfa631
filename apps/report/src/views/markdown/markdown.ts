import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { clip, escapeHtml, type SafeHtml, trusted, wellFormed } from '../html/html.js';
import { highlightToHast } from './highlight.js';
import { markdownPieces } from './markdown-chunks.js';
import { renderWithMarkdownIt } from './markdown-it.js';

/**
 * Markdown of transcript messages to safe HTML: remark-parse → remark-gfm → remark-rehype (raw HTML kept as
 * visible text, never as HTML) → rehype-sanitize with a strict schema → shiki for fenced code → string. Almost
 * every text takes a fast path with the same output (`markdown-it.ts`), whole or in pieces (`markdown-chunks.ts`).
 */

/** Largest message rendered as markdown; longer text is shown as escaped preformatted text. */
const MARKDOWN_LIMIT = 100_000;

/**
 * The sanitize schema: GitHub's default without images (they would be outside requests: they become links),
 * links restricted to http/https/mailto, no ids or names that could clobber globals.
 */
const SANITIZE_SCHEMA: typeof defaultSchema = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter(
    (t) => !['img', 'picture', 'source', 'video', 'audio'].includes(t),
  ),
  protocols: { href: ['http', 'https', 'mailto'], cite: ['http', 'https'] },
  attributes: {
    ...defaultSchema.attributes,
    '*': (defaultSchema.attributes?.['*'] ?? []).filter((a) => a !== 'id' && a !== 'name'),
  },
  strip: ['script', 'style', 'svg', 'math', 'iframe', 'object', 'embed', 'template'],
};

// biome-ignore lint/suspicious/noExplicitAny: minimal tree shapes, without depending on @types/mdast/hast
type AnyNode = any;

/** Replaces the children of every node of a tree by `replace(child)`, with an explicit stack (no recursion). */
function mapChildren(tree: AnyNode, replace: (child: AnyNode) => AnyNode): void {
  const stack: AnyNode[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!Array.isArray(node.children)) continue;
    node.children = node.children.map(replace);
    for (const child of node.children) stack.push(child);
  }
}

/** remark plugin: raw HTML and images become plain text/links, so hostile markup is shown, not interpreted. */
function remarkNeutralize() {
  return (tree: AnyNode) =>
    mapChildren(tree, (child: AnyNode) => {
      if (child.type === 'html') return { type: 'text', value: child.value };
      if (child.type === 'image' || child.type === 'imageReference') {
        const label = `[image${child.alt ? `: ${child.alt}` : ''}]`;
        return child.type === 'image'
          ? {
              type: 'link',
              url: child.url,
              title: child.title ?? null,
              children: [{ type: 'text', value: label }],
            }
          : { type: 'text', value: label };
      }
      return child;
    });
}

/**
 * rehype plugin: a link of transcript text stays a link only when it goes to the web (`http:`, `https:`,
 * `mailto:`) or within the page (`#x`). A local path (`/etc/passwd`, `../x`, `src/a.ts`, `file:`) or a link
 * without a scheme that a browser reads as another host (`//evil.example/x`, `/\evil`) means nothing in the
 * report, and opened from disk it would open the reader's own files: it is shown as text.
 */
function rehypeWebLinksOnly() {
  return (tree: AnyNode) =>
    mapChildren(tree, (child: AnyNode) => {
      if (child.type !== 'element' || child.tagName !== 'a') return child;
      const href: unknown = child.properties?.href;
      // Browsers drop tabs, newlines and leading spaces, and read a backslash as a slash.
      const seen = typeof href === 'string' ? href.replace(/[\u0000-\u0020]/g, '').replace(/\\/g, '/') : '';
      if (/^(https?:\/\/|mailto:)/i.test(seen) || /^#./.test(seen)) return child;
      return { type: 'element', tagName: 'span', properties: {}, children: child.children ?? [] };
    });
}

/** rehype plugin: replaces `<pre><code class="language-x">` by shiki's highlighted tree (after sanitizing). */
function rehypeHighlight() {
  return (tree: AnyNode) =>
    mapChildren(tree, (child: AnyNode) => {
      if (child.type !== 'element' || child.tagName !== 'pre') return child;
      const code = child.children?.[0];
      if (code?.type !== 'element' || code.tagName !== 'code') return child;
      const classes: unknown = code.properties?.className;
      const langClass = Array.isArray(classes)
        ? classes.find((c) => typeof c === 'string' && c.startsWith('language-'))
        : undefined;
      const text = (code.children ?? []).map((c: AnyNode) => (c.type === 'text' ? c.value : '')).join('');
      const lang = typeof langClass === 'string' ? langClass.slice('language-'.length) : 'text';
      return highlightToHast(text, lang) ?? child;
    });
}

const withGfm = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkNeutralize)
  .use(remarkRehype)
  .use(rehypeSanitize, SANITIZE_SCHEMA)
  .use(rehypeWebLinksOnly)
  .use(rehypeHighlight)
  .use(rehypeStringify);

/** The same pipeline without GFM, for text that has none of its syntax (GFM's autolinks make parsing slow). */
const withoutGfm = unified()
  .use(remarkParse)
  .use(remarkNeutralize)
  .use(remarkRehype)
  .use(rehypeSanitize, SANITIZE_SCHEMA)
  .use(rehypeWebLinksOnly)
  .use(rehypeHighlight)
  .use(rehypeStringify);

/** Anything GFM would read differently: tables, strikethrough, task lists, footnotes, literal autolinks. */
const GFM_SYNTAX = /[|~@]|\[[ xX^]|www\.|:\/\//;

/**
 * Renders hostile markdown to sanitized HTML. Text longer than `MARKDOWN_LIMIT` is shown as escaped
 * preformatted text instead. Call `loadHighlighter()` first to get highlighted code.
 */
export function renderMarkdown(markdown: string): SafeHtml {
  return renderMarkdownWith(markdown, true);
}

/**
 * `renderMarkdown`, optionally without its fast paths (markdown-it, pieces, no GFM), for tests comparing both.
 * Nothing is remembered: a report renders each text once.
 */
export function renderMarkdownWith(markdown: string, fastPath: boolean): SafeHtml {
  const text = wellFormed(markdown);
  if (text.length > MARKDOWN_LIMIT) return clipped(text);
  return fastPath ? trusted(renderFast(text)) : renderSlow(text, false);
}

/**
 * The text by the fast paths when one takes it whole, else cut in pieces: each piece by a fast path, the runs of
 * pieces neither takes by the full pipeline at once.
 */
function renderFast(text: string): string {
  const fast = renderWithMarkdownIt(text);
  if (fast !== undefined) return fast;
  const pieces = markdownPieces(text);
  if (pieces.length === 1) return renderSlow(text, true).value;
  const html: string[] = [];
  let slow: string[] = [];
  const flush = () => {
    const out = slow.length > 0 ? renderSlow(slow.join('\n'), true).value : '';
    if (out !== '') html.push(out);
    slow = [];
  };
  for (const piece of pieces) {
    const out = renderWithMarkdownIt(piece);
    if (out === undefined) slow.push(piece);
    else {
      flush();
      if (out !== '') html.push(out);
    }
  }
  flush();
  return html.join('\n');
}

function clipped(text: string): SafeHtml {
  const { head } = clip(text, MARKDOWN_LIMIT);
  return trusted(
    `<pre class="plain">${escapeHtml(head)}</pre><p class="cut">… ${text.length - head.length} more characters not shown.</p>`,
  );
}

function renderSlow(text: string, fastPath: boolean): SafeHtml {
  const processor = !fastPath || GFM_SYNTAX.test(text) ? withGfm : withoutGfm;
  const tree = processor.runSync(processor.parse(text));
  return trusted(processor.stringify(tree));
}
