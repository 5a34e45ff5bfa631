/**
 * Every page of the shared corpus's report in chromium, from file://, at 390, 1280 and 1920 px: nothing wider than
 * the window or spilling out of its box (figures, table boxes), no run of more than 3 rows that are not messages in
 * a transcript, and no "?" in any compaction figure.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSession, type Session } from '@cctrail/core';
import { priceSession } from '@cctrail/core/archive';
import { discover, sessionSource } from '@cctrail/core/node';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import { CHROMIUM, htmlFiles, launchChromium } from './helpers/browser.js';
import { writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

const CORPUS = resolve(import.meta.dirname, '../../../../shared/corpus/claude-projects');
const tmp = tempFolder('cctrail-reading-crawl-');
const outDir = join(tmp, 'site');
const WIDTHS = [390, 1280, 1920];

/** What one page measures in the browser. */
interface PageFacts {
  overflow: number;
  spills: string[];
  longestQuietRun: number;
  questionMarks: string[];
}

describe.skipIf(!existsSync(CHROMIUM) || !existsSync(CORPUS))("the shared corpus's report, read", () => {
  const contexts: BrowserContext[] = [];
  let pages: string[] = [];

  beforeAll(async () => {
    const found = await discover([CORPUS]);
    const projects: { id: string; cwd: string; sessions: Session[] }[] = [];
    for (const p of found.projects) {
      const list: Session[] = [];
      for (const s of p.sessions)
        list.push(await buildSession(await sessionSource(s, (f) => relative(CORPUS, f))));
      for (const s of list) priceSession(s);
      projects.push({ id: p.slug.replace(/[^\w-]/g, '_'), cwd: p.slug, sessions: list });
    }
    writeArchive(join(tmp, 'data'), projects);
    await buildReport({ dataDir: join(tmp, 'data'), outDir, base: '/', title: 'crawl', cacheDir: false });
    pages = htmlFiles(outDir);
    for (const width of WIDTHS) contexts.push(await launchChromium({ width, height: 900 }));
  }, 600_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it('fits every page at 390, 1280 and 1920 px, and keeps transcripts and compaction figures readable', async () => {
    expect(pages.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const [i, width] of WIDTHS.entries()) {
      const page = await contexts[i]!.newPage();
      for (const file of pages) {
        await page.goto(pathToFileURL(file).href);
        const facts: PageFacts = await page.evaluate(() => {
          const doc = document.documentElement;
          const spills: string[] = [];
          const name = (el: Element) =>
            `${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
          // a figure's value, a table box, a heading: its content must fit its box
          for (const el of Array.from(
            document.querySelectorAll('.figure, .table-wrap > table, h1, h2, .crumbs, .lede'),
          ))
            if (!el.matches('.visually-hidden') && el.scrollWidth > el.clientWidth + 1) spills.push(name(el));
          for (const box of Array.from(document.querySelectorAll('.table-wrap'))) {
            const table = box.querySelector('table');
            // wide tables scroll inside their box on a phone, never on a desktop
            if (
              table &&
              window.innerWidth >= 1000 &&
              table.getBoundingClientRect().width > box.clientWidth + 1
            )
              spills.push(name(box));
          }
          // a path in a table is never squeezed to a few characters a line
          for (const cell of Array.from(document.querySelectorAll('td.path')))
            if (cell.getBoundingClientRect().width < 100) spills.push(`${name(cell)} squeezed`);
          let longest = 0;
          for (const t of Array.from(document.querySelectorAll('.transcript'))) {
            let run = 0;
            for (const row of Array.from(t.children)) {
              if (row.classList.contains('anchor-only')) continue;
              const message = row.tagName === 'ARTICLE' || row.matches('.compaction, .fork');
              run = message ? 0 : run + 1;
              longest = Math.max(longest, run);
            }
          }
          const marks = Array.from(document.querySelectorAll('.compaction, .tl-marker > title'))
            .map((el) => el.textContent ?? '')
            .filter((text) => text.includes('?'));
          return {
            overflow: doc.scrollWidth - window.innerWidth,
            spills,
            longestQuietRun: longest,
            questionMarks: marks,
          };
        });
        const where = `${width}px ${relative(outDir, file)}`;
        if (facts.overflow > 1) problems.push(`${where}: ${facts.overflow}px wider than the window`);
        for (const s of facts.spills) problems.push(`${where}: spills out of its box: ${s}`);
        if (facts.longestQuietRun > 3)
          problems.push(`${where}: ${facts.longestQuietRun} non-message rows in a row`);
        for (const q of facts.questionMarks) problems.push(`${where}: "?" in a compaction figure: ${q}`);
      }
      await page.close();
    }
    expect(problems).toEqual([]);
  }, 900_000);
});
