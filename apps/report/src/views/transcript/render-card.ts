import { html, type SafeHtml, trusted } from '../html/html.js';
import { entryAnchor } from '../html/links.js';
import type { Entry } from '../model.js';
import { type Card, isQuiet, transcriptCards } from './cards.js';
import {
  entryHead,
  forkNote,
  renderBlocks,
  renderCompaction,
  renderQuiet,
  type TranscriptLinks,
} from './render.js';
import { isFoldedResult, type TranscriptContext } from './transcript.js';

/**
 * A transcript as cards (`cards.ts`): one card per message as a reader sees it. The records a card holds
 * besides its message (progress, hooks, system lines) are counted in one fold-out inside it; the lines of a
 * split API response are one body; every entry keeps its anchor.
 */

/** What a quiet record is called in a card's fold-out. */
function quietName(e: Entry): string {
  if (e.subtype && /hook/i.test(e.subtype)) return 'hook';
  if (e.kind === 'meta') return 'injected';
  return e.kind;
}

/** "3 records: 2 progress, 1 hook", then each record folded. */
function foldOut(quiet: readonly Entry[], ctx: TranscriptContext, links: TranscriptLinks): SafeHtml {
  if (quiet.length === 0) return html``;
  const counts = new Map<string, number>();
  for (const e of quiet) counts.set(quietName(e), (counts.get(quietName(e)) ?? 0) + 1);
  const parts = [...counts].map(([name, n]) => `${n.toLocaleString('en-US')} ${name}`).join(', ');
  return html`<details class="records"><summary>${quiet.length === 1 ? '1 record' : `${quiet.length.toLocaleString('en-US')} records`}: ${parts}</summary>${quiet.map((e) => renderQuiet(e, ctx, links))}</details>`;
}

function renderCard(card: Card, ctx: TranscriptContext, links: TranscriptLinks): SafeHtml {
  const lead = card.lead >= 0 ? card.entries[card.lead] : undefined;
  const quiet = card.entries.filter(isQuiet);
  const forks = html`${card.entries.map((e) => forkNote(e, ctx, links))}`;
  // Entries shown in the body after the lead: later lines of its response, folded results, blank lines.
  const body = card.entries.map((e) => {
    if (e === lead || isQuiet(e)) return html``;
    const blank = e.content.every((b) => b.type === 'text' && b.text.trim() === '');
    return isFoldedResult(e, ctx) || blank
      ? html`<span class="anchor-only" id="${entryAnchor(e.uuid)}"></span>`
      : html`<div class="entry__part" id="${entryAnchor(e.uuid)}">${renderBlocks(e, ctx, links)}</div>`;
  });
  if (!lead)
    return html`<div class="entry entry--records">${body}${foldOut(quiet, ctx, links)}</div>${forks}`;
  if (lead.kind === 'compact-boundary' || lead.kind === 'microcompact-boundary')
    return html`${renderCompaction(lead, ctx)}${body}${foldOut(quiet, ctx, links)}${forks}`;
  return html`<article class="entry entry--${lead.actor}${lead.active ? '' : ' entry--abandoned'}" id="${entryAnchor(lead.uuid)}">
${entryHead(lead)}
<div class="entry__body">${renderBlocks(lead, ctx, links)}${body}</div>${foldOut(quiet, ctx, links)}
</article>${forks}`;
}

/**
 * Renders a list of entries as a transcript of cards, after `before` (HTML shown above it).
 *
 * The HTML is joined once, the wrapper and `before` included: a transcript is megabytes, and a string made of
 * parts is copied again, whole, the first time it is read (when its page's payloads are cut, when it is written).
 */
export function renderTranscript(
  entries: readonly Entry[],
  ctx: TranscriptContext,
  links: TranscriptLinks,
  before?: SafeHtml,
): SafeHtml {
  const cards = transcriptCards(entries, (e) => isFoldedResult(e, ctx));
  const parts = [before?.value ?? '', '<div class="transcript">'];
  for (const card of cards) parts.push(renderCard(card, ctx, links).value);
  parts.push('</div>');
  return trusted(parts.join(''));
}
