import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT,
  agent,
  drawn,
  input,
  KEY,
  main,
  P3,
  pageHtml,
  record,
  removeWork,
  tails,
  writePage,
  writeSite,
} from './live-tails-fixture.js';

beforeAll(writeSite);
afterAll(removeWork, 0);

describe('LiveTails', () => {
  it('draws what was appended since the build into the last page of the session or agent, as the report does', async () => {
    const t = tails();
    appendFileSync(main, record('u3', 'u2', `use ${KEY}, <b>third</b>`));
    appendFileSync(agent, record('a2', 'a1', 'agent step', { answer: true, agentId: 'X1' }));
    const { rebuild, appended } = await t.absorb([main, agent]);
    expect(rebuild).toEqual([]);
    // Drawn anew from the page's last card: the answer's.
    expect(appended).toEqual(
      new Map([
        [P3, { lines: 1, from: 'e-u2' }],
        [AGENT, { lines: 1, from: 'e-a1' }],
      ]),
    );
    // The page as served: as the report draws the whole file now, redacted and escaped.
    const p3 = t.pageFor(P3, pageHtml(P3));
    expect(p3).toEqual({ html: await drawn(main, P3, 'main'), notes: '' });
    expect(p3.html).not.toContain(KEY);
    expect(p3.html).toContain('&#x3C;b>third&#x3C;/b>');
    expect(p3.html).not.toContain('<b>');
    expect(p3.html).toContain('<strong>answer</strong>');
    expect(t.pageFor(AGENT, pageHtml(AGENT)).html).toBe(await drawn(agent, AGENT, 'agent'));
    expect(t.pageFor('/s/app/abc-123/', '<main></main>').html).toBe('<main></main>');
    // What the watcher may miss is found by looking at the files followed: those whose size changed.
    expect(t.changed()).toEqual([]);
    // A line being written is left for the next read.
    appendFileSync(main, record('u4', 'u3').slice(0, 20));
    expect(t.changed()).toEqual([main]);
    expect((await t.absorb([main])).appended.size).toBe(0);
    expect(t.changed()).toEqual([]);
    appendFileSync(main, `${record('u4', 'u3').slice(20)}{"broken\n`);
    expect((await t.absorb([main])).appended.get(P3)).toEqual({ lines: 2, from: 'e-u2' });
    const text = readFileSync(main, 'utf8').replace('{"broken\n', '');
    const withNote = t.pageFor(P3, pageHtml(P3));
    expect(withNote.html).toBe(await drawn(main, P3, 'main', text));
    expect(withNote.notes).toContain(`${main}:5 is not a JSON record`);
    t.close();
  });

  it('hands back new files, rewritten files, forks and pages it does not draw alike: their sessions are rebuilt', async () => {
    const t = tails();
    const fresh = join(input, '-home-app', 'new-session.jsonl');
    writeFileSync(fresh, record('n1', null));
    expect((await t.absorb([fresh])).rebuild).toEqual([fresh]);
    appendFileSync(main, record('f1', 'u1', 'a rewind'));
    expect((await t.absorb([main])).rebuild).toEqual([main]);
    writeFileSync(main, record('r1', null));
    const rewritten = await t.absorb([main]);
    expect(rewritten.rebuild).toEqual([main]);
    expect(t.pageFor(P3, pageHtml(P3)).html).toBe(pageHtml(P3));
    t.close();
    // The agent's page is not what its file draws: followed, but not live.
    writePage(
      AGENT,
      '<main><div class="transcript"><article class="entry" id="e-a1">other</article></div></main>',
    );
    const other = tails();
    appendFileSync(agent, record('a3', 'a2', 'more', { agentId: 'X1' }));
    expect((await other.absorb([agent])).rebuild).toEqual([agent]);
    other.close();
  });

  it('opens its windows again on the rebuilt pages: what came during the rebuild stays shown', async () => {
    writeFileSync(main, record('b0', null, 'again') + record('b1', 'b0', 'answer', { answer: true }));
    writePage(P3, await drawn(main, P3, 'main'));
    const t = tails();
    appendFileSync(main, record('b2', 'b1', 'next'));
    await t.absorb([main]);
    t.rebuilding();
    const read = readFileSync(main, 'utf8');
    appendFileSync(main, record('b3', 'b2', 'during the rebuild', { answer: true }));
    await t.absorb([main]);
    // The rebuild wrote a new last page, from what the file held as it started.
    writePage('s/app/abc-123/p4', await drawn(main, '/s/app/abc-123/p4/', 'main', read));
    await t.rebuilt([input]);
    expect(t.pageFor(P3, pageHtml(P3)).html).toBe(pageHtml(P3));
    const p4 = t.pageFor('/s/app/abc-123/p4/', pageHtml('s/app/abc-123/p4'));
    expect(p4.html).toBe(await drawn(main, '/s/app/abc-123/p4/', 'main'));
    expect(p4.html).toContain('during the rebuild');
    expect(t.waiting()).toEqual([main]);
    t.close();
  });

  it('finds how far a rebuild read: lines appended while it ran may be on its page already', async () => {
    writeFileSync(main, record('c0', null, 'again') + record('c1', 'c0', 'answer', { answer: true }));
    writePage('s/app/abc-123/p4', await drawn(main, '/s/app/abc-123/p4/', 'main'));
    const t = tails();
    appendFileSync(main, record('c2', 'c1', 'next'));
    await t.absorb([main]);
    t.rebuilding();
    appendFileSync(main, record('c3', 'c2', 'read by the rebuild', { answer: true }));
    const read = readFileSync(main, 'utf8');
    appendFileSync(main, record('c4', 'c3', 'after it'));
    await t.absorb([main]);
    // The rebuild read the file once c3 was in it.
    writePage('s/app/abc-123/p4', await drawn(main, '/s/app/abc-123/p4/', 'main', read));
    await t.rebuilt([input]);
    appendFileSync(main, record('c5', 'c4', 'and on', { answer: true }));
    expect((await t.absorb([main])).rebuild).toEqual([]);
    expect(t.pageFor('/s/app/abc-123/p4/', pageHtml('s/app/abc-123/p4')).html).toBe(
      await drawn(main, '/s/app/abc-123/p4/', 'main'),
    );
    t.close();
  });

  it('asks for the session to be rebuilt once it has been quiet', async () => {
    const settled: string[][] = [];
    const t = tails(5, settled);
    const quiet = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (settled.length === 0) return;
        clearInterval(check);
        resolve();
      }, 5);
    });
    writePage('s/app/abc-123/p4', await drawn(main, '/s/app/abc-123/p4/', 'main'));
    appendFileSync(main, record('q1', 'c5'));
    expect((await t.absorb([main])).rebuild).toEqual([]);
    await quiet;
    expect(settled).toEqual([[main]]);
    expect(t.waiting()).toEqual([]);
    t.close();
  });

  it('follows a page whose last card spawned an agent: the agent card is drawn as the page draws it', async () => {
    const dir = join(input, '-home-app');
    const spawner = join(dir, 'spawn-1.jsonl');
    const helper = join(dir, 'spawn-1', 'subagents', 'agent-y1.jsonl');
    const page = '/s/app/spawn-1/';
    mkdirSync(join(dir, 'spawn-1', 'subagents'), { recursive: true });
    const call = {
      type: 'tool_use',
      id: 'toolu_spawn',
      name: 'Agent',
      input: { subagent_type: 'Explore', description: 'Search <docs>', prompt: 'Search the docs.' },
    };
    const base = { sessionId: 'spawn-1', timestamp: '2026-01-01T10:00:00.000Z' };
    const lines = [
      { ...base, uuid: 's1', parentUuid: null, type: 'user', message: { role: 'user', content: 'look' } },
      {
        ...base,
        uuid: 's2',
        parentUuid: 's1',
        type: 'assistant',
        message: { id: 'm-s2', role: 'assistant', content: [call] },
      },
      {
        ...base,
        uuid: 's3',
        parentUuid: 's2',
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_spawn', content: 'launched' }],
        },
        toolUseResult: { isAsync: true, status: 'async_launched', agentId: 'y1' },
      },
    ];
    writeFileSync(spawner, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    writeFileSync(helper, record('y-a', null, 'Search the docs.', { agentId: 'y1' }));
    writeFileSync(
      helper.replace('.jsonl', '.meta.json'),
      JSON.stringify({ agentType: 'Explore', toolUseId: 'toolu_spawn' }),
    );
    // The page's last card is the call's, with the agent's card under it (its size, its page).
    writePage(page, await drawn(spawner, page, 'main', undefined, [helper]));
    expect(pageHtml(page)).toMatch(
      /1 entries · incomplete<\/span> <a class="agent-card__open" href="[./]*\/s\/app\/spawn-1\/agent\/agent-y1\//,
    );
    const t = tails();
    appendFileSync(
      spawner,
      `${JSON.stringify({ ...base, uuid: 's4', parentUuid: 's3', type: 'assistant', message: { id: 'm-s4', role: 'assistant', content: [{ type: 'text', text: 'It runs.' }] } })}\n`,
    );
    const { rebuild, appended } = await t.absorb([spawner]);
    expect(rebuild).toEqual([]);
    expect(appended.get(page)).toEqual({ lines: 1, from: 'e-s2' });
    expect(t.pageFor(page, pageHtml(page)).html).toBe(
      await drawn(spawner, page, 'main', undefined, [helper]),
    );
    // The agent goes on: its card, redrawn with the next append, tells of its new size.
    appendFileSync(helper, record('y-b', 'y-a', 'found', { answer: true, agentId: 'y1' }));
    appendFileSync(spawner, record('s5', 's4', 'and now?').replace('AbC-123', 'spawn-1'));
    expect((await t.absorb([spawner])).rebuild).toEqual([]);
    const now = t.pageFor(page, pageHtml(page)).html;
    expect(now).toBe(await drawn(spawner, page, 'main', undefined, [helper]));
    expect(now).toContain('2 entries');
    t.close();
  });
});
