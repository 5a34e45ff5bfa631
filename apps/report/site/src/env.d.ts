declare namespace App {
  interface Locals {
    /** The view model of the page rendered, handed over by the build (see `src/build/render-pages.ts`). */
    view?: import('../../src/views/site/page-views.ts').PageView;
    /** The error of a page that failed, handed back to the builder (see `pages/500.astro`). */
    error?: unknown;
  }
}
