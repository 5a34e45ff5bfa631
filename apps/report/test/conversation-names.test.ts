import type { ConversationMember } from '@cctrail/core/archive';
import { describe, expect, it } from 'vitest';
import { fileRole, nameFiles } from '../src/views/conversations/conversation-files.js';
import { foldCopies } from '../src/views/site/index-view.js';

const member = (id: string, over: Partial<ConversationMember> = {}): ConversationMember => ({
  id,
  project: 'p',
  startedAt: null,
  endedAt: null,
  continuedFrom: null,
  continuedIn: [],
  forkedFrom: null,
  duplicateOf: null,
  compactions: [],
  ...over,
});
const link = (kind: 'compaction' | 'resume' | 'summary' | 'fork', session: string) => ({
  kind,
  session,
  at: null,
});

describe('the roles of a conversation’s files', () => {
  it('tells the original, a continuation, a resume and copies apart', () => {
    expect(fileRole(member('a'))).toBe('original');
    expect(fileRole(member('b', { continuedFrom: link('compaction', 'a') }))).toBe('continues');
    expect(fileRole(member('b', { continuedFrom: link('summary', 'a') }))).toBe('continues');
    expect(fileRole(member('c', { continuedFrom: link('resume', 'a') }))).toBe('resumed');
    expect(fileRole(member('d', { forkedFrom: link('fork', 'a') }))).toBe('copy');
    expect(fileRole(member('e', { duplicateOf: 'a', continuedFrom: link('resume', 'a') }))).toBe('copy');
  });
});

describe('the names of a conversation’s files', () => {
  const facts = (table: Record<string, [string, number, string | null]>) => (id: string) => {
    const [title, entries, startedAt] = table[id]!;
    return { id, title, entries, startedAt };
  };

  it('names files of one title by role, start and entry count, never by id alone', () => {
    const members = [
      member('aaaa1111'),
      member('bbbb2222', { continuedFrom: link('compaction', 'aaaa1111') }),
    ];
    const names = nameFiles(
      members,
      facts({
        aaaa1111: ['fix the parser', 412, '2026-01-05T14:02:33Z'],
        bbbb2222: ['fix the parser', 37, '2026-01-06T09:00:00Z'],
      }),
    );
    expect(names.get('aaaa1111')).toEqual({
      role: 'original',
      name: 'original · 2026-01-05 14:02 · 412 entries',
    });
    expect(names.get('bbbb2222')?.name).toBe('continues · 2026-01-06 09:00 · 37 entries');
  });

  it('uses a file’s own title when no other file has it, cut at a word', () => {
    const long = 'a title that goes on and on for far longer than forty-eight characters do';
    const names = nameFiles(
      [member('a'), member('b', { forkedFrom: link('fork', 'a') })],
      facts({ a: ['first', 3, '2026-01-05T14:02:00Z'], b: [long, 3, '2026-01-05T15:00:00Z'] }),
    );
    expect(names.get('a')?.name).toBe('original · 2026-01-05 14:02 · first');
    expect(names.get('b')?.name).toBe(
      'copy · 2026-01-05 15:00 · a title that goes on and on for far longer than…',
    );
  });

  it('adds the start of the id only when the names would still be the same', () => {
    const names = nameFiles(
      [
        member('a1234567890'),
        member('b1234567890', { duplicateOf: 'a1234567890' }),
        member('c1234567890', { duplicateOf: 'a1234567890' }),
      ],
      facts({
        a1234567890: ['t', 5, '2026-01-05T14:02:00Z'],
        b1234567890: ['t', 5, null],
        c1234567890: ['t', 5, null],
      }),
    );
    expect(names.get('a1234567890')?.name).toBe('original · 2026-01-05 14:02 · 5 entries');
    expect(names.get('b1234567890')?.name).toBe('copy · undated · 5 entries · b1234567');
    expect(names.get('c1234567890')?.name).toBe('copy · undated · 5 entries · c1234567');
  });
});

describe('folding duplicate copies on the index', () => {
  type Row = { id: string; duplicateOf: string | null; copies: Row[] };
  const row = (id: string, duplicateOf: string | null = null): Row => ({ id, duplicateOf, copies: [] });

  it('puts copies under their original, in the order given, and keeps the rest in place', () => {
    const rows = [row('c1', 'o'), row('x'), row('o'), row('c2', 'o')];
    const top = foldCopies(rows);
    expect(top.map((r) => r.id)).toEqual(['x', 'o']);
    expect(top[1]!.copies.map((r) => r.id)).toEqual(['c1', 'c2']);
  });

  it('folds a copy of a copy under the first original and keeps a copy whose original is elsewhere', () => {
    const top = foldCopies([row('o'), row('c1', 'o'), row('c2', 'c1'), row('lost', 'gone')]);
    expect(top.map((r) => r.id)).toEqual(['o', 'lost']);
    expect(top[0]!.copies.map((r) => r.id)).toEqual(['c1', 'c2']);
  });

  it('does not loop on copies that name each other', () => {
    const top = foldCopies([row('a', 'b'), row('b', 'a')]);
    expect(top.flatMap((r) => [r.id, ...r.copies.map((c) => c.id)]).sort()).toEqual(['a', 'b']);
  });
});
