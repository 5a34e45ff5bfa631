/**
 * The classic script `cctrail serve` adds to the pages it serves (`/_cctrail/live.js`; never written to the
 * report folder, so a page opened from disk has no trace of it). It listens on `/_cctrail/live` and reloads its
 * page when a rebuild changed it, keeping the reader's place: at the end of the page when they were there
 * (new entries arrive at the end of a transcript), else at the same scroll offset. A small badge says whether
 * the page follows changes, and "live" on a page whose session changed in the last minutes.
 */

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
  var key = 'cctrail-live-scroll:' + here;
  var kept = null;
  try {
    kept = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
  } catch (e) {}
  if (kept === 'end') {
    // The page grows as it finishes (the flowchart is drawn after load): stay at the end while it does,
    // until the reader scrolls themselves.
    var toEnd = function () { window.scrollTo(0, document.documentElement.scrollHeight); };
    var pin = typeof ResizeObserver === 'function' ? new ResizeObserver(toEnd) : null;
    var unpin = function () {
      if (pin) pin.disconnect();
      pin = null;
    };
    if (pin) pin.observe(document.body);
    ['wheel', 'touchstart', 'keydown', 'mousedown'].forEach(function (name) {
      window.addEventListener(name, unpin, { once: true, passive: true });
    });
    setTimeout(unpin, 5000);
    toEnd();
  } else if (kept !== null) window.scrollTo(0, Number(kept) || 0);
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
  function reload() {
    var doc = document.documentElement;
    var atEnd = window.scrollY + window.innerHeight >= doc.scrollHeight - 80;
    try { sessionStorage.setItem(key, atEnd ? 'end' : String(Math.round(window.scrollY))); } catch (e) {}
    location.reload();
  }
  var events = new EventSource('${LIVE_EVENTS_PATH}');
  events.addEventListener('hello', function (event) { mark(JSON.parse(event.data)); });
  events.addEventListener('change', function (event) {
    var change = JSON.parse(event.data);
    if (change.pages.indexOf(here) >= 0) { events.close(); reload(); return; }
    mark(change);
  });
  events.onerror = function () {
    show('off', events.readyState === EventSource.CLOSED ? 'Disconnected' : 'Reconnecting\\u2026');
  };
})();
`;
