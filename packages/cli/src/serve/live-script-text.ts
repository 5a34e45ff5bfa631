import { readFileSync } from 'node:fs';

/**
 * The text of the live script (`browser/live.ts`), as the package's build compiled it (`scripts/build-live.mjs`).
 * It is read from `dist/live/live.js`, two folders above the module that reads it wherever that module is:
 * `src/serve/` (tests), `dist/serve/` (the compiled CLI) or `dist/bundle/` (the published bundle).
 */
const FILE = new URL('../../dist/live/live.js', import.meta.url);

let text: string | undefined;

/** The live script's text (read once). Throws when the package was not built. */
export function liveScriptText(): string {
  text ??= readFileSync(FILE, 'utf8');
  return text;
}
