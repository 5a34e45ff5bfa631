import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeOnigWasm } from '../views/markdown/onig-wasm.js';
import { writeBrowserAssets } from './browser-assets.js';
import { validatorsModule } from './schema-module.js';
import { siteServer } from './site-server.js';

/**
 * Run by the package's build: compiles core's schemas into the validators `load.ts` imports, writes the
 * highlighter's WebAssembly beside the module that loads it (`onig-wasm.ts`), writes the page scripts and the
 * stylesheet into the site (`browser-assets.ts`), and bundles the report site for the current sources (see
 * `site-server.ts`).
 */
const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, 'schema-validators.js'), validatorsModule());
await writeOnigWasm(join(here, '..', 'views', 'markdown'));
const assets = await writeBrowserAssets();
console.log(`report: ${assets.length} files of the pages written from src/browser`);
const bundle = await siteServer({ log: (message) => console.log(message) });
console.log(`report: site bundle ${dirname(dirname(bundle.entry))}`);
