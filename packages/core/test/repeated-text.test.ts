import { describe, expect, it } from 'vitest';
import { normalizeEntry } from '../src/normalize/entries.js';
import { keepOnce, keepOnceIn } from '../src/normalize/repeated-text.js';

/** A string equal to `text` that is not the same string (as `JSON.parse` makes one per field). */
const copy = (text: string) => JSON.parse(JSON.stringify(text)) as string;

const long = (tag: string) => `${tag}:${'x'.repeat(90)}`;

describe('keepOnce', () => {
  it('gives a text equal to the one given, long or short', () => {
    const first = long('first');
    expect(keepOnce(first)).toBe(first);
    expect(keepOnce(copy(first))).toBe(first);
    expect(keepOnce(long('other'))).toBe(long('other'));
    expect(keepOnce('short')).toBe('short');
  });
});

describe('keepOnceIn', () => {
  it('leaves a parsed value equal to what it was, nested texts and all', () => {
    const text = JSON.stringify({
      stdout: long('out'),
      file: { content: long('file'), lines: [long('a'), 'b', [long('c'), { deep: long('d') }]] },
      n: 3,
      none: null,
    });
    expect(keepOnceIn(JSON.parse(text))).toEqual(JSON.parse(text));
  });

  it('keeps a `__proto__` key an own property and the prototype as it was', () => {
    const value = JSON.parse(`{"__proto__": ${JSON.stringify(long('proto'))}, "a": 1}`);
    keepOnceIn(value);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(JSON.stringify(value)).toBe(`{"__proto__":${JSON.stringify(long('proto'))},"a":1}`);
  });

  it('takes strings, numbers and null as they are', () => {
    expect(keepOnceIn(long('s'))).toBe(long('s'));
    expect(keepOnceIn(7)).toBe(7);
    expect(keepOnceIn(null)).toBe(null);
  });
});

describe('normalizeEntry with a tool result written twice', () => {
  it('writes the same entry as the line holds', () => {
    const output = long('output');
    const record = JSON.parse(
      JSON.stringify({
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: output }] }],
        },
        toolUseResult: { stdout: output, stderr: '', file: { content: output } },
        data: { prompt: output },
      }),
    );
    const entry = normalizeEntry(record, { file: 'a.jsonl', line: 1, offset: 0, length: 1 });
    expect(entry.toolUseResult).toEqual({ stdout: output, stderr: '', file: { content: output } });
    expect(entry.extra).toEqual({ message: { role: 'user' }, data: { prompt: output } });
    expect(entry.content).toEqual([
      { type: 'tool_result', toolUseId: 't1', isError: false, content: [{ type: 'text', text: output }] },
    ]);
  });
});
