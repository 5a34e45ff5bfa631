import { describe, expect, it } from 'vitest';
import {
  type AgentRun,
  agentRunOf,
  aggregateAgents,
  durationBetween,
  histogram,
  quantile,
  spread,
} from '../src/views/agents/agents.js';
import { demoSession } from './helpers/demo.js';

const run = (agentType: string, entries: number, extra: Partial<AgentRun> = {}): AgentRun => ({
  id: `${agentType}-${entries}`,
  agentType,
  description: null,
  cost: { usd: 0, unpriced: 0 },
  role: 'task',
  depth: 1,
  parentSidechain: null,
  parallelGroup: null,
  status: 'completed',
  entries,
  startedAt: null,
  endedAt: null,
  durationMs: 1000,
  tokens: 10,
  toolCalls: 2,
  toolErrors: 0,
  epoch: 0,
  ...extra,
});

describe('agents', () => {
  it('describes a sidechain run', () => {
    const s = demoSession();
    const r = agentRunOf(s, s.sidechains[0] as never);
    expect(r).toMatchObject({
      agentType: 'test-runner',
      entries: 4,
      toolCalls: 1,
      toolErrors: 1,
      tokens: 8_306,
      depth: 1,
    });
    expect(r.durationMs).toBe(21_000);
  });
  it('computes quantiles and spreads', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(spread([5, 1, 3])).toEqual({ min: 1, p25: 2, median: 3, p75: 4, max: 5 });
    expect(spread([])).toEqual({ min: 0, p25: 0, median: 0, p75: 0, max: 0 });
    expect(histogram([0, 1, 5, 50, 500], [0, 2, 10, 100])).toEqual([2, 1, 1, 1]);
    expect(durationBetween('2026-01-01T00:00:00Z', '2026-01-01T00:00:02Z')).toBe(2000);
    expect(durationBetween('x', null)).toBeNull();
  });
  it('aggregates runs per type, most invoked first', () => {
    const stats = aggregateAgents([
      { run: run('Explore', 10), sessionKey: 'a' },
      {
        run: run('Explore', 30, { depth: 2, parallelGroup: 1, status: 'error', toolErrors: 1 }),
        sessionKey: 'a',
      },
      { run: run('Explore', 20), sessionKey: 'b' },
      { run: run('Plan', 5), sessionKey: 'b' },
    ]);
    expect(stats.map((s) => s.agentType)).toEqual(['Explore', 'Plan']);
    expect(stats[0]).toMatchObject({
      invocations: 3,
      sessions: 2,
      totalEntries: 60,
      maxDepth: 2,
      nested: 1,
      parallel: 1,
      errors: 1,
      toolCalls: 6,
      toolErrors: 1,
      tokens: 30,
    });
    expect(stats[0]?.entries.median).toBe(20);
    expect(stats[0]?.distribution).toEqual([0, 0, 2, 1, 0, 0]);
    expect(stats[0]?.errorRate).toBeCloseTo(1 / 3);
  });
});
