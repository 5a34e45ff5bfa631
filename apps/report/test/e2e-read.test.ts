import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import type { Session } from '../src/views/model.js';
import { CHROMIUM, htmlFiles, launchChromium } from './helpers/browser.js';
import { demoSession, linearSession, writeArchive } from './helpers/demo.js';
import { scenarioProjects } from './helpers/fixtures.js';
import { tempFolder } from './helpers/temp.js';

/**
 * Reading a report: search inside transcripts and open the place found, follow a spawning call to its agent's
 * page and back, element ids unique on every page. Built from the `subagents-meta` fixture and the demo
 * session (and a long linear one), opened from file:// in Debian's chromium.
 */

const tmp = tempFolder('cctrail-read-e2e-');
const outDir = join(tmp, 'site');

/** The session, its times a year earlier. */
function yearEarlier(s: Session): Session {
  const earlier = (t: string | null) => (t === null ? null : t.replace(/^2026-/, '2025-'));
  return {
    ...s,
    startedAt: earlier(s.startedAt),
    endedAt: earlier(s.endedAt),
    entries: s.entries.map((e) => ({ ...e, timestamp: earlier(e.timestamp) })),
  };
}

beforeAll(async () => {
  const projects = await scenarioProjects('subagents-meta');
  writeArchive(join(tmp, 'data'), [
    ...projects,
    { id: 'demo', cwd: '/home/dev/shop', sessions: [demoSession()] },
    // A session of 30 prompts with the same words and 21 short sessions: more results than a page of them, in
    // transcripts and in titles. A year older than the others, so their entries are numbered after them.
    {
      id: 'long',
      cwd: '/home/dev/long',
      sessions: [
        linearSession('long', 60),
        ...Array.from({ length: 21 }, (_, i) => linearSession(`short${i}`, 2)),
      ].map(yearEarlier),
    },
  ]);
  await buildReport({ dataDir: join(tmp, 'data'), outDir, cacheDir: false });
}, 240_000);

describe('a built report', () => {
  it('has no duplicate element id on any page', () => {
    const files = htmlFiles(outDir);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const ids = [...readFileSync(file, 'utf8').matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
      const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
      expect(dupes, file).toEqual([]);
    }
  });

  it('writes the transcript index in pieces, apart from the titles', () => {
    const search = join(outDir, '_cctrail', 'search');
    const files = readdirSync(search);
    const termFiles = files.filter((f) => /^t\d+\.js$/.test(f));
    const docFiles = files.filter((f) => /^e[0-9a-f]+-\d+\.js$/.test(f));
    expect(termFiles.length).toBeGreaterThan(0);
    expect(docFiles.length).toBeGreaterThan(0);
    const titles = readFileSync(join(outDir, '_cctrail', 'search-index.js'), 'utf8');
    // The first term of each term file is all the page needs to find a word's file.
    expect(titles).toMatch(
      /window\.CCTRAIL_SEARCH_FILES = \{"n":\d+,"k":\d+,"t":\["[^"]*"(,"[^"]*")*\],"b":\[0(,\d+)*\],"f":\["e[0-9a-f]+"(,"e[0-9a-f]+")*\]\};/,
    );
    // A word that only a sub-agent's answer has is in the pieces, not in the titles loaded on every search.
    expect(titles).not.toContain('concatenated');
    const terms = termFiles.map((f) => readFileSync(join(search, f), 'utf8')).join('\n');
    expect(terms).toMatch(/[',]concatenated [A-Za-z0-9_-]+[,']/);
    // No text of the transcripts is in the term files: only terms and postings.
    expect(terms).not.toContain(' the cart ');
  });
});

