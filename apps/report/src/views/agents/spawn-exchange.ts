import { formatSize, html, type SafeHtml } from '../html/html.js';
import { renderMarkdown } from '../markdown/markdown.js';
import type { Entry, Session, Sidechain } from '../model.js';

/**
 * What the page of a sub-agent without its transcript shows instead: the prompt its spawning call sent and
 * the answer its result returned, both from the session's own entries (the call and its result).
 */

/** Longest prompt or answer shown in full; longer ones are cut with their size said. */
const SHOWN = 20_000;

function entryOf(session: Session, uuid: string | null | undefined): Entry | undefined {
  return uuid ? session.entries.find((e) => e.uuid === uuid) : undefined;
}

function promptOf(call: Entry | undefined, toolUseId: string): string | null {
  for (const b of call?.content ?? []) {
    if (b.type !== 'tool_use' || b.id !== toolUseId) continue;
    const prompt = (b.input as { prompt?: unknown } | null)?.prompt;
    return typeof prompt === 'string' && prompt.trim() !== '' ? prompt : null;
  }
  return null;
}

function answerOf(result: Entry | undefined, toolUseId: string): string | null {
  for (const b of result?.content ?? []) {
    if (b.type !== 'tool_result' || b.toolUseId !== toolUseId) continue;
    const text = b.content
      .flatMap((item) => (item.type === 'text' ? [item.text] : []))
      .join('\n\n')
      // The trailer Claude Code appends for Claude (`agentId: …`, `<usage>…</usage>`) is not the answer.
      .replace(/\n*agentId: [^\n]*(\n[\s\S]*)?$/, '')
      .trim();
    return text === '' ? null : text;
  }
  return null;
}

function shown(text: string): SafeHtml {
  if (text.length <= SHOWN) return renderMarkdown(text);
  return html`${renderMarkdown(text.slice(0, SHOWN))}<p class="muted">[cut: ${formatSize(text.length)} in all]</p>`;
}

/**
 * The prompt and the answer of a sidechain's spawn, or nothing when neither is in the session.
 *
 * @param session The loaded session.
 * @param sc The sidechain (its transcript missing).
 */
export function spawnExchange(session: Session, sc: Sidechain): SafeHtml {
  const id = sc.spawn?.toolUseId;
  if (!id) return html``;
  const call = session.tools.find((t) => t.id === id);
  const prompt = promptOf(entryOf(session, sc.spawn?.entryUuid), id);
  const answer = answerOf(entryOf(session, call?.resultUuid), id);
  if (prompt === null && answer === null) return html``;
  return html`<div class="transcript spawn-exchange">${prompt === null ? '' : html`<article class="entry entry--claude-as-user"><header class="entry__head"><span class="who">Prompt</span> <span class="muted">sent by the spawning call</span></header><div class="entry__body md">${shown(prompt)}</div></article>`}${answer === null ? '' : html`<article class="entry entry--subagent"><header class="entry__head"><span class="who">Answer</span> <span class="muted">returned in the call's result</span></header><div class="entry__body md">${shown(answer)}</div></article>`}</div>`;
}
