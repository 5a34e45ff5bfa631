import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { privacyTransform } from '../../src/privacy/transform.js';
import { LiveTails } from '../../src/serve/live-tails.js';

const work = mkdtempSync(join(tmpdir(), 'cctrail-tails-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 0);

const SESSION = 'AbC-123';
const input = join(work, 'projects');
const site = join(work, 'site');
const main = join(input, '-home-app', `${SESSION}.jsonl`);
const agent = join(input, '-home-app', SESSION, 'subagents', 'agent-X1.jsonl');

/** A record line chained to `parent`. */
function record(uuid: string, parent: string | null, text = uuid): string {
  return `${JSON.stringify({ type: 'user', uuid, parentUuid: parent, message: { content: text } })}\n`;
}

function page(path: string): void {
  mkdirSync(join(site, path), { recursive: true });
  writeFileSync(join(site, path, 'index.html'), '<main></main>');
}

mkdirSync(join(input, '-home-app', SESSION, 'subagents'), { recursive: true });
writeFileSync(main, record('u1', null) + record('u2', 'u1'));
writeFileSync(agent, record('a1', null));
// The session's transcript has three pages; its agent one; another project has no such session.
for (const p of ['s/app/abc-123', 's/app/abc-123/p2', 's/app/abc-123/p3', 's/app/abc-123/agent/agent-x1'])
  page(p);
page('s/other/def-456');

function tails(settleMs = 60_000, settled: string[][] = []): LiveTails {
  const t = new LiveTails({
    root: site,
    privacy: privacyTransform({ redact: true, shortHome: false }),
    settle: (files) => settled.push(files),
    settleMs,
  });
  t.remember([input]);
  return t;
}

describe('LiveTails', () => {
  it('reads only what was appended since the build, for the last page of the session or agent', async () => {
    const t = tails();
    appendFileSync(main, record('u3', 'u2', 'third prompt'));
    appendFileSync(agent, record('a2', 'a1', 'agent step'));
    const { rebuild, appended } = await t.absorb([main, agent]);
    expect(rebuild).toEqual([]);
    expect([...appended.keys()]).toEqual(['/s/app/abc-123/p3/', '/s/app/abc-123/agent/agent-x1/']);
    expect(appended.get('/s/app/abc-123/p3/')?.map((i) => i.id)).toEqual(['e-u3']);
    // What the watcher may miss is found by looking at the files followed: those whose size changed.
    expect(t.changed()).toEqual([]);
    // A line being written is left for the next read.
    appendFileSync(main, record('u4', 'u3').slice(0, 20));
    expect(t.changed()).toEqual([main]);
    expect((await t.absorb([main])).appended.size).toBe(0);
    expect(t.changed()).toEqual([]);
    appendFileSync(main, record('u4', 'u3').slice(20));
    expect((await t.absorb([main])).appended.get('/s/app/abc-123/p3/')?.map((i) => i.id)).toEqual(['e-u4']);
    // The page shows what its HTML does not hold yet.
    expect(t.itemsFor('/s/app/abc-123/p3/', '<main></main>').map((i) => i.id)).toEqual(['e-u3', 'e-u4']);
    expect(t.itemsFor('/s/app/abc-123/p3/', '<article id="e-u3">').map((i) => i.id)).toEqual(['e-u4']);
    expect(t.itemsFor('/s/app/abc-123/', '')).toEqual([]);
    t.close();
  });

  it('hands back new files, rewritten files and forks: their sessions are rebuilt', async () => {
    const t = tails();
    const fresh = join(input, '-home-app', 'new-session.jsonl');
    writeFileSync(fresh, record('n1', null));
    expect((await t.absorb([fresh])).rebuild).toEqual([fresh]);
    appendFileSync(main, record('f1', 'u1', 'a rewind'));
    expect((await t.absorb([main])).rebuild).toEqual([main]);
    writeFileSync(main, record('r1', null));
    const rewritten = await t.absorb([main]);
    expect(rewritten.rebuild).toEqual([main]);
    expect(t.itemsFor('/s/app/abc-123/p3/', '')).toEqual([]);
    // Followed again from the rewritten file's end.
    appendFileSync(main, record('r2', 'r1'));
    expect((await t.absorb([main])).appended.get('/s/app/abc-123/p3/')?.map((i) => i.id)).toEqual(['e-r2']);
    t.close();
  });

  it('drops what a rebuild read, keeps what came during it, and moves to a new last page', async () => {
    const t = tails();
    appendFileSync(main, record('b1', 'r2'));
    await t.absorb([main]);
    t.rebuilding();
    appendFileSync(main, record('b2', 'b1'));
    await t.absorb([main]);
    page('s/app/abc-123/p4');
    t.rebuilt([input]);
    expect(t.itemsFor('/s/app/abc-123/p3/', '')).toEqual([]);
    expect(t.itemsFor('/s/app/abc-123/p4/', '').map((i) => i.id)).toEqual(['e-b2']);
    expect(t.waiting()).toEqual([main]);
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
    appendFileSync(main, record('q1', 'b2'));
    await t.absorb([main]);
    await quiet;
    expect(settled).toEqual([[main]]);
    expect(t.waiting()).toEqual([]);
    t.close();
  });
});
