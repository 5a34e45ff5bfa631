import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the caches of a report are keyed by besides their inputs: the code that makes each kind of output, as
 * a hash of the modules it is made by. A module's imports are followed (relative ones to their files, the
 * `@cctrail/` packages to their entry modules, other packages to their versions), so editing one view changes
 * the keys of exactly the outputs whose modules import it, directly or not. Installed from the CLI's bundle,
 * where the modules are chunks, the key is that of all the bundled code. Nothing is bumped by hand.
 */

/** The package's compiled (`dist/`) or source (`src/`) folder: the one this module runs from. */
const CODE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Relative and package specifiers of a module's imports, re-exports and dynamic imports with a literal,
 * type-only imports left out (they leave nothing in the compiled code).
 */
const IMPORT =
  /(?:\bimport\s*(?!type\b)[\w*{}\s,$]*?\bfrom\s*|\bexport\s*(?!type\b)[\w*{}\s,$]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(['"])([^'"\n]+)\1/g;

/** The file a relative specifier names: as written, or the `.ts` source of a `.js` specifier. */
function fileOf(from: string, specifier: string): string | null {
  const path = resolve(dirname(from), specifier);
  if (existsSync(path)) return path;
  const source = path.replace(/\.js$/, '.ts');
  return source !== path && existsSync(source) ? source : null;
}

/** The `package.json` of package `name` as `from` resolves it (`node_modules` folders up the tree). */
function packageOf(from: string, name: string): { dir: string; manifest: Record<string, unknown> } | null {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file))
      return {
        dir: dirname(file),
        manifest: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>,
      };
    if (dirname(dir) === dir) return null;
  }
}

/** The entry module of a package (its `exports['.']` default, or `main`). */
function entryOf(pkg: { dir: string; manifest: Record<string, unknown> }): string | null {
  const exports = pkg.manifest.exports as Record<string, unknown> | undefined;
  const dot = exports?.['.'];
  const target =
    typeof dot === 'string'
      ? dot
      : ((dot as Record<string, unknown> | undefined)?.import ??
        (dot as Record<string, unknown> | undefined)?.default ??
        pkg.manifest.main);
  if (typeof target !== 'string') return null;
  const file = join(pkg.dir, target);
  return existsSync(file) ? file : null;
}

/**
 * Every module and package version the modules `entries` are made by, as one digest.
 * @param entries Files of modules (`.js`, `.ts`, `.astro`: any text whose imports are statements).
 * @param root The folder the modules are named relative to in the digest (default: the package's code).
 */
export function closureHash(entries: readonly string[], root: string = CODE_ROOT): string {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const files: string[] = [];
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    files.push(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[2] ?? '';
      if (specifier.startsWith('.')) {
        const next = fileOf(file, specifier);
        if (next) queue.push(next);
        continue;
      }
      if (specifier.startsWith('node:')) continue;
      const name = specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
      const pkg = packageOf(file, name);
      if (!pkg) continue;
      const entry = name.startsWith('@cctrail/') ? entryOf(pkg) : null;
      if (entry) queue.push(entry);
      else packages.add(`${name}@${String(pkg.manifest.version)}`);
    }
  }
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    // Paths inside the package, so that the key does not depend on where it is installed.
    hash.update(`\0${relative(root, file).replace(/\.ts$/, '.js')}\0`);
    hash.update(readFileSync(file));
  }
  for (const pkg of [...packages].sort()) hash.update(`\0${pkg}`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * In a bundle the modules are not files of their own: the code is every module of the bundle's folder (the
 * chunk this module is in, the chunks beside it: a chunk may import this one rather than be imported by it).
 */
function bundledCode(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  return readdirSync(here)
    .filter((name) => /\.m?js$/.test(name))
    .map((name) => join(here, name));
}

/**
 * The file beside the chunks of a bundle that holds the key of all its code (`closureHash` of `bundledCode`,
 * relative to the bundle's parent folder), written when the bundle is made: a rebuild then reads 16 characters
 * instead of reading, scanning and hashing every chunk (about 4 MB).
 */
const BUNDLE_CODE_KEY_FILE = 'code.key';

/** The key of the code of the bundle this module is in: the one its key file holds, else computed. */
function bundledCodeKey(): string {
  try {
    const key = readFileSync(
      join(dirname(fileURLToPath(import.meta.url)), BUNDLE_CODE_KEY_FILE),
      'utf8',
    ).trim();
    if (/^[0-9a-f]{16}$/.test(key)) return key;
  } catch {
    // A bundle made without the file: its code is hashed.
  }
  return closureHash(bundledCode());
}

/** Keys computed in this process: the code in memory does not change while it runs. */
const computed = new Map<string, string>();
/** The key of the bundle's code, once known (every output's code is the whole bundle's). */
let bundled: string | undefined;

/**
 * The key of the code made of the modules `modules` of the package and every module they import.
 * @param modules Modules by their path in the package without extension (`views/site/session-part`).
 */
function codeKey(...modules: string[]): string {
  const id = modules.join('\0');
  let key = computed.get(id);
  if (key === undefined) {
    const files = modules.map((m) => fileOf(join(CODE_ROOT, 'x'), `./${m}.js`));
    if (files.every((f) => f !== null)) key = closureHash(files as string[]);
    else {
      bundled ??= bundledCodeKey();
      key = bundled;
    }
    computed.set(id, key);
  }
  return key;
}

/**
 * The code of what a build caches per session file: its part, its transcript fragments and its search piece
 * (`session-pass.ts` and the views it calls).
 */
export function sessionCodeKey(): string {
  return codeKey('build/session-pass');
}

/**
 * The code of the pages a build keeps across builds, those of sessions (`session-page-views.ts`, and the site
 * manifest they are computed from); the site bundle that renders them has a key of its own.
 */
export function sessionPagesCodeKey(): string {
  return codeKey('views/site/session-page-views', 'build/manifest');
}

/** The code of the agents' pages a build keeps across builds: their views, and what their keys are made of. */
export function agentPagesCodeKey(): string {
  return codeKey('views/site/page-views', 'build/agent-page-keys');
}
