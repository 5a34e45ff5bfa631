import { describe, expect, it } from 'vitest';
import type { SitePage } from '../src/build/site-pages.js';
import type { RenderPage } from '../src/build/site-server.js';
import { renderSitePage, TRANSCRIPT_SLOT } from '../src/build/transcript-slot.js';
import { neutralizeBidiBytes } from '../src/views/html/bidi.js';
import type { PageView } from '../src/views/site/page-views.js';

/** A transcript page's bytes are put into its rendered page in place of its slot, never decoded. */

const utf8 = (text: string) => new TextEncoder().encode(text);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A bundle's renderer stand-in: the page as the site draws it, its view's transcript in place (`set:html`). */
const renderPage: RenderPage = async (route, locals) => {
  const view = locals?.view as { title: string; transcript?: string };
  return neutralizeBidiBytes(
    utf8(`<h1>${view.title} ‹${route}›</h1><main>${view.transcript ?? ''}</main><p>é</p>`),
  );
};

const page = (title: string, transcript?: string, slot = TRANSCRIPT_SLOT): SitePage => ({
  route: 'p/s/',
  kind: 'session',
  view: () => ({
    view: { title, ...(transcript === undefined ? {} : { transcript: slot }) } as unknown as PageView,
    ...(transcript === undefined ? {} : { transcript: utf8(transcript) }),
  }),
});

/** The page as it was rendered before slots: the transcript's HTML as a string in the view. */
const whole = (title: string, transcript: string) =>
  renderPage('p/s/', { view: { title, transcript } }).then(text);

describe('transcript slot', () => {
  it('puts the transcript bytes where the page renders its slot: the same page as rendering the text in place', async () => {
    const transcript = '<article>naïve 💡 <code>&lt;!--x--&gt;</code></article>';
    const bytes = await renderSitePage(renderPage, page('Title ✓', transcript));
    expect(text(bytes)).toBe(await whole('Title ✓', transcript));
    expect(text(bytes)).not.toContain('cctrail-transcript');
    // Its own buffer, whole: the page threads move it to the main thread.
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
  });

  it('shows the transcript’s bidirectional controls as the bundle shows the rest of the page’s', async () => {
    const transcript = '<p>access\u202E level\u2066 x</p>';
    const out = text(await renderSitePage(renderPage, page('T\u202Eitle', transcript)));
    expect(out).toBe(await whole('T\u202Eitle', transcript));
    expect(out).toContain('access⟦U+202E⟧ level⟦U+2066⟧ x');
    expect(out).toContain('T⟦U+202E⟧itle');
  });

  it('leaves a page without a transcript as the bundle rendered it', async () => {
    expect(text(await renderSitePage(renderPage, page('Index')))).toBe(
      '<h1>Index ‹p/s/›</h1><main></main><p>é</p>',
    );
  });

  it('refuses a page that does not hold its slot exactly once', async () => {
    await expect(renderSitePage(renderPage, page('T', '<p>x</p>', '<!--another-->'))).rejects.toThrow(
      /slot once/,
    );
    const twice = page('T', '<p>x</p>', TRANSCRIPT_SLOT + TRANSCRIPT_SLOT);
    await expect(renderSitePage(renderPage, twice)).rejects.toThrow(/slot once/);
  });

  it('draws a slot no text can know in advance: a comment, with a random part', () => {
    expect(TRANSCRIPT_SLOT).toMatch(/^<!--cctrail-transcript-[0-9a-f]{24}-->$/);
  });
});
