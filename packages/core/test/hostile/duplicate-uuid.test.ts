import { describe, expect, it } from 'vitest';
import { buildSession, type SessionSource } from '../../src/index.js';
import { jsonl, memorySource, prompt, sessionOf } from '../helpers.js';

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

describe('a uuid written twice, compared only when it comes again', () => {
  const long = (uuid: string, parent: string | null, word: string) =>
    prompt(uuid, parent, `${word} ${'x'.repeat(20_000)}`, {
      toolUseResult: { stdout: 'y'.repeat(20_000) },
    });

  it('reads the first copy back from its file, in a full and a structure-only build alike', async () => {
    const first = long('b', 'a', 'first');
    const other = { ...first, message: { ...first.message, content: `second ${'x'.repeat(20_000)}` } };
    for (const content of [true, false]) {
      const source: SessionSource = {
        id: 's',
        main: memorySource('s.jsonl', jsonl([prompt('a', null), first]), 4096),
        agents: [memorySource('s/subagents/agent-x.jsonl', jsonl([first, other, first]), 1000)],
      };
      const session = await buildSession(source, { content });
      const copies = session.diagnostics.filter((d) => d.code === 'duplicate-uuid');
      expect(copies.map((d) => [d.file, d.line, d.raw === undefined])).toEqual([
        ['s/subagents/agent-x.jsonl', 1, true],
        ['s/subagents/agent-x.jsonl', 2, false],
        ['s/subagents/agent-x.jsonl', 3, true],
      ]);
      expect(session.accounting.duplicates).toBe(3);
    }
  });

  it('compares a glued record with its own JSON, and keeps the diagnostics in the order of the lines', async () => {
    const b = prompt('b', 'a');
    const c = prompt('c', 'b');
    const session = await sessionOf([
      `${JSON.stringify(prompt('a', null))}${JSON.stringify(b)}`,
      c,
      b,
      { ...c, message: { role: 'user', content: 'not c' } },
    ]);
    expect(session.diagnostics.map((d) => [d.code, d.line, d.raw === undefined])).toEqual([
      ['glued-records', 1, true],
      ['duplicate-uuid', 3, true],
      ['duplicate-uuid', 4, false],
    ]);
  });

  it('keeps the text of a copy whose first copy cannot be read again', async () => {
    const b = prompt('b', 'a');
    let reads = 0;
    const once = memorySource('s.jsonl', jsonl([prompt('a', null), b, b]));
    const source: SessionSource = {
      id: 's',
      main: {
        path: 's.jsonl',
        read() {
          reads += 1;
          if (reads > 1) throw new Error('gone');
          return once.read();
        },
      },
      agents: [],
    };
    const session = await buildSession(source);
    const copy = session.diagnostics.find((d) => d.code === 'duplicate-uuid');
    expect(copy?.raw).toBe(JSON.stringify(b));
    expect(session.diagnostics.map((d) => d.code)).toEqual(['duplicate-uuid']);
  });
});
