import { dirname } from 'node:path';
import { siteServer } from './site-server.js';

/** Run by the package's build: bundles the report site for the current sources (see `site-server.ts`). */
const bundle = await siteServer({ log: (message) => console.log(message) });
console.log(`report: site bundle ${dirname(dirname(bundle.entry))}`);
