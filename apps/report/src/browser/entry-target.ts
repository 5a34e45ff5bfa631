import { queryTerms } from '../views/search/search-text.js';
import { wordsFound } from './snippets.js';

/** Opens every `<details>` around an element, so that it is in view. */
function openAround(el: Element): void {
  for (let d = el.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true;
}

/**
 * A link to an entry (`#e-…`) opens what hides it (a collapsed tool call, "show all", a quiet entry), so the
 * place a search result names is in view; on arrival and on each change of the address's anchor.
 */
export function revealTargets(): void {
  const reveal = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    const el = id ? document.getElementById(id) : null;
    if (!el) return;
    openAround(el);
    if (el instanceof HTMLDetailsElement) el.open = true;
    el.classList.add('is-target');
    el.scrollIntoView({ block: 'start' });
  };
  window.addEventListener('hashchange', reveal);
  if (location.hash.length > 1) reveal();
}

/**
 * Arriving from a search result (`?q=words#e-…`): the words are marked in the entry (for a tool's result
 * folded into its call's card, in that card), and the first one is opened and scrolled into view. Words are
 * found as on the search page (`search-match.js`): a word, or for 3 characters or more, a word's start.
 */
export function markFound(): void {
  const query = /[?&]q=([^&]*)/.exec(location.search);
  let target: HTMLElement | null = null;
  let terms: string[] = [];
  try {
    target = query ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    terms = query ? queryTerms(decodeURIComponent((query[1] as string).replace(/\+/g, ' '))) : [];
  } catch {
    return; // a bad escape
  }
  if (!target || terms.length === 0) return;
  const scope = target.classList.contains('anchor-only') ? (target.closest('.entry') ?? target) : target;
  const walk = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode())
    if (!n.parentElement?.closest('svg')) texts.push(n as Text);
  // The page goes to the first place of the word found least (the one the query is most about).
  const found: HTMLElement[][] = terms.map(() => []);
  for (const node of texts) {
    const text = node.nodeValue ?? '';
    const pieces = document.createDocumentFragment();
    let at = 0;
    for (const [start, end, k] of wordsFound(text, terms)) {
      pieces.appendChild(document.createTextNode(text.slice(at, start)));
      const mark = document.createElement('mark');
      mark.className = 'found';
      mark.textContent = text.slice(start, end);
      pieces.appendChild(mark);
      found[k]?.push(mark);
      at = end;
    }
    if (at === 0) continue;
    pieces.appendChild(document.createTextNode(text.slice(at)));
    node.parentNode?.replaceChild(pieces, node);
  }
  const least = found.filter((marks) => marks.length > 0).sort((a, b) => a.length - b.length)[0];
  const first = least?.[0];
  if (!first) return;
  openAround(first);
  const show = () => first.scrollIntoView({ block: 'center' });
  show();
  // The browser scrolls to the anchor itself once the page has loaded: the word again after it.
  if (document.readyState !== 'complete') window.addEventListener('load', show, { once: true });
}
