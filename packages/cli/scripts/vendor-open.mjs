// Run by `build`: bundles the `open` package (which opens a report in the default browser, `--open`) into one file,
// `dist/vendor/open.js`, with the `xdg-open` script it falls back to on Linux beside it. An installation of cctrail
// thus gets it without the nine small packages `open` depends on.
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const openDir = dirname(require.resolve('open'));
const vendor = fileURLToPath(new URL('../dist/vendor/', import.meta.url));
mkdirSync(vendor, { recursive: true });
await build({
  entryPoints: [join(openDir, 'index.js')],
  outfile: join(vendor, 'open.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
copyFileSync(join(openDir, 'xdg-open'), join(vendor, 'xdg-open'));
chmodSync(join(vendor, 'xdg-open'), 0o755);
copyFileSync(join(openDir, 'license'), join(vendor, 'open.LICENSE'));
