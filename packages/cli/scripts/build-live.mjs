// Run by `build`: compiles the live script of `cctrail serve` (`src/serve/browser/live.ts`, TypeScript typed
// against the DOM) with what it imports into one classic script, `dist/live/live.js`, which the server reads
// (`src/serve/live-script-text.ts`) and serves as `/_cctrail/live.js`. The published package ships it
// (`files`); `build-id.mjs` hashes it with the rest of the built code.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

await build({
  entryPoints: [fileURLToPath(new URL('../src/serve/browser/live.ts', import.meta.url))],
  outfile: fileURLToPath(new URL('../dist/live/live.js', import.meta.url)),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
});
