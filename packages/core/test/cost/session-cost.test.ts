import { describe, expect, it } from 'vitest';
import { costTotals, responseCosts } from '../../src/archive/cost-totals.js';
import { priceSession, sessionCost } from '../../src/archive/session-cost.js';
import { buildSession } from '../../src/session.js';
import { answer, jsonl, memorySource, prompt, sessionOf } from '../helpers.js';

// prompt p1 ─ a1 (Sonnet 4.5) ─ p2 ─ a2 (a model the table does not know) ─ a3 (<synthetic>)
function records(costState?: object) {
  const priced = answer('a1', 'p1', 'one', 'msg_1');
  priced.message.model = 'claude-sonnet-4-5-20250929';
  // 100,000 input × $3 + 10,000 output × $15 per million = $0.45
  priced.message.usage = { input_tokens: 100_000, output_tokens: 10_000 };
  const unknown = answer('a2', 'p2', 'two', 'msg_2');
  unknown.message.model = 'claude-unknown-9';
  const synthetic = answer('a3', 'a2', 'three', 'msg_3');
  synthetic.message.model = '<synthetic>';
  return [
    prompt('p1', null),
    priced,
    prompt('p2', 'a1'),
    unknown,
    synthetic,
    ...(costState ? [{ type: 'cost-state', sessionId: 'S', ...costState }] : []),
  ];
}

describe('sessionCost', () => {
  it('sums each response once per model, epoch, day and the main conversation', async () => {
    const cost = sessionCost(await sessionOf(records()));
    expect(cost.total.usd).toBeCloseTo(0.45, 12);
    expect(cost.total.unpriced).toBe(1);
    expect(cost.main).toEqual(cost.total);
    expect(Object.keys(cost.byModel).sort()).toEqual([
      '<synthetic>',
      'claude-sonnet-4-5-20250929',
      'claude-unknown-9',
    ]);
    expect(cost.byModel['<synthetic>']).toEqual({ usd: 0, unpriced: 0 });
    expect(cost.byModel['claude-unknown-9']).toEqual({ usd: 0, unpriced: 1 });
    expect(cost.byEpoch['0']).toEqual(cost.total);
    expect(Object.keys(cost.byDay)).toEqual(['2026-01-01']);
    expect(cost.unpricedModels).toEqual(['claude-unknown-9']);
    expect(cost.claudeCode).toBeNull();
    expect(cost.priceTable.name).toBe('@pydantic/genai-prices');
  });
});

describe('priceSession', () => {
  it('stores each response’s cost and the session’s, once', async () => {
    const session = await sessionOf(records());
    priceSession(session);
    expect(session.responses.map((r) => r.cost)).toEqual([expect.closeTo(0.45, 12), null, 0]);
    const first = session.cost;
    priceSession(session);
    expect(session.cost).toBe(first);
  });

  it('keeps Claude Code’s own figure and says nothing when it agrees within 1 %', async () => {
    const session = await sessionOf(records({ totalCostUSD: 0.452 }));
    priceSession(session);
    expect(session.cost?.claudeCode).toEqual({ usd: 0.452, byModel: {} });
    expect(session.diagnostics.filter((d) => d.code === 'cost-differs')).toEqual([]);
  });

  it('names the model when Claude Code’s figure differs by more than 1 %', async () => {
    const modelUsage = { 'claude-sonnet-4-5-20250929': { costUSD: 0.5 } };
    const session = await sessionOf(records({ totalCostUSD: 0.5, modelUsage }));
    priceSession(session);
    const [found] = session.diagnostics.filter((d) => d.code === 'cost-differs');
    expect(found?.severity).toBe('info');
    expect(found?.message).toContain('$0.4500');
    expect(found?.message).toContain('$0.5000');
    expect(found?.message).toContain('model: claude-sonnet-4-5-20250929.');
  });

  it('reads Claude Code’s figure in a structure-only build too', async () => {
    const text = jsonl(records({ totalCostUSD: 0.5, modelUsage: { m: { costUSD: 0.5 } } }));
    const lean = await buildSession(
      { id: 'lean', main: memorySource('s.jsonl', text), agents: [], agentMeta: [] },
      { content: false },
    );
    expect(sessionCost(lean).claudeCode).toEqual({ usd: 0.5, byModel: { m: 0.5 } });
  });
});

describe('costTotals', () => {
  it('counts a response two sessions hold once, in the project of the first', async () => {
    const costs = responseCosts(await sessionOf(records()));
    const totals = costTotals([
      { project: 'alpha', costs },
      { project: 'beta', costs },
    ]);
    expect(totals.total.usd).toBeCloseTo(0.45, 12);
    expect(totals.total.unpriced).toBe(1);
    expect(Object.keys(totals.byProject)).toEqual(['alpha']);
    expect(totals.byDay['2026-01-01']?.usd).toBeCloseTo(0.45, 12);
    expect(totals.unpricedModels).toEqual(['claude-unknown-9']);
  });
});
