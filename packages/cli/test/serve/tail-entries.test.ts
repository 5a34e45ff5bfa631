import type { Line } from '@cctrail/core';
import { describe, expect, it } from 'vitest';
import { privacyTransform } from '../../src/privacy/transform.js';
import { tailEntries } from '../../src/serve/tail-entries.js';

const REDACT = privacyTransform({ redact: true, shortHome: false });
const KEY = `sk-ant-api03-${'x7Kq2'.repeat(18)}AA`;

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

const context = { file: '/p/s.jsonl', privacy: REDACT, last: 'u0', agent: false };

describe('tailEntries', () => {
  it('renders prompts, answers, tool calls and results in the report markup, redacted and escaped', () => {
    const batch = tailEntries(
      lines(
        { type: 'user', uuid: 'u1', parentUuid: 'u0', message: { content: `use ${KEY} <b>now</b>` } },
        {
          type: 'assistant',
          uuid: 'u2',
          parentUuid: 'u1',
          timestamp: '2026-01-01T10:00:02.000Z',
          message: {
            model: 'claude-opus-4-7',
            content: [
              { type: 'text', text: 'Done & dusted' },
              { type: 'tool_use', name: 'Bash', input: { command: `echo ${KEY}` } },
            ],
          },
        },
        {
          type: 'user',
          uuid: 'u3',
          parentUuid: 'u2',
          message: { content: [{ type: 'tool_result', content: '<script>x</script>', is_error: true }] },
        },
      ),
      context,
    );
    expect(batch.rebuild).toBeUndefined();
    expect(batch.last).toBe('u3');
    expect(batch.items.map((i) => [i.id, i.offset])).toEqual([
      ['e-u1', 1000],
      ['e-u2', expect.any(Number)],
      ['e-u3', expect.any(Number)],
    ]);
    const html = batch.items.map((i) => i.html).join('');
    expect(html).not.toContain(KEY);
    expect(html).toContain('[REDACTED:');
    expect(html).toContain('&lt;b&gt;now&lt;/b&gt;');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).not.toMatch(/<script|<b>/);
    expect(batch.items[0]?.html).toMatch(/^<article class="entry entry--human entry--live" id="e-u1">/);
    expect(batch.items[1]?.html).toContain('<span class="muted model">claude-opus-4-7</span>');
    expect(batch.items[1]?.html).toContain('<span class="tool__name">Bash</span>');
    expect(batch.items[2]?.html).toContain('<span class="who">Tool result</span>');
    expect(batch.items[2]?.html).toContain('tool__result--error');
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
    expect(batch.items.map((i) => i.id)).toEqual(['live-line-11', 'e-u1']);
    expect(batch.items[0]?.html).toContain('/p/s.jsonl:11 is not a JSON record');
  });

  it('shows no sidechain entry in a main file, nor records a transcript does not show', () => {
    const batch = tailEntries(
      lines(
        { type: 'user', uuid: 'u1', parentUuid: 'u0', isSidechain: true, message: { content: 'agent' } },
        { type: 'progress', uuid: 'u2', parentUuid: 'u1' },
        { type: 'file-history-snapshot', messageId: 'm' },
      ),
      context,
    );
    expect(batch.items).toEqual([]);
    expect(batch.last).toBe('u2');
    expect(
      tailEntries(lines({ type: 'user', uuid: 'u1', isSidechain: true, message: { content: 'a' } }), {
        ...context,
        agent: true,
        last: null,
      }).items,
    ).toHaveLength(1);
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
