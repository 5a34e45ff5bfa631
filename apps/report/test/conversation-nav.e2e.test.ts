/**
 * Conversations on the reader's path, in Debian's chromium from file://: built from the `conversations` and
 * `duplicates` fixtures through the core engine, every conversation page has its joined timeline chart and is
 * reachable from the index within two clicks, and a duplicate copy's "duplicate of" (on the index, folded under
 * its original, and on its own page) is a link that lands on the original.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import { launchChromium } from './helpers/browser.js';
import { writeArchive } from './helpers/demo.js';
import { type FixtureProject, scenarioProjects } from './helpers/fixtures.js';
import { linkSessions } from './helpers/links.js';
import { tempFolder } from './helpers/temp.js';

const tmp = tempFolder('cctrail-conversation-nav-');
const dataDir = join(tmp, 'data');
const outDir = join(tmp, 'site');
let projects: FixtureProject[] = [];
let context: BrowserContext;
const duplicates: { id: string; duplicateOf: string }[] = [];

beforeAll(async () => {
  projects = [...(await scenarioProjects('conversations')), ...(await scenarioProjects('duplicates'))];
  writeArchive(dataDir, projects, (index) => {
    linkSessions(index, projects);
    for (const project of index.projects)
      for (const line of project.sessions) {
        if (line.duplicateOf) duplicates.push({ id: line.id, duplicateOf: line.duplicateOf });
      }
  });
  await buildReport({ dataDir, outDir, base: '/', title: 'conversation navigation e2e' });
  context = await launchChromium();
}, 240_000);

afterAll(async () => {
  await context?.close();
});

/** The conversation pages the build wrote, as file URLs. */
function conversationPages(): string[] {
  const root = join(outDir, 'c');
  if (!existsSync(root)) return [];
  return readdirSync(root).map((d) => pathToFileURL(join(root, d, 'index.html')).href);
}

/** The pages a page links to (file URLs without their fragment). */
async function linksOf(page: Page, url: string): Promise<string[]> {
  await page.goto(url);
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  return [...new Set(hrefs.map((h) => h.split('#')[0]!).filter((h) => h.startsWith('file:')))];
}

describe('conversation pages', () => {
  it('each has its joined timeline chart, with a lane per file, and breadcrumbs back to the index', async () => {
    const pages = conversationPages();
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const page = await context.newPage();
    for (const url of pages) {
      await page.goto(url);
      const files = await page.locator('ol.conversation-files li.conversation-file').count();
      expect(files).toBeGreaterThan(1);
      expect(await page.locator('svg.conversation-chart').count()).toBe(1);
      expect(await page.locator('svg.conversation-chart g.cc-file').count()).toBe(files);
      // Files are named by role, not by their id alone.
      const names = await page.locator('li.conversation-file > a').allTextContents();
      for (const name of names) expect(name).toMatch(/^(original|continues|resumed|copy) · /);
      await page.locator('nav.crumbs a').first().click();
      expect(page.url()).toBe(pathToFileURL(join(outDir, 'index.html')).href);
    }
    await page.close();
  });

  it('each is reachable from the index within two clicks', async () => {
    const page = await context.newPage();
    const index = pathToFileURL(join(outDir, 'index.html')).href;
    const first = await linksOf(page, index);
    const reached = new Set(first);
    for (const url of first) for (const next of await linksOf(page, url)) reached.add(next);
    for (const url of conversationPages()) expect(reached.has(url), url).toBe(true);
    // The index lists them itself, one click away.
    for (const url of conversationPages()) expect(first.includes(url), url).toBe(true);
    await page.close();
  });
});

describe('duplicate copies', () => {
  it('are folded under their original on the index, and "duplicate of" lands on the original', async () => {
    expect(duplicates.length).toBeGreaterThan(0);
    const page = await context.newPage();
    const index = pathToFileURL(join(outDir, 'index.html')).href;
    for (const d of duplicates) {
      await page.goto(index);
      // Not a row of its own: inside the original's "copies" fold.
      const folded = page.locator(`details.copies li[data-session="${d.id}"]`);
      expect(await folded.count()).toBe(1);
      await folded.locator('xpath=ancestor::details').locator('summary').click();
      await folded.locator('a.duplicate-of').click();
      expect(await page.locator('main p.mono').first().textContent()).toContain(d.duplicateOf);
      // From the copy's own page too.
      await page.goto(index);
      await folded.locator('xpath=ancestor::details').locator('summary').click();
      await folded.locator('a').first().click();
      const mono = (await page.locator('main p.mono').first().textContent()) ?? '';
      expect(mono).toContain(d.id);
      await page.locator('a.duplicate-of').click();
      const landed = (await page.locator('main p.mono').first().textContent()) ?? '';
      expect(landed).toContain(d.duplicateOf);
      expect(landed).not.toContain('duplicate of');
    }
    await page.close();
  });
});
