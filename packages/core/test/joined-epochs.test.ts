/**
 * Epochs, compactions and forks of a conversation on its joined graph (one uuid = one entry however many files
 * copy it), on tiny graphs drawn in the comments, and on the fixtures `conversations` / `conversation-one-file`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type Conversation,
  type ConversationInput,
  findConversations,
  statsDigest,
} from '../src/archive/index.js';
import { conversationInputs, FIXTURES, loadSessions } from './fixture-sessions.js';
import { answer, prompt, sessionOf, tick } from './helpers.js';

const input = async (id: string, records: object[]): Promise<ConversationInput> => {
  const s = await sessionOf(records.map((r) => ({ ...r, sessionId: id })));
  s.id = id;
  return { id, project: 'p', title: s.title, digest: statsDigest(s) };
};

/** A full auto-compaction boundary (a new root) continuing from `logical`. */
const boundary = (uuid: string, logical: string) => ({
  type: 'system',
  subtype: 'compact_boundary',
  content: 'Conversation compacted',
  uuid,
  parentUuid: null,
  logicalParentUuid: logical,
  timestamp: tick(),
  compactMetadata: { trigger: 'auto', preTokens: 1000 },
});

/** What a test compares of an epoch. */
const shape = (c: Conversation) =>
  c.epochs!.map((e) => ({
    compaction: e.compaction,
    files: e.files,
    entries: e.entries,
    responses: e.usage.responses,
  }));

describe('joined epochs on tiny graphs', () => {
  it('puts an auto-compaction continued in a new file, and a resume of it, in one epoch after the first', async () => {
    //   A:  a1 ── a2
    //   B:            ┄ c (boundary, logical parent a2) ── b1 ── b2
    //   C:                                                      └── c1 ── c2   (resume: c1's parent b2 is in B)
    const a = await input('A', [prompt('a1', null), answer('a2', 'a1', 'x', 'm1')]);
    const b = await input('B', [boundary('c', 'a2'), prompt('b1', 'c'), answer('b2', 'b1', 'y', 'm2')]);
    const c = await input('C', [prompt('c1', 'b2'), answer('c2', 'c1', 'z', 'm3')]);
    const [conversation, ...rest] = findConversations([a, b, c]);
    expect(rest).toEqual([]);
    expect(shape(conversation!)).toEqual([
      { compaction: null, files: ['A'], entries: 2, responses: 1 },
      { compaction: 'c', files: ['B', 'C'], entries: 5, responses: 2 },
    ]);
    expect(conversation!.epochs![1]!.trigger).toBe('auto');
    expect(conversation!.totals.epochs).toBe(2);
  });

  it('counts a rewind copied by /branch once, and the copy that goes on as a branch', async () => {
    //   A:  a1 ── a2 ─┬─ a3        (rewind: two prompts under a2, a minute apart)
    //                 └─ a3r ── a4
    //   B:  a1 ── a2 ─┬─ a3        (the /branch copy: same uuids, forkedFrom {A, a4}) … then b5 below a4
    //                 └─ a3r ── a4 ── b5
    const history = [
      prompt('a1', null),
      answer('a2', 'a1', 'x', 'm1'),
      prompt('a3', 'a2'),
      prompt('a3r', 'a2'),
      answer('a4', 'a3r', 'y', 'm2'),
    ];
    const a = await input('A', history);
    const fork = { forkedFrom: { sessionId: 'A', messageUuid: 'a4' } };
    const b = await input('B', [...history.map((r) => ({ ...r, ...fork })), prompt('b5', 'a4')]);
    const [conversation] = findConversations([a, b]);
    expect(conversation!.forkKinds).toMatchObject({ rewinds: 1, retries: 0, branches: 1 });
    expect(conversation!.totals.forks).toBe(2);
    expect(shape(conversation!)).toEqual([{ compaction: null, files: ['A', 'B'], entries: 6, responses: 2 }]);
  });

  it('keeps a compaction copied into another file one epoch boundary', async () => {
    //   A:  a1 ── a2   ┄ c (boundary in A, logical a2) ── a3
    //   B:  copy of A (same uuids, forkedFrom {A, a3}) ── b4
    const history = [
      prompt('a1', null),
      answer('a2', 'a1', 'x', 'm1'),
      boundary('c', 'a2'),
      prompt('a3', 'c'),
    ];
    const a = await input('A', history);
    const fork = { forkedFrom: { sessionId: 'A', messageUuid: 'a3' } };
    const b = await input('B', [...history.map((r) => ({ ...r, ...fork })), answer('b4', 'a3', 'z', 'm2')]);
    const [conversation] = findConversations([a, b]);
    expect(shape(conversation!)).toEqual([
      { compaction: null, files: ['A', 'B'], entries: 2, responses: 1 },
      { compaction: 'c', files: ['A', 'B'], entries: 3, responses: 1 },
    ]);
  });
});

describe('fixture conversations on the joined graph', async () => {
  const facts = JSON.parse(readFileSync(join(FIXTURES, 'conversations', 'facts.json'), 'utf8'));
  const conversations = findConversations(
    conversationInputs(await loadSessions(join(FIXTURES, 'conversations'))),
  );

  it('derives the epochs and forks written by hand', () => {
    for (const want of facts.conversations) {
      const got = conversations.find((c) => c.id === want.id)!;
      if (want.joinedEpochs) expect(shape(got), want.id).toEqual(want.joinedEpochs);
      if (want.forkKinds) expect(got.forkKinds, want.id).toEqual(want.forkKinds);
      expect(got.epochs!.length, want.id).toBe(got.totals.epochs);
    }
  });

  it('gives the conversation over three files the epochs and fork counts of the same conversation in one file', async () => {
    const [x] = facts.conversations;
    const three = conversations.find((c) => c.id === x.id)!;
    const one = findConversations(
      conversationInputs(await loadSessions(join(FIXTURES, 'conversation-one-file'))),
    )[0]!;
    const strip = (c: Conversation) => c.epochs!.map(({ files, ...rest }) => rest);
    expect(strip(three)).toEqual(strip(one));
    expect(three.forkKinds).toEqual(one.forkKinds);
    expect(three.epochs!.map((e) => e.files)).toEqual([[x.sessions[0]], [x.sessions[1], x.sessions[2]]]);
  });
});
