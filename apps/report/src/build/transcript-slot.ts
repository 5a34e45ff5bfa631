import { randomBytes } from 'node:crypto';
import { neutralizeBidiBytes } from '../views/html/bidi.js';
import type { PageView } from '../views/site/page-views.js';
import type { RenderPage } from './site-server.js';

/**
 * A transcript page is rendered around its transcript: its view holds this slot where the transcript's HTML goes,
 * and the transcript's bytes, as the build cache keeps them, are put in its place in the rendered page. Most of a
 * session page's bytes are its transcript: they are never decoded into a string only to be encoded again.
 *
 * The slot is an HTML comment with a random part, drawn per thread: text of a transcript (escaped on the page) has
 * no `<!--`, and no text can name a slot it cannot know. It must be in the page once.
 */
export const TRANSCRIPT_SLOT = `<!--cctrail-transcript-${randomBytes(12).toString('hex')}-->`;
const SLOT = Buffer.from(TRANSCRIPT_SLOT, 'utf8');

/** A page's data: its view model and, on a transcript page, its transcript's HTML (UTF-8) for its slot. */
export interface PageData {
  view: PageView;
  transcript?: Uint8Array;
}

/**
 * Renders a page of the site with the site's bundle: its view, then its transcript (when it has one) put into its
 * slot, its bidirectional control characters made visible as the bundle does for the rest of the page
 * (`neutralizeBidiBytes`).
 *
 * @returns The page's HTML as UTF-8, in an `ArrayBuffer` of its own when it holds a transcript.
 */
export async function renderSitePage(
  renderPage: RenderPage,
  page: { route: string; view: () => PageData },
): Promise<Uint8Array> {
  const { view, transcript } = page.view();
  const shell = await renderPage(page.route, { view });
  if (transcript === undefined) return shell;
  const text = Buffer.from(shell.buffer, shell.byteOffset, shell.byteLength);
  const at = text.indexOf(SLOT);
  if (at < 0 || text.indexOf(SLOT, at + 1) >= 0)
    throw new Error(`the page /${page.route} does not hold its transcript's slot once`);
  const body = neutralizeBidiBytes(transcript);
  const bytes = new Uint8Array(shell.byteLength - SLOT.byteLength + body.byteLength);
  bytes.set(shell.subarray(0, at));
  bytes.set(body, at);
  bytes.set(shell.subarray(at + SLOT.byteLength), at + body.byteLength);
  return bytes;
}
