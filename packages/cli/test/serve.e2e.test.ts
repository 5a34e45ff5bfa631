import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cctrail, FIXTURES } from './helpers.js';

// `cctrail serve` as a user runs it: the real binary on a copy of a fixture that "Claude Code" is still writing,
// a page open in chromium, lines and an agent's files appended, the page updating itself; then Ctrl-C.

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const REPORT_BUILT = existsSync(new URL('../../../apps/report/dist/index.js', import.meta.url));
const PROJECT = '-home-dev-agents-2026';
const ID = '6c8678cc-6b37-40b9-8cff-e1e1df72cfc9';
const SOURCE = join(FIXTURES, 'agents-2026', PROJECT);
const PAGE = `s/home-dev-agents-2026/${ID}/`;
const LINEAR = '88b9af8e-2314-4b66-9a90-221c50a7db10';
/** Uuids of the entries the live-drawing test appends: an answer in markdown, its tool call, the call's result. */
const LIVE = [
  'f0000000-0000-4000-8000-000000000001',
  'f0000000-0000-4000-8000-000000000002',
  'f0000000-0000-4000-8000-000000000003',
];

/** Uuids of the entries the spawn test appends: a call that spawns an agent, its result, an answer; the agent's. */
const SPAWN = [
  'f0000000-0000-4000-8000-000000000011',
  'f0000000-0000-4000-8000-000000000012',
  'f0000000-0000-4000-8000-000000000013',
  'f0000000-0000-4000-8000-000000000014',
];

/** The window as the page functions below use it (this package's TypeScript has no DOM types). */
interface PageWindow {
  scrollY: number;
  innerHeight: number;
  scrollTo(x: number, y: number): void;
  document: { documentElement: { scrollHeight: number } };
}

/** Page function: scrolls to the end of the page. */
function scrollToEnd(): void {
  const w = globalThis as unknown as PageWindow;
  w.scrollTo(0, w.document.documentElement.scrollHeight);
}

/** Page function: scrolls to the top of the page. */
function scrollToTop(): void {
  (globalThis as unknown as PageWindow).scrollTo(0, 0);
}

/** Each file of a folder (relative path) with its identity: a file written again, even with the same bytes, differs. */
function fileStates(root: string): Map<string, string> {
  const states = new Map<string, string>();
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) stack.push(path);
      else {
        const { ino, ctimeMs, size } = statSync(join(root, path));
        states.set(path, `${ino}:${ctimeMs}:${size}`);
      }
    }
  }
  return states;
}

/** The files new or written again between two `fileStates`, sorted. */
function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after]
    .filter(([path, state]) => before.get(path) !== state)
    .map(([path]) => path)
    .sort();
}

/** Page function: an element's HTML. */
function outerHtml(element: unknown): string {
  return (element as { outerHTML: string }).outerHTML;
}

/** Page function: marks the page, so that a reload (a new window object) shows. */
function keepMark(): void {
  (globalThis as unknown as { cctrailTestMark?: string }).cctrailTestMark = 'kept';
}

/** Page function: the mark, or undefined after a reload. */
function readMark(): string | undefined {
  return (globalThis as unknown as { cctrailTestMark?: string }).cctrailTestMark;
}

/**
 * Page function: whether the window shows the end of the page (less than 100 CSS pixels below it). Waited for, not
 * read once: the page follows its end after the frame that added the entries, which a loaded machine delays.
 */
function atEnd(): boolean {
  const w = globalThis as unknown as PageWindow;
  return w.document.documentElement.scrollHeight - (w.scrollY + w.innerHeight) < 100;
}

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
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout?.on('data', (chunk) => {
        out += chunk;
        const line = /^(http:\/\/\S+)\n/m.exec(out);
        if (line?.[1]) resolve(line[1]);
      });
      server.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    await until(() => stderr.includes('Watching'));
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

/** A child's stderr as it is written; `seen` resolves once it matches (the test's timeout bounds the wait). */
function gatherStderr(child: ChildProcess): { readonly text: string; seen(text: RegExp): Promise<void> } {
  let text = '';
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  return {
    get text() {
      return text;
    },
    seen: (wanted) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!wanted.test(text)) return;
          child.stderr?.off('data', check);
          resolve();
        };
        child.stderr?.on('data', check);
        check();
      }),
  };
}

