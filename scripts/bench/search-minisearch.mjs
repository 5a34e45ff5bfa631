// MiniSearch, the library the report's search was first built on, on the same entries as the report's
// transcript index (the text `entrySearchText` gives, of every entry of the archive's sessions, duplicate
// copies left out), for BENCHMARKS.md's comparison: the size of its serialized index (one index for the whole
// archive, and one per session) against the text the pages show, and in Debian's chromium from file:// the
// time from a query to its results when the page loads the whole index as a classic script (MiniSearch's UMD
// build, then the index as a JSON text in a string, `MiniSearch.loadJSON`, `search`).
// Needs the report built (`pnpm --filter @cctrail/report build`).
//
//   node scripts/bench/search-minisearch.mjs ARCHIVE_DIR OUT_DIR [--query words]… [--runs 3] [--reuse]

import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import { entrySearchText } from '../../apps/report/dist/views/search/search-text.js';
import { sessionFiles, timePage, writeTimingPage } from './library-page.mjs';

/** MiniSearch's options, as the report used them (one field); queries take prefixes from three letters, and
 * every word (`run` in the page). */
const OPTIONS = { fields: ['t'], idField: 'i' };

/** The serialized MiniSearch index of the whole archive and the sizes of one index a session. */
export function miniSearchIndexes(archive) {
  const whole = new MiniSearch(OPTIONS);
  let id = 0;
  let perSession = 0;
  let sessions = 0;
  for (const file of sessionFiles(archive)) {
    const s = JSON.parse(readFileSync(file, 'utf8'));
    sessions++;
    const own = new MiniSearch(OPTIONS);
    for (const e of s.entries ?? []) {
      const t = entrySearchText(e);
      if (!/\S/.test(t)) continue;
      whole.add({ i: id, t });
      own.add({ i: id, t });
      id++;
    }
    perSession += JSON.stringify(own).length;
  }
  return { sessions, entries: id, json: JSON.stringify(whole), perSession };
}

/** Writes the page: MiniSearch's browser build, the index as a script, and a `run(query)` timing a query. */
function writePage(out, json) {
  mkdirSync(out, { recursive: true });
  const main = createRequire(import.meta.url).resolve('minisearch');
  copyFileSync(
    join(main.slice(0, main.lastIndexOf('/dist/')), 'dist/umd/index.js'),
    join(out, 'minisearch.js'),
  );
  writeFileSync(join(out, 'index.js'), `window.MS_INDEX=${JSON.stringify(json)};\n`);
  writeTimingPage(
    out,
    'minisearch.js',
    `(q) => {
      const t = performance.now();
      const index = MiniSearch.loadJSON(window.MS_INDEX, ${JSON.stringify(OPTIONS)});
      const load = performance.now() - t;
      return { load, hits: index.search(q, { prefix: (t) => t.length >= 3, combineWith: 'AND' }).length };
    }`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [archive, out] = process.argv.slice(2);
  const queries = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--query' ? [a] : []));
  if (!archive || !out) {
    console.error('usage: node scripts/bench/search-minisearch.mjs ARCHIVE_DIR OUT_DIR [--query words]…');
    process.exit(2);
  }
  const mb = (n) => `${(n / 1048576).toFixed(1)} MiB`;
  // With --reuse, the page written by an earlier run is timed again (building the index takes minutes).
  if (!process.argv.includes('--reuse')) {
    const built = miniSearchIndexes(archive);
    writePage(out, built.json);
    const { json, ...sizes } = built;
    writeFileSync(join(out, 'sizes.json'), JSON.stringify({ ...sizes, whole: json.length }));
  }
  const sizes = JSON.parse(readFileSync(join(out, 'sizes.json'), 'utf8'));
  console.log(
    `MiniSearch: ${sizes.sessions} sessions, ${sizes.entries} entries; one index ${mb(sizes.whole)} (JSON), as a script ${mb(statSync(join(out, 'index.js')).size)}; one a session ${mb(sizes.perSession)} in all`,
  );
  const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
  for (const t of await timePage(out, queries, runs))
    console.log(
      `"${t.q}": results ${t.ms} ms after the query (median of ${runs}: script ${t.script} ms, loadJSON ${t.load} ms); ${t.hits} hits`,
    );
}
