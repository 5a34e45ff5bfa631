import { neutralizeBidi } from '../views/html/bidi.js';
import type { Found } from './matcher.js';
import { type EntriesPart, type PageSearchItem, page, type SearchMeta } from './report-window.js';
import type { Matcher } from './search-match.js';

/**
 * The search page's search inside transcripts: the files of the transcript index (`_cctrail/search/`, see the
 * report's `build/search-files.ts`) that a query needs, each a classic script (so it loads from `file://`):
 * the term files holding the query's words (`t<n>.js`, found by the first term of each file), then the entry
 * files of the results shown (`<name>-<n>.js`, a session's entries).
 */

/** Results shown at once. */
export const SHOWN = 20;
/** Characters of an entry's text shown under a result, around the first word found. */
const SNIPPET = 140;
/** The site's root, from the search page. */
const PREFIX = '../';

/** The search page's elements and data that the transcript search uses. */
export interface TranscriptSearchPage {
  matcher: Matcher;
  meta: SearchMeta | null;
  /** Sessions by the link of their page. */
  sessions: Map<string, PageSearchItem>;
  hits: HTMLElement;
  status: HTMLElement;
}

/** Loads files of the index: each a script calling back with its text; one load per file, shared. */
class IndexFiles {
  /** Files requested since the count was last reset. */
  loads = 0;
  private readonly loaded = new Map<string, Promise<unknown>>();
  private readonly arrived = new Map<string, (value: unknown) => void>();

  constructor() {
    page.CCTRAIL_SEARCH_TERMS = (n, text) => this.arrive(`t${n}`, `,${text},`);
    page.CCTRAIL_SEARCH_DOCS = (name, text) => this.arrive(name, JSON.parse(text));
  }

  private arrive(name: string, value: unknown): void {
    this.arrived.get(name)?.(value);
  }

  /** A term file's text (`t<n>`), or null when it could not be loaded. */
  terms(name: string): Promise<string | null> {
    return this.load(name) as Promise<string | null>;
  }

  /** A file of entries (`<name>-<n>`), or null when it could not be loaded. */
  entries(name: string): Promise<EntriesPart | null> {
    return this.load(name) as Promise<EntriesPart | null>;
  }

  private load(name: string): Promise<unknown> {
    let loading = this.loaded.get(name);
    if (!loading) {
      loading = new Promise((resolve) => {
        this.arrived.set(name, resolve);
        const s = document.createElement('script');
        s.src = `${PREFIX}_cctrail/search/${name}.js`;
        s.onerror = () => resolve(null);
        this.loads++;
        document.body.appendChild(s);
      });
      this.loaded.set(name, loading);
    }
    return loading;
  }
}

