/**
 * The live script of `cctrail serve`: the names it shares with the server, and its text. The script
 * (`browser/live.ts`, typed against the DOM, compiled by the package's build into `dist/live/live.js`) is added
 * to the pages the server serves (`/_cctrail/live.js`; never written to the report folder, so a page opened
 * from disk has no trace of it). It listens on `/_cctrail/live` and updates its page in place, never reloading
 * it: when lines are appended to the page's session (`append` events), the page is fetched again (the server
 * draws its last cards anew with the report's renderer) and its transcript patched from the first card that
 * differs; a page a rebuild changed (`change` events) is fetched again and its body swapped for the new one,
 * the report's scripts run again on it (the flowchart and timeline redrawn). The reader keeps their place: at
 * the end of the page when they were there (new entries arrive at the end of a transcript), else at the same
 * scroll offset. A small badge says whether the page follows changes, and "live" on a page whose session
 * changed in the last minutes. This module imports nothing: the script is compiled with it.
 */

/** The id of the block of notes on appended lines at the end of a page's main content (`injectLive` adds it). */
export const TAIL_ID = 'cctrail-tail';

/** The URL path the server serves the script under. */
export const LIVE_SCRIPT_PATH = '/_cctrail/live.js';

/** The URL path of the event stream. */
export const LIVE_EVENTS_PATH = '/_cctrail/live';
