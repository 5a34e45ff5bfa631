// Run by the package's build, after `tsc` and the site bundle: bundles the report's run time (the entry point and
// its worker) into `dist/bundle/`, with every module it imports inlined except `@cctrail/core` (a dependency) and
// Astro (loaded only to bundle the site again when its sources are present, i.e. in this repository). An
// installed report thus needs no unified, shiki, d3 or ajv package: the bundle holds the parts it uses.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const outdir = `${dist}bundle`;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { index: `${dist}index.js`, 'session-worker': `${dist}build/session-worker.js` },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@cctrail/core', '@cctrail/core/*', 'astro'],
  // CommonJS dependencies (ajv) call `require`, which an ES module has only when it makes one.
  banner: {
    js: "import { createRequire as __cctrailRequire } from 'node:module';\nconst require = __cctrailRequire(import.meta.url);",
  },
  legalComments: 'linked',
  logLevel: 'warning',
});
