import { describe, expect, it } from 'vitest';
import { prompt, sessionOf } from '../helpers.js';

describe('a uuid written twice', () => {
  it('notes a resume that rewrites the same line, without its text', async () => {
    const b = prompt('b', 'a');
    const session = await sessionOf([prompt('a', null), b, b]);
    const copy = session.diagnostics.find((d) => d.code === 'duplicate-uuid');
    expect(copy).toMatchObject({ uuid: 'b', line: 3 });
    expect(copy?.raw).toBeUndefined();
    expect(session.entries.map((e) => e.uuid)).toEqual(['a', 'b']);
  });

  it('keeps the raw text of a copy with other content, also when it differs only mid-line', async () => {
    const first = prompt('b', 'a', `${'x'.repeat(2000)} the first text ${'y'.repeat(2000)}`);
    const other = {
      ...first,
      message: { ...first.message, content: first.message.content.replace('first', 'second') },
    };
    const session = await sessionOf([prompt('a', null), first, other]);
    const copy = session.diagnostics.find((d) => d.code === 'duplicate-uuid');
    expect(copy?.raw).toBe(JSON.stringify(other));
    expect(copy?.message).toContain('other content');
    expect(session.entries.find((e) => e.uuid === 'b')?.content).toEqual([
      { type: 'text', text: expect.stringContaining('the first text') },
    ]);
  });
});
