import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildSession } from '@cctrail/core';
import { escapeHtml, loadLiveRenderer, renderLiveTranscript } from '@cctrail/report';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyTransform } from '../../src/privacy/transform.js';
import { LiveTails } from '../../src/serve/live-tails.js';

const work = mkdtempSync(join(tmpdir(), 'cctrail-tails-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 0);

const SESSION = 'AbC-123';
const input = join(work, 'projects');
const site = join(work, 'site');
const main = join(input, '-home-app', `${SESSION}.jsonl`);
const agent = join(input, '-home-app', SESSION, 'subagents', 'agent-X1.jsonl');
const PRIVACY = privacyTransform({ redact: true, shortHome: false });
const KEY = `sk-ant-api03-${'x7Kq2'.repeat(18)}AA`;
const P3 = '/s/app/abc-123/p3/';
const AGENT = '/s/app/abc-123/agent/agent-x1/';

/** A prompt, or with `answer` an answer, chained to `parent`; in an agent's file with `agentId`. */
function record(
  uuid: string,
  parent: string | null,
  text = uuid,
  o: { answer?: boolean; agentId?: string } = {},
) {
  const base = { uuid, parentUuid: parent, sessionId: SESSION, timestamp: '2026-01-01T10:00:00.000Z' };
  const side = o.agentId ? { isSidechain: true, agentId: o.agentId } : {};
  const line = o.answer
    ? {
        ...base,
        ...side,
        type: 'assistant',
        message: { id: `m-${uuid}`, role: 'assistant', content: [{ type: 'text', text }] },
      }
    : { ...base, ...side, type: 'user', message: { role: 'user', content: text } };
  return `${JSON.stringify(line)}\n`;
}

/** A transcript source of a file's bytes now (or of `text`). */
function source(file: string, text = readFileSync(file, 'utf8')) {
  return {
    path: file,
    read: async function* () {
      yield Buffer.from(text);
    },
  };
}

/**
 * The transcript of a file's lines as the report draws it on the page at `page`, inside a page; with `agents`,
 * the session's agent files and their sidecars are read with it.
 */
async function drawn(
  file: string,
  page: string,
  scope: 'main' | 'agent',
  text = readFileSync(file, 'utf8'),
  agents: string[] = [],
) {
  const id = basename(file, '.jsonl');
  const session = await buildSession(
    scope === 'main'
      ? {
          id,
          main: source(file, text),
          agents: agents.map((a) => source(a)),
          agentMeta: agents.map((a) => {
            const path = a.replace(/\.jsonl$/, '.meta.json');
            return { path, text: readFileSync(path, 'utf8') };
          }),
        }
      : { id: SESSION, main: null, agents: [source(file, text)] },
  );
  const [, , project = '', slug = ''] = page.split('/');
  const live = renderLiveTranscript(PRIVACY(session), scope, {
    page: { route: page.slice(1), project, session: slug },
  });
  return `<body><main><div class="transcript">${live?.html}</div></main></body>`;
}

function writePage(path: string, html = '<main></main>'): void {
  mkdirSync(join(site, path), { recursive: true });
  writeFileSync(join(site, path, 'index.html'), html);
}

function pageHtml(path: string): string {
  return readFileSync(join(site, path, 'index.html'), 'utf8');
}

beforeAll(async () => {
  await loadLiveRenderer();
  mkdirSync(join(input, '-home-app', SESSION, 'subagents'), { recursive: true });
  writeFileSync(main, record('u1', null, 'first') + record('u2', 'u1', 'an **answer**', { answer: true }));
  writeFileSync(agent, record('a1', null, 'task', { agentId: 'X1' }));
  // The session's transcript has three pages, the last one showing the file; its agent one; another project
  // has no such session.
  for (const p of ['s/app/abc-123', 's/app/abc-123/p2']) writePage(p);
  writePage(P3, await drawn(main, P3, 'main'));
  writePage(AGENT, await drawn(agent, AGENT, 'agent'));
  writePage('s/other/def-456');
});

function tails(settleMs = 60_000, settled: string[][] = []): LiveTails {
  const t = new LiveTails({
    root: site,
    privacy: () => PRIVACY,
    settle: (files) => settled.push(files),
    settleMs,
    render: { transcript: renderLiveTranscript, escape: escapeHtml },
  });
  t.remember([input]);
  return t;
}

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
