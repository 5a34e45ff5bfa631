import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSession } from '@cctrail/core';
import { escapeHtml, loadLiveRenderer, renderLiveTranscript } from '@cctrail/report';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyTransform } from '../../src/privacy/transform.js';
import { LiveWindow, type WindowContext } from '../../src/serve/live-window.js';

const work = mkdtempSync(join(tmpdir(), 'cctrail-window-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 0);

const file = join(work, 'S1.jsonl');
const PAGE = { route: 's/app/s1/', project: 'app', session: 's1' };
const PRIVACY = privacyTransform({ redact: true, shortHome: false });
const context: WindowContext = {
  file,
  scope: 'main',
  page: PAGE,
  privacy: PRIVACY,
  render: { transcript: renderLiveTranscript, escape: escapeHtml },
};
const AT = '2026-01-01T10:00:00.000Z';

function prompt(uuid: string, parent: string | null, text: string): string {
  return JSON.stringify({
    type: 'user',
    uuid,
    parentUuid: parent,
    timestamp: AT,
    message: { role: 'user', content: text },
  });
}

function answer(uuid: string, parent: string, content: unknown[]): string {
  return JSON.stringify({
    type: 'assistant',
    uuid,
    parentUuid: parent,
    timestamp: AT,
    message: { id: `m-${uuid}`, role: 'assistant', content },
  });
}

function result(uuid: string, parent: string, call: string, text: string): string {
  return JSON.stringify({
    type: 'user',
    uuid,
    parentUuid: parent,
    timestamp: AT,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: call, content: text }] },
  });
}

/** The file as its page draws it (the whole file: the page's transcript is the last cards of it). */
async function page(text = readFileSync(file, 'utf8')): Promise<string> {
  const source = {
    path: file,
    read: async function* () {
      yield Buffer.from(text);
    },
  };
  const session = await buildSession({ id: 'S1', main: source, agents: [] });
  const drawn = renderLiveTranscript(PRIVACY(session), 'main', { page: PAGE });
  return `<main><div class="transcript">${drawn?.html}</div></main>`;
}

/** Appends lines to the file and adds them to the window. */
async function append(window: LiveWindow, ...lines: string[]): Promise<boolean> {
  appendFileSync(file, `${lines.join('\n')}\n`);
  return window.add(lines);
}

/** A window opened on the file as it is, with its page. */
async function opened(): Promise<{ window: LiveWindow; built: string }> {
  const built = await page();
  const { size } = statSync(file);
  const window = await LiveWindow.open(context, size, size, built);
  if (window === null) throw new Error('the window did not open');
  return { window, built };
}

beforeAll(loadLiveRenderer);

describe('LiveWindow', () => {
  it('draws only its last cards again however many were appended, and shows what the page will show', async () => {
    writeFileSync(
      file,
      `${prompt('p0', null, 'start')}\n${answer('a0', 'p0', [{ type: 'text', text: 'ok' }])}\n`,
    );
    const { window, built } = await opened();
    let parent = 'a0';
    for (let n = 1; n <= 40; n++) {
      expect(
        await append(
          window,
          prompt(`p${n}`, parent, `step ${n}`),
          answer(`a${n}`, `p${n}`, [{ type: 'text', text: `done **${n}**` }]),
        ),
      ).toBe(true);
      parent = `a${n}`;
      if (n % 10 === 0) expect(window.place(built)).toBe(await page());
    }
    expect(window.size).toBe(80);
    // The cards before the last one are kept as drawn: the window holds the last card's line, not 82 lines.
    expect(window.held).toBe(1);
  });

  it('keeps drawing a card whose tool call waits for its result: the result is shown with it', async () => {
    writeFileSync(file, `${prompt('q0', null, 'start')}\n`);
    const { window, built } = await opened();
    const call = { type: 'tool_use', id: 'toolu_wait', name: 'Bash', input: { command: 'sleep 1' } };
    expect(await append(window, answer('c1', 'q0', [call]))).toBe(true);
    // A later card (another response) while the call runs: the call's card is still drawn again.
    expect(await append(window, answer('c2', 'c1', [{ type: 'text', text: 'meanwhile' }]))).toBe(true);
    expect(await append(window, result('r1', 'c2', 'toolu_wait', 'finished <ok>'))).toBe(true);
    const shown = window.place(built);
    expect(shown).toBe(await page());
    expect(shown).toContain('finished &lt;ok&gt;');
    // Once its call has its result, a card is kept as drawn.
    expect(await append(window, prompt('q2', 'r1', 'next'))).toBe(true);
    expect(window.held).toBe(1);
    expect(window.place(built)).toBe(await page());
  });
});
