import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  atEnd,
  BIN,
  CHROMIUM,
  ID,
  keepMark,
  LIVE,
  launchChromium,
  outerHtml,
  PAGE,
  PROJECT,
  REPORT_BUILT,
  readMark,
  SOURCE,
  SPAWN,
  scrollToEnd,
  scrollToTop,
  servedAt,
} from './serve-e2e.js';

// `cctrail serve` as a user runs it: the real binary on a copy of a fixture that "Claude Code" is still writing,
// a page open in chromium, lines and an agent's files appended, the page updating itself; then Ctrl-C.

describe.skipIf(!existsSync(CHROMIUM) || !REPORT_BUILT)('cctrail serve, followed in chromium', () => {
  const work = mkdtempSync(join(tmpdir(), 'cctrail-serve-'));
  const input = join(work, 'projects');
  const session = join(input, PROJECT, `${ID}.jsonl`);
  const lines = readFileSync(join(SOURCE, `${ID}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean);
  let server: ChildProcess;
  let stderr = '';
  let url = '';
  let context: BrowserContext;
  let page: Page;
  let liveCard = '';
  const requests: string[] = [];

  beforeAll(async () => {
    mkdirSync(join(input, PROJECT), { recursive: true });
    // The session as it was before the agent's result came back: no agent files yet.
    writeFileSync(session, `${lines.slice(0, 10).join('\n')}\n`);
    // The session is rebuilt only when an agent file appears, or on Ctrl-C: appends go the append path.
    server = spawn(process.execPath, [BIN, 'serve', input, '-o', join(work, 'site'), '--settle', '600'], {
      env: { ...process.env, NO_COLOR: '1', CCTRAIL_CACHE_DIR: join(work, 'cache'), HOME: work },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    url = await servedAt(server, () => stderr);
    await until(() => stderr.includes('Watching'));
    context = await launchChromium(join(work, 'profile'));
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    if (server && server.exitCode === null) server.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }, 0);

  /** Resolves once the server has written something that satisfies `done` (the test's timeout bounds it). */
  function until(done: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        server.stderr?.off('data', check);
        resolve();
      };
      server.stderr?.on('data', check);
      check();
    });
  }

  it('binds to the loopback address on a free port', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('shows appended lines at once, read from the appended bytes, without rebuilding or reloading', async () => {
    page = await context.newPage();
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${url}${PAGE}`);
    await page.waitForSelector('#cctrail-live[data-state="follow"]');
    await page.evaluate(keepMark);
    expect(await page.content()).not.toContain('three pages');
    // The agent was spawned; its transcript is not there yet.
    expect(await page.content()).toContain('missing-agent-file');
    // The reader at the end of the page, once the flowchart is drawn (it makes the page longer).
    await page.waitForSelector('#flow-chart svg');
    await page.evaluate(scrollToEnd);

    appendFileSync(session, `${lines.slice(10).join('\n')}\n`);
    // Found by the browser's own queries: the page's policy lets no test code be evaluated from text.
    // At the end of the page's own transcript, drawn by the report's renderer.
    await page
      .locator('main .transcript > article.entry', {
        hasText: 'The docs describe the parser in three pages.',
      })
      .waitFor({ state: 'attached' });
    // Shown by the append path: no rebuild ran (--settle puts it off), and the page is the one opened.
    expect(stderr).toMatch(/\d+ lines? appended to \/s\/home-dev-agents-2026\//);
    expect(stderr).not.toContain('rebuilding');
    expect(await page.evaluate(readMark)).toBe('kept');
    await page.waitForSelector('#cctrail-live[data-state="live"]');
    expect(await page.locator('#cctrail-live').textContent()).toMatch(/^● Live · updated /);
    await page.waitForFunction(atEnd);
    // The page a new reader gets holds the entries too.
    const served = await (await fetch(`${url}${PAGE}`)).text();
    expect(served).toContain('three pages');
  });

  it('draws appended entries as the rebuilt page will: markdown, tool cards, escaping and bidi marks', async () => {
    const parent = JSON.parse(lines.findLast((l) => l.includes('"uuid"')) as string) as Record<
      string,
      unknown
    >;
    const base = {
      isSidechain: false,
      userType: 'external',
      cwd: parent.cwd,
      sessionId: ID,
      version: '2.1.230',
    };
    const message = { model: 'claude-opus-4-7', id: 'msg_live', type: 'message', role: 'assistant' };
    const records = [
      {
        ...base,
        parentUuid: parent.uuid,
        uuid: LIVE[0],
        timestamp: '2026-01-01T10:05:00.000Z',
        type: 'assistant',
        message: {
          ...message,
          content: [
            {
              type: 'text',
              text: 'Ran **the tests**:\n\n- one `<script>`\n- two \u202Eevil\n\n```ts\nconst a = 1;\n```',
            },
          ],
        },
      },
      {
        ...base,
        parentUuid: LIVE[0],
        uuid: LIVE[1],
        timestamp: '2026-01-01T10:05:01.000Z',
        type: 'assistant',
        message: {
          ...message,
          content: [
            { type: 'tool_use', id: 'toolu_live', name: 'Bash', input: { command: 'pnpm test <all>' } },
          ],
        },
      },
      {
        ...base,
        parentUuid: LIVE[1],
        uuid: LIVE[2],
        timestamp: '2026-01-01T10:05:09.000Z',
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_live', content: 'Tests 12 passed & <b>0</b> failed' },
          ],
        },
      },
    ];
    appendFileSync(session, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await page.locator(`#e-${LIVE[2]}`).waitFor({ state: 'attached' });
    liveCard = await page.locator(`#e-${LIVE[0]}`).evaluate(outerHtml);
    expect(liveCard).toContain('<strong>the tests</strong>');
    expect(liveCard).toContain('Tests 12 passed &amp; &lt;b&gt;0&lt;/b&gt; failed');
    expect(liveCard).not.toContain('\u202E');
    expect(stderr).not.toContain('rebuilding');
    expect(await page.evaluate(readMark)).toBe('kept');
  });

  it('redraws the page in place when an agent file appears (its session rebuilt), still without a reload', async () => {
    cpSync(join(SOURCE, ID, 'subagents'), join(input, PROJECT, ID, 'subagents'), { recursive: true });
    await page.locator('code', { hasText: 'missing-agent-file' }).first().waitFor({ state: 'detached' });
    await page.locator('a.agent-card__open[href*="agent-a1b2c3d4e5f60718b"]').first().waitFor();
    expect(stderr).toContain('rebuilding');
    expect(await page.evaluate(readMark)).toBe('kept');
    // The rebuilt page holds the entries itself: the live block is gone, the entry shown once.
    await page.locator('#cctrail-tail').waitFor({ state: 'detached' });
    expect(await page.getByText('The docs describe the parser in three pages.').count()).toBeGreaterThan(0);
    await page.waitForFunction(atEnd);
    // The report's script ran again on the new body: the new flowchart is drawn once in view.
    await page.evaluate(scrollToTop);
    await page.waitForSelector('#flow-chart svg');
    expect(requests.every((r) => r.startsWith(url))).toBe(true);
    const agent = await context.newPage();
    const response = await agent.goto(`${url}${PAGE}agent/agent-a1b2c3d4e5f60718b/`);
    expect(response?.status()).toBe(200);
  });

  it('shows, once rebuilt and reloaded, the same entries it drew live', async () => {
    await page.reload();
    expect(await page.evaluate(readMark)).toBeUndefined();
    // The page on disk is the rebuilt one (no live script, no live cards): the entries are its own.
    const onDisk = readFileSync(join(work, 'site', PAGE, 'index.html'), 'utf8');
    expect(onDisk).toContain(`id="e-${LIVE[2]}"`);
    expect(await page.locator(`#e-${LIVE[0]}`).evaluate(outerHtml)).toBe(liveCard);
  });

  it("follows a page whose last card spawned an agent by the append path, the agent's card drawn as rebuilt", async () => {
    const count = (text: RegExp) => stderr.match(text)?.length ?? 0;
    const built = count(/rebuilding…/g);
    const agentId = 'a0f1e2d3c4b5a6978';
    const folder = join(input, PROJECT, ID, 'subagents');
    const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/agents-2026', sessionId: ID };
    const at = '2026-01-01T10:06:00.000Z';
    const call = {
      type: 'tool_use',
      id: 'toolu_live_spawn',
      name: 'Agent',
      input: { subagent_type: 'Explore', description: 'Check the tests', prompt: 'Check the tests.' },
    };
    writeFileSync(
      join(folder, `agent-${agentId}.jsonl`),
      `${JSON.stringify({ ...base, isSidechain: true, agentId, parentUuid: null, uuid: SPAWN[3], timestamp: at, type: 'user', message: { role: 'user', content: 'Check the tests.' } })}\n`,
    );
    writeFileSync(
      join(folder, `agent-${agentId}.meta.json`),
      JSON.stringify({ agentType: 'Explore', description: 'Check the tests', toolUseId: call.id }),
    );
    const spawned = [
      {
        ...base,
        parentUuid: LIVE[2],
        uuid: SPAWN[0],
        timestamp: at,
        type: 'assistant',
        message: { id: 'msg_spawn', role: 'assistant', content: [call] },
      },
      {
        ...base,
        parentUuid: SPAWN[0],
        uuid: SPAWN[1],
        timestamp: at,
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Async agent launched.' }],
        },
        toolUseResult: { isAsync: true, status: 'async_launched', agentId },
      },
    ];
    appendFileSync(session, `${spawned.map((r) => JSON.stringify(r)).join('\n')}\n`);
    // The new agent file rebuilds the session: its page's last card is now the call's, with the agent's card.
    await until(() => count(/rebuilding…/g) > built && count(/rebuilt in/g) === count(/rebuilding…/g));
    await page.locator(`a.agent-card__open[href*="agent-${agentId}"]`).first().waitFor();
    await page.evaluate(keepMark);
    const rebuilt = count(/rebuilding…/g);
    const answer = { ...base, parentUuid: SPAWN[1], uuid: SPAWN[2], timestamp: at, type: 'assistant' };
    appendFileSync(
      session,
      `${JSON.stringify({ ...answer, message: { id: 'msg_after_spawn', role: 'assistant', content: [{ type: 'text', text: 'The agent is checking the tests.' }] } })}\n`,
    );
    await page
      .locator(`#e-${SPAWN[2]}`, { hasText: 'The agent is checking the tests.' })
      .waitFor({ state: 'attached' });
    // By the append path: no rebuild, no reload; the agent's card is still the one the rebuild drew.
    expect(count(/rebuilding…/g)).toBe(rebuilt);
    expect(await page.evaluate(readMark)).toBe('kept');
    expect(await page.locator(`a.agent-card__open[href*="agent-${agentId}"]`).count()).toBe(1);
  });

  it('leaves the pages on disk without the live script', () => {
    const onDisk = readFileSync(join(work, 'site', PAGE, 'index.html'), 'utf8');
    expect(onDisk).toContain('three pages');
    expect(onDisk).not.toContain('live.js');
    expect(onDisk).toContain("connect-src 'none'");
  });

  it('stops cleanly on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    await until(() => /rebuilt in/.test(stderr) && !/rebuilding…\n$/.test(stderr));
    server.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/Stopped\.\n$/);
    expect(existsSync(join(work, 'site', 'index.html'))).toBe(true);
  });
});
