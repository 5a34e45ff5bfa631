// The licenses of what the `cctrail` package's bundle holds (see `bundle.mjs`): the packages esbuild inlined,
// Astro and Mermaid, whose runtime and browser files the report site's bundle holds, and `open`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The packages of the site's bundle, resolved from the report's package. */
const SITE_PACKAGES = ['astro', 'mermaid'];
/** The packages `vendor/` holds (see `vendor-open.mjs`), resolved from the CLI's package. */
const VENDORED_PACKAGES = ['open'];

/** The folder of the package `name`, holding one of its files. */
function packageFolder(file, name) {
  let dir = dirname(file);
  while (
    !existsSync(join(dir, 'package.json')) ||
    JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name
  ) {
    if (dirname(dir) === dir) throw new Error(`no package.json of ${name} above ${file}`);
    dir = dirname(dir);
  }
  return dir;
}

/**
 * Writes one file with the name, version, license and license text of every package the bundles hold.
 *
 * @param {import('esbuild').Metafile} metafile esbuild's account of the bundle's inputs.
 * @param {string} file The file to write.
 */
export function writeLicenses(metafile, file) {
  const folders = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(input);
    if (match?.[1]) folders.add(match[1]);
  }
  const cli = createRequire(import.meta.url);
  const report = createRequire(cli.resolve('@cctrail/report/package.json'));
  for (const name of SITE_PACKAGES) folders.add(packageFolder(report.resolve(name), name));
  for (const name of VENDORED_PACKAGES) folders.add(packageFolder(cli.resolve(name), name));
  const notices = new Set();
  for (const dir of folders) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (manifest.name?.startsWith('@cctrail/')) continue;
    const license = readdirSync(dir).find((f) => /^(license|licence|copying)/i.test(f));
    const text =
      license && existsSync(join(dir, license)) ? readFileSync(join(dir, license), 'utf8').trim() : '';
    notices.add(`${manifest.name}@${manifest.version} (${manifest.license ?? 'see text'})\n\n${text}`);
  }
  writeFileSync(
    file,
    `The bundles of cctrail hold code of these packages, under these licenses.\n\n${[...notices].sort().join(`\n\n${'-'.repeat(78)}\n\n`)}\n`,
  );
}
