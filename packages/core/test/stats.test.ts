import { describe, expect, it } from 'vitest';
import { sessionStats } from '../src/archive/session-stats.js';
import { archiveStats } from '../src/archive/stats.js';
import { emptyUsage } from '../src/graph/usage.js';
import { SCHEMA_VERSION } from '../src/model/session.js';
import { answer, prompt, sessionOf, toolResult, toolUse } from './helpers.js';
import { compaction, entry, epoch, session, sidechain, tool, usage } from './stats-builders.js';

describe('sessionStats', () => {
  it('counts forks (not recording artifacts), abandoned entries, compactions, tools and diagnostics', () => {
    const stats = sessionStats(
      session('s1', {
        entries: [entry('a'), entry('b'), entry('c')],
        roots: ['a', 'x'],
        orphans: ['o'],
        branchPoints: [
          { uuid: 'a', kind: 'rewind', children: ['b', 'c'], activeChild: 'c' },
          { uuid: 't', kind: 'tool-progress', children: ['p', 'r'], activeChild: null },
        ],
        branches: [{ branchPoint: 'a', head: 'b', leaf: 'b', entries: 1, startedAt: null, endedAt: null }],
        compactions: [
          compaction('c1'),
          compaction('c2', { trigger: 'manual' }),
          compaction('c3', { trigger: null }),
          compaction('m1', { kind: 'micro', form: 'microcompact' }),
        ],
        tools: [
          tool('1', 'ok'),
          tool('2', 'error'),
          tool('3', 'missing-result'),
          tool('4', 'result-without-call'),
        ],
        diagnostics: [
          { code: 'invalid-json', severity: 'error', message: '', file: 'p/s1.jsonl', line: 3 },
          { code: 'unknown-type', severity: 'info', message: '', file: 'p/s1.jsonl', line: 4 },
        ],
        accounting: { lines: 5, entries: 3, metadata: 0, duplicates: 0, blank: 0, invalid: 2, recovered: 0 },
      }),
    );
    expect(stats).toMatchObject({
      file: 'p/s1.jsonl',
      sessionId: 's1',
      lines: 5,
      entries: 3,
      roots: 2,
      orphans: 1,
      branches: { forks: 1, abandonedEntries: 1 },
      compactions: { total: 3, auto: 1, manual: 1, micro: 1 },
      tools: { calls: 3, results: 3, paired: 2, errors: 1, missingResults: 1 },
      diagnostics: { error: 1, warning: 0, info: 1 },
    });
  });

  it('describes each sidechain, counting the prompts Claude sent it', () => {
    const stats = sessionStats(
      session('s', {
        entries: [
          entry('p1', { sidechain: 'agent-a', actor: 'claude-as-user' }),
          entry('r1', { sidechain: 'agent-a', actor: 'subagent', kind: 'assistant' }),
          entry('p2', { sidechain: 'agent-a', actor: 'claude-as-user' }),
          entry('p3', { sidechain: 'agent-b', actor: 'claude-as-user' }),
          entry('t', { sidechain: 'agent-b', actor: 'tool', kind: 'tool-result' }),
        ],
        sidechains: [
          sidechain('agent-a', { usage: usage(10, 5, { cacheReadInputTokens: 100 }) }),
          sidechain('agent-b', { depth: 2, parentSidechain: 'agent-a', status: 'error' }),
        ],
      }),
    );
    expect(stats.sidechains).toMatchObject([
      { id: 'agent-a', agentId: 'a', prompts: 2, tokens: 115, depth: 1 },
      { id: 'agent-b', agentId: 'b', prompts: 1, tokens: 0, depth: 2, status: 'error' },
    ]);
  });

  it('works on a session built from records', async () => {
    const built = await sessionOf([
      prompt('p', null),
      answer('a', 'p', toolUse('toolu_1')),
      toolResult('r', 'a', 'toolu_1'),
      answer('b', 'r', 'done'),
    ]);
    const stats = sessionStats(built);
    expect(stats.entries).toBe(built.entries.length);
    expect(stats.lines).toBe(4);
    expect(stats.tools).toEqual({ calls: 1, results: 1, paired: 1, errors: 0, missingResults: 0 });
    expect(stats.usage.responses).toBe(2);
  });
});

