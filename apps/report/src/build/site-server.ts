import { spawn } from 'node:child_process';
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
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { closureHash } from './code-keys.js';
import { filesUnder } from './files.js';

/**
 * The report site's server bundle. Astro and Vite bundle the site once, with the adapter in
 * `site/render-adapter.mjs`, into `dist/site-server/<key>/`, where the key is a digest of everything the bundle
 * is made of (`siteServerKey`). A report then
 * renders its pages with that bundle and never loads Vite or Rollup: a rebuild after one change costs the
 * pages of that change, not a bundling of the site (which runs in a child process, `site/bundle.mjs`). The package's build makes the bundle; a report that finds none
 * for the current sources (edited since) makes it first.
 */

const here = dirname(fileURLToPath(import.meta.url));
const PACKAGE_ROOT = resolve(here, '..', '..');
/** The Astro site folder (`apps/report/site`). */
export const SITE_ROOT = join(PACKAGE_ROOT, 'site');
/** Where a package's bundles live: inside it, so that the modules they import resolve from its dependencies. */
const bundlesOf = (packageRoot: string) => join(packageRoot, 'dist', 'site-server');
/** Folders of the site that are Astro's or the package manager's, not sources. */
const NOT_SOURCES: ReadonlySet<string> = new Set(['.astro', 'node_modules', 'dist']);

/**
 * Renders the page at a route (`''`: the index; else folders ending in `/`) to HTML, from the data handed to
 * it (`locals`: the page's view model as `view`, see `render-pages.ts`); the HTML as UTF-8 bytes.
 */
export type RenderPage = (route: string, locals?: Record<string, unknown>) => Promise<Uint8Array>;

/**
 * A bundle of the site: its entry module, the folder of the files the pages load (`_cctrail/…`), and Mermaid's
 * browser build, brotli-compressed (`mermaid.min.js.br`; a report gets it decompressed as `mermaid.min.js`).
 */
export interface SiteBundle {
  /** The digest of the sources it was made from (its folder's name). */
  key: string;
  /**
   * The digest of the sources a session's pages are drawn with (`sessionPagesSiteKey`), so that editing a
   * component no session page uses keeps them; the bundle's key when the sources are not installed.
   */
  sessionPagesKey: string;
  entry: string;
  assets: string;
  mermaid: string;
}

/** The file of a bundle that keeps its `sessionPagesKey`, for an installation without the site's sources. */
const SESSION_PAGES_KEY_FILE = 'session-pages.key';

