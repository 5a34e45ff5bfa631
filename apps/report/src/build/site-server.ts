import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { filesUnder } from './files.js';

/**
 * The report site's server bundle. Astro and Vite bundle the site once, with the adapter in
 * `site/render-adapter.mjs`, into `dist/site-server/<key>/`, where the key is a digest of everything the bundle
 * is made of (the site, the `src/views` modules it imports, the package's and Astro's versions). A report then
 * renders its pages with that bundle and never loads Vite or Rollup: a rebuild after one change costs the pages
 * of that change, not a bundling of the site. The package's build makes the bundle; a report that finds none
 * for the current sources (edited since) makes it first.
 */

const here = dirname(fileURLToPath(import.meta.url));
const PACKAGE_ROOT = resolve(here, '..', '..');
/** The Astro site folder (`apps/report/site`). */
export const SITE_ROOT = join(PACKAGE_ROOT, 'site');
/** Where a package's bundles live: inside it, so that the modules they import resolve from its dependencies. */
const bundlesOf = (packageRoot: string) => join(packageRoot, 'dist', 'site-server');
/** The layout of a bundle folder and the adapter's contract: a new value makes bundles again. */
const BUNDLE_LAYOUT = 4;
/** Folders of the site that are Astro's or the package manager's, not sources. */
const NOT_SOURCES: ReadonlySet<string> = new Set(['.astro', 'node_modules', 'dist']);

/**
 * Renders the page at a route (`''`: the index; else folders ending in `/`) to HTML, from the data handed to
 * it (`locals`: the page's view model as `view`, see `render-pages.ts`).
 */
export type RenderPage = (route: string, locals?: Record<string, unknown>) => Promise<string>;

/**
 * A bundle of the site: its entry module, the folder of the files the pages load (`_cctrail/…`), and Mermaid's
 * browser build, brotli-compressed (`mermaid.min.js.br`; a report gets it decompressed as `mermaid.min.js`).
 */
export interface SiteBundle {
  entry: string;
  assets: string;
  mermaid: string;
}

/** The bundle in a folder of `dist/site-server/`. */
function bundleIn(folder: string): SiteBundle {
  return {
    entry: join(folder, 'server', 'entry.mjs'),
    assets: join(folder, 'client'),
    mermaid: join(folder, 'mermaid.min.js.br'),
  };
}

/** Options of `siteServer`. */
export interface SiteServerOptions {
  /** The report package's folder, holding `site/` and `src/views/` (default: this package; another for tests). */
  packageRoot?: string;
  /** Progress messages. */
  log?: (msg: string) => void;
}

