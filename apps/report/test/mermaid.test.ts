import { describe, expect, it } from 'vitest';
import { mermaidLabel, sessionMermaid } from '../src/views/mermaid.js';
import { demoSession, entry, HOSTILE_LABEL, linearSession } from './helpers/demo.js';

describe('mermaidLabel', () => {
  it('keeps only a safe alphabet', () => {
    const label = mermaidLabel(HOSTILE_LABEL);
    expect(label).not.toMatch(/["[\]{}%;:<>#&`|\\]/);
    expect(label).not.toContain('\n');
    expect(mermaidLabel('a\nb\tc')).toBe('a b c');
  });
  it('clips long labels', () => {
    expect(mermaidLabel('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
  it('keeps letters of any script', () => {
    expect(mermaidLabel('Grüße 日本')).toBe('Grüße 日本');
  });
});

describe('sessionMermaid', () => {
  it('collapses a linear run into one node with its count', () => {
    const g = sessionMermaid(linearSession('lin', 40));
    expect(g.nodes).toHaveLength(1);
    expect(g.nodes[0]?.label).toMatch(/^40 entries · Prompt number 0/);
    expect(g.text).toMatch(/^flowchart TD\n {2}n0\["40 entries · Prompt number 0"\]:::active/);
  });

  it('draws forks, abandoned branches, sidechain subgraphs and compactions with logical links', () => {
    //   u1 → a1 → r1 → a2 ─┬→ u2a → a3a          (abandoned)
    //                      └→ u2b → a3 ─┬→ s1…s4 (sidechain test-runner)
    //                                   └→ r2 → a4 ⇢ c1 → cs → … a7 (compaction, logical link)
    const g = sessionMermaid(demoSession());
    const kinds = g.nodes.map((n) => n.kind).sort();
    expect(kinds).toEqual(['abandoned', 'active', 'active', 'active', 'active', 'compaction', 'sidechain']);
    // The text itself (subgraph, logical link, compaction label, dashed abandoned edge) is in the file
    // snapshot of the demo session (view-models.test.ts).
    expect(g.text).not.toContain('%%');
    expect(g.text.split('\n').some((l) => /^\s*click\b/.test(l))).toBe(false);
  });

  it('escapes hostile text in every label and never emits directives', () => {
    const s = linearSession('h', 2);
    s.entries[0] = entry('h-0', null, { content: [{ type: 'text', text: HOSTILE_LABEL }] });
    s.sidechains = [];
    const g = sessionMermaid(s);
    for (const line of g.text.split('\n').slice(1)) {
      expect(line).not.toMatch(/%%|^\s*click\b|[{]init/);
      // a label is one quoted string: the hostile quote cannot close it
      expect(line.split('"').length === 1 || line.split('"').length === 3).toBe(true);
    }
    expect(
      g.text
        .split('\n')
        .filter((l) => l.includes('["'))
        .every((l) => /\["[^"]*"\]/.test(l)),
    ).toBe(true);
  });

  it('links nodes through the given href functions', () => {
    const g = sessionMermaid(demoSession(), {
      entryHref: (e) => `t.html#${e.uuid}`,
      sidechainHref: (id) => `agent/${id}.html`,
      branchHref: (i) => `branch/${i}.html`,
    });
    expect(g.nodes.find((n) => n.kind === 'abandoned')?.href).toBe('branch/0.html');
    expect(g.nodes.find((n) => n.kind === 'active')?.href).toBe('t.html#u1');
  });

  it('caps the number of nodes and says what was cut', () => {
    // A session of 300 forks: each fork point has an abandoned one-entry branch.
    const s = linearSession('big', 2);
    const entries = [...s.entries];
    let parent = entries[entries.length - 1]?.uuid ?? '';
    for (let i = 0; i < 300; i++) {
      entries.push(
        entry(`x${i}`, parent, {
          active: false,
          branchPoint: parent,
          content: [{ type: 'text', text: 'retry' }],
        }),
      );
      entries.push(entry(`y${i}`, parent, { content: [{ type: 'text', text: `go on ${i}` }] }));
      s.branchPoints.push({ uuid: parent, kind: 'rewind', children: [`x${i}`, `y${i}`], activeChild: `y${i}` });
      parent = `y${i}`;
    }
    s.entries = entries;
    const g = sessionMermaid(s, { maxNodes: 150 });
    expect(g.nodes.length).toBeLessThanOrEqual(150);
    expect(g.notes.join(' ')).toMatch(/not drawn/);
    expect(g.nodes[g.nodes.length - 1]?.kind).toBe('more');
  });

  it('folds tool-progress side leaves into their run', () => {
    const s = linearSession('p', 6);
    s.entries.push(entry('prog', 'p-2', { kind: 'progress', actor: 'system', active: false }));
    s.branchPoints = [{ uuid: 'p-2', kind: 'tool-progress', children: ['p-3', 'prog'], activeChild: null }];
    const g = sessionMermaid(s);
    expect(g.nodes).toHaveLength(1);
    expect(g.nodes[0]?.entries).toBe(7);
  });

  it('handles long chains without recursion', () => {
    const g = sessionMermaid(linearSession('deep', 50_000));
    expect(g.nodes).toHaveLength(1);
    expect(g.nodes[0]?.entries).toBe(50_000);
  });
});

describe('labels from prompts', () => {
  it('drop markup tags such as <command-name>', () => {
    const s = linearSession('c', 2);
    s.entries[0] = entry('c-0', null, {
      content: [
        { type: 'text', text: '<command-name>/doctor</command-name>\n<command-args></command-args>' },
      ],
    });
    expect(sessionMermaid(s).nodes[0]?.label).toBe('2 entries · /doctor');
  });
});