/** The bundle in a folder of `dist/site-server/`. */
function bundleIn(folder: string): SiteBundle {
  const keyFile = join(folder, SESSION_PAGES_KEY_FILE);
  return {
    key: basename(folder),
    // A bundle made before the key was kept draws sessions' pages with all of its sources.
    sessionPagesKey: existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : basename(folder),
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

/**
 * The digest naming the bundle of the current sources of the package at `packageRoot`: every file of the site
 * (its bundling script and adapter included), the modules of `src/` its pages import and what those import,
 * and Astro's version.
 */
export function siteServerKey(packageRoot: string = PACKAGE_ROOT): string {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  const astro = JSON.parse(readFileSync(require.resolve('astro/package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(`astro ${astro.version}\0`);
  const site = join(packageRoot, 'site');
  const files = filesUnder(site, NOT_SOURCES).sort();
  for (const rel of files) {
    hash.update(`\0${rel}\0`);
    hash.update(readFileSync(join(site, rel)));
  }
  const pages = files
    .filter((rel) => /^src\/.*\.(astro|ts|mjs)$/.test(rel) && !rel.endsWith('.d.ts'))
    .map((rel) => join(site, rel));
  hash.update(`\0${closureHash(pages, packageRoot)}`);
  return hash.digest('hex').slice(0, 20);
}

/** The components the pages of a session are drawn with (its first page; its other transcript pages). */
const SESSION_COMPONENTS = ['src/components/SessionPage.astro', 'src/components/TranscriptPage.astro'];
/** The route component that picks a page's component by its kind (its own text: it imports every one). */
const ROUTE_COMPONENT = 'src/pages/[...route].astro';

/**
 * The digest of what the pages of sessions are drawn with in the site of the package at `packageRoot`: Astro's
 * version, the files of the site outside `src/` and `public/` (the bundling script, the adapter, the
 * configuration; a page links the public files by name), the route component's text, and the session pages'
 * components with everything they import. An edit of another component (the agents' page's) or of a page
 * script leaves it as it is, and the pages of sessions are kept.
 */
function sessionPagesSiteKey(packageRoot: string = PACKAGE_ROOT): string {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  const astro = JSON.parse(readFileSync(require.resolve('astro/package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(`astro ${astro.version}\0`);
  const site = join(packageRoot, 'site');
  const files = filesUnder(site, NOT_SOURCES)
    .filter((rel) => !/^(src|public)\//.test(rel))
    .concat(ROUTE_COMPONENT)
    .sort();
  for (const rel of files) {
    hash.update(`\0${rel}\0`);
    hash.update(readFileSync(join(site, rel)));
  }
  const components = SESSION_COMPONENTS.map((rel) => join(site, rel));
  hash.update(`\0${closureHash(components, packageRoot)}`);
  return hash.digest('hex').slice(0, 20);
}

/** Bundlings in progress in this process, by bundle folder. */
const bundling = new Map<string, Promise<SiteBundle>>();

/**
 * The bundle of the current sources, made first when there is none (once, however many callers ask meanwhile).
 * An installation without the site's sources uses the bundle it was shipped with.
 */
export async function siteServer(options: SiteServerOptions = {}): Promise<SiteBundle> {
  const packageRoot = resolve(options.packageRoot ?? PACKAGE_ROOT);
  if (!existsSync(join(packageRoot, 'site'))) return shippedBundle(packageRoot);
  const key = siteServerKey(packageRoot);
  const folder = join(bundlesOf(packageRoot), key);
  const sessionPagesKey = sessionPagesSiteKey(packageRoot);
  if (existsSync(bundleIn(folder).entry)) return { ...bundleIn(folder), sessionPagesKey };
  let made = bundling.get(folder);
  if (!made) {
    made = bundle(packageRoot, key, options.log ?? (() => {})).finally(() => bundling.delete(folder));
    bundling.set(folder, made);
  }
  return { ...(await made), sessionPagesKey };
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
  const site = join(packageRoot, 'site');
  cpSync(site, root, {
    recursive: true,
    filter: (src) => dirname(src) !== site || !NOT_SOURCES.has(basename(src)),
  });
  try {
    await astroBuild(root, out, log);
    writeFileSync(join(out, SESSION_PAGES_KEY_FILE), sessionPagesSiteKey(packageRoot));
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

/**
 * Runs Astro's build of the site copied to `root` into `out`, in a child process whose working directory is
 * `root` (Astro resolves parts of a site from the working directory; the caller's stays as it is). The site's
 * `bundle.mjs` is that process's script; what Astro prints goes to `log`.
 */
function astroBuild(root: string, out: string, log: (msg: string) => void): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'bundle.mjs'), out], {
      cwd: root,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', fail);
    child.on('close', (code, signal) => {
      const text = Buffer.concat(output).toString('utf8').trim();
      if (code === 0) {
        if (text) log(text);
        done();
      } else fail(new Error(`bundling the report site failed (${signal ?? `exit ${code}`}): ${text}`));
    });
  });
}

/** Loads a bundle's entry module (see `siteServer`) and returns its page renderer. */
export async function loadRenderer(entry: string): Promise<RenderPage> {
  const module = (await import(pathToFileURL(entry).href)) as { renderPage?: RenderPage };
  if (typeof module.renderPage !== 'function') throw new Error(`${entry} is not a report bundle`);
  return module.renderPage;
}
