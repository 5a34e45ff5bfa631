import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ArchiveStats, apiCost } from '@cctrail/core/archive';
import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES } from './helpers.js';

// The report's cost views, in chromium from file://, against `cctrail stats --json` on the same transcripts.

const CHROMIUM = '/usr/bin/chromium';
const REPORT_BUILT = existsSync(new URL('../../../apps/report/dist/index.js', import.meta.url));
const SCENARIO = join(FIXTURES, 'agent-progress');

describe.skipIf(!existsSync(CHROMIUM) || !REPORT_BUILT)('cost in the report, in chromium', () => {
  let work = '';
  let stats: ArchiveStats;
  let context: BrowserContext;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'cctrail-cost-'));
    const json = await cctrail(['stats', '--json', '--no-cache', SCENARIO]);
    expect(json.code).toBe(0);
    stats = JSON.parse(json.stdout) as ArchiveStats;
    const report = await cctrail(['report', SCENARIO, '-o', join(work, 'site')]);
    expect(report.code, report.stderr).toBe(0);
    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(join(work, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
  }, 240_000);

  afterEach(async () => {
    for (const page of context.pages()) await page.close();
  });

  afterAll(async () => {
    await context?.close();
    await rm(work, { recursive: true, force: true });
  }, 0);

  /** Opens a page of the report and returns it, with every `data-usd` value of a selector's matches. */
  async function open(path: string) {
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(work, 'site', path)).href);
    const usd = (selector: string) =>
      page.$$eval(selector, (nodes) => nodes.map((n) => Number(n.getAttribute('data-usd'))));
    return { page, usd };
  }

  it('shows the archive total, the cost by model and by project of stats --json, with the price table', async () => {
    const { page, usd } = await open('index.html');
    const { cost } = stats;
    expect(cost.total.usd).toBeGreaterThan(0);
    // the breakdowns count API responses; the total also the runs without a transcript, once
    const byModel = await usd('[data-cost-by="model"] [data-usd]');
    expect(byModel.sort()).toEqual(
      Object.values(cost.byModel)
        .map((c) => c.usd)
        .sort(),
    );
    const byProject = await usd('[data-cost-by="project"] [data-usd]');
    expect(byProject).toEqual(Object.values(cost.byProject).map((c) => c.usd));
    // runs without their transcript counted once, at what their spawns report (their part apart in stats)
    expect(stats.totals.reportedBySpawn?.cost.usd).toBeGreaterThan(0);
    expect(cost.total).toEqual(stats.totals.cost);
    const figure = page.locator('.figure', { hasText: 'Cost' });
    expect(await figure.locator('dt').textContent()).toBe('Cost ≥');
    expect(await figure.locator('dd').textContent()).toBe(`$${cost.total.usd.toFixed(2)}`);
    const table = await page.locator('[data-cost-index] [data-price-table]').textContent();
    expect(table).toContain(`${cost.priceTable.name} ${cost.priceTable.version} (${cost.priceTable.date})`);
    // The chart is drawn at build time: one bar per day.
    expect(await page.locator('[data-cost-index] svg rect.bar').count()).toBe(Object.keys(cost.byDay).length);
    const rows = await usd('table.sortable td[data-usd]');
    // the index's rows: each session's cost as its page and stats give it, its runs without a transcript included
    expect(rows).toEqual(stats.sessions.map((s) => s.cost.usd));
    expect(stats.sessions.some((s) => s.cost.usd > apiCost(s).usd)).toBe(true);
  });

  it('shows a session’s cost per agent and per epoch', async () => {
    const { page, usd } = await open('index.html');
    const href = await page.locator('table.sortable td.title-cell a').first().getAttribute('href');
    const session = await open(href ?? '');
    const [row] = stats.sessions;
    const agents = await session.usd(
      '#agents ~ .table-wrap td[data-usd], section[aria-labelledby="agents"] td[data-usd]',
    );
    // a run without its transcript shows what its spawn reports, as stats counts it
    expect(agents).toEqual(row!.sidechains.map((s) => s.cost.usd));
    const epochs = await session.usd('[data-cost-session] [data-usd]');
    expect(epochs.reduce((a, b) => a + b, 0)).toBeCloseTo(row!.cost.usd, 12);
    expect(epochs).toHaveLength(row!.compactions.total + 1);
    expect(await usd('[data-cost-by="model"] [data-usd]')).not.toHaveLength(0);
  });

  it('shows what each agent type cost on its page, as stats --json counts it (runs without a transcript once)', async () => {
    for (const agent of stats.agents) {
      const index = await open('agents/index.html');
      const link = index.page.locator('a', { hasText: agent.agentType }).first();
      const href = await link.getAttribute('href');
      const { usd } = await open(join('agents', href ?? ''));
      const [total] = await usd('.lede [data-usd]');
      expect(total).toBeCloseTo(agent.cost.usd, 12);
    }
  });
});
