/**
 * Conversations across files: the project-level map (files → sessions → conversations), the links between files,
 * and totals over the joined graph that count nothing twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findConversations, statsDigest } from '../src/archive/index.js';
import { conversationInputs, FIXTURES, loadSessions } from './fixture-sessions.js';
import { answer, prompt, sessionOf } from './helpers.js';

describe('fixture conversations', async () => {
  const facts = JSON.parse(readFileSync(join(FIXTURES, 'conversations', 'facts.json'), 'utf8'));
  const conversations = findConversations(
    conversationInputs(await loadSessions(join(FIXTURES, 'conversations'))),
  );

  it('finds the same conversations in a structure-only build', async () => {
    const lean = findConversations(
      conversationInputs(await loadSessions(join(FIXTURES, 'conversations'), false)),
    );
    expect(lean).toEqual(conversations);
  });

  it('groups the files of each conversation in time order', () => {
    const want = facts.conversations.map((c: { id: string; sessions: string[] }) => [c.id, c.sessions]);
    expect(conversations.map((c) => [c.id, c.sessions.map((s) => s.id)]).sort()).toEqual(want.sort());
  });

  it('links continuations, resumes and forks with their entries', () => {
    for (const want of facts.conversations) {
      const got = conversations.find((c) => c.id === want.id)!;
      for (const [id, links] of Object.entries<Record<string, unknown>>(want.links)) {
        const member = got.sessions.find((s) => s.id === id)!;
        for (const [key, value] of Object.entries(links))
          expect(member[key as keyof typeof member], `${id} ${key}`).toEqual(value);
      }
    }
  });

  it('counts every entry, response, compaction, agent and tool call once', () => {
    for (const want of facts.conversations)
      expect(conversations.find((c) => c.id === want.id)!.totals, want.id).toMatchObject(want.totals);
  });

  it('gives a conversation over three files the totals of the same conversation in one file', async () => {
    const [x] = facts.conversations;
    const oneFile = findConversations(
      conversationInputs(await loadSessions(join(FIXTURES, 'conversation-one-file'))),
    );
    const wantOne = JSON.parse(readFileSync(join(FIXTURES, 'conversation-one-file', 'facts.json'), 'utf8'));
    expect(oneFile[0]!.totals).toMatchObject(wantOne.conversations[0].totals);
    const one = wantOne.conversations.find(
      (c: { sessions: string[]; totals: { entries: number } }) =>
        c.sessions.length === 1 && c.totals.entries === x.totals.entries,
    );
    const three = conversations.find((c) => c.id === x.id)!.totals;
    const single = oneFile.find((c) => c.id === one.id)!.totals;
    expect({ ...three, files: 0 }).toEqual({ ...single, files: 0 });
    // The cost too: each API response priced once however many files hold it.
    expect(three.cost?.usd).toBeGreaterThan(0);
  });
});

describe('files that do not cross', () => {
  it('leave every corpus and fixture session its own figures', async () => {
    const dirs = [join(FIXTURES, '..', '..', 'shared', 'corpus', 'claude-projects')];
    for (const scenario of [
      'linear',
      'rewind',
      'compaction',
      'subagents-meta',
      'agent-progress',
      'flat-agents',
      'false-forks',
      'side-command',
      'inline-sidechain',
      'seed-forms',
      'seed-compact-example',
      'damaged',
      'agents-2026',
      'task-output',
      'rewritten-response',
    ])
      dirs.push(join(FIXTURES, scenario));
    for (const dir of dirs) {
      const sessions = await loadSessions(dir).catch(() => []);
      const conversations = findConversations(conversationInputs(sessions));
      // Without the files alone: the same conversations over several files, nothing else.
      expect(findConversations(conversationInputs(sessions), { alone: false })).toEqual(
        conversations.filter((c) => c.sessions.length > 1),
      );
      for (const c of conversations) {
        if (c.sessions.length !== 1) continue;
        const s = sessions.find((x) => x.id === c.id)!;
        const stats = statsDigest(s).stats;
        expect(c.totals.entries, `${s.id} entries`).toBe(stats.entries);
        expect(c.totals.lines, `${s.id} lines`).toBe(stats.lines);
        expect(c.totals.compactions, `${s.id} compactions`).toBe(stats.compactions.total);
        expect(c.totals.epochs, `${s.id} epochs`).toBe(s.epochs.length);
        expect(c.totals.toolCalls, `${s.id} tools`).toBe(stats.tools.calls);
        expect(c.totals.usage, s.id).toEqual(s.usage.total);
        // The joined graph of one file is the file's own graph: its epochs and forks.
        const epochs = s.epochs.filter((e) => e.entries > 0 || e.usage.responses > 0);
        expect(
          c.epochs!.map((e) => [e.compaction, e.entries, e.usage]),
          `${s.id} joined epochs`,
        ).toEqual(epochs.map((e) => [e.compaction, e.entries, e.usage]));
        const { forks: _forks, abandonedEntries: _abandoned, ...kinds } = stats.branches;
        expect(c.forkKinds, `${s.id} fork kinds`).toEqual({ ...kinds, branches: 0 });
        expect(c.totals.forks, `${s.id} forks`).toBe(stats.branches.forks);
      }
    }
  }, 120_000);
});

describe('joining, on tiny graphs', () => {
  const input = async (id: string, records: object[]) => {
    const s = await sessionOf(records.map((r) => ({ ...r, sessionId: id })));
    s.id = id;
    return { id, project: 'p', title: s.title, digest: statsDigest(s) };
  };

  it('joins a file that resumes below another file’s last entry', async () => {
    //   file A:  a1 ── a2
    //   file B:           └── b1 ── b2      (b1's parent a2 is in A)
    const a = await input('A', [prompt('a1', null), answer('a2', 'a1', 'x', 'm1')]);
    const b = await input('B', [prompt('b1', 'a2'), answer('b2', 'b1', 'y', 'm2')]);
    const [c, ...rest] = findConversations([a, b]);
    expect(rest).toEqual([]);
    expect(c!.sessions.map((s) => [s.id, s.continuedFrom?.session ?? null])).toEqual([
      ['A', null],
      ['B', 'A'],
    ]);
    expect(c!.totals).toMatchObject({ files: 2, entries: 4, forks: 0 });
    expect(c!.totals.usage.responses).toBe(2);
  });

  it('counts a copied prefix once: a resume that writes history again and goes on', async () => {
    //   file A:  a1 ── a2
    //   file B:  a1 ── a2 ── b3    (same uuids, then more)
    const a = await input('A', [prompt('a1', null), answer('a2', 'a1', 'x', 'm1')]);
    const b = await input('B', [prompt('a1', null), answer('a2', 'a1', 'x', 'm1'), prompt('b3', 'a2')]);
    a.digest.stats.duplicateOf = 'B';
    const [c] = findConversations([a, b]);
    expect(c!.sessions.map((s) => [s.id, s.duplicateOf])).toEqual([
      ['A', 'B'],
      ['B', null],
    ]);
    expect(c!.totals).toMatchObject({ entries: 3 });
    expect(c!.totals.usage.responses).toBe(1);
  });

  it('keeps files of different projects apart even when they share uuids', async () => {
    const a = await input('A', [prompt('a1', null)]);
    const b = { ...(await input('B', [prompt('b1', 'a1')])), project: 'q' };
    expect(findConversations([a, b])).toHaveLength(2);
  });
});

describe('summary lines across files', () => {
  it('links a 1.0.x file to the file whose leaf its summary names, and puts a summary-only file last', async () => {
    const dir = join(FIXTURES, 'summary-titles');
    const conversations = findConversations(conversationInputs(await loadSessions(dir)));
    const linked = conversations.find((c) => c.sessions.length > 1)!;
    const [first, ...rest] = linked.sessions;
    expect(first!.continuedFrom).toBeNull();
    expect(
      rest.every((m) => m.continuedFrom?.kind === 'summary' && m.continuedFrom.session === first!.id),
    ).toBe(true);
    expect(linked.sessions.at(-1)!.startedAt).toBeNull();
  });
});
