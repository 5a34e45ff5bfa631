import { describe, expect, it } from 'vitest';
import { shrinkLine, type Unread } from '../../src/lean/shrink-line.js';

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

describe('shrinkLine by code units', () => {
  it('keeps at least `keep` code units, so any shorter prefix is the same as the whole string’s', () => {
    const value = `a\u00e9\\"\u4e2d😀\n\t\u0001\ud83d\ude00\u2028${'é😀x\\'.repeat(300)}`;
    const line = new TextEncoder().encode(JSON.stringify({ v: value, tail: 1 }));
    for (const keep of [1, 2, 3, 5, 8, 13, 21, 100, 1000]) {
      const parsed = JSON.parse(dec(shrinkLine(line, keep)) ?? '');
      expect(parsed.tail).toBe(1);
      expect(parsed.v.length).toBeGreaterThanOrEqual(keep);
      expect(parsed.v.length).toBeLessThanOrEqual(keep + 1);
      expect(value.startsWith(parsed.v)).toBe(true);
    }
  });

  it('never cuts an object key', () => {
    const key = 'k'.repeat(50);
    expect(JSON.parse(dec(shrinkLine(enc(JSON.stringify({ [key]: 'v'.repeat(50) })), 10)) ?? '')).toEqual({
      [key]: 'v'.repeat(10),
    });
  });

  it('leaves a string of many bytes but few code units whole', () => {
    const value = '中'.repeat(50); // 150 bytes, 50 code units
    expect(shrinkLine(enc(JSON.stringify({ v: value })), 60)).toBeNull();
  });
});

describe('shrinkLine with what the reader does not use', () => {
  const long = (c: string) => c.repeat(200);
  const shrink = (value: unknown, unread: Unread, keep = 100) => {
    const out = shrinkLine(enc(JSON.stringify(value)), keep, unread);
    return out === null ? null : JSON.parse(dec(out)!);
  };

  it('empties the values a rule marks, under keys, other keys and array items, however deep', () => {
    const unread: Unread = {
      keys: {
        gone: true,
        some: { keys: { kept: false }, others: true },
        list: { items: { keys: { body: true } } },
      },
    };
    const record = {
      gone: { a: long('a'), b: [long('b'), 1, { c: long('c') }] },
      some: { kept: long('k'), other: long('o') },
      list: [
        { body: long('x'), title: long('t') },
        { body: [{ text: long('y') }], title: 'short' },
      ],
      free: long('f'),
    };
    expect(shrink(record, unread)).toEqual({
      gone: { a: '', b: ['', 1, { c: '' }] },
      some: { kept: 'k'.repeat(100), other: '' },
      list: [
        { body: '', title: 't'.repeat(100) },
        { body: [{ text: '' }], title: 'short' },
      ],
      free: 'f'.repeat(100),
    });
  });

  it('leaves short strings, keys and the structure alone', () => {
    const unread: Unread = { keys: { gone: true } };
    expect(shrink({ gone: { type: 'text', n: 3, ok: true } }, unread)).toBeNull();
    const key = 'k'.repeat(80);
    expect(shrink({ gone: { [key]: long('v') } }, unread)).toEqual({ gone: { [key]: '' } });
  });

  it('is not misled by braces, brackets and quotes inside strings', () => {
    const unread: Unread = { keys: { gone: true } };
    const tricky = `}]{["\\"${'z'.repeat(60)}`;
    expect(shrink({ a: tricky, gone: long('g'), b: tricky }, unread, 1000)).toEqual({
      a: tricky,
      gone: '',
      b: tricky,
    });
  });

  it('applies the root rule to each record glued on the line', () => {
    const unread: Unread = { keys: { gone: true } };
    const line = `${JSON.stringify({ gone: long('a'), n: 1 })}${JSON.stringify({ gone: long('b'), n: 2 })}`;
    expect(dec(shrinkLine(enc(line), 1000, unread))).toBe('{"gone":"","n":1}{"gone":"","n":2}');
  });

  it('matches keys by their raw bytes: an escaped key is not a rule name', () => {
    const unread: Unread = { keys: { gone: true } };
    const line = `{"go\\u006ee":"${long('a')}"}`;
    expect(shrinkLine(enc(line), 1000, unread)).toBeNull();
  });
});
