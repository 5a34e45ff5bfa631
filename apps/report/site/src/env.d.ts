declare namespace App {
  interface Locals {
    /** The error of a page that failed, handed back to the builder (see `pages/500.astro`). */
    error?: unknown;
  }
}
