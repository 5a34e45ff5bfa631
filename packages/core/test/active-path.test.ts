/** The active path to the last leaf (re-written responses, re-asked attempts) and titles from summary lines. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSession } from '../src/index.js';
import { discover, sessionSource } from '../src/node/index.js';
import { answer, prompt, sessionOf } from './helpers.js';

describe('active path', () => {
  it('keeps only the copy of a re-written response that leads to the leaf', async () => {
    //   p ─┬─ a  (msg m1)
    //      └─ a' (msg m1, written again) ── q ── b
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', 'one', 'm1'),
      answer('a2', 'p', 'one', 'm1'),
      prompt('q', 'a2'),
      answer('b', 'q', 'two', 'm2'),
    ]);
    expect(s.entries.filter((e) => !e.active).map((e) => e.uuid)).toEqual(['a']);
    expect(s.branches).toMatchObject([{ branchPoint: 'p', head: 'a', entries: 1 }]);
    expect(s.leaf).toBe('b');
  });

  it('keeps the last copy when the conversation ends at the copies', async () => {
    //   p ─┬─ a  (msg m1)
    //      └─ a' (msg m1)
    const s = await sessionOf([
      prompt('p', null),
      answer('a', 'p', 'one', 'm1'),
      answer('a2', 'p', 'one', 'm1'),
    ]);
    expect(s.entries.filter((e) => !e.active).map((e) => e.uuid)).toEqual(['a']);
  });

  it('abandons an attempt asked again from a new root, and only that', async () => {
    //   x ── y            (asked "fix it", abandoned)
    //   z ── w            (asked something else: stays)
    //   x' ── y'          (asked "fix it" again: the leaf)
    const s = await sessionOf([
      prompt('x', null, 'fix it'),
      answer('y', 'x', 'trying', 'm1'),
      prompt('z', null, 'other'),
      answer('w', 'z', 'ok', 'm2'),
      prompt('x2', null, 'fix it'),
      answer('y2', 'x2', 'done', 'm3'),
    ]);
    expect(s.entries.filter((e) => !e.active).map((e) => e.uuid)).toEqual(['x', 'y']);
    expect(s.branches).toMatchObject([{ branchPoint: 'x2', head: 'x', leaf: 'y', entries: 2 }]);
  });
});

describe('titles from summary lines', () => {
  it('ignores summaries of other sessions: fixture summary-titles', async () => {
    const dir = fileURLToPath(new URL('../../../fixtures/summary-titles/', import.meta.url));
    const facts = JSON.parse(readFileSync(join(dir, 'facts.json'), 'utf8'));
    const found = await discover([dir]);
    const titles: Record<string, string | null> = {};
    for (const project of found.projects)
      for (const s of project.sessions)
        titles[s.id] = (await buildSession(await sessionSource(s, (p) => relative(dir, p)))).title;
    expect(titles).toEqual(facts.titles);
  });
});
