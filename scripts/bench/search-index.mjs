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

/** CPU time (ms) of a process and its descendants so far, from /proc (Linux). */
function treeCpu(root) {
  const parent = new Map();
  const ticks = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(pid), Number(f[1]));
      ticks.set(Number(pid), Number(f[11]) + Number(f[12]));
    } catch {
      /* gone */
    }
  }
  const inTree = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === root) return true;
    return false;
  };
  let sum = 0;
  for (const [pid, t] of ticks) if (inTree(pid)) sum += t;
  return sum * 10;
}

/** The middle value. */
function median(values) {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
}

/**
 * Queries typed into the search page in chromium from file://, each `runs` times in a fresh page: the time from
 * the input to the first transcript result on screen (measured by the page), the CPU time of all of
 * chromium's processes from the input to the last result shown (a machine shared with other work stretches
 * wall times, much less CPU times), the hits, and the index files loaded.
 */
export async function searchTimes(site, queries, runs = 5) {
  const { chromium } = await import('playwright-core');
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const browser = await chromium.connect(server.wsEndpoint());
  const pid = server.process().pid;
  const out = [];
  try {
    for (const q of queries) {
      const firsts = [];
      const busy = [];
      let last = null;
      for (let run = 0; run < runs; run++) {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(join(site, 'search', 'index.html')).href, { waitUntil: 'load' });
        const before = treeCpu(pid);
        await page.fill('#q', q);
        await page.waitForSelector('#search-hits-status[data-ms]', { timeout: 120_000 });
        busy.push(treeCpu(pid) - before);
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
        busy: median(busy),
        status: last.status,
        loads: last.scripts.length,
        bytes,
      });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return out;
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
  if (queries.length > 0 && existsSync(CHROMIUM) && !process.argv.includes('--no-browser'))
    for (const t of await searchTimes(
      site,
      queries,
      Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5,
    ))
      console.log(
        `"${t.q}": first result ${t.first ?? '—'} ms after the input (median; best ${t.best ?? '—'} ms), chromium CPU ${t.busy} ms; ${t.status} ${t.loads} files loaded, ${kb(t.bytes)}`,
      );
}
