/**
 * Bidirectional control characters are shown by the renderer only (#27 item 4): the archive keeps them as
 * written (the CLI's export tests), and every page, and every result of the search page, shows each one as a
 * visible `⟦U+…⟧` in Debian's chromium. The demo session is given them in its title, first prompt, project folder, a tool's input, and the
 * text around a word the search finds.
 */
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import type { Session } from '../src/views/model.js';
import { htmlFiles, launchChromium } from './helpers/browser.js';
import { demoSession, writeArchive } from './helpers/demo.js';
import { tempFolder } from './helpers/temp.js';

const tmp = tempFolder('cctrail-bidi-e2e-');
const dataDir = join(tmp, 'data');
const outDir = join(tmp, 'site');
let context: BrowserContext;

const RLO = '\u202E';
const PDF = '\u202C';
const LRI = '\u2066';
const PDI = '\u2069';
const ALM = '\u061C';
const ANY_BIDI = /[\u061C\u202A-\u202E\u2066-\u2069]/;

/** The demo session with bidi controls in its title, first prompt, a tool's input and the text of an answer. */
function bidiSession(): Session {
  const written = JSON.stringify(demoSession())
    .replaceAll('Fix the checkout bug', `Fix the ${RLO}checkout${PDF} bug`)
    .replaceAll('src/cart.ts', `src/${LRI}cart${PDI}.ts`)
    .replaceAll('The cart is empty.', `The cart is ${ALM}empty.`);
  const session = JSON.parse(written) as Session;
  return {
    ...session,
    title: `Trojan ${RLO}title${PDF} of the checkout`,
    firstPrompt: `Fix the ${RLO}checkout`,
  };
}

beforeAll(async () => {
  writeArchive(dataDir, [{ id: 'demo', cwd: `/home/dev/${RLO}shop`, sessions: [bidiSession()] }]);
  await buildReport({ dataDir, outDir, cacheDir: false });
  context = await launchChromium();
}, 240_000);

afterAll(async () => {
  await context?.close();
});

/** What chromium has of a page once its scripts ran: its title and every element, text and attribute. */
async function shown(page: Page): Promise<string> {
  return page.evaluate(() => `${document.title}\n${document.documentElement.outerHTML}`);
}

describe('bidirectional control characters', () => {
  it('are visible marks on every page, in its title, text and attributes', async () => {
    const files = htmlFiles(outDir);
    expect(files.length).toBeGreaterThan(3);
    const marked = new Set<string>();
    for (const file of files) {
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      const text = await shown(page);
      await page.close();
      const rel = relative(outDir, file);
      expect(text.match(ANY_BIDI), rel).toBeNull();
      for (const mark of ['⟦U+202E⟧', '⟦U+2066⟧', '⟦U+061C⟧']) if (text.includes(mark)) marked.add(mark);
      if (text.includes('⟦U+202E⟧title⟦U+202C⟧')) marked.add(`title on ${rel}`);
    }
    // The title, the tool's input and the answer's text are on the pages, shown.
    expect([...marked].filter((m) => m.startsWith('⟦'))).toEqual(['⟦U+202E⟧', '⟦U+2066⟧', '⟦U+061C⟧']);
    expect([...marked].some((m) => m.startsWith('title on'))).toBe(true);
  });

  it('are visible marks in the results of the search page, by title and inside transcripts', async () => {
    const page = await context.newPage();
    await page.goto(`${pathToFileURL(join(outDir, 'search', 'index.html')).href}?q=checkout`);
    await page.waitForSelector('#search-hits-status[data-ms]', { timeout: 30_000 });
    const titles = await page.locator('#search-results li').allTextContents();
    const hits = await page.locator('#search-hits li').allTextContents();
    const text = await shown(page);
    await page.close();
    expect(titles.some((t) => t.includes('Trojan ⟦U+202E⟧title⟦U+202C⟧ of the checkout'))).toBe(true);
    expect(hits.some((t) => t.includes('Fix the ⟦U+202E⟧checkout⟦U+202C⟧ bug'))).toBe(true);
    expect(text.match(ANY_BIDI)).toBeNull();
  });
});
