import { activeEntries } from '@cctrail/core';
import { entryAnchor, pageHref, sessionRoute, sidechainRoute } from '../views/html/links.js';
import { loadHighlighter } from '../views/markdown/highlight.js';
import type { Entry, Session } from '../views/model.js';
import { isResultOnly, transcriptCards } from '../views/transcript/cards.js';
import type { TranscriptLinks } from '../views/transcript/render.js';
import { renderTranscript } from '../views/transcript/render-card.js';
import { isFoldedResult, transcriptContext } from '../views/transcript/transcript.js';
import { slugify } from './slugs.js';

/**
 * The report's transcript renderer for entries appended to a running session (`cctrail serve`, `report
 * --watch`): a window of a transcript's last lines, built as a session of its own, drawn as its transcript page
 * draws them (cards, markdown, tool cards, escaping, bidi marks), so that the page shown live equals the page a
 * rebuild writes. The window starts at a card's first entry; what a window cannot draw as its page would (a
 * result whose call is before the window) is told, and the caller rebuilds the session instead.
 */

/** Which transcript of its session a window's file is. */
export type LiveScope = 'main' | 'agent';

/** Where a window is drawn, and from which card. */
export interface LiveOptions {
  /** The uuid of the entry to draw from (a card's first entry); the window's first card by default. */
  from?: string;
  /** The page's route (`s/<project>/<session>/…/`) and its session's slugs: links are made relative to it. */
  page?: { route: string; project: string; session: string };
}

/** A window drawn. */
export interface LiveTranscript {
  /** The transcript's HTML from the first card on, as the inside of the page's `<div class="transcript">` ends. */
  html: string;
  /** Each card's first entry, in order: its uuid, and the element id the page gives it. */
  cards: { uuid: string; anchor: string }[];
}

/** Loads what the renderer needs once (the code highlighter); call before `renderLiveTranscript`. */
export async function loadLiveRenderer(): Promise<void> {
  await loadHighlighter();
}

/** The entries a window's transcript page shows: the main chain, or the agent's (one sidechain). */
function shownEntries(session: Session, scope: LiveScope): Entry[] {
  return scope === 'main' ? activeEntries(session) : session.entries.filter((e) => e.sidechain !== null);
}

/**
 * Links of a window, as its page makes them: a sidechain's page by its id's slug (a window has only the
 * sidechains its own lines tell of: a spawn whose agent file is read differs from its page's, and is told by the
 * caller's check). A window cannot tell where a branch is shown (its own page or a page of alternatives, by its
 * place among all the session's branches): a branch point links to the session's list of branches until the
 * session is rebuilt.
 */
function windowLinks(page: LiveOptions['page']): TranscriptLinks {
  if (!page) return { sidechain: () => null, branch: () => '#' };
  return {
    sidechain: (id) => pageHref(page.route, sidechainRoute(page.project, page.session, slugify(id))),
    branch: () => pageHref(page.route, sessionRoute(page.project, page.session), 'branches'),
  };
}

/**
 * Draws a window of a transcript.
 *
 * @param session The window's lines built as a session (its agent file as the session's only agent file, for
 *   an agent), privacy options applied as for the archive.
 * @param scope Whether the file is a session's main transcript or an agent's.
 * @param options The card to draw from, and the page drawn for.
 * @returns The HTML and its cards, or null when the window cannot draw its entries as their page does: a tool
 *   result whose call is outside the window, or `from` not a card's first entry.
 */
export function renderLiveTranscript(
  session: Session,
  scope: LiveScope,
  options: LiveOptions = {},
): LiveTranscript | null {
  const { from } = options;
  const entries = shownEntries(session, scope);
  const ctx = transcriptContext(session, entries);
  const folded = (e: Entry) => isFoldedResult(e, ctx);
  // A card's first entry in the whole window: the window's cards are its page's from the first one on.
  const leads = transcriptCards(entries, folded).map((c) => c.entries[0]?.uuid ?? '');
  const first = from === undefined ? 0 : leads.indexOf(from);
  if (first < 0) return null;
  const start = entries.findIndex((e) => e.uuid === leads[first]);
  const shown = entries.slice(Math.max(0, start));
  if (shown.some((e) => isResultOnly(e) && !folded(e))) return null;
  const html = renderTranscript(shown, ctx, windowLinks(options.page)).value;
  return {
    html: html.slice('<div class="transcript">'.length, -'</div>'.length),
    cards: leads.slice(first).map((uuid) => ({ uuid, anchor: entryAnchor(uuid) })),
  };
}
