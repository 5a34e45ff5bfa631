import { describe, expect, it } from 'vitest';
import { buildSession } from '../src/index.js';
import { accounted, answer, byUuid, jsonl, memorySource, prompt, sessionOf } from './helpers.js';

describe('DAG', () => {
  it('links a chain and finds its root', async () => {
    // a ─ b ─ c
    const s = await sessionOf([prompt('a', null), answer('b', 'a', 'hi'), prompt('c', 'b')]);
    expect(s.roots).toEqual(['a']);
    expect(byUuid(s, 'c').parent).toBe('b');
    expect(s.leaf).toBe('c');
    expect(accounted(s)).toBe(true);
  });

  it('makes an entry with a missing parent an alternative root, with a diagnostic', async () => {
    // a ─ b      (ghot) ┄ x ─ y
    const s = await sessionOf([
      prompt('a', null),
      answer('b', 'a', 'hi'),
      prompt('x', 'ghost'),
      answer('y', 'x', 'yo'),
    ]);
    expect(s.orphans).toEqual(['x']);
    expect(byUuid(s, 'x').parent).toBeNull();
    expect(byUuid(s, 'y').parent).toBe('x');
    expect(s.diagnostics.filter((d) => d.code === 'orphan').map((d) => d.line)).toEqual([3]);
  });

  it('breaks a self-parent and a two-entry cycle', async () => {
    // s → s;  p → q → p
    const s = await sessionOf([prompt('s', 's'), prompt('p', 'q'), prompt('q', 'p')]);
    expect(byUuid(s, 's').parent).toBeNull();
    expect(s.diagnostics.map((d) => d.code).sort()).toEqual(['parent-cycle', 'self-parent']);
    // The cycle is cut at its earliest entry, p; q stays its child.
    expect(byUuid(s, 'p').parent).toBeNull();
    expect(byUuid(s, 'q').parent).toBe('p');
    expect(s.roots.sort()).toEqual(['p', 's']);
  });

  it('keeps the first copy of a duplicated uuid', async () => {
    const s = await sessionOf([prompt('a', null), answer('b', 'a', 'first'), answer('b', 'a', 'rewritten')]);
    expect(s.entries).toHaveLength(2);
    expect(byUuid(s, 'b').content).toEqual([{ type: 'text', text: 'first' }]);
    expect(s.accounting.duplicates).toBe(1);
    expect(accounted(s)).toBe(true);
  });

  it('accounts for glued, torn, blank, non-object and invalid lines', async () => {
    const good = JSON.stringify(prompt('a', null));
    const glued = `${JSON.stringify(answer('b', 'a', 'x'))}{"type":"summary","summary":"s","leafUuid":"b"}`;
    const text = `${good}\n${glued}\n\n[1,2]\n{oops\n{"type":"user","uuid":"c","parentUuid":"b","mess`;
    const s = await buildSession({ id: 't', main: memorySource('t.jsonl', text), agents: [] });
    expect(s.accounting).toEqual({
      lines: 6,
      entries: 2,
      metadata: 1,
      duplicates: 0,
      blank: 1,
      invalid: 3,
      recovered: 1,
    });
    expect(accounted(s)).toBe(true);
    const codes = s.diagnostics.map((d) => `${d.line}:${d.code}`);
    expect(codes).toEqual(['2:glued-records', '4:not-an-object', '5:invalid-json', '6:torn-line']);
    expect(s.diagnostics.find((d) => d.code === 'torn-line')!.raw).toContain('"uuid":"c"');
  });

  it('handles a 200,000-entry chain without recursion', async () => {
    const n = 200_000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      const parent = i === 0 ? 'null' : `"u${i - 1}"`;
      const type = i % 2 === 0 ? 'user' : 'assistant';
      lines.push(
        `{"type":"${type}","uuid":"u${i}","parentUuid":${parent},"message":{"role":"${type}","content":"t${i}"}}`,
      );
    }
    const s = await buildSession({ id: 'deep', main: memorySource('deep.jsonl', jsonl(lines)), agents: [] });
    expect(s.entries).toHaveLength(n);
    expect(s.roots).toEqual(['u0']);
    expect(s.leaf).toBe(`u${n - 1}`);
    expect(s.entries.every((e) => e.active)).toBe(true);
  });

  it('handles a 200,000-entry parent cycle without recursion', async () => {
    const n = 200_000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++)
      lines.push(`{"type":"user","uuid":"c${i}","parentUuid":"c${(i + 1) % n}","message":{"content":"x"}}`);
    const s = await buildSession({ id: 'cycle', main: memorySource('c.jsonl', jsonl(lines)), agents: [] });
    expect(s.roots).toEqual(['c0']);
    expect(s.diagnostics.filter((d) => d.code === 'parent-cycle')).toHaveLength(1);
  });
});
