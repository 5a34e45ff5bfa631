import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseLine } from '../../src/read/records.js';

describe('parseLine', () => {
  it('parses one object', () => {
    expect(parseLine('{"type":"user"}')).toEqual({
      kind: 'records',
      records: [{ type: 'user' }],
      glued: false,
    });
  });

  it('splits records glued on one line, even with "}{" inside a string', () => {
    const line = '{"type":"user","text":"a}{b"}{"type":"summary","summary":"s"}{"type":"x"}';
    const parsed = parseLine(line);
    expect(parsed).toEqual({
      kind: 'records',
      glued: true,
      records: [{ type: 'user', text: 'a}{b' }, { type: 'summary', summary: 's' }, { type: 'x' }],
    });
  });

  it('tells blank, non-object and invalid lines apart', () => {
    expect(parseLine('   ').kind).toBe('blank');
    expect(parseLine('[1,2]').kind).toBe('not-an-object');
    expect(parseLine('null').kind).toBe('not-an-object');
    expect(parseLine('{"type":"user","mess').kind).toBe('invalid');
    expect(parseLine('{"a":1}{"b":').kind).toBe('invalid');
  });

  it('keeps escaped quotes and brackets inside strings out of the split', () => {
    const line = '{"t":"say \\"}{\\" ]["}{"u":[{"v":"}{"}]}';
    expect(parseLine(line)).toEqual({
      kind: 'records',
      glued: true,
      records: [{ t: 'say "}{" ][' }, { u: [{ v: '}{' }] }],
    });
  });

  it('finds a glued line invalid when any of its parts is', () => {
    expect(parseLine('{"a":1 x}{"b":2}{"c":3}').kind).toBe('invalid');
    expect(parseLine('{"a":1}{"b":2 x}{"c":3}').kind).toBe('invalid');
    expect(parseLine('{"a":1}  {"b":2}').kind).toBe('invalid');
  });

  describe('on a long line that does not parse', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });
    it('parses each part once, however many "}{" it holds', () => {
      // 5,000 "}{" inside one string, then a torn end: splitting used to parse the line from its start at each.
      const line = `{"text":"${'}{'.repeat(5000)}"}{"type":"user","mess`;
      const parse = vi.spyOn(JSON, 'parse');
      expect(parseLine(line).kind).toBe('invalid');
      // The whole line once, then its two parts at most.
      expect(parse.mock.calls.length).toBeLessThanOrEqual(3);
    });
  });
});