describe('archiveStats', () => {
  const a = session('a', {
    sidechains: [
      sidechain('agent-1', { agentType: 'Explore', entries: 3, parallelGroup: 1, usage: usage(1, 1) }),
      sidechain('agent-2', { agentType: 'Explore', entries: 9, parallelGroup: 1, status: 'error' }),
      sidechain('agent-3', { agentType: 'Plan', entries: 5, depth: 2, parentSidechain: 'agent-1' }),
    ],
    entries: [
      entry('x', { sidechain: 'agent-2', actor: 'claude-as-user' }),
      entry('y', { sidechain: 'agent-2', actor: 'claude-as-user' }),
    ],
    compactions: [compaction('c1'), compaction('c2', { trigger: 'manual', epoch: 2 })],
    epochs: [epoch(0, 10), epoch(1, 20), epoch(2, 7)],
  });
  const b = session('b', {
    sidechains: [sidechain('agent-4', { agentType: 'Explore', entries: 4 })],
    compactions: [compaction('c3')],
    epochs: [epoch(0, 30), epoch(1, 2)],
  });
  // Its one entry is also in `a`: a duplicate of `a`.
  const duplicate = session('c', {
    entries: [entry('x', { sidechain: 'agent-2', actor: 'claude-as-user' })],
    sidechains: [sidechain('agent-5', { agentType: 'Explore', entries: 100 })],
    compactions: [compaction('c9'), compaction('c10'), compaction('c11')],
    epochs: [epoch(0, 1), epoch(1, 1), epoch(2, 1), epoch(3, 1)],
  });
  const stats = archiveStats([a, b, duplicate]);

  it('lists every session and leaves duplicates out of the totals', () => {
    expect(stats.schemaVersion).toBe(SCHEMA_VERSION);
    expect(stats.sessions.map((s) => s.sessionId)).toEqual(['a', 'b', 'c']);
    expect(stats.totals).toMatchObject({ sessions: 3, duplicates: 1, sidechains: 4 });
    expect(stats.totals.compactions).toEqual({ total: 3, auto: 2, manual: 1, micro: 0 });
  });

  it('summarizes agents by type: invocations, median, depths, multi-turn, nested, parallel, errors, tokens', () => {
    expect(stats.agents).toEqual([
      {
        agentType: 'Explore',
        cost: { usd: 0, unpriced: 0 },
        invocations: 3,
        medianEntries: 4,
        depths: { '1': 3 },
        multiTurn: 1,
        multiTurnShare: 0.3333,
        nested: 0,
        parallel: 2,
        errors: 1,
        errorRate: 0.3333,
        tokens: 2,
        usage: usage(1, 1),
      },
      {
        agentType: 'Plan',
        cost: { usd: 0, unpriced: 0 },
        invocations: 1,
        medianEntries: 5,
        depths: { '2': 1 },
        multiTurn: 0,
        multiTurnShare: 0,
        nested: 1,
        parallel: 0,
        errors: 0,
        errorRate: 0,
        tokens: 0,
        usage: { ...emptyUsage() },
      },
    ]);
  });

  it('describes nesting and parallel runs', () => {
    // a: agent-1 and agent-2 ran together (group 1), agent-3 was spawned by agent-1; b: one agent alone.
    expect(stats.agentPatterns).toEqual({
      sessionsWithAgents: 2,
      parallelGroups: 1,
      maxParallel: 2,
      maxDepth: 2,
    });
  });

  it('measures compaction frequency and spacing', () => {
    // Closed epochs: a → 10, 20; b → 30. The last epoch of each session is still open.
    expect(stats.compaction).toEqual({
      sessionsWithCompactions: 2,
      maxPerSession: 2,
      total: 3,
      auto: 2,
      manual: 1,
      unknownTrigger: 0,
      micro: 0,
      meanEntriesBetween: 20,
    });
  });

  it('gives zeros, not NaN, for no sessions', () => {
    const empty = archiveStats([]);
    expect(empty.agents).toEqual([]);
    expect(empty.compaction.meanEntriesBetween).toBe(0);
    expect(empty.totals.sessions).toBe(0);
  });
});
