/**
 * The classic script `cctrail serve` adds to the pages it serves (`/_cctrail/live.js`; never written to the
 * report folder, so a page opened from disk has no trace of it). It listens on `/_cctrail/live` and updates its
 * page in place, never reloading it: when lines are appended to the page's session (`append` events), the page
 * is fetched again (the server draws its last cards anew with the report's renderer) and its transcript patched
 * from the first card that differs; a page a rebuild changed (`change` events) is fetched again and its body
 * swapped for the new one, the report's scripts run again on it (the flowchart and timeline redrawn). The
 * reader keeps their place: at the end of the page when they were there (new entries arrive at the end of a
 * transcript), else at the same scroll offset. A small badge says whether the page
 * follows changes, and "live" on a page whose session changed in the last minutes.
 */

/** The id of the block of notes on appended lines at the end of a page's main content (`injectLive` adds it). */
export const TAIL_ID = 'cctrail-tail';

/** The URL path the server serves the script under. */
export const LIVE_SCRIPT_PATH = '/_cctrail/live.js';

/** The URL path of the event stream. */
export const LIVE_EVENTS_PATH = '/_cctrail/live';

/** The script's text. */
export const LIVE_SCRIPT = `(function () {
  'use strict';
  if (typeof EventSource !== 'function') return;
  var here = location.pathname.replace(/index\\.html$/, '');
  try { here = decodeURIComponent(here); } catch (e) {}
  var badge = document.createElement('div');
  badge.id = 'cctrail-live';
  badge.setAttribute('role', 'status');
  badge.setAttribute('aria-live', 'polite');
  var s = badge.style;
  s.position = 'fixed'; s.right = '12px'; s.bottom = '12px'; s.zIndex = '1000';
  s.padding = '4px 10px'; s.borderRadius = '999px'; s.font = '600 12px/1.4 system-ui, sans-serif';
  s.background = '#1f2937'; s.color = '#f9fafb'; s.opacity = '0.9'; s.pointerEvents = 'none';
  document.body.appendChild(badge);
  function show(state, text) {
    badge.setAttribute('data-state', state);
    badge.textContent = text;
    s.background = state === 'live' ? '#b91c1c' : state === 'off' ? '#6b7280' : '#1f2937';
  }
  function time(ms) { return new Date(ms).toLocaleTimeString(); }
  function mark(change) {
    if (change.live.indexOf(here) >= 0) show('live', '\\u25CF Live \\u00B7 updated ' + time(change.at));
    else show('follow', 'Following changes');
  }
  function atEnd() {
    var doc = document.documentElement;
    return window.scrollY + window.innerHeight >= doc.scrollHeight - 80;
  }
  // Keeps the reader at the end while the page grows (the flowchart is drawn after the scripts run), until
  // they scroll themselves.
  function pinToEnd() {
    var toEnd = function () { window.scrollTo(0, document.documentElement.scrollHeight); };
    toEnd();
    if (typeof ResizeObserver !== 'function') return;
    var pin = new ResizeObserver(toEnd);
    var unpin = function () { pin.disconnect(); };
    pin.observe(document.body);
    ['wheel', 'touchstart', 'keydown', 'mousedown'].forEach(function (name) {
      window.addEventListener(name, unpin, { once: true, passive: true });
    });
    setTimeout(unpin, 5000);
  }
  // The page fetched again: with the server's live cards at the end of its transcript.
  function fetchPage() {
    return fetch(location.href, { cache: 'no-store', credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.text();
      })
      .then(function (text) { return new DOMParser().parseFromString(text, 'text/html'); });
  }
  // Makes the siblings from mine on those from theirs on: equal ones are kept (a card opened stays open).
  function patchFrom(mine, theirs) {
    var parent = mine.parentNode;
    var a = mine;
    var b = theirs;
    while (a && b && a.isEqualNode(b)) { a = a.nextSibling; b = b.nextSibling; }
    while (a) { var drop = a; a = a.nextSibling; parent.removeChild(drop); }
    for (; b; b = b.nextSibling) parent.appendChild(document.importNode(b, true));
  }
  // The new lines of the page's session: its last cards drawn anew, and the notes on lines that are not records.
  function append(next, change) {
    var mine = change.from && document.getElementById(change.from);
    var theirs = change.from && next.getElementById(change.from);
    if (change.from && !(mine && theirs)) return false;
    if (mine) patchFrom(mine, theirs);
    var notes = next.getElementById('${TAIL_ID}');
    var old = document.getElementById('${TAIL_ID}');
    if (notes && old) old.replaceWith(document.importNode(notes, true));
    else if (notes) (document.querySelector('main') || document.body).appendChild(document.importNode(notes, true));
    else if (old) old.remove();
    return true;
  }
  // The page a rebuild changed: its body swapped for the new one, the report's scripts run again on it.
  function redraw(next) {
    var scripts = [];
    Array.prototype.forEach.call(next.body.querySelectorAll('script'), function (old) {
      var src = old.getAttribute('src');
      if (src && src.indexOf('${LIVE_SCRIPT_PATH}') < 0) scripts.push(src);
      old.remove();
    });
    document.title = next.title;
    document.body.replaceChildren.apply(document.body, Array.prototype.slice.call(next.body.childNodes));
    document.body.appendChild(badge);
    scripts.forEach(function (src) {
      var script = document.createElement('script');
      script.src = src;
      document.body.appendChild(script);
    });
  }
  // One update at a time; a redraw asked for meanwhile wins over appends.
  var busy = false;
  var queued = null;
  function update(kind, change) {
    if (busy) {
      if (!queued || kind === 'redraw') queued = { kind: kind, change: change };
      return;
    }
    busy = true;
    var end = atEnd();
    var y = window.scrollY;
    fetchPage()
      .then(function (next) {
        if (kind === 'redraw' || !append(next, change)) redraw(next);
        if (end) pinToEnd();
        else window.scrollTo(0, y);
      })
      .catch(function () { location.reload(); })
      .then(function () {
        busy = false;
        var again = queued;
        queued = null;
        if (again) update(again.kind, again.change);
      });
  }
  var events = new EventSource('${LIVE_EVENTS_PATH}');
  events.addEventListener('hello', function (event) { mark(JSON.parse(event.data)); });
  events.addEventListener('append', function (event) {
    var change = JSON.parse(event.data);
    if (change.page === here) update('append', change);
    mark(change);
  });
  events.addEventListener('change', function (event) {
    var change = JSON.parse(event.data);
    if (change.pages.indexOf(here) >= 0) update('redraw', change);
    mark(change);
  });
  events.onerror = function () {
    show('off', events.readyState === EventSource.CLOSED ? 'Disconnected' : 'Reconnecting\\u2026');
  };
})();
`;
