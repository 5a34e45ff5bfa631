// What the comparison scripts of search libraries share (`search-minisearch.mjs`, `search-flexsearch.mjs`):
// the archive's session files, and the timing of a page that answers `window.run(query)` in Debian's chromium
// from file://.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CHROMIUM = '/usr/bin/chromium';

/** The session files of an exported archive. */
export function sessionFiles(archive) {
  const root = join(archive, 'sessions');
  const duplicates = duplicateFiles(archive);
  return readdirSync(root).flatMap((p) =>
    readdirSync(join(root, p))
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(root, p, f))
      .filter((f) => !duplicates.has(f)),
  );
}

/** The session files of an archive whose sessions another one contains (`duplicateOf` of `index.json`). */
export function duplicateFiles(archive) {
  const index = JSON.parse(readFileSync(join(archive, 'index.json'), 'utf8'));
  return new Set(
    index.projects.flatMap((p) => p.sessions.filter((s) => s.duplicateOf).map((s) => join(archive, s.file))),
  );
}

/**
 * Each query `runs` times in a fresh page (`OUT/index.html`, whose `window.run(query)` resolves to an object of
 * numbers): the first run's object with each number replaced by the median of the runs (rounded), and `q`.
 */
export async function timePage(out, queries, runs) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const med = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const rows = [];
  try {
    for (const q of queries) {
      const r = [];
      for (let run = 0; run < runs; run++) {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(join(out, 'index.html')).href, { waitUntil: 'load' });
        r.push(await page.evaluate((query) => window.run(query), q));
        await page.close();
      }
      const row = { ...r[0], q };
      for (const [k, v] of Object.entries(r[0]))
        if (typeof v === 'number') row[k] = Math.round(med(r.map((x) => x[k])));
      rows.push(row);
    }
  } finally {
    await browser.close();
  }
  return rows;
}

/**
 * Writes `OUT/index.html`: the library's browser build (`library`, a file in OUT) as a classic script, and a
 * `run(query)` that loads the index (`OUT/index.js`, a classic script) and then calls `answer` (the source of a
 * function of the query returning an object of numbers; its `done`, a `performance.now()`, ends the timed
 * part when given). It resolves to `{ ms, script, …answer's numbers }`.
 */
export function writeTimingPage(out, library, answer) {
  writeFileSync(
    join(out, 'index.html'),
    `<!doctype html><meta charset="utf-8"><script src="${library}"></script><script>
const answer = ${answer};
window.run = (q) => new Promise((resolve) => {
  const t0 = performance.now();
  const s = document.createElement('script');
  s.src = 'index.js';
  s.onload = () => {
    const t1 = performance.now();
    const { done, ...r } = answer(q);
    resolve({ ms: (done ?? performance.now()) - t0, script: t1 - t0, ...r });
  };
  document.body.appendChild(s);
});
</script><body></body>`,
  );
}
