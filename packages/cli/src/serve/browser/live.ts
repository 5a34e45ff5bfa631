import { LIVE_EVENTS_PATH, LIVE_SCRIPT_PATH, TAIL_ID } from '../live-script.js';

/**
 * The script `cctrail serve` adds to the pages it serves (`live-script.ts` says what it does), compiled by the
 * package's build into a classic script, `dist/live/live.js` (`scripts/build-live.mjs`).
 */

/** What the server says of a change (`live-channel.ts`): the sessions live, and when. */
interface Change {
  live: string[];
  at: number;
}

/** Lines appended to a session: its page, and the id of the first card drawn anew (none: the notes only). */
interface Appended extends Change {
  page: string;
  from: string | null;
}

/** A rebuild: the pages it changed. */
interface Rebuilt extends Change {
  pages: string[];
}

type Update = { kind: 'append'; change: Appended } | { kind: 'redraw'; change: Rebuilt };

function follow(): void {
  if (typeof EventSource !== 'function') return;
  let here = location.pathname.replace(/index\.html$/, '');
  try {
    here = decodeURIComponent(here);
  } catch {}
  const badge = document.createElement('div');
  badge.id = 'cctrail-live';
  badge.setAttribute('role', 'status');
  badge.setAttribute('aria-live', 'polite');
  const s = badge.style;
  s.position = 'fixed';
  s.right = '12px';
  s.bottom = '12px';
  s.zIndex = '1000';
  s.padding = '4px 10px';
  s.borderRadius = '999px';
  s.font = '600 12px/1.4 system-ui, sans-serif';
  s.background = '#1f2937';
  s.color = '#f9fafb';
  s.opacity = '0.9';
  s.pointerEvents = 'none';
  document.body.appendChild(badge);

  function show(state: 'live' | 'follow' | 'off', text: string): void {
    badge.setAttribute('data-state', state);
    badge.textContent = text;
    s.background = state === 'live' ? '#b91c1c' : state === 'off' ? '#6b7280' : '#1f2937';
  }
  const time = (ms: number): string => new Date(ms).toLocaleTimeString();
  function mark(change: Change): void {
    if (change.live.indexOf(here) >= 0) show('live', `\u25CF Live \u00B7 updated ${time(change.at)}`);
    else show('follow', 'Following changes');
  }
  function atEnd(): boolean {
    return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 80;
  }
  // Keeps the reader at the end while the page grows (the flowchart is drawn after the scripts run), until
  // they scroll themselves.
  function pinToEnd(): void {
    const toEnd = (): void => window.scrollTo(0, document.documentElement.scrollHeight);
    toEnd();
    if (typeof ResizeObserver !== 'function') return;
    const pin = new ResizeObserver(toEnd);
    const unpin = (): void => pin.disconnect();
    pin.observe(document.body);
    for (const name of ['wheel', 'touchstart', 'keydown', 'mousedown'])
      window.addEventListener(name, unpin, { once: true, passive: true });
    setTimeout(unpin, 5000);
  }
  // The page fetched again: with the server's live cards at the end of its transcript.
  async function fetchPage(): Promise<Document> {
    const response = await fetch(location.href, { cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new DOMParser().parseFromString(await response.text(), 'text/html');
  }
  // Makes the siblings from mine on those from theirs on: equal ones are kept (a card opened stays open).
  function patchFrom(mine: Node, theirs: Node | null): void {
    const parent = mine.parentNode as Node;
    let a: Node | null = mine;
    let b = theirs;
    while (a && b && a.isEqualNode(b)) {
      a = a.nextSibling;
      b = b.nextSibling;
    }
    while (a) {
      const drop: Node = a;
      a = a.nextSibling;
      parent.removeChild(drop);
    }
    for (; b; b = b.nextSibling) parent.appendChild(document.importNode(b, true));
  }
  // The new lines of the page's session: its last cards drawn anew, and the notes on lines that are not records.
  function append(next: Document, change: Appended): boolean {
    const mine = change.from ? document.getElementById(change.from) : null;
    const theirs = change.from ? next.getElementById(change.from) : null;
    if (change.from && !(mine && theirs)) return false;
    if (mine) patchFrom(mine, theirs);
    const notes = next.getElementById(TAIL_ID);
    const old = document.getElementById(TAIL_ID);
    if (notes && old) old.replaceWith(document.importNode(notes, true));
    else if (notes)
      (document.querySelector('main') ?? document.body).appendChild(document.importNode(notes, true));
    else if (old) old.remove();
    return true;
  }
  // The page a rebuild changed: its body swapped for the new one, the report's scripts run again on it.
  function redraw(next: Document): void {
    const scripts: string[] = [];
    for (const old of Array.from(next.body.querySelectorAll('script'))) {
      const src = old.getAttribute('src');
      if (src && src.indexOf(LIVE_SCRIPT_PATH) < 0) scripts.push(src);
      old.remove();
    }
    document.title = next.title;
    document.body.replaceChildren(...Array.from(next.body.childNodes));
    document.body.appendChild(badge);
    for (const src of scripts) {
      const script = document.createElement('script');
      script.src = src;
      document.body.appendChild(script);
    }
  }
  // One update at a time; a redraw asked for meanwhile wins over appends.
  let busy = false;
  let queued: Update | null = null;
  function update(next: Update): void {
    if (busy) {
      if (!queued || next.kind === 'redraw') queued = next;
      return;
    }
    busy = true;
    const end = atEnd();
    const y = window.scrollY;
    fetchPage()
      .then((page) => {
        if (next.kind === 'redraw' || !append(page, next.change)) redraw(page);
        if (end) pinToEnd();
        else window.scrollTo(0, y);
      })
      .catch(() => location.reload())
      .then(() => {
        busy = false;
        const again = queued;
        queued = null;
        if (again) update(again);
      });
  }
  const events = new EventSource(LIVE_EVENTS_PATH);
  const data = <T>(event: Event): T => JSON.parse((event as MessageEvent<string>).data) as T;
  events.addEventListener('hello', (event) => mark(data<Change>(event)));
  events.addEventListener('append', (event) => {
    const change = data<Appended>(event);
    if (change.page === here) update({ kind: 'append', change });
    mark(change);
  });
  events.addEventListener('change', (event) => {
    const change = data<Rebuilt>(event);
    if (change.pages.indexOf(here) >= 0) update({ kind: 'redraw', change });
    mark(change);
  });
  events.onerror = () => {
    show('off', events.readyState === EventSource.CLOSED ? 'Disconnected' : 'Reconnecting\u2026');
  };
}

follow();