describe.skipIf(!existsSync(CHROMIUM))('in chromium, from file://', () => {
  let browser: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(problems).toEqual([]);
  });

  async function open(url: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (e: Error) => problems.push(`${url}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${url}: console: ${m.text()}`);
    });
    await page.goto(url);
    return page;
  }

  it('finds a word that only a transcript has, and opens its place', async () => {
    const url = `${pathToFileURL(join(outDir, 'search', 'index.html')).href}?q=concatenated`;
    const page = await open(url);
    const hit = page.locator('#search-hits li a').first();
    await hit.waitFor({ timeout: 30_000 });
    // Titles, first prompts and agent descriptions do not have it.
    expect(await page.locator('#search-results li').count()).toBe(0);
    expect(await hit.textContent()).toContain('concatenated');
    await hit.click();
    await page.waitForLoadState();
    const anchor = new URL(page.url()).hash.slice(1);
    expect(page.url()).toMatch(/\/agent\/[^/]+\/index\.html\?q=concatenated#e-/);
    const target = page.locator(`[id="${anchor}"]`);
    expect(await target.count()).toBe(1);
    expect(await target.evaluate((el) => el.textContent ?? '')).toContain('concatenated');
    // The place is shown: nothing around it is collapsed, and it is on screen.
    await expect.poll(() => target.isVisible()).toBe(true);
    expect(await target.evaluate((el) => el.closest('details:not([open])'))).toBeNull();
    await page.close();
  });

  /** The words marked on a page (search results' `<mark>`, or the target page's `mark.found`), in view or not. */
  const marks = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((ms) =>
      ms.map((m) => {
        const r = m.getBoundingClientRect();
        return { text: m.textContent, inView: r.height > 0 && r.top >= 0 && r.bottom <= innerHeight };
      }),
    );

  it('shows the words found in each snippet, and lands on them, marked, on the page of the result', async () => {
    const page = await searchFor('concatenated');
    const hit = page.locator('#search-hits li a').first();
    expect((await marks(page, '#search-hits li:first-child a mark')).map((m) => m.text)).toEqual([
      'concatenated',
    ]);
    expect(await hit.getAttribute('href')).toMatch(/\?q=concatenated#e-/);
    await hit.click();
    await page.waitForLoadState();
    await expect.poll(() => marks(page, 'mark.found')).toEqual([{ text: 'concatenated', inView: true }]);
    const anchor = new URL(page.url()).hash.slice(1);
    expect(await page.locator(`[id="${anchor}"] mark.found`).count()).toBe(1);
    await page.close();
  });

  it("lands on a tool's result inside its call's card, far below the card's start", async () => {
    // Line 30 of a Read output of 120 lines ("line 0: xxx…"), folded into the card of the call: every "line"
    // is marked, and the page goes to the word found least, "30".
    const page = await searchFor('line 30');
    const hit = page.locator('#search-hits li a').first();
    expect(await hit.textContent()).toMatch(/^Tool: export const cart/);
    await hit.click();
    await page.waitForLoadState();
    await expect.poll(async () => (await marks(page, 'mark.found')).length).toBeGreaterThan(120);
    const found = await marks(page, 'mark.found');
    expect(found.filter((m) => m.text === '30')).toEqual([{ text: '30', inView: true }]);
    expect(found.filter((m) => m.text === 'line' && m.inView).length).toBeLessThan(found.length - 1);
    const anchor = new URL(page.url()).hash.slice(1);
    const target = page.locator(`[id="${anchor}"]`);
    expect(await target.getAttribute('class')).toMatch(/\banchor-only\b/);
    // The word is in the card holding the anchor (the call's card), below the card's top edge.
    const below = await target.evaluate((el) => {
      const card = el.closest('.entry') as Element;
      const mark = Array.from(card.querySelectorAll('mark.found')).find(
        (m) => m.textContent === '30',
      ) as Element;
      return mark.getBoundingClientRect().top - card.getBoundingClientRect().top;
    });
    expect(below).toBeGreaterThan(300);
    await page.close();
  });

  it('shows hostile text of a snippet as text', async () => {
    const page = await searchFor('checkout');
    const link = page.locator('#search-hits li a', { hasText: 'alert(1)' }).first();
    expect(await link.textContent()).toContain(
      '"]);click A call alert(1)%%{init:{"securityLevel":"loose"}}%%',
    );
    expect(await link.evaluate((a) => Array.from(a.querySelectorAll('*')).map((e) => e.tagName))).toEqual([
      'MARK',
    ]);
    await page.close();
  });

  async function searchFor(query: string): Promise<Page> {
    const page = await open(
      `${pathToFileURL(join(outDir, 'search', 'index.html')).href}?q=${encodeURIComponent(query)}`,
    );
    await page.waitForSelector('#search-hits-status[data-ms]', { timeout: 30_000 });
    return page;
  }
  const hitTexts = (page: Page) => page.locator('#search-hits li a').allTextContents();

  it('finds a word of one session loading one term file and one file of entries', async () => {
    const page = await searchFor('cart');
    const texts = await hitTexts(page);
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) expect(t.toLowerCase()).toContain('cart');
    // The term file of the word and the entry file of its results.
    expect(Number(await page.getAttribute('#search-hits', 'data-loads'))).toBe(2);
    await page.close();
  });

  it('finds the start of a word, and entries with every word of a query', async () => {
    const prefix = await searchFor('concaten');
    expect((await hitTexts(prefix)).some((t) => t.includes('concatenated'))).toBe(true);
    await prefix.close();
    const both = await searchFor('cart empty');
    const texts = await hitTexts(both);
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) expect(t.toLowerCase()).toMatch(/cart[\s\S]*empty|empty[\s\S]*cart/);
    await both.close();
    const none = await searchFor('cart concatenated');
    expect(await hitTexts(none)).toEqual([]);
    expect(await none.textContent('#search-hits-status')).toBe('0 entries in transcripts.');
    await none.close();
  });

  it("shows a common word's best 20 first, counts them all, and shows the next ones without repeating any", async () => {
    const page = await searchFor('number');
    const status = (await page.textContent('#search-hits-status')) ?? '';
    const count = Number(/^(\d+) entries in transcripts, best 20 first\.$/.exec(status)?.[1]);
    expect(count).toBe(30 + 21);
    const hrefs = () =>
      page.locator('#search-hits li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(await hrefs()).toHaveLength(20);
    await page.click('button.search-more');
    await expect.poll(async () => (await hrefs()).length).toBe(Math.min(40, count));
    const all = await hrefs();
    expect(new Set(all).size).toBe(all.length);
    await page.close();
  });

  it('shows the first 20 sessions found by title, then the others on request', async () => {
    const page = await searchFor('short');
    expect(await page.textContent('#search-status')).toBe(
      '21 sessions or sub-agents by title, prompt or agent, first 20 shown',
    );
    const titles = page.locator('#search-results li a');
    expect(await titles.count()).toBe(20);
    await page.click('#search-results ~ button.search-more');
    await expect.poll(() => titles.count()).toBe(21);
    await page.close();
  });

  it('follows a spawn to the agent page and back to the spawning call', async () => {
    const sessions = join(outDir, 's');
    const project = readdirSync(sessions).find((d) => d.startsWith('subagents-meta')) as string;
    const session = readdirSync(join(sessions, project))[0] as string;
    const page = await open(pathToFileURL(join(sessions, project, session, 'index.html')).href);
    const card = page.locator('.agent-card__open').first();
    const agentHref = await card.getAttribute('href');
    await card.click();
    await page.waitForLoadState();
    expect(page.url()).toMatch(/\/agent\/[^/]+\/index\.html$/);
    const back = page.locator('.spawned-by a').first();
    await back.click();
    await page.waitForLoadState();
    const anchor = new URL(page.url()).hash.slice(1);
    expect(anchor).toMatch(/^e-/);
    // The place is the entry of the call, whose card links to the same agent page.
    const spawnEntry = page.locator(`[id="${anchor}"]`);
    expect(await spawnEntry.count()).toBe(1);
    const links = await spawnEntry
      .locator('.agent-card__open')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(links.some((href) => href.endsWith((agentHref as string).replace(/^(\.\.\/)+/, '')))).toBe(true);
    await page.close();
  });

  it('goes from a fork point to its short branch among the alternatives, and back', async () => {
    const demo = demoSession();
    const point = demo.branches[0]!.branchPoint;
    const page = await open(pathToFileURL(join(outDir, 's', 'demo', demo.id, 'index.html')).href);
    await page.locator('aside.fork a').first().click();
    await page.waitForLoadState();
    // A short branch is shown on the session's page of alternatives, under its own anchor.
    const there = new URL(page.url());
    expect(there.pathname.endsWith(`/s/demo/${demo.id}/branches/index.html`)).toBe(true);
    expect(there.hash).toBe('#branch-1');
    await page.locator('[id="branch-1"] a.fork-point').click();
    await page.waitForLoadState();
    expect(new URL(page.url()).hash).toBe(`#e-${point}`);
    expect(await page.locator(`[id="e-${point}"]`).count()).toBe(1);
    await page.close();
  });
});
