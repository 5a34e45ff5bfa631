/**
 * Which pages of a report a rebuild changed: a fingerprint of every HTML page (its URL path and a hash of its
 * bytes), compared with the one before. A page whose size and modification time are those of the last
 * fingerprint (the report kept it) is not read again; a page written again is hashed, since the same bytes may
 * be written anew (the index after a change that does not show on it). Also remembers when each page last
 * changed, for the pages that are "live" (their session is running).
 */

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A page's fingerprint. */
interface PagePrint {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** URL path → the page's fingerprint. */
type PagePrints = Map<string, PagePrint>;

/**
 * Fingerprints the HTML pages under a folder (hidden files and folders skipped).
 *
 * @param root The report folder.
 * @param before The fingerprints of the last time: pages with the same size and time are not read again.
 */
export function fingerprintPages(root: string, before: PagePrints = new Map()): PagePrints {
  const prints: PagePrints = new Map();
  const stack: string[] = [''];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile() && entry.name.endsWith('.html')) {
        const file = join(root, path);
        const url = urlPathOf(path);
        const { size, mtimeMs } = statSync(file);
        const last = before.get(url);
        if (last && last.size === size && last.mtimeMs === mtimeMs) prints.set(url, last);
        else
          prints.set(url, {
            size,
            mtimeMs,
            hash: createHash('sha1').update(readFileSync(file)).digest('hex'),
          });
      }
    }
  }
  return prints;
}

/** `s/app/1/index.html` → `/s/app/1/`; `404.html` → `/404.html` (not percent-encoded). */
function urlPathOf(path: string): string {
  const url = `/${path}`;
  return url.endsWith('/index.html') ? url.slice(0, -'index.html'.length) : url;
}

/**
 * The pages that are new or whose bytes differ.
 *
 * @param before The fingerprints before a rebuild.
 * @param after The fingerprints after it.
 */
export function changedPages(before: PagePrints, after: PagePrints): string[] {
  const changed: string[] = [];
  for (const [page, print] of after) if (before.get(page)?.hash !== print.hash) changed.push(page);
  return changed.sort();
}

/** When pages last changed while `cctrail serve` ran. */
export class PageActivity {
  private readonly last = new Map<string, number>();

  /**
   * @param window How long a page counts as live after its last change (ms).
   */
  constructor(private readonly window = 5 * 60_000) {}

  /**
   * Notes that pages changed.
   *
   * @param pages URL paths.
   * @param at When (ms since the epoch).
   */
  note(pages: readonly string[], at: number): void {
    for (const page of pages) this.last.set(page, at);
  }

  /**
   * The session pages that changed within the window before `now`, newest first. The report's index and
   * listings change with every session, so only pages under `/s/` count.
   *
   * @param now The time to look back from (ms since the epoch).
   */
  live(now: number): string[] {
    return [...this.last]
      .filter(([page, at]) => page.startsWith('/s/') && now - at <= this.window)
      .sort((a, b) => b[1] - a[1])
      .map(([page]) => page);
  }
}