describe.skipIf(!REPORT_BUILT)('cctrail report --watch', () => {
  it('rebuilds the folder when a session changes, and stops cleanly', async () => {
    const work = mkdtempSync(join(tmpdir(), 'cctrail-watch-'));
    try {
      cpSync(join(FIXTURES, 'linear'), join(work, 'projects'), { recursive: true });
      rmSync(join(work, 'projects', 'expected.json'));
      rmSync(join(work, 'projects', 'facts.json'));
      const child = spawn(
        process.execPath,
        [BIN, 'report', '--watch', join(work, 'projects'), '-o', join(work, 'site')],
        {
          env: { ...process.env, NO_COLOR: '1', CCTRAIL_CACHE_DIR: join(work, 'cache'), HOME: work },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const log = gatherStderr(child);
      await log.seen(/Watching /);
      const page = join(work, 'site', 'index.html');
      expect(existsSync(page)).toBe(true);
      // A second session in a new project.
      const added = join(work, 'projects', '-home-dev-other', 'b0000000-0000-4000-8000-000000000001.jsonl');
      mkdirSync(join(added, '..'));
      const line = readFileSync(
        join(work, 'projects', '-home-dev-linear', '88b9af8e-2314-4b66-9a90-221c50a7db10.jsonl'),
        'utf8',
      )
        .split('\n')
        .find((l) => l.includes('"type":"user"')) as string;
      writeFileSync(
        added,
        `${line.replaceAll('88b9af8e-2314-4b66-9a90-221c50a7db10', 'b0000000-0000-4000-8000-000000000001')}\n`,
      );
      await log.seen(/rebuilt in [\d.]+ s\n/);
      expect(log.text).toContain('-home-dev-other');
      expect(
        existsSync(
          join(work, 'site', 's', 'home-dev-other', 'b0000000-0000-4000-8000-000000000001', 'index.html'),
        ),
      ).toBe(true);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(log.text).toMatch(/Stopped\.\n$/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.skipIf(!REPORT_BUILT)('cctrail report --watch, by the append path', () => {
  it("writes an append into its session's last page only, then rebuilds that session's pages and the index", async () => {
    const work = mkdtempSync(join(tmpdir(), 'cctrail-watch-live-'));
    try {
      const projects = join(work, 'projects');
      cpSync(join(FIXTURES, 'linear', '-home-dev-linear'), join(projects, '-home-dev-linear'), {
        recursive: true,
      });
      cpSync(SOURCE, join(projects, PROJECT), { recursive: true });
      const site = join(work, 'site');
      const child = spawn(
        process.execPath,
        [BIN, 'report', '--watch', projects, '-o', site, '--settle', '600'],
        {
          env: { ...process.env, NO_COLOR: '1', CCTRAIL_CACHE_DIR: join(work, 'cache'), HOME: work },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const log = gatherStderr(child);
      await log.seen(/Watching /);
      const built = fileStates(site);
      const file = join(projects, '-home-dev-linear', `${LINEAR}.jsonl`);
      const last = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1) as string);
      const prompt = { ...last, parentUuid: last.uuid, uuid: 'e0000000-0000-4000-8000-000000000001' };
      delete prompt.subtype;
      delete prompt.durationMs;
      appendFileSync(
        file,
        `${JSON.stringify({ ...prompt, type: 'user', message: { role: 'user', content: 'Now **the docs**' } })}\n`,
      );
      await log.seen(/1 line appended to \/s\/home-dev-linear\//);
      // Only the session's last transcript page, with the new entry drawn in it.
      const live = fileStates(site);
      expect(changedFiles(built, live)).toEqual([`s/home-dev-linear/${LINEAR}/index.html`]);
      expect(readFileSync(join(site, 's/home-dev-linear', LINEAR, 'index.html'), 'utf8')).toContain(
        '<strong>the docs</strong>',
      );
      expect(log.text).not.toContain('rebuilding');
      // Stopping rebuilds the session waiting to be: its pages and the index, no other session's page.
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(log.text.match(/rebuilding…/g)).toHaveLength(1);
      const rebuilt = changedFiles(live, fileStates(site));
      const pages = rebuilt.filter((f) => f.endsWith('.html'));
      // The index written again: the report writes a page only when its bytes change (its session's row did).
      expect(pages).toContain('index.html');
      expect(
        pages.filter((f) => f !== 'index.html' && !f.startsWith(`s/home-dev-linear/${LINEAR}/`)),
      ).toEqual([]);
      expect(rebuilt.filter((f) => f.startsWith('s/home-dev-agents-2026/'))).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('cctrail serve, usage', () => {
  it('offers the report options but --base and --watch, and its own', async () => {
    const help = await cctrail(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--port N');
    expect(help.stdout).toContain('--host ADDR');
    expect(help.stdout).toContain('--no-redact');
    expect(help.stdout).not.toContain('--base');
    expect(help.stdout).not.toContain('--watch');
    expect((await cctrail(['--help'])).stdout).toMatch(/^ {2}serve +build the report, serve it/m);
  });

  it('refuses a port that is not one', async () => {
    const run = await cctrail(['serve', FIXTURES, '--port', '99999']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--port must be 0 to 65535, got 99999');
  });
});
