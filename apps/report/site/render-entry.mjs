// Server entry of the report's bundle (see `render-adapter.mjs`): renders one route of the site to HTML.
import { App } from 'astro/app';
import { neutralizeBidiBytes } from '../src/views/html/bidi-bytes.ts';

export function createExports(manifest) {
  // Rendered as a stream of UTF-8 bytes: a transcript handed to its page as bytes (`fragmentHtml`) goes into it
  // as they are, not decoded into a string only to be encoded again. A page's error still rejects its render
  // (`site-server.test.ts`: before or after its first bytes), never a page cut short.
  const app = new App(manifest, true);
  return {
    /**
     * Renders the page at `route` (`''` for the index, else folders ending in `/`) from `data` (the page's view
     * model as `view`: the pages' only input) and returns its HTML as UTF-8 bytes, as the response holds them
     * (a page of a long transcript is megabytes: not decoded only to be encoded again to be written); throws
     * the page's own error when it fails. Bidirectional control characters of any text on the page are shown as
     * visible marks (`neutralizeBidiBytes`): the one place every byte of a page passes.
     */
    async renderPage(route, data = {}) {
      const locals = { ...data };
      const response = await app.render(new Request(new URL(route, 'http://report.invalid/')), { locals });
      if (response.status !== 200) {
        if (locals.error instanceof Error) throw locals.error;
        throw new Error(`page /${route} answered ${response.status}`);
      }
      return neutralizeBidiBytes(new Uint8Array(await response.arrayBuffer()));
    },
  };
}