/** The digest naming the bundle of the current sources of the package at `packageRoot`. */
export function siteServerKey(packageRoot: string = PACKAGE_ROOT): string {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  const astro = JSON.parse(readFileSync(require.resolve('astro/package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(`layout ${BUNDLE_LAYOUT}\0astro ${astro.version}\0`);
  hash.update(readFileSync(join(packageRoot, 'package.json')));
  for (const [root, skip] of [
    [join(packageRoot, 'site'), NOT_SOURCES],
    [join(packageRoot, 'src', 'views'), new Set<string>()],
  ] as const) {
    for (const rel of filesUnder(root, skip).sort()) {
      hash.update(`\0${relative(packageRoot, join(root, rel))}\0`);
      hash.update(readFileSync(join(root, rel)));
    }
  }
  return hash.digest('hex').slice(0, 20);
}

/** Bundlings in progress in this process, by bundle folder. */
const bundling = new Map<string, Promise<SiteBundle>>();

/**
 * The bundle of the current sources, made first when there is none (once, however many callers ask meanwhile).
 * An installation without the site's sources uses the bundle it was shipped with. Bundling changes the working
 * directory for a while (Astro needs it): callers run one build at a time.
 */
export async function siteServer(options: SiteServerOptions = {}): Promise<SiteBundle> {
  const packageRoot = resolve(options.packageRoot ?? PACKAGE_ROOT);
  if (!existsSync(join(packageRoot, 'site'))) return shippedBundle(packageRoot);
  const key = siteServerKey(packageRoot);
  const folder = join(bundlesOf(packageRoot), key);
  if (existsSync(bundleIn(folder).entry)) return bundleIn(folder);
  let made = bundling.get(folder);
  if (!made) {
    made = bundle(packageRoot, key, options.log ?? (() => {})).finally(() => bundling.delete(folder));
    bundling.set(folder, made);
  }
  return made;
}

/** The newest bundle in the package, for an installation without the site's sources. */
function shippedBundle(packageRoot: string): SiteBundle {
  const bundles = bundlesOf(packageRoot);
  const found = (existsSync(bundles) ? readdirSync(bundles) : [])
    .filter((name) => !name.startsWith('.') && existsSync(bundleIn(join(bundles, name)).entry))
    .map((name) => join(bundles, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!found[0])
    throw new Error(`the report site is missing: neither ${join(packageRoot, 'site')} nor a bundle of it`);
  return bundleIn(found[0]);
}

/**
 * Bundles the site into `dist/site-server/<key>/` (`server/`: the entry and its chunks; `client/`: the site's
 * public files) and removes the bundles of other keys.
 */
async function bundle(packageRoot: string, key: string, log: (msg: string) => void): Promise<SiteBundle> {
  const started = Date.now();
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const bundles = bundlesOf(packageRoot);
  // Astro writes into its root and working directory: it bundles a copy of the site, a sibling of `site/`
  // (so the relative imports of `src/views` and the package's node_modules resolve the same).
  const root = join(packageRoot, `.build-${stamp}`);
  const out = join(bundles, `.tmp-${stamp}`);
  const target = join(bundles, key);
  const cwd = process.cwd();
  const telemetry = process.env.ASTRO_TELEMETRY_DISABLED;
  const site = join(packageRoot, 'site');
  cpSync(site, root, {
    recursive: true,
    filter: (src) => dirname(src) !== site || !NOT_SOURCES.has(basename(src)),
  });
  try {
    process.env.ASTRO_TELEMETRY_DISABLED = '1';
    process.chdir(root);
    const { build } = await import('astro');
    await build({ root, outDir: out, logLevel: 'warn', cacheDir: join(root, '.astro', 'cache') });
    // The one file of Mermaid a report uses ships with the bundle, so an installation does not need the
    // package; compressed, it is a quarter of its size in the tarball and on the user's disk.
    const require = createRequire(import.meta.url);
    const mermaid = readFileSync(
      join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js'),
    );
    writeFileSync(
      bundleIn(out).mermaid,
      brotliCompressSync(mermaid, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: mermaid.length },
      }),
    );
    try {
      renameSync(out, target);
    } catch (error) {
      // Another process made the same bundle meanwhile: keep theirs.
      if (!existsSync(bundleIn(target).entry)) throw error;
    }
  } finally {
    process.chdir(cwd);
    if (telemetry === undefined) delete process.env.ASTRO_TELEMETRY_DISABLED;
    else process.env.ASTRO_TELEMETRY_DISABLED = telemetry;
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
  // Bundles of other sources are of no more use; a bundling that has been left unfinished for an hour was
  // cut off (one in progress in another process takes seconds).
  for (const name of readdirSync(bundles)) {
    const path = join(bundles, name);
    if (name.startsWith('.tmp-') ? Date.now() - statSync(path).mtimeMs > 3_600_000 : name !== key)
      rmSync(path, { recursive: true, force: true });
  }
  log(`report: site bundled in ${Date.now() - started} ms`);
  return bundleIn(target);
}

/** Loads a bundle's entry module (see `siteServer`) and returns its page renderer. */
export async function loadRenderer(entry: string): Promise<RenderPage> {
  const module = (await import(pathToFileURL(entry).href)) as { renderPage?: RenderPage };
  if (typeof module.renderPage !== 'function') throw new Error(`${entry} is not a report bundle`);
  return module.renderPage;
}
