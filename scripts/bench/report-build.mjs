// The report's own build, alone: `buildReport` of a build's report package on an archive `cctrail export`
// wrote, in a process of its own so that the runner can time it and read its peak memory. It replaces the
// log-only `apps/report/test/bench.test.ts`, which built a hand-made archive; this one builds the export of a
// generated archive, so it measures what `cctrail report` does after its export.
//
//   node scripts/bench/report-build.mjs CHECKOUT ARCHIVE_DIR OUT_DIR

import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [checkout, dataDir, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: report-build.mjs CHECKOUT ARCHIVE_DIR OUT_DIR');
  process.exit(2);
}
const { buildReport } = await import(
  pathToFileURL(join(resolve(checkout), 'apps/report/dist/index.js')).href
);
const result = await buildReport({ dataDir: resolve(dataDir), outDir: resolve(outDir), log: () => {} });
console.log(JSON.stringify({ pages: result.pages }));
