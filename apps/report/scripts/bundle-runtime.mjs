// Run by the package's build, after `tsc` and the site bundle: bundles the report's run time (the entry point and
// its worker) into `dist/bundle/`, with every module it imports inlined except `@cctrail/core` (a dependency) and
// Astro (loaded only to bundle the site again when its sources are present, i.e. in this repository). An
// installed report thus needs no unified, shiki, d3 or ajv package: the bundle holds the parts it uses.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const outdir = `${dist}bundle`;
rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
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
  metafile: true,
  logLevel: 'warning',
});

// The licenses of what the bundles hold: the packages esbuild inlined here, and Astro and Mermaid, whose runtime
// and browser file the site bundle holds.
const packages = new Map();
for (const input of Object.keys(metafile.inputs)) {
  const match = /^(.*node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(input);
  if (match?.[1]) packages.set(match[1], null);
}
const require = createRequire(import.meta.url);
for (const name of ['astro', 'mermaid']) packages.set(dirname(require.resolve(`${name}/package.json`)), null);
const notices = [];
for (const dir of [...packages.keys()].sort()) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const license = readdirSync(dir).find((f) => /^(license|licence|copying)/i.test(f));
  const text =
    license && existsSync(join(dir, license)) ? readFileSync(join(dir, license), 'utf8').trim() : '';
  notices.push(`${manifest.name}@${manifest.version} (${manifest.license ?? 'see text'})\n\n${text}`);
}
const unique = [...new Set(notices)].sort();
writeFileSync(
  join(outdir, 'THIRD-PARTY-LICENSES.txt'),
  `The report's bundles hold code of these packages, under these licenses.\n\n${unique.join(`\n\n${'-'.repeat(78)}\n\n`)}\n`,
);
