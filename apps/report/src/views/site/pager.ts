import { pageHref } from '../html/links.js';

/** A link of a pager; `href` null for the current page or a gap. */
export interface PagerLink {
  label: string;
  href: string | null;
  current: boolean;
}

/**
 * Links of a pager for `count` pages: the first, the last and two either side of the current one, with `…`
 * for gaps.
 *
 * @param from Route of the page the pager is on.
 * @param current Its page number (1-based).
 * @param count Number of pages.
 * @param routeOf Route of page n.
 */
export function pagerLinks(
  from: string,
  current: number,
  count: number,
  routeOf: (n: number) => string,
): PagerLink[] {
  if (count <= 1) return [];
  const out: PagerLink[] = [];
  for (let p = 1; p <= count; p++) {
    if (p === 1 || p === count || Math.abs(p - current) <= 2) {
      out.push({
        label: String(p),
        href: p === current ? null : pageHref(from, routeOf(p)),
        current: p === current,
      });
    } else if (out[out.length - 1]?.label !== '…') out.push({ label: '…', href: null, current: false });
  }
  return out;
}
