// Bundles the report site (see `src/build/site-server.ts`, which runs this script in a child process whose
// working directory is a copy of the site): Astro builds the copy into the folder named by the one argument.
import { join } from 'node:path';
import { build } from 'astro';

const [outDir] = process.argv.slice(2);
if (!outDir) throw new Error('usage: node bundle.mjs <out-dir>');
const root = process.cwd();
await build({ root, outDir, logLevel: 'warn', cacheDir: join(root, '.astro', 'cache') });
