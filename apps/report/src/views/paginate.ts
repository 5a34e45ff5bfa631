/** Splitting long transcripts into pages. */

/** Entries per transcript page. */
export const PAGE_SIZE = 200;

/** One page: its 1-based number and the half-open range of items it shows. */
export interface Page {
  number: number;
  start: number;
  end: number;
}

/** Splits `total` items into pages of `size` (at least one page, even when empty). */
export function paginate(total: number, size = PAGE_SIZE): Page[] {
  const count = Math.max(1, Math.ceil(total / size));
  const pages: Page[] = [];
  for (let i = 0; i < count; i++)
    pages.push({ number: i + 1, start: i * size, end: Math.min(total, (i + 1) * size) });
  return pages;
}

/** 1-based page number holding item `index`. */
export function pageOf(index: number, size = PAGE_SIZE): number {
  return Math.floor(Math.max(0, index) / size) + 1;
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
