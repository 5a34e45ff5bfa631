// Packs the published packages as `pnpm publish` would (workspace ranges become versions, `files` applied) and
// installs tarballs into an empty folder with plain npm, as a user's `npm install cctrail` would. Used by
// `measure-install.mjs` and the installed-package tests (`installed.test.mjs`); needs a built tree (`pnpm build`).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The published packages: the engine, for other tools, and the CLI, which holds the engine and the report
 * (`@cctrail/report`, private) in its bundle and depends on no package.
 */
export const PACKAGES = ['packages/core', 'packages/cli'];

/**
 * Packs every published package into `dest` (`pnpm pack`, so `workspace:*` becomes the version).
 *
 * @param {string} dest A folder for the tarballs.
 * @returns {string[]} The tarballs' paths, in the order of `PACKAGES`.
 */
export function packPackages(dest) {
  mkdirSync(dest, { recursive: true });
  return PACKAGES.map((pkg) => {
    const out = execFileSync('pnpm', ['pack', '--pack-destination', dest], {
      cwd: join(ROOT, pkg),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tarball = out.trim().split('\n').pop()?.trim();
    if (!tarball?.endsWith('.tgz')) throw new Error(`pnpm pack of ${pkg} printed no tarball: ${out}`);
    return tarball;
  });
}

/**
 * Installs packages into `dir`, a new empty project, with plain npm; resolves to how long it took.
 *
 * @param {string} dir An empty folder (made if missing).
 * @param {string[]} specs Tarball paths or registry specs.
 * @param {{ cache?: string, registry?: string }} [options] npm's cache folder and registry (default: npm's).
 * @returns {Promise<number>} Milliseconds.
 */
export function npmInstall(dir, specs, options = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
  if (options.cache) args.push('--cache', options.cache);
  if (options.registry) args.push('--registry', options.registry);
  const started = process.hrtime.bigint();
  return new Promise((done, fail) => {
    execFile(
      'npm',
      [...args, ...specs],
      { cwd: dir, env: { ...process.env, npm_config_update_notifier: 'false' } },
      (error, _stdout, stderr) => {
        if (error) fail(new Error(`npm install ${specs.join(' ')} failed: ${stderr}`));
        else done(Number(process.hrtime.bigint() - started) / 1e6);
      },
    );
  });
}

/**
 * The installed size of a folder: the bytes of its files (what `du --apparent-size` counts; links in `.bin` are not followed), and its packages
 * (folders with a package.json directly under a node_modules).
 *
 * @param {string} nodeModules A node_modules folder.
 */
export function installedSize(nodeModules) {
  let bytes = 0;
  const packages = [];
  const stack = [nodeModules];
  while (stack.length > 0) {
    const dir = /** @type {string} */ (stack.pop());
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile()) bytes += statSync(path).size;
    }
    if (/[\\/]node_modules[\\/](@[^\\/]+[\\/])?[^@\\/][^\\/]*$/.test(dir)) {
      try {
        packages.push(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name);
      } catch {}
    }
  }
  return { bytes, packages: packages.filter(Boolean).sort() };
}
