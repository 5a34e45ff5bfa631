import { describe, expect, it } from 'vitest';
import { answer, byUuid, prompt, sessionOf, toolResult, toolUse } from './helpers.js';

const task = (id: string, type: string, text: string, name = 'Task') =>
  toolUse(id, name, { subagent_type: type, description: `d-${id}`, prompt: text });

describe('sidechains', () => {
  it('links an agent file by toolUseResult.agentId and reverses roles inside it', async () => {
    const s = await sessionOf(
      [
        prompt('p', null),
        answer('t', 'p', task('T1', 'Explore', 'look around')),
        toolResult('r', 't', 'T1', { toolUseResult: { status: 'completed', agentId: 'abc1234' } }),
      ],
      {
        'agent-abc1234': [
          prompt('s1', null, 'look around', { isSidechain: true, agentId: 'abc1234' }),
          answer('s2', 's1', 'found it', 'ms', { isSidechain: true, agentId: 'abc1234' }),
        ],
      },
    );
    expect(s.sidechains).toMatchObject([
      {
        id: 'agent-abc1234',
        agentType: 'Explore',
        role: 'task',
        link: 'agent-id',
        storage: 'subagents',
        depth: 1,
        status: 'completed',
        entries: 2,
        spawn: { toolUseId: 'T1', entryUuid: 't' },
      },
    ]);
    expect(byUuid(s, 's1')).toMatchObject({
      sidechain: 'agent-abc1234',
      actor: 'claude-as-user',
      parent: 't',
    });
    expect(byUuid(s, 's2').actor).toBe('subagent');
    expect(byUuid(s, 'p').actor).toBe('human');
    expect(s.usage.bySidechain['agent-abc1234']!.outputTokens).toBe(5);
    expect(s.usage.main.responses).toBe(1);
  });

  it('links by meta toolUseId, nests agents, and groups parallel agents', async () => {
    const s = await sessionOf(
      [
        prompt('p', null),
        answer('t1', 'p', task('A1', 'general-purpose', 'one', 'Agent'), 'm'),
        answer('t2', 't1', task('A2', 'general-purpose', 'two', 'Agent'), 'm'),
      ],
      {
        // a1 and a2 run at the same time.
        'agent-a1': [
          prompt('x1', null, 'one', { isSidechain: true, timestamp: '2026-02-01T10:00:00Z' }),
          answer('x2', 'x1', task('N1', 'reviewer', 'nested', 'Agent'), 'mx', {
            isSidechain: true,
            timestamp: '2026-02-01T10:00:09Z',
          }),
        ],
        'agent-a2': [
          prompt('y1', null, 'two', { isSidechain: true, timestamp: '2026-02-01T10:00:01Z' }),
          answer('y2', 'y1', 'done two', 'my', { isSidechain: true, timestamp: '2026-02-01T10:00:05Z' }),
        ],
        'agent-n1': [
          prompt('z1', null, 'nested', { isSidechain: true }),
          answer('z2', 'z1', 'deep', 'mz', { isSidechain: true }),
        ],
      },
      {
        'agent-a1': { agentType: 'general-purpose', toolUseId: 'A1' },
        'agent-a2': { toolUseId: 'A2' },
        'agent-n1': { agentType: 'code-reviewer', toolUseId: 'N1' },
      },
    );
    const by = Object.fromEntries(s.sidechains.map((x) => [x.id, x]));
    expect(by['agent-a1']).toMatchObject({ link: 'meta-tool-use-id', depth: 1, status: 'incomplete' });
    expect(by['agent-n1']).toMatchObject({ agentType: 'reviewer', depth: 2, parentSidechain: 'agent-a1' });
    expect(by['agent-a1']!.parallelGroup).not.toBeNull();
    expect(by['agent-a1']!.parallelGroup).toBe(by['agent-a2']!.parallelGroup);
  });

  it('classifies warm-up agents and compaction helpers instead of mis-linking them', async () => {
    const s = await sessionOf([prompt('p', null)], {
      'agent-w1': [
        prompt('w', null, 'Warmup', { isSidechain: true }),
        answer('w2', 'w', 'ready', 'mw', { isSidechain: true }),
      ],
      'agent-acompact-1f': [prompt('c1', 'p', 'summarize', { isSidechain: true })],
      'agent-stray': [prompt('q', null, 'who spawned me', { isSidechain: true })],
    });
    expect(s.sidechains.map((x) => [x.id, x.role, x.agentType])).toEqual([
      ['agent-w1', 'warmup', 'warmup'],
      ['agent-acompact-1f', 'compaction', 'compaction'],
      ['agent-stray', 'orphan', 'unknown'],
    ]);
    // The helper's line points into the main file but is not linked there.
    expect(byUuid(s, 'c1').parent).toBeNull();
    expect(s.diagnostics.map((d) => d.code)).toContain('agent-not-spawned');
  });

  it('counts a spawn whose agent file is missing, with a diagnostic', async () => {
    const s = await sessionOf([
      prompt('p', null),
      answer('t', 'p', task('T9', 'Plan', 'plan it')),
      toolResult('r', 't', 'T9', { toolUseResult: { status: 'completed', agentId: 'gone' } }),
    ]);
    expect(s.sidechains).toMatchObject([
      { agentId: 'gone', agentType: 'Plan', status: 'missing', file: null },
    ]);
    expect(s.diagnostics.map((d) => d.code)).toContain('missing-agent-file');
  });

  it('matches 1.0.x inline sidechains by prompt text, then by time, else unknown', async () => {
    const at = (s: number) => ({
      timestamp: new Date(Date.parse('2026-02-02T10:00:00Z') + s * 1000).toISOString(),
    });
    const s = await sessionOf([
      prompt('p', null, 'go', at(0)),
      answer('t1', 'p', task('T1', 'code-reviewer', 'Review the diff'), 'm1', at(1)),
      answer('t2', 't1', task('T2', 'general-purpose', 'Find the tests'), 'm2', at(2)),
      prompt('i1', null, 'Review the diff', { isSidechain: true, ...at(3) }),
      answer('i2', 'i1', 'lgtm', 'mi', { isSidechain: true, ...at(3.5) }),
      // Not the same text as T2's prompt, but 1.5 s after it.
      prompt('j1', null, 'find the tests please', { isSidechain: true, ...at(3.5) }),
      prompt('k1', null, 'nobody asked', { isSidechain: true, timestamp: '2026-03-01T00:00:00Z' }),
    ]);
    expect(s.sidechains.map((x) => [x.rootUuid, x.agentType, x.link, x.entries])).toEqual([
      ['i1', 'code-reviewer', 'prompt', 2],
      ['j1', 'general-purpose', 'timestamp', 1],
      ['k1', 'unknown', 'none', 1],
    ]);
    expect(byUuid(s, 'i2').sidechain).toBe('inline-i1');
  });
});
