import { describe, expect, it } from 'vitest';
import { answer, byUuid, prompt, sessionOf } from './helpers.js';

const boundary = (uuid: string, logical: string, meta: object = { trigger: 'auto', preTokens: 150000 }) => ({
  type: 'system',
  subtype: 'compact_boundary',
  uuid,
  parentUuid: null,
  logicalParentUuid: logical,
  content: 'Conversation compacted',
  compactMetadata: meta,
  timestamp: '2026-01-01T12:00:00Z',
});
const summary = (uuid: string, parent: string) =>
  prompt(uuid, parent, 'This session is being continued from a previous conversation…', {
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
  });

describe('compaction', () => {
  it('opens a new epoch at each compact boundary and resolves its logical parent', async () => {
    // p ─ a   ┄┄ b(auto) ─ sum ─ q ─ c
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', 'x'),
      boundary('b', 'a'),
      summary('sum', 'b'),
      prompt('q', 'sum'),
      answer('c', 'q', 'y'),
    ]);
    expect(s.compactions).toMatchObject([
      {
        uuid: 'b',
        kind: 'full',
        trigger: 'auto',
        preTokens: 150000,
        logicalParent: 'a',
        logicalParentResolution: 'in-file',
        summaryUuid: 'sum',
        epoch: 1,
        complete: true,
      },
    ]);
    expect(s.epochs.map((e) => [e.index, e.compaction, e.entries])).toEqual([
      [0, null, 2],
      [1, 'b', 4],
    ]);
    expect(byUuid(s, 'c').epoch).toBe(1);
    expect(byUuid(s, 'sum').kind).toBe('compact-summary');
    expect(s.leaf).toBe('c');
  });

  it('falls back to the preserved segment for a dangling logical parent, else reports it', async () => {
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', 'x'),
      boundary('b1', 'phantom', {
        trigger: 'manual',
        preTokens: 1,
        preservedSegment: { headUuid: 'p', anchorUuid: 'p', tailUuid: 'a' },
      }),
      summary('s1', 'b1'),
      boundary('b2', 'phantom2', { trigger: 'manual' }),
      summary('s2', 'b2'),
    ]);
    expect(s.compactions.map((c) => [c.logicalParent, c.logicalParentResolution])).toEqual([
      ['a', 'preserved-segment'],
      [null, 'dangling'],
    ]);
    expect(s.diagnostics.filter((d) => d.code === 'dangling-logical-parent')).toHaveLength(1);
    expect(s.epochs).toHaveLength(3);
  });

  it('counts a micro-compaction without opening an epoch', async () => {
    const micro = {
      type: 'system',
      subtype: 'microcompact_boundary',
      uuid: 'm',
      parentUuid: 'a',
      microcompactMetadata: { trigger: 'auto', preTokens: 9000, tokensSaved: 4000 },
    };
    const s = await sessionOf([prompt('p', null), answer('a', 'p', 'x'), micro, prompt('q', 'm')]);
    expect(s.compactions).toMatchObject([{ kind: 'micro', preTokens: 9000, postTokens: 5000, epoch: 0 }]);
    expect(s.epochs).toHaveLength(1);
  });

  it('ends the conversation at the last valid entry when a compaction is torn mid-way', async () => {
    const s = await sessionOf([prompt('p', null), answer('a', 'p', 'x'), boundary('b', 'a')]);
    expect(s.compactions[0]!.complete).toBe(false);
    expect(s.epochs).toHaveLength(1);
    expect(s.leaf).toBe('a');
    expect(s.diagnostics.map((d) => d.code)).toContain('compaction-incomplete');
  });
});

describe('activePath', () => {
  it('spans every epoch through logical parents, or stops at the last epoch', async () => {
    const { activePath } = await import('../src/analyses/queries.js');
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', 'x'),
      boundary('b', 'a'),
      summary('sum', 'b'),
      prompt('q', 'sum'),
    ]);
    expect(activePath(s)).toEqual(['p', 'a', 'b', 'sum', 'q']);
    expect(activePath(s, { acrossCompactions: false })).toEqual(['b', 'sum', 'q']);
  });
});
