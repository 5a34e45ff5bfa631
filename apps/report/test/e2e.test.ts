import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import type { Session } from '../src/views/model.js';
import { buildE2eReport } from './e2e-report.js';
import { CHROMIUM, htmlFiles, launchChromium } from './helpers/browser.js';
import { linearSession } from './helpers/demo.js';

/**
 * Builds a real report from every fixture (through the core engine) plus hand-made sessions, then checks
 * the output statically and in Debian's chromium: from file://, under a sub-path over http, hostile
 * content inert, no outside requests.
 */

let sessions: Session[] = [];
let dataDir = '';
let outDir = '';
let indexHtml = '';
let pages = 0;

beforeAll(async () => {
  ({ sessions, dataDir, outDir, indexHtml, pages } = await buildE2eReport());
}, 240_000);

describe('the built report', () => {
  it('writes index.html and one page per route', () => {
    expect(indexHtml).toBe(join(outDir, 'index.html'));
    expect(existsSync(indexHtml)).toBe(true);
    expect(htmlFiles(outDir).length).toBe(pages);
    expect(readdirSync(outDir).filter((n) => n.endsWith('.mjs'))).toEqual([]);
    // Shipped compressed, written out as Mermaid's own browser build, byte for byte.
    const mermaid = join(dirname(createRequire(import.meta.url).resolve('mermaid/package.json')), 'dist');
    expect(
      readFileSync(join(outDir, '_cctrail', 'mermaid.min.js')).equals(
        readFileSync(join(mermaid, 'mermaid.min.js')),
      ),
    ).toBe(true);
    expect(readFileSync(join(outDir, '_cctrail', 'search-index.js'), 'utf8')).toMatch(
      /^window\.CCTRAIL_SEARCH = \[/,
    );
  });

  it('lists every session of the archive on the index, broken files with their problem', () => {
    const html = readFileSync(indexHtml, 'utf8');
    const rows = html.match(/<tr>/g)?.length ?? 0;
    // one header row per project table, one row per session
    expect(html).toContain('A file that is not a session');
    expect(html).toContain('cannot read');
    expect(rows).toBeGreaterThanOrEqual(sessions.length + 1);
    for (const s of sessions)
      expect(html).toContain(`/${s.id.toLowerCase().replace(/[^a-z0-9\-_.]+/g, '-')}`);
  });

  it('paginates long transcripts', () => {
    const dir = join(outDir, 's', 'demo', 'long-linear');
    expect(existsSync(join(dir, 'index.html'))).toBe(true);
    expect(existsSync(join(dir, 'p3', 'index.html'))).toBe(true);
    expect(existsSync(join(dir, 'p4'))).toBe(false);
  });

  it('gives colliding project names distinct folders', () => {
    const projects = readdirSync(join(outDir, 's')).filter((n) =>
      n.startsWith('multi-project-home-dev-my-app'),
    );
    expect(projects.length).toBe(2);
  });

  it('makes every relative link and asset resolve to a file, and links end in index.html', () => {
    const broken: string[] = [];
    for (const file of htmlFiles(outDir)) {
      const html = readFileSync(file, 'utf8');
      const attributes = [...html.matchAll(/<[a-z][a-z0-9]*\b[^>]*>/gi)].flatMap((tag) => [
        ...tag[0].matchAll(/\s(?:href|src)="([^"]*)"/g),
      ]);
      for (const m of attributes) {
        const url = (m[1] ?? '').replace(/&amp;/g, '&');
        if (/^(https?:|mailto:|#|data:image\/|data:,$)/.test(url)) continue;
        const path = url.split('#')[0] ?? '';
        if (path === '') continue;
        if (!path.endsWith('.html') && !path.endsWith('.js') && !path.endsWith('.css'))
          broken.push(`${file}: ${url} (not a file link)`);
        else if (!existsSync(resolve(dirname(file), decodeURIComponent(path))))
          broken.push(`${file}: ${url}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('contains no script, event handler or javascript: URL from the transcripts', () => {
    for (const file of htmlFiles(outDir)) {
      const html = readFileSync(file, 'utf8');
      for (const m of html.matchAll(/<script\b[^>]*>/g)) {
        expect(m[0], file).toMatch(
          /^<script src="[./]*_cctrail\/(theme|app|mermaid\.min|search-index|search-match|search)\.js">$/,
        );
      }
      for (const tag of html.matchAll(/<[a-z][a-z0-9]*\b[^>]*>/gi)) {
        expect(tag[0], file).not.toMatch(/\son[a-z]+\s*=/i);
        expect(tag[0], file).not.toMatch(/(href|src)\s*=\s*"\s*(javascript|vbscript|data:text)/i);
      }
      expect(html, file).not.toMatch(/<(iframe|object|embed|svg onload)/i);
      expect(html, file).not.toMatch(/\/\/(cdn|fonts)\./);
    }
  });

  it('sanitizes hostile agent types in paths', () => {
    const agents = readdirSync(join(outDir, 'agents'));
    for (const a of agents) expect(a).toMatch(/^[a-z0-9\-_.]+$/);
    expect(agents.some((a) => a.includes('pwn'))).toBe(true);
  });

  it('rebuilds from the cache: an unchanged session is not rendered again', async () => {
    // One pack per session version, its entries named in it (`build/packs.ts`).
    const packs = join(outDir, '.cctrail-cache', 'packs');
    const holding = (name: string) =>
      readdirSync(packs).filter((f) => readFileSync(join(packs, f)).includes(name));
    const before = new Map(readdirSync(packs).map((f) => [f, statSync(join(packs, f)).mtimeMs]));
    const keptPage = join(outDir, 's', 'demo', 'demo-session', 'index.html');
    const keptBefore = statSync(keptPage).mtimeMs;
    // Files beside the pages are written only when they change too (Mermaid's bundle never does).
    const mermaid = join(outDir, '_cctrail', 'mermaid.min.js');
    const mermaidBefore = statSync(mermaid).mtimeMs;
    const changed = linearSession('long-linear', 448);
    writeFileSync(join(dataDir, 'demo', 'long-linear.json'), JSON.stringify(changed));
    const messages: string[] = [];
    const rebuilt = await buildReport({
      dataDir,
      outDir,
      base: '/repo/',
      title: 'cctrail e2e',
      log: (m) => messages.push(m),
    });
    // Astro renders only the changed session's pages (and the site-wide ones); the others are kept as they are.
    expect(messages.find((m) => m.startsWith('report: pages of'))).toMatch(
      /^report: pages of 1 changed sessions rendered, \d+ kept$/,
    );
    expect(statSync(keptPage).mtimeMs).toBe(keptBefore);
    expect(statSync(mermaid).mtimeMs).toBe(mermaidBefore);
    expect(rebuilt.pages).toBe(pages);
    const after = readdirSync(packs);
    const [demoPack] = holding('-demo-demo-session-main-1.html');
    expect(demoPack).toBeDefined();
    expect(statSync(join(packs, demoPack as string)).mtimeMs).toBe(before.get(demoPack as string));
    // the changed session's old pack is pruned, its new one written
    const newLong = holding('-demo-long-linear-main-3.html');
    expect(newLong).toHaveLength(1);
    expect(before.has(newLong[0] as string)).toBe(false);
    expect(after).toHaveLength(before.size);
    expect(after.filter((f) => !before.has(f))).toEqual(newLong);
    expect(existsSync(join(outDir, 's', 'demo', 'long-linear', 'p3', 'index.html'))).toBe(true);
  }, 240_000);
});

describe.skipIf(!existsSync(CHROMIUM))('in chromium', () => {
  let context: BrowserContext;
  let server: Server;
  let origin = '';
  const outside: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    context = await launchChromium();
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (!url.pathname.startsWith('/repo/')) {
        res.writeHead(404).end();
        return;
      }
      let file = join(outDir, decodeURIComponent(url.pathname.slice('/repo/'.length)));
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!file.startsWith(outDir) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      const types: Record<string, string> = {
        '.html': 'text/html',
        '.js': 'text/javascript',
        '.css': 'text/css',
      };
      res
        .writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' })
        .end(readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const address = server.address();
    origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
    context.on('request', (req: { url(): string }) => {
      const u = req.url();
      if (!u.startsWith('file://') && !u.startsWith(origin) && !u.startsWith('data:')) outside.push(u);
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await new Promise((r) => server?.close(r));
  });

  async function open(url: string) {
    const page = await context.newPage();
    page.on('console', (m: { type(): string; text(): string }) => {
      if (m.type() === 'error') problems.push(`${url}: console: ${m.text()}`);
    });
    page.on('pageerror', (e: Error) => problems.push(`${url}: ${e.message}`));
    page.on('dialog', (d: { message(): string; dismiss(): Promise<void> }) => {
      problems.push(`${url}: dialog ${d.message()}`);
      void d.dismiss();
    });
    await page.addInitScript(() => {
      Object.defineProperty(window, '__xss', {
        set(v) {
          (window as unknown as { __xssHit: unknown }).__xssHit = v;
        },
        get() {
          return undefined;
        },
      });
    });
    await page.goto(url);
    return page;
  }

  it('shows the index from file:// with every session', async () => {
    const page = await open(pathToFileURL(indexHtml).href);
    // A row per session, duplicate copies folded under their original; the conversations' table is apart.
    const rows = await page.locator('table.data.sortable:not(.conversation-list) tbody tr').count();
    const copies = await page.locator('details.copies li').count();
    expect(rows + copies).toBe(sessions.length + 1);
    await page.locator('th', { hasText: 'Entries' }).first().click();
    expect(await page.locator('th[aria-sort="ascending"]').count()).toBe(1);
    // Tokens per day, sessions by compactions, cost per day.
    expect(await page.locator('svg.chart').count()).toBe(3);
    // The header search leads to the search page with the query, from file:// too.
    await page.fill('#quick-q', 'checkout');
    await page.press('#quick-q', 'Enter');
    await page.waitForSelector('#search-results li a');
    expect(page.url()).toMatch(/search\/index\.html\?q=checkout$/);
    expect(await page.locator('#search-results li a').first().textContent()).toContain(
      'Fix the checkout bug',
    );
    await page.close();
  });

  it('draws the flowchart and timeline of a session from file://, and hostile content stays inert', async () => {
    const page = await open(pathToFileURL(join(outDir, 's', 'demo', 'demo-session', 'index.html')).href);
    await page.waitForSelector('[data-graph] svg', { timeout: 30_000 });
    expect(await page.locator('svg.timeline').count()).toBe(1);
    expect(await page.locator('.tl-marker').count()).toBe(1);
    expect(await page.locator('img.shot').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __xssHit?: unknown }).__xssHit)).toBeUndefined();
    expect(await page.locator('.transcript script, .transcript svg, .transcript img[onerror]').count()).toBe(
      0,
    );
    // A flowchart node opens the transcript.
    const node = page.locator('[data-graph] g.node.linked').first();
    await node.click();
    await page.waitForLoadState();
    expect(page.url()).toMatch(/index\.html#e-/);
    await page.close();
  });

  it('renders the hostile-content fixture safely', async () => {
    const dir = readdirSync(join(outDir, 's')).find((d) => d.startsWith('hostile-content'));
    const session = readdirSync(join(outDir, 's', dir as string))[0] as string;
    const page = await open(pathToFileURL(join(outDir, 's', dir as string, session, 'index.html')).href);
    await page.waitForSelector('[data-graph] svg', { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { __xssHit?: unknown }).__xssHit)).toBeUndefined();
    await page.close();
  });

  it('works under a sub-path over http, with search and the theme toggle', async () => {
    const page = await open(`${origin}/repo/index.html`);
    await page.locator('nav a', { hasText: 'Search' }).click();
    await page.waitForSelector('#q');
    await page.fill('#q', 'checkout');
    await page.waitForSelector('#search-results li a');
    await page.locator('#search-results li a').first().click();
    await page.waitForSelector('[data-graph] svg', { timeout: 30_000 });
    expect(page.url()).toBe(`${origin}/repo/s/demo/demo-session/index.html`);
    await page.click('#theme-toggle');
    const theme = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe(theme);
    await page.close();
  });

  it('made no outside request and logged no error', () => {
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
