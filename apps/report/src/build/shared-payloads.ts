import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';

/**
 * Large inline payloads (an image's base64 in a `data:` URL) kept once in the build cache. The session file the
 * fragment was rendered from holds each of them verbatim (a JSON string of the transcript's image block), and a
 * base64 image hardly compresses: stored in the cached HTML as well, a screenshot took as many bytes again. So
 * the cached HTML leaves it out and names where it is in the session file; it is put back when the page is
 * written. A fragment's key carries the session file's identity (`keyOf`), so the file whose key matched is the
 * one it was cut against; a hash checks it all the same.
 */

/** Payloads shorter than this stay in the HTML (the cut is not worth a read of the session file). */
const SHARED_LENGTH = 32_768;
const MARK = ';base64,';

/** A payload cut out of a fragment's HTML. */
export interface SharedPayload {
  /** Where it was in the rendered HTML (a UTF-16 offset). */
  at: number;
  /** Where it is in the session file's text. */
  offset: number;
  length: number;
  /** SHA-1 of the payload (hex). */
  sha1: string;
}

/** The text of a session file of the archive (Brotli-compressed when its name ends in `.br`). */
function sessionText(file: string): string {
  const bytes = readFileSync(file);
  return (file.endsWith('.br') ? brotliDecompressSync(bytes) : bytes).toString('utf8');
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/**
 * Cuts the large base64 payloads that the session file holds verbatim out of a fragment's HTML.
 *
 * @param html The fragment's transcript HTML.
 * @param sessionFile The session file it was rendered from.
 * @returns The HTML without them, and where each goes back (none when there is nothing to cut).
 */
export function cutPayloads(html: string, sessionFile: string): { html: string; cuts: SharedPayload[] } {
  let text: string | null = null;
  const parts: string[] = [];
  const cuts: SharedPayload[] = [];
  let from = 0;
  let at = html.indexOf(MARK);
  while (at >= 0) {
    const start = at + MARK.length;
    const end = html.indexOf('"', start);
    if (end < 0) break;
    if (end - start >= SHARED_LENGTH) {
      const payload = html.slice(start, end);
      text ??= sessionText(sessionFile);
      const offset = text.indexOf(payload);
      if (offset >= 0) {
        parts.push(html.slice(from, start));
        cuts.push({ at: start, offset, length: payload.length, sha1: sha1(payload) });
        from = end;
      }
    }
    at = html.indexOf(MARK, end);
  }
  if (cuts.length === 0) return { html, cuts };
  parts.push(html.slice(from));
  return { html: parts.join(''), cuts };
}

/**
 * Puts the payloads cut by `cutPayloads` back.
 *
 * @param html The stored HTML.
 * @param cuts Where they go.
 * @param sessionFile The session file whose key the fragment's matched.
 * @throws When the session file no longer holds a payload (the fragment must then be rendered again).
 */
export function putPayloadsBack(html: string, cuts: readonly SharedPayload[], sessionFile: string): string {
  if (cuts.length === 0) return html;
  const text = sessionText(sessionFile);
  const parts: string[] = [];
  let from = 0;
  let shift = 0;
  for (const cut of cuts) {
    const payload = text.slice(cut.offset, cut.offset + cut.length);
    if (payload.length !== cut.length || sha1(payload) !== cut.sha1)
      throw new Error(`an image of the cached page is no longer in ${sessionFile}`);
    const at = cut.at - shift;
    parts.push(html.slice(from, at), payload);
    from = at;
    shift += cut.length;
  }
  parts.push(html.slice(from));
  return parts.join('');
}
