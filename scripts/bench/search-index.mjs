// Size and speed of the report's transcript search on a built site: bytes of the index's files (meta, term and
// entry files) against the archive (its JSON files) and against the transcript text the pages show, and, in
// Debian's chromium from file://, for each query typed into the search page, the time from the input to its
// first transcript results on screen, and the files and bytes of the index that query loaded.
//
//   node scripts/bench/search-index.mjs SITE_DIR ARCHIVE_DIR [--query words]… [--runs 5] [--no-browser] [--phases]
//
// --phases prints each run's first-result time and where it went (term files, matching) as the page records it.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { duplicateFiles } from './library-page.mjs';

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
  const dir = join(site, '_cctrail', 'search');
  const files = readdirSync(dir).map((f) => ({ f, size: statSync(join(dir, f)).size }));
  const sum = (re) => files.filter((x) => re.test(x.f)).reduce((a, x) => a + x.size, 0);
  const largest = (re) => Math.max(0, ...files.filter((x) => re.test(x.f)).map((x) => x.size));
  const sessions = filesUnder(join(archive, 'sessions'), '.json');
  const duplicates = duplicateFiles(archive);
  let archiveBytes = 0;
  let text = 0;
  for (const f of sessions) {
    archiveBytes += statSync(f).size;
    if (duplicates.has(f)) continue;
    const s = JSON.parse(readFileSync(f, 'utf8'));
    for (const e of s.entries ?? []) if (e.kind !== 'progress') text += shownText(e);
  }
  return {
    files: files.length,
    index: sum(/\.js$/),
    meta: sum(/^meta\.js$/),
    terms: sum(/^t\d+\.js$/),
    termFiles: files.filter((x) => /^t\d+\.js$/.test(x.f)).length,
    largestTerms: largest(/^t\d+\.js$/),
    docs: sum(/^d\d+\.js$/),
    docFiles: files.filter((x) => /^d\d+\.js$/.test(x.f)).length,
    largestDocs: largest(/^d\d+\.js$/),
    titles: statSync(join(site, '_cctrail', 'search-index.js')).size,
    archive: archiveBytes,
    text,
  };
}

/** The middle value. */
function median(values) {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
}

/**
 * Queries typed into the search page in chromium from file://, each `runs` times in a fresh page: the time from
 * the input to the first transcript result on screen (measured by the page: median and best), to the whole
 * first page of results and their count (median), the hits, and the index files loaded.
 */
export async function searchTimes(site, queries, runs = 5, phases = false) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const out = [];
  try {
    for (const q of queries) {
      const firsts = [];
      const dones = [];
      let last = null;
      for (let run = 0; run < runs; run++) {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(join(site, 'search', 'index.html')).href, { waitUntil: 'load' });
        await page.fill('#q', q);
        await page.waitForSelector('#search-hits-status[data-ms]', { timeout: 120_000 });
        last = await page.evaluate(() => ({
          first: document.getElementById('search-hits')?.getAttribute('data-first-ms'),
          done: document.getElementById('search-hits-status')?.getAttribute('data-ms'),
          phases: document.getElementById('search-hits')?.getAttribute('data-phases') ?? '',
          status: document.getElementById('search-hits-status')?.textContent ?? '',
          scripts: [...document.scripts].map((s) => s.src).filter((u) => u.includes('/_cctrail/search/')),
        }));
        if (last.first !== null) firsts.push(Number(last.first));
        dones.push(Number(last.done));
        if (phases) console.log(`  ${q}: first result ${last.first} ms; ${last.phases}`);
        await page.close();
      }
      const bytes = last.scripts.reduce((a, u) => a + statSync(fileURLToPath(u)).size, 0);
      out.push({
        q,
        first: firsts.length > 0 ? median(firsts) : null,
        best: firsts.length > 0 ? Math.min(...firsts) : null,
        done: median(dones),
        status: last.status,
        loads: last.scripts.length,
        bytes,
      });
    }
  } finally {
    await browser.close();
  }
  return out;
}

