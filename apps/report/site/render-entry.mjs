// Server entry of the report's bundle (see `render-adapter.mjs`): renders one route of the site to HTML.
import { App } from 'astro/app';
import { neutralizeBidiBytes } from '../src/views/html/bidi.ts';

export function createExports(manifest) {
  // Without streaming a page is rendered whole before its response, so its errors reach the 500 page.
  const app = new App(manifest, false);
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
