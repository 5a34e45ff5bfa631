import { describe, expect, it } from 'vitest';
import { sessionMermaid } from '../src/views/flowchart/mermaid.js';
import { sessionStory } from '../src/views/flowchart/mermaid-story.js';
import { mainLeaves } from './helpers/lanes.js';
import { answer, prompt, sessionOf, system } from './helpers/records.js';

describe('a session with alternative roots (entries whose parent is not in the file)', () => {
  //   p1 → a1                          (first tree)
  //   s2 (parent "gone") → p2 → a2     (second tree, after a gap: a resumed session)
  //   s3 (parent "lost") → p3 → a3     (third tree)
  const records = [
    prompt('p1', null, 'first'),
    answer('a1', 'p1', 'one'),
    system('s2', 'gone'),
    prompt('p2', 's2', 'second'),
    answer('a2', 'p2', 'two'),
    system('s3', 'lost'),
    prompt('p3', 's3', 'third'),
    answer('a3', 'p3', 'three'),
  ];

  it('draws one lane of turns, each later tree continuing the turn before it', async () => {
    const story = sessionStory(await sessionOf(records));
    const turns = story.filter((n) => n.kind === 'active');
    expect(turns.map((n) => n.first.uuid)).toEqual(['p1', 'p2', 'p3']);
    expect(turns.map((n) => n.parent?.first.uuid ?? null)).toEqual([null, 'p1', 'p2']);
    expect(turns.map((n) => n.gap)).toEqual([false, true, true]);
    expect(mainLeaves(story)).toBe(1);
    // the root of each later tree is counted in the turn before it
    expect(turns.map((n) => n.entries)).toEqual([3, 3, 2]);
  });

  it('marks the edge "continues after a gap" and says so in the notes', async () => {
    const g = sessionMermaid(await sessionOf(records));
    expect(g.text).toContain('n0 -.->|continues after a gap| n1');
    expect(g.text).toContain('n1 -.->|continues after a gap| n2');
    expect(g.notes.join(' ')).toMatch(/continues after a gap/);
  });

  it('keeps hooks before the first prompt in the first turn, without a gap', async () => {
    const g = sessionStory(
      await sessionOf([system('h0', null), prompt('p1', 'h0'), answer('a1', 'p1', 'x')]),
    );
    expect(g.map((n) => [n.first.uuid, n.gap, n.entries])).toEqual([['p1', false, 3]]);
  });
});
