import { plural, when } from '../html/format.js';
import { html, type SafeHtml } from '../html/html.js';
import type { Entry, Session } from '../model.js';
import { branchAnchor } from '../site/branch-places.js';
import type { TranscriptLinks } from './render.js';
import { renderTranscript } from './render-card.js';
import { transcriptContext } from './transcript.js';

/**
 * The transcript of a page of alternatives (`site/branch-places.ts`): the short abandoned branches on it, in
 * order, each under a heading with its anchor, how long it is, and a link back to where it left the
 * conversation.
 *
 * @param session The loaded session.
 * @param indices The branches on the page (positions in `Session.branches`).
 * @param entriesOf The entries a branch shows.
 * @param forkHref The link to a branch's fork point, or null when its entry is not shown.
 * @param links The transcript's links.
 */
export function renderAlternatives(
  session: Session,
  indices: readonly number[],
  entriesOf: (index: number) => Entry[],
  forkHref: (index: number) => string | null,
  links: TranscriptLinks,
): SafeHtml {
  return html`${indices.map((i) => {
    const b = session.branches[i];
    const entries = entriesOf(i);
    const back = forkHref(i);
    const ctx = transcriptContext(session, entries);
    return html`<section class="alternative" id="${branchAnchor(i)}" aria-label="Abandoned branch ${i + 1}">
<h2>Abandoned branch ${i + 1}</h2>
<p class="muted small">${plural(entries.length, 'entry', 'entries')}, started ${when(b?.startedAt ?? null)}.${back ? html` <a class="fork-point" href="${back}">← Back to where it left the conversation</a>.` : ''}</p>
${renderTranscript(entries, ctx, links)}
</section>`;
  })}`;
}
