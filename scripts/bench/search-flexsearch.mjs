// FlexSearch, the second library the report's search issue named, on the same entries as the report's
// transcript index (the text `entrySearchText` gives, of every entry of the archive's sessions, duplicate
// copies left out), for BENCHMARKS.md's comparison: the size of its exported index against the text the pages
// show, the time to build it in Node, and in Debian's chromium from file:// the time from a query to its
// results when the page loads the whole index as a classic script (FlexSearch's non-module bundle, then the
// exported keys as JSON texts in strings, or array literals with --literal, `index.import` of each, `search`).
// Needs the report built (`pnpm --filter @cctrail/report build`).
//
//   node scripts/bench/search-flexsearch.mjs ARCHIVE_DIR OUT_DIR [--query words]… [--runs 3] [--sessions N]
//     [--tokenize forward|strict] [--literal] [--reuse]

import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import FlexSearch from 'flexsearch';
import { entrySearchText } from '../../apps/report/dist/views/search/search-text.js';
import { sessionFiles, timePage, writeTimingPage } from './library-page.mjs';

/** FlexSearch's options: forward tokenization by default (every prefix of a term, from its first letter: the
 * library has no smallest prefix length; `--tokenize strict` indexes whole terms only), the default encoder but
 * numbers kept whole (by default it cuts digits into triplets, so `105104` would be `105 104`; the report keeps
 * a number one term). */
const ENCODER = { numeric: false };
/** Results a query asks for: those the report shows first. */
const LIMIT = 20;

/** FlexSearch's index of the first `limit` sessions of the archive (all by default), and its exported keys. */
export async function flexSearchIndex(archive, tokenize, limit = Number.POSITIVE_INFINITY) {
  const index = new FlexSearch.Index({ tokenize, encoder: new FlexSearch.Encoder(ENCODER) });
  let id = 0;
  let sessions = 0;
  let text = 0;
  let addNs = 0n;
  for (const file of sessionFiles(archive)) {
    if (sessions >= limit) break;
    const s = JSON.parse(readFileSync(file, 'utf8'));
    sessions++;
    for (const e of s.entries ?? []) {
      const t = entrySearchText(e);
      if (!/\S/.test(t)) continue;
      text += Buffer.byteLength(t);
      const t0 = process.hrtime.bigint();
      index.add(id, t);
      addNs += process.hrtime.bigint() - t0;
      id++;
    }
  }
  const addMs = Number(addNs) / 1e6;
  const keys = [];
  const t1 = process.hrtime.bigint();
  await index.export((key, data) => {
    keys.push([key, data]);
  });
  const exportMs = Number(process.hrtime.bigint() - t1) / 1e6;
  return { sessions, entries: id, indexedText: text, addMs, exportMs, keys, terms: index.map.size };
}

/** Writes the page: FlexSearch's browser bundle, the index as a script, and a `run(query)` timing a query. */
function writePage(out, keys, tokenize, literal) {
  mkdirSync(out, { recursive: true });
  const main = createRequire(import.meta.url).resolve('flexsearch');
  copyFileSync(
    join(main.slice(0, main.lastIndexOf('/dist/')), 'dist/flexsearch.bundle.min.js'),
    join(out, 'flexsearch.js'),
  );
  // Each key's data as a JSON text in a string (as MiniSearch's page has it), or with --literal as the
  // script's own array literal (`import` takes either).
  const data = literal
    ? `[${keys.map(([key, json]) => `[${JSON.stringify(key)},${json}]`).join(',')}]`
    : JSON.stringify(keys);
  writeFileSync(join(out, 'index.js'), `window.FS_INDEX=${data};\n`);
  writeTimingPage(
    out,
    'flexsearch.js',
    `(q) => {
      const t1 = performance.now();
      const index = new FlexSearch.Index({ tokenize: ${JSON.stringify(tokenize)},
        encoder: new FlexSearch.Encoder(${JSON.stringify(ENCODER)}) });
      for (const [key, data] of window.FS_INDEX) index.import(key, data);
      const t2 = performance.now();
      const shown = index.search(q, ${LIMIT}).length;
      const done = performance.now();
      // Counted after the timed part: the report's first page is ${LIMIT} results.
      const hits = index.search(q, 1e9).length;
      return { load: t2 - t1, search: done - t2, shown, hits, done };
    }`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [archive, out] = process.argv.slice(2);
  const queries = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--query' ? [a] : []));
  const option = (name) => process.argv[process.argv.indexOf(name) + 1];
  if (!archive || !out) {
    console.error('usage: node scripts/bench/search-flexsearch.mjs ARCHIVE_DIR OUT_DIR [--query words]…');
    process.exit(2);
  }
  const mb = (n) => `${(n / 1048576).toFixed(1)} MiB`;
  // With --reuse, the page written by an earlier run is timed again.
  if (!process.argv.includes('--reuse')) {
    const limit = process.argv.includes('--sessions') ? Number(option('--sessions')) : undefined;
    const tokenize = process.argv.includes('--tokenize') ? option('--tokenize') : 'forward';
    const { keys, ...built } = await flexSearchIndex(archive, tokenize, limit);
    const literal = process.argv.includes('--literal');
    writePage(out, keys, tokenize, literal);
    const chunks = keys.map(([key, data]) => ({ key, size: data.length }));
    const whole = chunks.reduce((a, c) => a + c.size, 0);
    writeFileSync(join(out, 'sizes.json'), JSON.stringify({ tokenize, literal, ...built, whole, chunks }));
  }
  const sizes = JSON.parse(readFileSync(join(out, 'sizes.json'), 'utf8'));
  console.log(
    `FlexSearch (${sizes.tokenize}${sizes.literal ? ', index as a literal' : ''}): ${sizes.sessions} sessions, ${sizes.entries} entries (${mb(sizes.indexedText)} indexed), ${sizes.terms} keys; add ${(sizes.addMs / 1000).toFixed(1)} s, export ${(sizes.exportMs / 1000).toFixed(1)} s; exported ${mb(sizes.whole)} (JSON) in ${sizes.chunks.length} keys (${sizes.chunks.map((c) => `${c.key} ${mb(c.size)}`).join(', ')}), as a script ${mb(statSync(join(out, 'index.js')).size)}`,
  );
  const runs = Number(option('--runs')) || 3;
  for (const t of await timePage(out, queries, runs))
    console.log(
      `"${t.q}": results ${t.ms} ms after the query (median of ${runs}: script ${t.script} ms, import ${t.load} ms, search ${t.search} ms); ${t.shown} shown, ${t.hits} hits`,
    );
}
