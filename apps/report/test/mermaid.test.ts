import { describe, expect, it } from 'vitest';
import { mermaidLabel, sessionMermaid } from '../src/views/flowchart/mermaid.js';
import { demoSession, entry, HOSTILE_LABEL, linearSession } from './helpers/demo.js';

describe('mermaidLabel', () => {
  it('keeps punctuation, written as entity codes where Mermaid would read syntax', () => {
    const label = mermaidLabel(HOSTILE_LABEL, 200);
    expect(label).not.toMatch(/["%<>`{}|\\]/);
    expect(label).toContain('#quot;]);click A call alert(1)#37;#37;#123;init:#123;#quot;securityLevel');
    expect(mermaidLabel('a\nb\tc')).toBe('a b c');
    expect(mermaidLabel('Fix it: now, please!')).toBe('Fix it: now, please!');
  });
  it('clips long labels at a word, with an ellipsis', () => {
    expect(mermaidLabel('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(mermaidLabel('one two three four five six', 16)).toBe('one two three…');
  });
  it('keeps letters of any script', () => {
    expect(mermaidLabel('Grüße 日本')).toBe('Grüße 日本');
  });
});

describe('sessionMermaid', () => {
  it('draws each turn (a prompt and its answer) as one node with its count', () => {
    const g = sessionMermaid(linearSession('lin', 40));
    expect(g.nodes).toHaveLength(20);
    expect(g.nodes[0]?.label).toBe('Prompt number 0 · 2 entries');
    expect(g.text).toMatch(/^flowchart TD\n {2}n0\["Prompt number 0 · 2 entries"\]:::active/);
  });

  it('draws turns, abandoned branches, sub-agents and compactions', () => {
    const g = sessionMermaid(demoSession());
    const kinds = g.nodes.map((n) => n.kind).sort();
    expect(kinds).toEqual(['abandoned', 'active', 'active', 'active', 'compaction', 'sidechain']);
    expect(g.nodes.reduce((a, n) => a + n.entries, 0)).toBe(demoSession().entries.length);
    expect(g.nodes.find((n) => n.kind === 'compaction')?.label).toMatch(
      /^Compaction \(auto\) · 185k → 21k tokens/,
    );
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

  it('draws a long session by parts, without cutting anything', () => {
    // 300 rewinds: each fork point has an abandoned one-entry branch and a new prompt.
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
      s.branchPoints.push({
        uuid: parent,
        kind: 'rewind',
        children: [`x${i}`, `y${i}`],
        activeChild: `y${i}`,
      });
      parent = `y${i}`;
    }
    s.entries = entries;
    const g = sessionMermaid(s, { maxNodes: 60 });
    expect(g.nodes.length).toBeLessThanOrEqual(60);
    expect(g.nodes.every((n) => n.kind === 'epoch' && n.href?.startsWith('#flow-part-'))).toBe(true);
    expect(g.sections.reduce((a, p) => a + p.entries, 0)).toBe(entries.length);
    expect(g.sections.flatMap((p) => p.nodes).filter((n) => n.kind === 'abandoned')).toHaveLength(300);
    expect(g.notes.join(' ')).toMatch(/drawn by parts/);
  });

  it('draws 10,000 retries at one parent as one node', () => {
    const s = linearSession('r', 1);
    for (let i = 0; i < 10_000; i++)
      s.entries.push(
        entry(`a${i}`, 'r-0', {
          actor: 'claude',
          kind: 'assistant',
          active: i === 9_999,
          branchPoint: i === 9_999 ? null : 'r-0',
        }),
      );
    s.branchPoints = [
      { uuid: 'r-0', kind: 'retry', children: s.entries.slice(1).map((e) => e.uuid), activeChild: 'a9999' },
    ];
    const g = sessionMermaid(s);
    expect(g.nodes.map((n) => [n.kind, n.entries])).toEqual([
      ['active', 2],
      ['abandoned', 9_999],
    ]);
    expect(g.nodes[1]?.label).toMatch(/^Retry: abandoned response/);
  });

  it('folds tool-progress side leaves into their turn', () => {
    const s = linearSession('p', 6);
    s.entries.push(entry('prog', 'p-2', { kind: 'progress', actor: 'system' }));
    s.branchPoints = [{ uuid: 'p-2', kind: 'tool-progress', children: ['p-3', 'prog'], activeChild: null }];
    const g = sessionMermaid(s);
    expect(g.nodes.map((n) => n.entries)).toEqual([2, 3, 2]);
  });

  it('handles long chains without recursion', () => {
    const g = sessionMermaid(linearSession('deep', 50_000));
    expect(g.sections.reduce((a, p) => a + p.entries, 0)).toBe(50_000);
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
    expect(sessionMermaid(s).nodes[0]?.label).toBe('/doctor · 2 entries');
  });
});
