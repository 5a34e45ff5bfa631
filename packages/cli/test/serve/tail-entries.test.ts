import type { Line } from '@cctrail/core';
import { escapeHtml } from '@cctrail/report';
import { describe, expect, it } from 'vitest';
import { tailEntries } from '../../src/serve/tail-entries.js';

/** Lines as `readOn` gives them, from line 11 at byte 1000 on. */
function lines(...records: (object | string)[]): Line[] {
  let offset = 1000;
  return records.map((r, i) => {
    const text = typeof r === 'string' ? r : JSON.stringify(r);
    const line = { number: 11 + i, offset, length: text.length, text, invalidUtf8: false, terminated: true };
    offset += text.length + 1;
    return line;
  });
}

const context = { file: '/p/s.jsonl', last: 'u0', escape: escapeHtml };

describe('tailEntries', () => {
  it('hands on the records, in file order, and the uuid of the last one', () => {
    const records = [
      { type: 'user', uuid: 'u1', parentUuid: 'u0', message: { content: 'hi' } },
      { type: 'progress', uuid: 'u2', parentUuid: 'u1' },
      { type: 'file-history-snapshot', messageId: 'm' },
    ];
    const batch = tailEntries(lines(...records), context);
    expect(batch.records).toEqual(records.map((r) => JSON.stringify(r)));
    expect(batch.notes).toEqual([]);
    expect(batch.last).toBe('u2');
    expect(batch.rebuild).toBeUndefined();
  });

  it('makes a line that is not a record a note with its file and line, and goes on', () => {
    const batch = tailEntries(
      lines('{"type":"user", broken', {
        type: 'user',
        uuid: 'u1',
        parentUuid: 'u0',
        message: { content: 'hi' },
      }),
      context,
    );
    expect(batch.notes.map((i) => [i.id, i.offset])).toEqual([['live-line-11', 1000]]);
    expect(batch.notes[0]?.html).toContain('/p/s.jsonl:11 is not a JSON record');
    expect(batch.records).toHaveLength(1);
    // Escaped: the file's name is the user's.
    expect(tailEntries(lines('<b>'), { ...context, file: '/p/<i>.jsonl' }).notes[0]?.html).toContain(
      '/p/&lt;i&gt;.jsonl:11',
    );
  });

  it('asks for a rebuild when an entry forks from an earlier one (a rewind) or the session is compacted', () => {
    const fork = tailEntries(
      lines({ type: 'user', uuid: 'u5', parentUuid: 'u-earlier', message: { content: 'again' } }),
      context,
    );
    expect(fork.rebuild).toBe('fork');
    const compaction = tailEntries(
      lines({
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'c1',
        parentUuid: null,
        logicalParentUuid: 'u0',
      }),
      context,
    );
    expect(compaction.rebuild).toBe('compaction');
    // The first append after an unknown last record is taken as it comes.
    expect(
      tailEntries(lines({ type: 'user', uuid: 'u1', parentUuid: 'x', message: { content: 'a' } }), {
        ...context,
        last: null,
      }).rebuild,
    ).toBeUndefined();
  });
});
