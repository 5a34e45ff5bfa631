import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * The files the pages load from `_cctrail/` that are made from sources: the page scripts, compiled from the
 * TypeScript of `src/browser/` into classic scripts (an IIFE each: module scripts do not run from `file://`),
 * and the stylesheet, the parts of `src/browser/styles/` in the order of their names. The package's build
 * writes them into `site/public/_cctrail/` before it bundles the site, so the site bundle's key (a digest of
 * `site/`) changes with them. Run at build time only: esbuild is a development dependency.
 */

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The page scripts: modules of `src/browser/`, each compiled with what it imports into `_cctrail/<name>.js`. */
export const PAGE_SCRIPTS = ['theme', 'app', 'search-match', 'search'] as const;

/** A file made for the pages: its path under `site/public/`, its text, and the source files it is made of. */
export interface BrowserAsset {
  name: string;
  text: string;
  inputs: string[];
}

/**
 * `@cctrail/core` has no effect when imported (its modules define functions and tables), so a page script
 * that imports a view which imports core keeps only what it uses of it: nothing, so far.
 */
const coreWithoutSideEffects: Plugin = {
  name: 'core-without-side-effects',
  setup(bundler) {
    bundler.onResolve({ filter: /^@cctrail\/core$/ }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const { kind, resolveDir, importer } = args;
      const found = await bundler.resolve(args.path, { kind, resolveDir, importer, pluginData: 'resolving' });
      return { ...found, sideEffects: false };
    });
  },
};

/** The page scripts and the stylesheet, made in memory from the sources of the package at `packageRoot`. */
export async function browserAssets(packageRoot: string = PACKAGE_ROOT): Promise<BrowserAsset[]> {
  const browser = join(packageRoot, 'src', 'browser');
  const assets: BrowserAsset[] = [];
  for (const script of PAGE_SCRIPTS) {
    const result = await build({
      entryPoints: [join(browser, `${script}.ts`)],
      absWorkingDir: packageRoot,
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      charset: 'utf8',
      legalComments: 'none',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [coreWithoutSideEffects],
    });
    const output = Object.values(result.metafile.outputs)[0];
    const inputs = Object.keys(output?.inputs ?? {}).sort();
    // A page script is the package's own code: a dependency reaching it would be shipped to every page unseen.
    const foreign = inputs.filter(
      (input) => !resolve(packageRoot, input).startsWith(join(packageRoot, 'src') + sep),
    );
    if (foreign.length > 0) throw new Error(`_cctrail/${script}.js would include ${foreign.join(', ')}`);
    assets.push({ name: `_cctrail/${script}.js`, text: result.outputFiles[0]?.text ?? '', inputs });
  }
  const styles = join(browser, 'styles');
  const parts = readdirSync(styles)
    .filter((name) => name.endsWith('.css'))
    .sort();
  assets.push({
    name: '_cctrail/style.css',
    text: parts.map((name) => readFileSync(join(styles, name), 'utf8')).join('\n'),
    inputs: parts.map((name) => relative(packageRoot, join(styles, name)).split(sep).join('/')),
  });
  return assets;
}

/** Writes the page scripts and the stylesheet into `site/public/` (a file already current is left as it is). */
export async function writeBrowserAssets(packageRoot: string = PACKAGE_ROOT): Promise<BrowserAsset[]> {
  const assets = await browserAssets(packageRoot);
  for (const { name, text } of assets) {
    const file = join(packageRoot, 'site', 'public', name);
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return assets;
}
