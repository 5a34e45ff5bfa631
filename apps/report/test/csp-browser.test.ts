import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import { CHROMIUM, htmlFiles, launchChromium } from './helpers/browser.js';
import { demoSession, writeArchive } from './helpers/demo.js';
import { scenarioProjects } from './helpers/fixtures.js';
import { tempFolder } from './helpers/temp.js';

/**
 * The pages' Content Security Policy allows no inline script: escaping is not the only layer between a
 * transcript and the reader. Every script is a classic script in a file of `_cctrail/` (a module script does not
 * run from file://), and the pages, opened from disk in chromium, run all of them with no CSP violation.
 */

const tmp = tempFolder('cctrail-csp-');
const outDir = join(tmp, 'site');
let indexHtml = '';

beforeAll(async () => {
  const dataDir = join(tmp, 'data');
  const hostile = await scenarioProjects('hostile-content');
  writeArchive(dataDir, [...hostile, { id: 'demo', cwd: '/home/dev/shop', sessions: [demoSession()] }]);
  indexHtml = (await buildReport({ dataDir, outDir, base: '/', title: 'csp' })).indexHtml;
}, 240_000);

/** The script-src of a page's CSP. */
function scriptSrc(html: string): string {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
  return /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
}

describe('the pages', () => {
  it("allow scripts from the site's own files only, and have no inline script", () => {
    const pages = htmlFiles(outDir);
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      expect(scriptSrc(html), page).toBe("'self'");
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
        expect(tag, page).toMatch(/ src="[^"]*_cctrail\/[\w.-]+\.js"/);
        expect(tag, page).not.toMatch(/type="module"/);
      }
      expect(html, page).not.toMatch(/<script\b[^>]*>[^<]/);
      // No event handler attribute: a tag's quoted values (transcript text among them) set aside.
      for (const tag of html.match(/<[a-z][^>]*>/g) ?? [])
        expect(tag.replace(/"[^"]*"/g, '""'), page).not.toMatch(/\son[a-z]+=/i);
    }
  });
});

describe.skipIf(!existsSync(CHROMIUM))('in chromium, from file://', () => {
  let context: BrowserContext;
  const violations: string[] = [];

  beforeAll(async () => {
    context = await launchChromium({ width: 1280, height: 900 });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
  });

  /** Opens a page, recording every CSP violation (the event and the console's report of it). */
  async function open(file: string): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (m: { type(): string; text(): string }) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(`${file}: ${m.text()}`);
    });
    page.on('pageerror', (e: Error) => violations.push(`${file}: ${e.message}`));
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __csp?: string[] }).__csp = seen;
      document.addEventListener('securitypolicyviolation', (e) => {
        seen.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    await page.goto(pathToFileURL(file).href);
    return page;
  }

  const seen = (page: Page) => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);

  it('runs the theme, app, flowchart and search scripts with no violation', async () => {
    const page = await open(indexHtml);
    await page.waitForSelector('html[data-ready]');
    // theme.js runs in <head>: the theme chosen is there when the page is opened again.
    await page.click('#theme-toggle');
    const theme = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe(theme);
    expect(await seen(page)).toEqual([]);
    await page.close();

    const session = await open(join(outDir, 's', 'demo', 'demo-session', 'index.html'));
    await session.waitForSelector('[data-graph] svg', { timeout: 60_000 });
    expect(await seen(session)).toEqual([]);
    await session.close();

    const search = await open(join(outDir, 'search', 'index.html'));
    await search.fill('#q', 'checkout');
    await search.waitForSelector('#search-results li a');
    expect(await seen(search)).toEqual([]);
    await search.close();
    expect(violations).toEqual([]);
  });

  it('blocks an inline script (the policy is enforced from disk)', async () => {
    const page = await open(indexHtml);
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1';
      document.body.append(script);
    });
    await page.waitForFunction(() => ((window as unknown as { __csp?: string[] }).__csp ?? []).length > 0);
    expect(await page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
    expect((await seen(page))[0]).toMatch(/^script-src/);
    await page.close();
    violations.length = 0;
  });
});
