import type { Entry } from '../model.js';
import { isResultOnly, isTurnStart, startsCard } from './cards.js';

/**
 * Splitting long transcripts into pages cut between conversation turns, sized by cards (messages as a reader
 * sees them, `cards.ts`), not by records: progress and hook records weigh nothing. A turn longer than a page is
 * cut between two cards. Every module that needs an entry's page (routes, links, the site model) asks here.
 */

/** Most cards on a page. */
const CARDS_PER_PAGE = 150;
/** Most records on a page (cards with their folded records), so that a page stays light to open. */
const RECORDS_PER_PAGE = 1000;

/** One page: its 1-based number and the half-open range of entries it shows. */
export interface Page {
  number: number;
  start: number;
  end: number;
}

/** A mark of an entry that starts a card. */
const CARD = 1;
/** A mark of an entry that starts a conversation turn. */
const TURN = 2;

/**
 * What pagination reads of a transcript's entries, taken one entry after another: one byte per entry, so that a
 * transcript too large to hold (a million lines) is paginated from a pass over its entries.
 */
export class PageMarks {
  #marks = new Uint8Array(1024);
  #count = 0;
  #head: string | null = null;

  /** Marks the transcript's next entry. */
  add(e: Entry): void {
    const start = startsCard(e, this.#head, isResultOnly);
    if (start) this.#head = e.kind === 'assistant' ? (e.message?.id ?? null) : null;
    if (this.#count === this.#marks.length) {
      const more = new Uint8Array(this.#marks.length * 2);
      more.set(this.#marks);
      this.#marks = more;
    }
    this.#marks[this.#count++] = (start ? CARD : 0) | (isTurnStart(e) ? TURN : 0);
  }

  /** Entries marked. */
  get count(): number {
    return this.#count;
  }

  /** The pages of the entries marked (`transcriptPages`). */
  pages(size = CARDS_PER_PAGE): Page[] {
    const marks = this.#marks;
    const count = this.#count;
    // Cards in each turn, by the index where the turn starts (for the decision to open a page at a turn).
    const turnCards = new Map<number, number>();
    let turn = 0;
    for (let i = 0; i < count; i++) {
      if (marks[i]! & TURN) turn = i;
      if (marks[i]! & CARD) turnCards.set(turn, (turnCards.get(turn) ?? 0) + 1);
    }
    const pages: Page[] = [];
    let from = 0;
    let cards = 0;
    for (let i = 0; i < count; i++) {
      if (!(marks[i]! & CARD)) continue;
      const full = cards >= size || i - from >= RECORDS_PER_PAGE;
      const turnWontFit = (marks[i]! & TURN) !== 0 && cards > 0 && cards + (turnCards.get(i) ?? 0) > size;
      if (i > from && (full || turnWontFit)) {
        pages.push({ number: pages.length + 1, start: from, end: i });
        from = i;
        cards = 0;
      }
      cards++;
    }
    pages.push({ number: pages.length + 1, start: from, end: count });
    return pages;
  }
}

/**
 * The pages of a transcript (at least one, even when empty). Tool results count as folded into their call,
 * as they are shown when the call is on the page.
 *
 * @param entries The transcript's entries, in the order it shows them.
 * @param size Most cards on a page.
 */
export function transcriptPages(entries: readonly Entry[], size = CARDS_PER_PAGE): Page[] {
  const marks = new PageMarks();
  for (const e of entries) marks.add(e);
  return marks.pages(size);
}

/** The 1-based page holding entry `index` of a transcript cut into `pages`. */
export function pageAt(pages: readonly Page[], index: number): number {
  let lo = 0;
  let hi = pages.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pages[mid]!.start <= index) lo = mid;
    else hi = mid - 1;
  }
  return pages[lo]?.number ?? 1;
}

/** Page numbers to show in a pager around `current`: first, last, and neighbours, with 0 for a gap. */
export function pagerWindow(current: number, count: number, radius = 2): number[] {
  const out: number[] = [];
  for (let p = 1; p <= count; p++) {
    if (p === 1 || p === count || Math.abs(p - current) <= radius) out.push(p);
    else if (out[out.length - 1] !== 0) out.push(0);
  }
  return out;
}
