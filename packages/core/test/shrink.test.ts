import { describe, expect, it } from 'vitest';
import { shrinkLine } from '../src/shrink.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

describe('shrinkLine', () => {
  it('cuts long strings and keeps the structure parseable', () => {
    const record = {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 'T', content: 'x'.repeat(5000) }] },
      uuid: 'u',
    };
    const out = JSON.parse(dec(shrinkLine(enc(JSON.stringify(record)), 100))!);
    expect(out.uuid).toBe('u');
    expect(out.message.content[0].tool_use_id).toBe('T');
    expect(out.message.content[0].content).toBe('x'.repeat(100));
  });

  it('returns null when no string is long', () => {
    expect(shrinkLine(enc('{"a":"short","b":[1,2]}'), 100)).toBeNull();
  });

  it('never cuts inside an escape sequence, a multi-byte character or before an escaped quote', () => {
    for (let keep = 4; keep < 40; keep++) {
      const value = `ab\\"c\u00e9\u4e2d😀\n\t\u0001${'q'.repeat(50)}`;
      const line = JSON.stringify({ v: value, w: 'tail' });
      const shrunk = dec(shrinkLine(enc(line), keep));
      const parsed = JSON.parse(shrunk ?? line);
      expect(parsed.w).toBe('tail');
      expect(value.startsWith(parsed.v.replace(/\uFFFD$/, ''))).toBe(true);
    }
  });
});
