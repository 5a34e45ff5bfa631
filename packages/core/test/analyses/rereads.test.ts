import { describe, expect, it } from 'vitest';
import { rereadsAfterCompactions } from '../../src/index.js';
import { answer, prompt, sessionOf, toolResult, toolUse } from '../helpers.js';

const boundary = (uuid: string, logical: string) => ({
  type: 'system',
  subtype: 'compact_boundary',
  uuid,
  parentUuid: null,
  logicalParentUuid: logical,
  content: 'Conversation compacted',
  compactMetadata: { trigger: 'auto', preTokens: 150000 },
  timestamp: '2026-01-01T12:00:00Z',
});
const summary = (uuid: string, parent: string) =>
  prompt(uuid, parent, 'This session is being continued from a previous conversation…', {
    isCompactSummary: true,
  });
/** A tool result whose text is `chars` characters long. */
const resultOf = (uuid: string, parent: string, id: string, chars: number) => {
  const line = toolResult(uuid, parent, id);
  line.message.content[0]!.content = 'x'.repeat(chars);
  return line;
};

/**
 * p ─ a(Read cart) ─ r ─ a2(Read util) ─ r2   ┄┄ b ─ sum ─ q ─ c(Read cart) ─ s ─ d(Read new) ─ t
 *                                                          └ q2 ─ e(Read util) ─ u    (abandoned: q is later)
 */
const lines = [
  prompt('p', null),
  answer('a', 'p', toolUse('T1', 'Read', { file_path: 'src/cart.ts' }), 'm1'),
  resultOf('r', 'a', 'T1', 4000),
  answer('a2', 'r', toolUse('T2', 'Read', { file_path: 'src/util.ts' }), 'm2'),
  resultOf('r2', 'a2', 'T2', 400),
  boundary('b', 'r2'),
  summary('sum', 'b'),
  prompt('q2', 'sum', 'first try'),
  answer('e', 'q2', toolUse('T5', 'Read', { file_path: 'src/util.ts' }), 'm5'),
  resultOf('u', 'e', 'T5', 400),
  prompt('q', 'sum', 'second try'),
  answer('c', 'q', toolUse('T3', 'Read', { file_path: 'src/cart.ts' }), 'm3'),
  resultOf('s', 'c', 'T3', 4001),
  answer('d', 's', toolUse('T4', 'Read', { file_path: 'src/new.ts' }), 'm4'),
  resultOf('t', 'd', 'T4', 10),
];

describe('rereadsAfterCompactions', () => {
  it('finds files read before a compaction and again after it, with their estimated cost', async () => {
    const [after, ...rest] = rereadsAfterCompactions(await sessionOf(lines));
    expect(rest).toEqual([]);
    expect(after).toEqual({
      compaction: 'b',
      epoch: 1,
      timestamp: '2026-01-01T12:00:00Z',
      // 4001 characters / 4, rounded up; src/new.ts was never read before, src/util.ts only on the abandoned branch
      files: [{ file: 'src/cart.ts', readsBefore: 1, readsAfter: 1, tokens: 1001, firstUuid: 'c' }],
      tokens: 1001,
    });
  });

  it('returns nothing for a session without compactions', async () => {
    expect(rereadsAfterCompactions(await sessionOf(lines.slice(0, 5)))).toEqual([]);
  });
});
