import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validatorsModule } from './schema-module.js';
import { siteServer } from './site-server.js';

/**
 * Run by the package's build: compiles core's schemas into the validators `load.ts` imports, and bundles the
 * report site for the current sources (see `site-server.ts`).
 */
writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'schema-validators.js'), validatorsModule());
const bundle = await siteServer({ log: (message) => console.log(message) });
console.log(`report: site bundle ${dirname(dirname(bundle.entry))}`);
