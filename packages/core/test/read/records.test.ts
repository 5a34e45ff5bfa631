import { describe, expect, it } from 'vitest';
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
});