/**
 * CPU time (ms, this thread) of a query's work as the search page does it, in Node, with the page's own matcher
 * (`_cctrail/search-match.js`): reading and evaluating the term files of its words, picking the best 20 (for
 * one word from the heads of its lists), reading and evaluating the entries files of those — `first`; then
 * matching every entry to count them — `all` (medians of `runs`, nothing kept between runs). Wall times in a
 * browser on a machine shared with other work are stretched; this is what a quiet one would spend on the work.
 */
export function searchCpu(site, query, runs = 5) {
  const dir = join(site, '_cctrail', 'search');
  const windowOf = (file) => {
    const w = {};
    new Function('window', readFileSync(file, 'utf8'))(w);
    return w;
  };
  const meta = windowOf(join(site, '_cctrail', 'search-index.js')).CCTRAIL_SEARCH_FILES;
  const M = windowOf(join(site, '_cctrail', 'search-match.js')).CCTRAIL_MATCH;
  const script = (name, hook) => {
    let value = null;
    new Function('window', readFileSync(join(dir, `${name}.js`), 'utf8'))({
      [hook]: (_n, text) => {
        value = text;
      },
    });
    return value;
  };
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const firsts = [];
  const alls = [];
  let hits = 0;
  let loads = 0;
  for (let run = 0; run < runs; run++) {
    const start = cpu();
    const words = M.queryWords(query);
    loads = 0;
    const lists = words.map((word) =>
      M.termLists(
        M.fileRange(meta.t, word).map((n) => {
          loads++;
          return `,${script(`t${n}`, 'CCTRAIL_SEARCH_TERMS')},`;
        }),
        word,
      ),
    );
    let found = lists.length === 1 ? null : M.match(lists, meta.n);
    const best = found ? M.ranked(found, 0, 20) : M.best(lists[0], meta.n, 20);
    for (const name of new Set(best.map((d) => M.entryPlace(meta, d)[0]))) {
      JSON.parse(script(name, 'CCTRAIL_SEARCH_DOCS'));
      loads++;
    }
    firsts.push(cpu() - start);
    found ??= M.match(lists, meta.n);
    hits = found.docs.length;
    alls.push(cpu() - start);
  }
  return { ms: median(firsts), all: median(alls), hits, loads };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [site, archive] = process.argv.slice(2);
  const queries = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--query' ? [a] : []));
  if (!site || !archive) {
    console.error('usage: node scripts/bench/search-index.mjs SITE_DIR ARCHIVE_DIR [--query words]…');
    process.exit(2);
  }
  const mb = (n) => `${(n / 1048576).toFixed(1)} MiB`;
  const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
  const s = searchSizes(site, archive);
  console.log(
    `index ${mb(s.index)} in ${s.files} files: meta ${kb(s.meta)}; terms ${mb(s.terms)} in ${s.termFiles} files (largest ${kb(s.largestTerms)}); entries ${mb(s.docs)} in ${s.docFiles} files (largest ${kb(s.largestDocs)}); titles ${kb(s.titles)}`,
  );
  console.log(
    `archive ${mb(s.archive)}: index = ${((100 * s.index) / s.archive).toFixed(1)} %; transcript text ${mb(s.text)}: index = ${((100 * s.index) / s.text).toFixed(1)} %`,
  );
  for (const q of queries) {
    const c = searchCpu(site, q);
    console.log(
      `"${q}": CPU in Node for the page's work (median of 5): ${c.ms.toFixed(0)} ms to the first 20, ${c.all.toFixed(0)} ms with the count; ${c.hits} hits, ${c.loads} files`,
    );
  }
  if (queries.length > 0 && existsSync(CHROMIUM) && !process.argv.includes('--no-browser'))
    for (const t of await searchTimes(
      site,
      queries,
      Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5,
      process.argv.includes('--phases'),
    ))
      console.log(
        `"${t.q}": first result ${t.first ?? '—'} ms after the input (median; best ${t.best ?? '—'} ms), all ${t.done} ms; ${t.status} ${t.loads} files loaded, ${kb(t.bytes)}`,
      );
}
