/**
 * The entries appended to a running session as `cctrail serve` shows them before the session's pages are built
 * again: each appended line is parsed, redacted by the report's privacy transform, and rendered as a transcript
 * entry in the report's own markup (`article.entry`), everything escaped. Only what a transcript shows is drawn
 * (prompts, answers, tool calls and results); the other records wait for the session's rebuild. A line that is
 * not a record becomes a visible note with its file and line. What cannot be shown as an append (a rewind that
 * forks, a compaction) is told to the caller, which rebuilds the session.
 */

import type { Line } from '@cctrail/core';
import type { Transform } from '../privacy/transform.js';

/** One appended entry, rendered. */
export interface TailItem {
  /** The element id the report gives the entry (`e-<uuid>`), or a line's for a note. */
  id: string;
  /** The entry's HTML. */
  html: string;
  /** Byte offset of its line in the file. */
  offset: number;
}

/** What a batch of appended lines gave. */
export interface TailBatch {
  items: TailItem[];
  /** Set when the lines change more than the end of the transcript: the session must be rebuilt. */
  rebuild?: 'fork' | 'compaction';
  /** The uuid of the last record seen (the parent the next append should name). */
  last: string | null;
}

/** Characters of one text shown in a live entry; the rebuilt page shows all of it. */
const TEXT_LIMIT = 6000;

/**
 * Renders appended lines.
 *
 * @param lines Whole lines, as `readOn` gives them.
 * @param context The file (for notes), the privacy transform, and the uuid of the record before the lines.
 */
export function tailEntries(
  lines: readonly Line[],
  context: { file: string; privacy: Transform; last: string | null; agent: boolean },
): TailBatch {
  const items: TailItem[] = [];
  let last = context.last;
  let rebuild: TailBatch['rebuild'];
  for (const line of lines) {
    if (line.text.trim() === '') continue;
    let record: unknown;
    try {
      record = line.oversize ? undefined : JSON.parse(line.text);
    } catch {
      record = undefined;
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      items.push(
        note(line, context.file, line.oversize ? 'is too long to show live' : 'is not a JSON record'),
      );
      continue;
    }
    const r = record as Record<string, unknown>;
    const uuid = typeof r.uuid === 'string' ? r.uuid : null;
    if (uuid === null) continue;
    const parent = typeof r.parentUuid === 'string' ? r.parentUuid : null;
    if (r.type === 'system' && r.subtype === 'compact_boundary') rebuild ??= 'compaction';
    else if (last !== null && parent !== null && parent !== last) rebuild ??= 'fork';
    last = uuid;
    if ((r.type !== 'user' && r.type !== 'assistant') || (r.isSidechain === true && !context.agent)) continue;
    const html = renderEntry(context.privacy(r), uuid);
    if (html !== null) items.push({ id: `e-${uuid}`, html, offset: line.offset });
  }
  return { items, last, ...(rebuild ? { rebuild } : {}) };
}

function note(line: Line, file: string, what: string): TailItem {
  const id = `live-line-${line.number}`;
  const html = `<p class="diag diag--warning" id="${attr(id)}">${esc(file)}:${line.number} ${esc(what)}; it is checked when the session is rebuilt.</p>`;
  return { id, html, offset: line.offset };
}

/** An entry as the report draws it, or null when it has nothing to show. */
function renderEntry(r: Record<string, unknown>, uuid: string): string | null {
  const message = (r.message ?? {}) as Record<string, unknown>;
  const blocks = contentBlocks(message.content);
  const body = blocks.map(renderBlock).filter((b) => b !== '');
  if (body.length === 0) return null;
  const results = blocks.length > 0 && blocks.every((b) => b.type === 'tool_result');
  const who = r.type === 'assistant' ? 'Claude' : results ? 'Tool result' : 'You';
  const kind = r.type === 'assistant' ? 'claude' : results ? 'tool' : 'human';
  const model =
    typeof message.model === 'string' ? ` <span class="muted model">${esc(message.model)}</span>` : '';
  const at = typeof r.timestamp === 'string' ? r.timestamp : '';
  const time = at ? ` <time datetime="${attr(at)}">${esc(at.replace('T', ' ').slice(0, 19))}</time>` : '';
  const id = attr(`e-${uuid}`);
  return (
    `<article class="entry entry--${kind} entry--live" id="${id}">\n` +
    `<header class="entry__head"><span class="who">${who}</span>${model}${time} <span class="muted small">live</span> ` +
    `<a class="permalink" href="#${id}" aria-label="Link to this entry">#</a></header>\n` +
    `<div class="entry__body">${body.join('\n')}</div>\n</article>`
  );
}

interface Block {
  type: string;
  [key: string]: unknown;
}

function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((b): b is Block => b !== null && typeof b === 'object' && typeof b.type === 'string');
}

function renderBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' && block.text.trim() !== ''
        ? `<div class="md">${paragraphs(block.text)}</div>`
        : '';
    case 'thinking':
      return typeof block.thinking === 'string' && block.thinking !== ''
        ? `<details class="tool__call"><summary><span class="tool__name">Thinking</span></summary><pre class="out">${esc(cut(block.thinking))}</pre></details>`
        : '';
    case 'tool_use': {
      const name = typeof block.name === 'string' ? block.name : 'tool';
      const input = JSON.stringify(block.input ?? {}, null, 2) ?? '';
      return `<div class="tool"><details class="tool__call"><summary><span class="tool__name">${esc(name)}</span></summary><pre class="code">${esc(cut(input))}</pre></details></div>`;
    }
    case 'tool_result': {
      const text = resultText(block.content);
      const error = block.is_error === true ? ' tool__result--error' : '';
      return `<div class="tool__result${error}"><pre class="out">${esc(cut(text))}</pre></div>`;
    }
    default:
      return '';
  }
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return contentBlocks(content)
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${b.type}]`))
    .join('\n');
}

function paragraphs(text: string): string {
  return cut(text)
    .split(/\n{2,}/)
    .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

function cut(text: string): string {
  return text.length <= TEXT_LIMIT
    ? text
    : `${text.slice(0, TEXT_LIMIT)}… (shown whole once the page is rebuilt)`;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function attr(text: string): string {
  return esc(text);
}
