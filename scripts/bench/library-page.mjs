// What the comparison scripts of search libraries share (`search-minisearch.mjs`, `search-flexsearch.mjs`):
// the archive's session files, and the timing of a page that answers `window.run(query)` in Debian's chromium
// from file://.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CHROMIUM = '/usr/bin/chromium';

/** The session files of an exported archive. */
export function sessionFiles(archive) {
  const root = join(archive, 'sessions');
  return readdirSync(root).flatMap((p) =>
    readdirSync(join(root, p))
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(root, p, f)),
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