/** The transcript search of a search page: a function searching for a query's text (`started`: its time). */
export function transcriptSearch(p: TranscriptSearchPage): (text: string, started: number) => void {
  const { matcher: M, hits, status } = p;
  const files = new IndexFiles();
  /* The query's words, as the results shown were found. */
  let shownWords: string[] = [];
  let generation = 0;
  let more: HTMLButtonElement | null = null;

  /* A result: [session (in the file's list), page (in the session's), anchor, "who: first words"]. Its link
     carries the words (`?q=`), which the page marks in the entry (app.js). */
  function addHit(part: EntriesPart, entry: EntriesPart['d'][number]): void {
    const s = part.s[entry[0]];
    if (!s) return;
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `${PREFIX}${s[1][entry[1]]}?q=${encodeURIComponent(shownWords.join(' '))}#${entry[2]}`;
    const label = entry[3];
    const colon = label.indexOf(': ');
    const who = colon < 0 ? '' : label.slice(0, colon + 2);
    a.textContent = neutralizeBidi(who);
    for (const [text, found] of M.marked(
      M.snippet(label.slice(who.length), shownWords, SNIPPET),
      shownWords,
    )) {
      const node = found ? document.createElement('mark') : document.createTextNode(text);
      if (found) node.textContent = text;
      a.appendChild(node);
    }
    const m = document.createElement('div');
    m.className = 'muted small';
    const it = p.sessions.get(s[0]);
    m.textContent = it ? neutralizeBidi(`${it.t} · ${it.p}${it.d ? ` · ${it.d.slice(0, 10)}` : ''}`) : '';
    li.appendChild(a);
    li.appendChild(m);
    hits.appendChild(li);
  }

  /* Shows results (entries, in order) once their entry files are there: the first result's file alone, then
     the others, as from file:// chromium hands over scripts loaded together all at once (BENCHMARKS.md).
     Returns when the first result's file is there (`first`) and when all are (`all`). */
  function show(meta: SearchMeta, docs: number[], from: number, mine: number, started: number) {
    const where = docs.map((d) => M.entryPlace(meta, d));
    const names: string[] = [];
    for (const [name] of where) if (!names.includes(name)) names.push(name);
    const parts = new Map<string, EntriesPart | null>();
    let next = 0;
    const flush = () => {
      if (mine !== generation) return;
      while (next < docs.length) {
        const [name, at] = where[next] as [string, number];
        if (!parts.has(name)) return;
        const entry = parts.get(name)?.d[at];
        if (entry) addHit(parts.get(name) as EntriesPart, entry);
        next++;
        if (from === 0 && next === 1)
          hits.setAttribute('data-first-ms', String(Math.round(performance.now() - started)));
      }
    };
    const take = (name: string) =>
      files.entries(name).then((part) => {
        parts.set(name, part);
        flush();
      });
    const first = names[0] === undefined ? Promise.resolve() : take(names[0]);
    const all = first.then(() => (mine === generation ? Promise.all(names.slice(1).map(take)) : null));
    return { first, all };
  }

  /* A button for the results after the first `from` of a match, if there are more. */
  function offerMore(meta: SearchMeta, found: Found, from: number, mine: number): void {
    more?.remove();
    more = null;
    const left = found.docs.length - from;
    if (left <= 0 || mine !== generation) return;
    more = document.createElement('button');
    more.type = 'button';
    more.className = 'search-more';
    more.textContent = `Show ${Math.min(SHOWN, left)} more`;
    more.addEventListener('click', () =>
      show(meta, M.ranked(found, from, from + SHOWN), from, mine, performance.now()).all.then(() =>
        offerMore(meta, found, from + SHOWN, mine),
      ),
    );
    hits.parentNode?.appendChild(more);
  }

  return (text, started) => {
    const mine = ++generation;
    hits.textContent = '';
    hits.removeAttribute('data-first-ms');
    status.removeAttribute('data-ms');
    more?.remove();
    more = null;
    const words = M.queryWords(text);
    shownWords = words;
    const meta = p.meta;
    if (!meta || words.length === 0) {
      status.textContent = meta ? 'Type to search inside every transcript.' : '';
      return;
    }
    status.textContent = 'Searching the transcripts…';
    files.loads = 0;
    const ranges = words.map((w) => M.fileRange(meta.t, w));
    Promise.all(ranges.map((r) => Promise.all(r.map((n) => files.terms(`t${n}`)))))
      .then((termFiles) => {
        if (mine !== generation) return;
        const terms = performance.now();
        const lists = words.map((w, i) => M.termLists(termFiles[i] ?? [], w));
        // One word: its best entries come from the heads of its lists (best first), and the others are
        // counted once the first is on screen, while the other results' files load; more words: the entries
        // with all of them, then the best.
        let found = lists.length === 1 ? null : M.match(lists, meta.n);
        const first = found ? M.ranked(found, 0, SHOWN) : M.best(lists[0] ?? [], meta.n, SHOWN);
        const match = Math.round(performance.now() - terms);
        hits.setAttribute('data-phases', `terms ${Math.round(terms - started)} ms, match ${match} ms`);
        status.textContent =
          found || first.length < SHOWN
            ? counted(found ? found.docs.length : first.length)
            : `Best ${SHOWN} first, counting the others…`;
        const shown = show(meta, first, 0, mine, started);
        return shown.first
          .then(() => {
            if (mine !== generation) return;
            found ??= M.match(lists, meta.n);
            status.textContent = counted(found.docs.length);
            return shown.all;
          })
          .then(() => {
            if (mine !== generation || !found) return;
            hits.setAttribute('data-loads', String(files.loads));
            offerMore(meta, found, SHOWN, mine);
            status.setAttribute('data-ms', String(Math.round(performance.now() - started)));
          });
      })
      .catch(() => {
        if (mine === generation) status.textContent = 'The transcript index could not be loaded.';
      });
  };
}

/* What the count counts: entries (a message, a tool call, a tool's result), several of which a page shows. */
const counted = (count: number): string =>
  `${count}${count === 1 ? ' entry' : ' entries'} in transcripts${count > SHOWN ? `, best ${SHOWN} first` : ''}.`;
