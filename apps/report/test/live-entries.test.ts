import { activeEntries, buildSession, type Session } from '@cctrail/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLiveRenderer, renderLiveTranscript } from '../src/build/live-entries.js';
import { renderTranscript } from '../src/views/transcript/render-card.js';
import { transcriptContext } from '../src/views/transcript/transcript.js';

const AT = '2026-01-01T10:00:00.000Z';
const prompt = (uuid: string, parent: string | null, text: string) => ({
  type: 'user',
  uuid,
  parentUuid: parent,
  timestamp: AT,
  message: { role: 'user', content: text },
});
const answer = (uuid: string, parent: string, id: string, content: unknown[]) => ({
  type: 'assistant',
  uuid,
  parentUuid: parent,
  timestamp: AT,
  message: { id, role: 'assistant', model: 'claude-opus-4-7', content },
});
const result = (uuid: string, parent: string, call: string, text: string) => ({
  type: 'user',
  uuid,
  parentUuid: parent,
  timestamp: AT,
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: call, content: text }] },
});

/** A prompt; an answer in two lines (text, then a call); the call's result; a second prompt. */
const LINES = [
  prompt('u1', null, 'Run the **tests**'),
  answer('a1', 'u1', 'm1', [{ type: 'text', text: 'Running:\n\n- `pnpm test`\n- \u202Eevil' }]),
  answer('a2', 'a1', 'm1', [
    { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'pnpm test <all>' } },
  ]),
  result('r1', 'a2', 't1', '12 passed & <b>0</b> failed'),
  prompt('u2', 'r1', 'Thanks'),
];

async function session(records: readonly object[]): Promise<Session> {
  const bytes = Buffer.from(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return buildSession({
    id: 's',
    main: {
      path: 's.jsonl',
      read: async function* () {
        yield bytes;
      },
    },
    agents: [],
  });
}

describe('renderLiveTranscript', () => {
  beforeAll(loadLiveRenderer);

  it('draws a window as the transcript page draws the same entries, from a card on', async () => {
    const s = await session(LINES);
    const entries = activeEntries(s);
    const page = renderTranscript(entries, transcriptContext(s, entries), {
      sidechain: () => null,
      branch: () => '#',
    }).value;
    const whole = renderLiveTranscript(s, 'main');
    expect(`<div class="transcript">${whole?.html}</div>`).toBe(page);
    // Cards: the prompt, the answer with its call and folded result, the second prompt.
    expect(whole?.cards).toEqual([
      { uuid: 'u1', anchor: 'e-u1' },
      { uuid: 'a1', anchor: 'e-a1' },
      { uuid: 'u2', anchor: 'e-u2' },
    ]);
    const fromAnswer = renderLiveTranscript(s, 'main', { from: 'a1' });
    expect(page.endsWith(`${fromAnswer?.html}</div>`)).toBe(true);
    expect(fromAnswer?.html).toMatch(/^<article class="entry entry--claude" id="e-a1">/);
    expect(fromAnswer?.html).toContain('12 passed &amp; &lt;b&gt;0&lt;/b&gt; failed');
    expect(fromAnswer?.html).not.toContain('\u202E');
  });

  it('will not draw what its page would draw otherwise', async () => {
    // A result whose call is before the window: the page folds it into the call's card.
    expect(renderLiveTranscript(await session(LINES.slice(3)), 'main')).toBeNull();
    // Drawing from an entry that is not a card's first (the call's line joins the answer's card).
    expect(renderLiveTranscript(await session(LINES), 'main', { from: 'a2' })).toBeNull();
    expect(renderLiveTranscript(await session(LINES), 'main', { from: 'nowhere' })).toBeNull();
  });

  it('links a spawned agent as its page does', async () => {
    const spawn = answer('a1', 'u1', 'm1', [
      { type: 'tool_use', id: 'toolu_x', name: 'Task', input: { description: 'Search', prompt: 'go' } },
    ]);
    const drawn = renderLiveTranscript(await session([LINES[0] as object, spawn]), 'main', {
      page: { route: 's/app/s/p2/', project: 'app', session: 's' },
    });
    expect(drawn?.html).toMatch(/href="\.\.\/\.\.\/\.\.\/\.\.\/s\/app\/s\/agent\/[a-z0-9_-]+\/index\.html"/);
  });

  it("links a branch point to the session's list of branches, the one place a window knows it is", async () => {
    // A rewind: the first prompt's answer abandoned, the prompt asked again.
    const s = await session([
      prompt('u1', null, 'Try it'),
      answer('a1', 'u1', 'm1', [{ type: 'text', text: 'First try' }]),
      prompt('u2', 'a1', 'No, again'),
      prompt('u3', 'a1', 'Differently'),
      answer('a3', 'u3', 'm3', [{ type: 'text', text: 'Second try' }]),
    ]);
    expect(s.branches.length).toBeGreaterThan(0);
    const drawn = renderLiveTranscript(s, 'main', {
      page: { route: 's/app/s/p2/', project: 'app', session: 's' },
    });
    const links = [...(drawn?.html ?? '').matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(links).toContain('../../../../s/app/s/index.html#branches');
    expect(links.filter((l) => /\/branch\//.test(l ?? ''))).toEqual([]);
  });
});
