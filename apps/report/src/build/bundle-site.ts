import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBrowserAssets } from './browser-assets.js';
import { validatorsModule } from './schema-module.js';
import { siteServer } from './site-server.js';

/**
 * Run by the package's build: compiles core's schemas into the validators `load.ts` imports, writes the page
 * scripts and the stylesheet into the site (`browser-assets.ts`), and bundles the report site for the current
 * sources (see `site-server.ts`).
 */
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'schema-validators.js'), validatorsModule());
const assets = await writeBrowserAssets();
console.log(`report: ${assets.length} files of the pages written from src/browser`);
const bundle = await siteServer({ log: (message) => console.log(message) });
console.log(`report: site bundle ${dirname(dirname(bundle.entry))}`);
