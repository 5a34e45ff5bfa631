/**
 * What `cctrail serve` changes in a page it serves: the live script, loaded from the server, before the end of
 * the body, and `connect-src 'self'` in the page's Content-Security-Policy so the script may open the event
 * stream. The files on disk are not changed: a page opened from disk loads no script and connects nowhere.
 */

import { LIVE_SCRIPT_PATH, TAIL_ID } from './live-script.js';

const TAG = `<script src="${LIVE_SCRIPT_PATH}"></script>`;

/**
 * Adds the live script to a page's HTML, and the notes on lines appended to its session since it was built.
 *
 * @param html The page as built.
 * @param tail Notes on appended lines that are not records (rendered and escaped by `tailEntries`), added at the
 *   end of the page's main content.
 * @returns The page as `cctrail serve` serves it.
 */
export function injectLive(html: string, tail = ''): string {
  const withTail = addNotes(html, tail);
  const csp = withTail.replace(
    /(<meta\s+http-equiv=["']?Content-Security-Policy["']?\s+content=")([^"]*)(")/i,
    (_all, open: string, policy: string, close: string) => `${open}${allowSelfConnect(policy)}${close}`,
  );
  const end = csp.lastIndexOf('</body>');
  return end < 0 ? `${csp}${TAG}` : `${csp.slice(0, end)}${TAG}${csp.slice(end)}`;
}

/** A policy whose `connect-src` allows 'self' (added when the policy has none, since `default-src` may deny it). */
function allowSelfConnect(policy: string): string {
  const directives = policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d.length > 0);
  const others = directives.filter((d) => !/^connect-src(\s|$)/i.test(d));
  return [...others, "connect-src 'self'"].join('; ');
}

/**
 * Adds the notes on lines appended to a page's session at the end of its main content (`injectLive` does it too;
 * a page the live script was added to already gets its notes alike).
 *
 * @param html A page.
 * @param tail The notes' HTML (empty: the page as it is).
 */
export function addNotes(html: string, tail: string): string {
  if (tail === '') return html;
  const block = `<section class="section" id="${TAIL_ID}" aria-label="Notes on new lines">${tail}</section>`;
  const end = html.lastIndexOf('</main>');
  return end < 0 ? html : `${html.slice(0, end)}${block}${html.slice(end)}`;
}
