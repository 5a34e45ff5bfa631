import { html, type SafeHtml } from '../html/html.js';
import type { Entry } from '../model.js';
import { commandParts } from './command-text.js';

/**
 * The outline of a session: every prompt of the conversation as it ended, numbered, with its time and a link
 * to its place in the transcript (the index claude-code-transcripts puts before a transcript). Slash commands
 * are listed as commands; injected text (meta lines) is not a prompt.
 */

/** Characters of a prompt shown in the outline. */
const PROMPT_CHARS = 140;
/** Outlines with more prompts start folded. */
const OPEN_UP_TO = 25;

/** One prompt of the outline. */
export interface OutlinePrompt {
  text: string;
  timestamp: string | null;
  href: string | null;
}

/** The prompts of the active path (entries of the main conversation, in order). */
export function outlinePrompts(
  active: readonly Entry[],
  hrefOf: (e: Entry) => string | null,
): OutlinePrompt[] {
  const out: OutlinePrompt[] = [];
  for (const e of active) {
    if (e.actor !== 'human' || e.isMeta || (e.kind !== 'prompt' && e.kind !== 'command')) continue;
    const text = e.content
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join(' ')
      .trim();
    if (text === '') continue;
    const parts = commandParts(text);
    const name = parts?.get('command-name');
    if (parts && name === undefined) continue;
    const shown = name !== undefined ? `${name} ${(parts?.get('command-args') ?? '').trim()}`.trim() : text;
    const line = shown.replace(/\s+/g, ' ');
    out.push({
      text: line.length > PROMPT_CHARS ? `${line.slice(0, PROMPT_CHARS - 1)}…` : line,
      timestamp: e.timestamp,
      href: hrefOf(e),
    });
  }
  return out;
}

/** The outline as HTML (nothing for a session without prompts). */
export function renderOutline(prompts: readonly OutlinePrompt[]): SafeHtml {
  if (prompts.length === 0) return html``;
  return html`<nav class="outline" aria-label="Prompts"><details${prompts.length <= OPEN_UP_TO ? html` open` : ''}><summary>Prompts (${prompts.length})</summary><ol>${prompts.map(
    (p) =>
      html`<li>${p.href ? html`<a href="${p.href}">${p.text}</a>` : p.text}${p.timestamp ? html` <time class="muted small" datetime="${p.timestamp}">${p.timestamp.slice(11, 16)}</time>` : ''}</li>`,
  )}</ol></details></nav>`;
}
