/**
 * Conversations over several files in the report, built from the `conversations` and `agents-2026` fixtures
 * through the core engine and checked in Debian's chromium: a conversation's page walks across its files, each
 * file's page links to it, and the index totals count every entry once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ConversationInput, findConversations, statsDigest } from '@cctrail/core';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/index.js';
import { conversationRoute } from '../src/views/conversation-view.js';
import { launchChromium } from './helpers/browser.js';
import { writeArchive } from './helpers/demo.js';
import { type FixtureProject, scenarioProjects } from './helpers/fixtures.js';

const tmp = mkdtempSync(join(tmpdir(), 'cctrail-conversations-e2e-'));
const dataDir = join(tmp, 'data');
const outDir = join(tmp, 'site');
let projects: FixtureProject[] = [];
let context: BrowserContext;

beforeAll(async () => {
  projects = [...(await scenarioProjects('conversations')), ...(await scenarioProjects('agents-2026'))];
  writeArchive(dataDir, projects, (index) => {
    const inputs: ConversationInput[] = projects.flatMap((p) =>
      p.sessions.map((s) => ({ id: s.id, project: p.id, title: s.title, digest: statsDigest(s) })),
    );
    const conversations = findConversations(inputs).filter((c) => c.sessions.length > 1);
    index.conversations = conversations;
    for (const project of index.projects)
      for (const line of project.sessions) {
        const c = conversations.find((x) => x.sessions.some((m) => m.id === line.id));
        if (c) line.conversation = c.id;
      }
  });
  await buildReport({ dataDir, outDir, base: '/', title: 'conversations e2e' });
  context = await launchChromium();
}, 240_000);

afterAll(async () => {
  await context?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const facts = () =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/conversations/facts.json'), 'utf8'));

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
