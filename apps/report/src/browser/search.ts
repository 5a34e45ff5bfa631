import { neutralizeBidi } from '../views/html/bidi.js';
import { type PageSearchItem, page } from './report-window.js';
import { SHOWN, transcriptSearch } from './transcript-search.js';

/**
 * The page script `_cctrail/search.js` of the search page: sessions and sub-agents by title, first prompt or
 * agent from `search-index.js` at once, then the words of every transcript (`transcript-search.ts`), found and
 * ranked by `search-match.js` (`window.CCTRAIL_MATCH`). No network: every file is a classic script.
 */
function searchPage(): void {
  const q = document.getElementById('q') as HTMLInputElement | null;
  const results = document.getElementById('search-results');
  const status = document.getElementById('search-status');
  const hits = document.getElementById('search-hits');
  const hitStatus = document.getElementById('search-hits-status');
  const items = page.CCTRAIL_SEARCH;
  const matcher = page.CCTRAIL_MATCH;
  if (!q || !results || !items || !matcher) return;
  q.form?.addEventListener('submit', (e) => {
    e.preventDefault();
  });
  const sessions = new Map<string, PageSearchItem>();
  for (const it of items) if (it.k === 'session') sessions.set(it.u, it);
  const meta = page.CCTRAIL_SEARCH_FILES || null;
  const searchTranscripts =
    hits && hitStatus ? transcriptSearch({ matcher, meta, sessions, hits, status: hitStatus }) : null;

  /* Sessions and sub-agents `from` … `from + SHOWN` of those found by title, prompt or agent, then a button
     for the next ones (a few items to lay out, so the transcript search is not held up behind them). */
  let moreTitles: HTMLButtonElement | null = null;
  function showTitles(found: PageSearchItem[], from: number, into: HTMLElement): void {
    moreTitles?.remove();
    moreTitles = null;
    const list = document.createDocumentFragment();
    for (const it of found.slice(from, from + SHOWN)) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `../${it.u}`;
      // Text nodes show bidirectional control characters as they are: shown as marks, as on the pages.
      a.textContent = neutralizeBidi(it.t);
      const m = document.createElement('div');
      m.className = 'muted small';
      m.textContent = neutralizeBidi(
        `${it.k === 'agent' ? 'sub-agent · ' : 'session · '}${it.p}${it.d ? ` · ${it.d.slice(0, 10)}` : ''}`,
      );
      li.appendChild(a);
      li.appendChild(m);
      list.appendChild(li);
    }
    into.appendChild(list);
    const left = found.length - from - SHOWN;
    if (left > 0) {
      moreTitles = document.createElement('button');
      moreTitles.type = 'button';
      moreTitles.className = 'search-more';
      moreTitles.textContent = `Show ${Math.min(SHOWN, left)} more`;
      moreTitles.addEventListener('click', () => showTitles(found, from + SHOWN, into));
      into.parentNode?.appendChild(moreTitles);
    }
  }

  /* An item's text in lower case, as its words are matched; made for all once the page is idle. */
  const haystack = (it: PageSearchItem): string => {
    it.h ??= `${it.t} ${it.p} ${it.x}`.toLowerCase();
    return it.h;
  };
  const idle = window.requestIdleCallback ?? setTimeout;
  idle(() => items.forEach(haystack));

  let timer = 0;
  function run(input: HTMLInputElement, into: HTMLElement, delay: number): void {
    const started = performance.now();
    const terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    into.textContent = '';
    moreTitles?.remove();
    moreTitles = null;
    if (terms.length === 0) {
      if (status) status.textContent = `${items?.length} sessions and sub-agent runs. Type to search.`;
    } else {
      const found = (items ?? []).filter((it) => terms.every((t) => haystack(it).includes(t)));
      const s = found.length === 1 ? '' : 's';
      if (status)
        status.textContent = `${found.length} session${s} or sub-agent${s} by title, prompt or agent${found.length > SHOWN ? `, first ${SHOWN} shown` : ''}`;
      showTitles(found, 0, into);
    }
    if (searchTranscripts) {
      clearTimeout(timer);
      timer = window.setTimeout(() => searchTranscripts(input.value, started), delay);
    }
  }
  q.addEventListener('input', () => run(q, results, 50));
  const m = /[?&]q=([^&]*)/.exec(location.search);
  if (m) {
    try {
      q.value = decodeURIComponent((m[1] as string).replace(/\+/g, ' '));
    } catch {
      // a bad escape: no query
    }
  }
  run(q, results, 0);
}

searchPage();
