/**
 * Conversations over several files in the report, built from the `conversations`, `agents-2026` and `teammates`
 * fixtures through the core engine and checked in Debian's chromium: a conversation's page walks across its files
 * and its joined epochs, each file's page links to it, the index totals count every entry once, and a teammate
 * written as its own file is reachable from its spawn and links back.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import { conversationRoute } from '../src/views/conversations/conversation-view.js';
import { launchChromium } from './helpers/browser.js';
import { writeArchive } from './helpers/demo.js';
import { type FixtureProject, scenarioProjects } from './helpers/fixtures.js';
import { linkSessions } from './helpers/links.js';
import { tempFolder } from './helpers/temp.js';

const tmp = tempFolder('cctrail-conversations-e2e-');
const dataDir = join(tmp, 'data');
const outDir = join(tmp, 'site');
let projects: FixtureProject[] = [];
let context: BrowserContext;

beforeAll(async () => {
  projects = [
    ...(await scenarioProjects('conversations')),
    ...(await scenarioProjects('agents-2026')),
    ...(await scenarioProjects('teammates')),
  ];
  writeArchive(dataDir, projects, (index) => linkSessions(index, projects));
  await buildReport({ dataDir, outDir, base: '/', title: 'conversations e2e' });
  context = await launchChromium();
}, 240_000);

afterAll(async () => {
  await context?.close();
});

const factsOf = (scenario: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, `../../../fixtures/${scenario}/facts.json`), 'utf8'));
const facts = () => factsOf('conversations');

describe('conversation pages', () => {
  it('walks across the three files of a conversation, with its compaction, and links each file', async () => {
    const [x] = facts().conversations;
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(outDir, conversationRoute(x.id), 'index.html')).href);
    const files = await page
      .locator('li.conversation-file')
      .evaluateAll((li) => li.map((e) => (e as HTMLElement).dataset.session));
    expect(files).toEqual(x.sessions);
    expect(await page.locator('li.conversation-compaction').count()).toBe(x.totals.compactions);
    expect(await page.locator('li.conversation-file a').count()).toBe(3);
    // The joined epochs, each naming the files that hold it: x1, then x2 → x3 after the compaction.
    const epochs = await page
      .locator('li.conversation-epoch')
      .evaluateAll((li) => li.map((e) => Number((e as HTMLElement).dataset.entries)));
    expect(epochs).toEqual(x.joinedEpochs.map((e: { entries: number }) => e.entries));
    expect(await page.locator('li.conversation-epoch').nth(1).locator('a').count()).toBe(2);
    // From the second file's page back to the conversation.
    await page.locator('li.conversation-file a').nth(1).click();
    const back = page.locator('p.conversation-link a');
    await back.click();
    expect(page.url()).toContain(conversationRoute(x.id));
    await page.close();
  });

  it('counts every entry once in the index totals', async () => {
    const want = facts();
    const crossing = want.conversations.filter((c: { sessions: string[] }) => c.sessions.length > 1);
    const inConversation = new Set(crossing.flatMap((c: { sessions: string[] }) => c.sessions));
    let entries = 0;
    for (const p of projects)
      for (const s of p.sessions) if (!inConversation.has(s.id)) entries += s.entries.length;
    for (const c of crossing) entries += c.totals.entries;
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(outDir, 'index.html')).href);
    const figure = (await page.locator('text=Entries').first().locator('..').textContent()) ?? '';
    expect(figure.replace(/[^\d]/g, '')).toBe(String(entries));
    await page.close();
  });
});

describe('teammates written as their own file', () => {
  it('goes from the spawn to the agent page to the teammate’s session, and back to the lead', async () => {
    const [link] = factsOf('teammates').teammates;
    const folder = readdirSync(join(outDir, 's')).find((d) => existsSync(join(outDir, 's', d, link.lead)))!;
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(outDir, 's', folder, link.lead, 'index.html')).href);
    expect(await page.locator('p.agent-card--teammate').count()).toBe(2);
    // The agents table shows the linked spawn as the teammate's run.
    const row = page.locator('#agents ~ div tr', { has: page.locator('a.badge') });
    expect(await row.locator('.status').textContent()).toBe(link.status);
    await page.locator('p.agent-card--teammate a').first().click();
    expect(await page.locator('.notice--teammate').textContent()).toContain(link.result);
    await page.locator('a.teammate-session').click();
    expect(page.url()).toContain(link.session);
    expect(await page.locator('p.teammate-of').textContent()).toContain(
      `Teammate ${link.name} of team ${link.team}`,
    );
    await page.locator('p.teammate-of a').first().click();
    expect(page.url()).toContain(link.lead);
    await page.close();
  });
});
