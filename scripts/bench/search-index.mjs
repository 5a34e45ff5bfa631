// Size and speed of the report's transcript search on a built site: bytes of the index's files (meta, term and
// entry files) against the archive (its JSON files) and against the transcript text the pages show, and, in
// Debian's chromium from file://, for each query typed into the search page, the time from the input to its
// first transcript results on screen, and the files and bytes of the index that query loaded.
//
//   node scripts/bench/search-index.mjs SITE_DIR ARCHIVE_DIR [--query words]… [--runs 5] [--no-browser]

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  let archiveBytes = 0;
  let text = 0;
  for (const f of sessions) {
    archiveBytes += statSync(f).size;
    const s = JSON.parse(readFileSync(f, 'utf8'));
    if (s.duplicateOf) continue;
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
 * the input to the first transcript result on screen (measured by the page: median and best), the hits, and
 * the index files loaded.
 */
export async function searchTimes(site, queries, runs = 5) {
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
      let last = null;
      for (let run = 0; run < runs; run++) {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(join(site, 'search', 'index.html')).href, { waitUntil: 'load' });
        await page.fill('#q', q);
        await page.waitForSelector('#search-hits-status[data-ms]', { timeout: 120_000 });
        last = await page.evaluate(() => ({
          first: document.getElementById('search-hits')?.getAttribute('data-first-ms'),
          phases: document.getElementById('search-hits')?.getAttribute('data-phases') ?? '',
          status: document.getElementById('search-hits-status')?.textContent ?? '',
          scripts: [...document.scripts].map((s) => s.src).filter((u) => u.includes('/_cctrail/search/')),
        }));
        if (last.first !== null) firsts.push(Number(last.first));
        await page.close();
      }
      const bytes = last.scripts.reduce((a, u) => a + statSync(fileURLToPath(u)).size, 0);
      out.push({
        q,
        first: firsts.length > 0 ? median(firsts) : null,
        best: firsts.length > 0 ? Math.min(...firsts) : null,
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
 * CPU time (ms, this thread) of a query's work as the search page does it, in Node: reading and evaluating the
 * term files of its words, scoring their postings, picking the best 20, reading and evaluating the entries
 * files of those (median of `runs`, nothing kept between runs). Wall times in a browser on a machine shared
 * with other work are stretched; this is what a quiet one would spend on the work itself.
 */
export function searchCpu(site, query, runs = 5) {
  const dir = join(site, '_cctrail', 'search');
  const windowOf = (file) => {
    const w = {};
    new Function('window', readFileSync(file, 'utf8'))(w);
    return w;
  };
  const meta = windowOf(join(site, '_cctrail', 'search-index.js')).CCTRAIL_SEARCH_FILES;
  const script = (name, hook) => {
    let value = null;
    new Function('window', readFileSync(join(dir, `${name}.js`), 'utf8'))({
      [hook]: (_n, text) => {
        value = text;
      },
    });
    return value;
  };
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const value = new Int8Array(128);
  for (let i = 0; i < 64; i++) value[digits.charCodeAt(i)] = i;
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const times = [];
  let hits = 0;
  let loads = 0;
  for (let run = 0; run < runs; run++) {
    const start = cpu();
    const words = query
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '');
    let total = null;
    loads = 0;
    for (const word of words) {
      const prefix = word.length >= 3;
      let lo = 0;
      while (lo + 1 < meta.t.length && meta.t[lo + 1] <= word) lo++;
      let hi = lo;
      if (prefix) while (hi + 1 < meta.t.length && meta.t[hi + 1].startsWith(word)) hi++;
      const scores = new Float64Array(meta.n);
      for (let n = lo; n <= hi; n++) {
        const file = `,${script(`t${n}`, 'CCTRAIL_SEARCH_TERMS')},`;
        loads++;
        for (const entry of file.split(',')) {
          const [term, code] = entry.split(' ');
          if (!term || !(prefix ? term.startsWith(word) : term === word)) continue;
          let df = 0;
          for (let i = 0; i < code.length; i++) if (value[code.charCodeAt(i)] < 32) df++;
          const idf = Math.log(1 + (meta.n - df + 0.5) / (df + 0.5)) * (term === word ? 1 : 0.5);
          let last = -1;
          let v = 0;
          let scale = 1;
          for (let i = 0; i < code.length; i++) {
            const d = value[code.charCodeAt(i)];
            if (d >= 32) {
              v += (d - 32) * scale;
              scale *= 32;
              continue;
            }
            v += d * scale;
            last += Math.floor(v / 8) + 1;
            scores[last] = Math.max(scores[last], idf * ((v % 8) + 1));
            v = 0;
            scale = 1;
          }
        }
      }
      total = total === null ? scores : total.map((t, d) => (t > 0 && scores[d] > 0 ? t + scores[d] : 0));
    }
    const docs = [];
    for (let d = 0; d < total.length; d++) if (total[d] > 0) docs.push(d);
    hits = docs.length;
    // The best 20 without sorting all, as the page picks them.
    const better = (a, b) => total[a] > total[b] || (total[a] === total[b] && a < b);
    const best = [];
    for (const d of docs) {
      if (best.length === 20 && !better(d, best[19])) continue;
      let i = best.length === 20 ? 19 : best.length;
      while (i > 0 && better(d, best[i - 1])) {
        best[i] = best[i - 1];
        i--;
      }
      best[i] = d;
    }
    for (const n of new Set(best.map((d) => Math.floor(d / meta.k)))) {
      JSON.parse(script(`d${n}`, 'CCTRAIL_SEARCH_DOCS'));
      loads++;
    }
    times.push(cpu() - start);
  }
  return { ms: median(times), hits, loads };
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
      `"${q}": CPU ${c.ms.toFixed(0)} ms in Node for the page's work (median of 5); ${c.hits} hits, ${c.loads} files`,
    );
  }
  if (queries.length > 0 && existsSync(CHROMIUM) && !process.argv.includes('--no-browser'))
    for (const t of await searchTimes(
      site,
      queries,
      Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5,
    ))
      console.log(
        `"${t.q}": first result ${t.first ?? '—'} ms after the input (median; best ${t.best ?? '—'} ms); ${t.status} ${t.loads} files loaded, ${kb(t.bytes)}`,
      );
}
