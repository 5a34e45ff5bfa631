// Size and speed of the report's transcript search on a built site: bytes of the index's script files against
// the archive (its JSON files) and against the transcript text the pages show, and, in Debian's chromium from
// file://, the time from opening the search page with a query to its first transcript result, and to the last.
//
//   node scripts/bench/search-index.mjs SITE_DIR ARCHIVE_DIR [--query word]… [--no-browser]

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';

const CHROMIUM = '/usr/bin/chromium';

function filesUnder(dir, suffix) {
  const out = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (p.endsWith(suffix)) out.push(p);
    }
  }
  return out;
}

/** UTF-8 bytes of the text an entry shows: messages, thinking, tool inputs' strings, tool results' text. */
function shownText(entry) {
  let bytes = 0;
  const add = (s) => {
    if (typeof s === 'string') bytes += Buffer.byteLength(s);
  };
  for (const b of entry.content ?? []) {
    if (b.type === 'text') add(b.text);
    else if (b.type === 'thinking') add(b.thinking);
    else if (b.type === 'tool_use') for (const v of Object.values(b.input ?? {})) add(v);
    else if (b.type === 'tool_result') for (const item of b.content) if (item.type === 'text') add(item.text);
  }
  return bytes;
}

/** Index, archive and text sizes of a built site and its archive. */
export function searchSizes(site, archive) {
  const pieces = filesUnder(join(site, '_cctrail', 'search'), '.js');
  const index = pieces.reduce((a, f) => a + statSync(f).size, 0);
  const sessions = filesUnder(join(archive, 'sessions'), '.json');
  let archiveBytes = 0;
  let text = 0;
  for (const f of sessions) {
    archiveBytes += statSync(f).size;
    const s = JSON.parse(readFileSync(f, 'utf8'));
    if (s.duplicateOf) continue;
    for (const e of s.entries ?? []) if (e.kind !== 'progress') text += shownText(e);
  }
  return {
    files: pieces.length,
    index,
    largestFile: Math.max(0, ...pieces.map((f) => statSync(f).size)),
    engine: statSync(join(site, '_cctrail', 'minisearch.js')).size,
    titles: statSync(join(site, '_cctrail', 'search-index.js')).size,
    archive: archiveBytes,
    text,
  };
}

/** Times of queries in chromium from file://: to the first transcript result and to the end of the search. */
export async function searchTimes(site, queries) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const out = [];
  try {
    for (const q of queries) {
      const page = await browser.newPage();
      const url = `${pathToFileURL(join(site, 'search', 'index.html')).href}?q=${encodeURIComponent(q)}`;
      const started = Date.now();
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('#search-hits li', { timeout: 60_000 }).catch(() => null);
      const first = Date.now() - started;
      await page.waitForSelector('#search-hits-status[data-ms]', { timeout: 120_000 });
      const all = Date.now() - started;
      const hits = await page.evaluate(
        () => document.getElementById('search-hits-status')?.textContent ?? '',
      );
      out.push({
        q,
        first,
        all,
        hits,
        firstInPage: Number(await page.getAttribute('#search-hits', 'data-first-ms')),
      });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

/**
 * CPU time (ms, this thread) the page's work takes in Node for a query: parsing each file, loading its
 * MiniSearch indexes and searching them, to the first file with a result and to the last file. A contended
 * machine stretches wall times in the browser; CPU time says what a quiet one would spend.
 */
export function searchCpu(site, query) {
  const dir = join(site, '_cctrail', 'search');
  const count = readdirSync(dir).filter((f) => /^p\d+\.js$/.test(f)).length;
  let text = '';
  globalThis.window = {
    CCTRAIL_SEARCH_PIECE: (_n, t) => {
      text = t;
    },
  };
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const start = cpu();
  let first = null;
  let hits = 0;
  for (let n = 1; n <= count; n++) {
    new Function(readFileSync(join(dir, `p${n}.js`), 'utf8'))();
    for (const piece of JSON.parse(text)) {
      const index = MiniSearch.loadJS(piece.i, { fields: ['x'], idField: 'id' });
      hits += index.search(query, { prefix: (t) => t.length >= 3, combineWith: 'AND' }).length;
    }
    if (hits > 0 && first === null) first = cpu() - start;
  }
  return { first, all: cpu() - start, hits };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [site, archive] = process.argv.slice(2);
  const queries = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--query' ? [a] : []));
  if (!site || !archive) {
    console.error('usage: node scripts/bench/search-index.mjs SITE_DIR ARCHIVE_DIR [--query word]…');
    process.exit(2);
  }
  const mb = (n) => `${(n / 1048576).toFixed(1)} MiB`;
  const s = searchSizes(site, archive);
  console.log(
    `index ${mb(s.index)} in ${s.files} files (largest ${mb(s.largestFile)}); engine ${(s.engine / 1024).toFixed(0)} KiB, titles ${(s.titles / 1024).toFixed(0)} KiB`,
  );
  console.log(
    `archive ${mb(s.archive)}: index = ${((100 * s.index) / s.archive).toFixed(1)} %; transcript text ${mb(s.text)}: index = ${((100 * s.index) / s.text).toFixed(1)} %`,
  );
  for (const q of queries) {
    const c = searchCpu(site, q);
    console.log(
      `"${q}": CPU ${c.first === null ? '—' : c.first.toFixed(0)} ms to the first file with a result, ${c.all.toFixed(0)} ms for all; ${c.hits} hits`,
    );
  }
  if (queries.length > 0 && existsSync(CHROMIUM) && !process.argv.includes('--no-browser'))
    for (const t of await searchTimes(site, queries))
      console.log(
        `"${t.q}": first result ${t.first} ms after navigation (${t.firstInPage} ms after the query ran), all ${t.all} ms; ${t.hits}`,
      );
}
