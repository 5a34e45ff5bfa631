// Run by `build`, after `tsc`: makes what the `cctrail` package publishes, `dist/bundle/`, so that `npm install
// cctrail` installs one package with no dependencies. esbuild bundles the compiled CLI (`dist/*.js`) with every
// module it imports, @cctrail/core and the report's run time (@cctrail/report, unified, shiki's core and the
// grammars it loads, ajv, …) included, minified, into a few files: `bin.js`, `index.js`, the four worker scripts,
// and shared chunks. Each command's implementation, and the report's code, is a chunk of its own that only that
// command loads (`import()`): `bin.js` loads the command table (`main.js`'s chunk), not `index.js`, whose
// exports would load redaction's rules for every command. Beside them: the
// report site's prebuilt bundle (`dist/site-server/<key>/`, Astro's output, Mermaid's browser
// files), the highlighter's WebAssembly (`onig.wasm`), the `open` package (`vendor/`), the types of the package's
// entry point and the licenses of all it holds.
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { writeLicenses } from './bundle-licenses.mjs';
import { copyPublicTypes } from './bundle-types.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const outdir = join(dist, 'bundle');
const require = createRequire(import.meta.url);
const manifest = (path) => JSON.parse(readFileSync(path, 'utf8'));
const report = dirname(require.resolve('@cctrail/report/package.json'));
const cli = manifest(join(root, 'package.json'));

rmSync(outdir, { recursive: true, force: true });
rmSync(join(dist, 'site-server'), { recursive: true, force: true });

/** What both bundles are: one minified ES module for Node 20 (names kept: messages and errors may show them). */
const NODE_MODULE = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
};

/**
 * shiki's `shiki/wasm` holds the highlighter's WebAssembly as 620 KB of base64 text. The bundle reads the bytes
 * from `onig.wasm` (copied beside the chunks below), so that module, the report's fallback where there is no such
 * file, is replaced by one that says the file is missing: the package does not ship the bytes twice.
 */
const onigFromFile = {
  name: 'onig-from-file',
  setup(bundler) {
    bundler.onResolve({ filter: /^shiki\/wasm$/ }, () => ({
      path: 'shiki/wasm',
      namespace: 'onig-from-file',
    }));
    bundler.onLoad({ filter: /.*/, namespace: 'onig-from-file' }, () => ({
      contents: "throw new Error('onig.wasm is missing beside the bundle: the highlighter cannot start');",
      loader: 'js',
    }));
  },
};

const { metafile } = await build({
  entryPoints: {
    bin: join(dist, 'bin.js'),
    index: join(dist, 'index.js'),
    'build-worker': join(dist, 'runtime', 'build-worker.js'),
    'session-worker': join(report, 'dist', 'build', 'session-worker.js'),
    'page-worker': join(report, 'dist', 'build', 'page-worker.js'),
    'search-worker': join(report, 'dist', 'build', 'search-worker.js'),
  },
  ...NODE_MODULE,
  outdir,
  splitting: true,
  // Astro bundles the site anew only where the site's sources are (in this repository); the package ships the
  // bundle made by the build. Every other package is inlined, runtime dependencies included, but those the
  // package.json's `bundle.external` names: the published manifest lists only those (`.pnpmfile.cjs`).
  external: ['astro', ...(cli.bundle?.external ?? [])],
  define: {
    CCTRAIL_BUNDLED_VERSIONS: JSON.stringify({
      cli: cli.version,
      core: manifest(require.resolve('@cctrail/core/package.json')).version,
    }),
    // core's schemas, which the report validates its input with: the package's own copies (`schema/`).
    CCTRAIL_BUNDLED_SCHEMAS: JSON.stringify('../../schema/'),
  },
  // CommonJS dependencies (ajv) call `require`, which an ES module has only when it makes one.
  banner: {
    js: "import{createRequire as __cctrailRequire}from'node:module';const require=__cctrailRequire(import.meta.url);",
  },
  plugins: [onigFromFile],
  metafile: true,
});

// The highlighter's WebAssembly, which the report's build wrote beside the module that loads it: beside the chunks
// here (that module reads `onig.wasm` from its own folder; shiki's base64 copy is only the fallback).
cpSync(join(report, 'dist', 'views', 'markdown', 'onig.wasm'), join(outdir, 'onig.wasm'));

// The `open` package, bundled by `vendor-open.mjs`: loaded by its path (`./vendor/open.js`), with `xdg-open`
// (its license is in THIRD-PARTY-LICENSES.txt).
cpSync(join(dist, 'vendor'), join(outdir, 'vendor'), {
  recursive: true,
  filter: (src) => !src.endsWith('.LICENSE'),
});

// The site's bundle for the report's current sources (the report's build made it).
const { siteServer } = await import(pathToFileURL(join(report, 'dist', 'build', 'site-server.js')).href);
const site = await siteServer({ packageRoot: report });
const siteFolder = dirname(dirname(site.entry));
const siteCopy = join(dist, 'site-server', relative(join(report, 'dist', 'site-server'), siteFolder));
// Astro's server output (an entry, its pages and chunks) becomes one minified module, at the entry's path.
cpSync(siteFolder, siteCopy, { recursive: true, filter: (src) => !src.startsWith(dirname(site.entry)) });
await build({
  entryPoints: [site.entry],
  ...NODE_MODULE,
  outfile: join(siteCopy, relative(siteFolder, site.entry)),
});

copyPublicTypes(dist, outdir);
writeLicenses(metafile, join(outdir, 'THIRD-PARTY-LICENSES.txt'));

// The key of the bundle's code, which the report's caches are keyed by (`code.key`, read by the report's
// `code-keys.ts`): the digest a build would otherwise make of every chunk each time it runs.
const { closureHash } = await import(pathToFileURL(join(report, 'dist', 'build', 'code-keys.js')).href);
const chunks = readdirSync(outdir)
  .filter((name) => /\.m?js$/.test(name))
  .map((name) => join(outdir, name));
writeFileSync(join(outdir, 'code.key'), `${closureHash(chunks, dist)}\n`);
