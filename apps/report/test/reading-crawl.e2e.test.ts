/**
 * Every page of two reports in chromium, from file://, at 390, 1280 and 1920 px: the shared corpus's, and a small
 * archive of the benchmark's calibrated generator (`scripts/bench/generate.mjs`, shaped like a real archive). On
 * each: nothing wider than the window or spilling out of its box (figures, table boxes), no run of more than 3
 * rows that are not messages in a transcript, no "?" in any compaction figure, a chart on every conversation
 * page, every page reachable from the index within two clicks, every flowchart's leaves its forks, sub-agents
 * and end (one lane of turns), and search's first result opening its page scrolled to the word, marked.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, htmlFiles, launchChromium } from './helpers/browser.js';
import { beyondTwoClicks, buildCrawlSite, type CrawlSite, pageFacts } from './helpers/crawl.js';
import { tempFolder } from './helpers/temp.js';

const CORPUS = resolve(import.meta.dirname, '../../../../shared/corpus/claude-projects');
const WIDTHS = [390, 1280, 1920];

/** A small calibrated archive: 8 sessions, 8 MB (sub-agents with and without their transcript, compactions). */
async function calibrated(dir: string): Promise<string> {
  // @ts-expect-error: the benchmark's generator is plain JavaScript
  const { generateCorpus } = await import('../../../scripts/bench/generate.mjs');
  await generateCorpus(dir, { sessions: 8, totalMb: 8 });
  return dir;
}

const archives: { name: string; ready: boolean; root: (tmp: string) => Promise<string> }[] = [
  { name: 'the shared corpus', ready: existsSync(CORPUS), root: async () => CORPUS },
  { name: 'a calibrated benchmark archive', ready: true, root: (tmp) => calibrated(join(tmp, 'projects')) },
];

describe.each(archives)('the report of $name, read', ({ ready, root }) => {
  const contexts: BrowserContext[] = [];
  let site: CrawlSite;
  let pages: string[] = [];

  beforeAll(async () => {
    if (!ready || !existsSync(CHROMIUM)) return;
    const tmp = tempFolder('cctrail-reading-crawl-');
    site = await buildCrawlSite(await root(tmp), tmp);
    pages = htmlFiles(site.outDir);
    for (const width of WIDTHS) contexts.push(await launchChromium({ width, height: 900 }));
  }, 600_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it.runIf(ready && existsSync(CHROMIUM))(
    'fits every page at 390, 1280 and 1920 px, keeps transcripts and compaction figures readable, charts conversations',
    async () => {
      expect(pages.length).toBeGreaterThan(20);
      const problems: string[] = [];
      for (const [i, width] of WIDTHS.entries()) {
        const page = await contexts[i]!.newPage();
        for (const file of pages) {
          await page.goto(pathToFileURL(file).href);
          const facts = await pageFacts(page);
          const where = `${width}px ${relative(site.outDir, file)}`;
          if (facts.overflow > 1) problems.push(`${where}: ${facts.overflow}px wider than the window`);
          for (const s of facts.spills) problems.push(`${where}: spills out of its box: ${s}`);
          if (facts.longestQuietRun > 3)
            problems.push(`${where}: ${facts.longestQuietRun} non-message rows in a row`);
          for (const q of facts.questionMarks) problems.push(`${where}: "?" in a compaction figure: ${q}`);
          if (relative(site.outDir, file).startsWith(`c${sep}`) && facts.conversationCharts !== 1)
            problems.push(`${where}: a conversation page without its chart`);
        }
        await page.close();
      }
      expect(problems).toEqual([]);
    },
    900_000,
  );

  it.runIf(ready && existsSync(CHROMIUM))('draws one lane of turns in every chart', () => {
    expect(site.falseLanes).toEqual([]);
  });

  it.runIf(ready && existsSync(CHROMIUM))('reaches every page from the index within two clicks', () => {
    expect(beyondTwoClicks(site.outDir, pages).map((p) => relative(site.outDir, p))).toEqual([]);
  });

  it.runIf(ready && existsSync(CHROMIUM))(
    "opens search's first result scrolled to the word, marked",
    async () => {
      expect(site.word).not.toBeNull();
      const page = await contexts[1]!.newPage();
      const search = pathToFileURL(join(site.outDir, 'search', 'index.html')).href;
      await page.goto(`${search}?q=${encodeURIComponent(site.word!)}`);
      const hit = page.locator('#search-hits li a').first();
      await hit.waitFor({ timeout: 60_000 });
      expect(await hit.locator('mark').allTextContents()).toContain(site.word);
      await hit.click();
      await page.waitForLoadState();
      const inView = () =>
        page.locator('mark.found').evaluateAll((ms) =>
          ms.some((m) => {
            const r = m.getBoundingClientRect();
            return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
          }),
        );
      await expect.poll(inView, { timeout: 30_000 }).toBe(true);
      await page.close();
    },
    120_000,
  );
});
