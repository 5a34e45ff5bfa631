/**
 * Web searches (`usage.server_tool_use.web_search_requests`) are billed per search, apart from tokens: they are
 * counted once per API response and their fee is shown apart, never added to the token cost (which stays what
 * ccusage computes) and never dropped: a search without a price is counted as unpriced.
 */
import { describe, expect, it } from 'vitest';
import { costTotals, responseCosts } from '../../src/archive/cost-totals.js';
import { webSearchCost } from '../../src/archive/prices.js';
import { sessionCost } from '../../src/archive/session-cost.js';
import { statsDigest } from '../../src/archive/session-stats.js';
import { combineStats } from '../../src/archive/stats.js';
import { answer, prompt, sessionOf } from '../helpers.js';

const AT = '2026-06-01T12:00:00.000Z';

describe('webSearchCost', () => {
  it('prices searches per thousand, as the table does for the model', () => {
    // Sonnet 4.5: $10 per 1,000 searches.
    expect(webSearchCost('claude-sonnet-4-5-20250929', 3, AT)).toBeCloseTo(0.03, 12);
    expect(webSearchCost('claude-opus-4-6', 1, AT)).toBeCloseTo(0.01, 12);
    expect(webSearchCost('claude-opus-4-6', 0, AT)).toBe(0);
    // Lines Claude Code writes itself made no API call, as for tokens.
    expect(webSearchCost('<synthetic>', 2, AT)).toBe(0);
  });

  it('gives no price for a model the table does not know or without a search price', () => {
    expect(webSearchCost('claude-unknown-9', 2, AT)).toBeNull();
    expect(webSearchCost('claude-3-haiku-20240307', 2, AT)).toBeNull();
    expect(webSearchCost(null, 2, AT)).toBeNull();
  });
});

// p1 ─ a1 (Sonnet 4.5, 2 searches, written on two lines) ─ p2 ─ a2 (unknown model, 1 search) ─ p3 ─ a3 (none)
function records() {
  const usage = (searches: number) => ({
    input_tokens: 100_000,
    output_tokens: 10_000,
    server_tool_use: { web_search_requests: searches, web_fetch_requests: 0 },
  });
  const first = answer('a1', 'p1', 'one', 'msg_1');
  first.message.model = 'claude-sonnet-4-5-20250929';
  first.message.usage = usage(2);
  const second = answer('a1b', 'a1', 'one, continued', 'msg_1');
  second.message.model = 'claude-sonnet-4-5-20250929';
  second.message.usage = usage(2);
  const unknown = answer('a2', 'p2', 'two', 'msg_2');
  unknown.message.model = 'claude-unknown-9';
  unknown.message.usage = usage(1);
  const none = answer('a3', 'p3', 'three', 'msg_3');
  none.message.model = 'claude-sonnet-4-5-20250929';
  none.message.usage = usage(0);
  return [prompt('p1', null), first, second, prompt('p2', 'a1b'), unknown, prompt('p3', 'a2'), none];
}

describe('web searches in usage and cost', () => {
  it('counts each response’s searches once, in its usage', async () => {
    const session = await sessionOf(records());
    expect(session.responses.map((r) => r.usage.webSearchRequests)).toEqual([2, 1, undefined]);
    expect(session.usage.total.webSearchRequests).toBe(3);
  });

  it('shows their fee apart and leaves the token cost as it was', async () => {
    const cost = sessionCost(await sessionOf(records()));
    // Tokens only: 2 × ($0.30 + $0.15) for the priced responses, the unknown model unpriced.
    expect(cost.total.usd).toBeCloseTo(0.9, 12);
    expect(cost.total.unpriced).toBe(1);
    expect(cost.webSearch).toEqual({ requests: 3, usd: 0.02, unpriced: 1 });
  });

  it('has no web search figure for a session without searches', async () => {
    const cost = sessionCost(await sessionOf(records().slice(-2)));
    expect(cost.webSearch).toBeUndefined();
  });

  it('counts a response held by two files once in the totals', async () => {
    const session = await sessionOf(records());
    const costs = responseCosts(session);
    const totals = costTotals([
      { project: 'a', costs },
      { project: 'b', costs },
    ]);
    expect(totals.webSearch).toEqual({ requests: 3, usd: 0.02, unpriced: 1 });
    expect(totals.total.usd).toBeCloseTo(0.9, 12);
  });

  it('reaches the stats totals', async () => {
    const session = await sessionOf(records());
    const stats = combineStats([statsDigest(session)]);
    expect(stats.cost.webSearch).toEqual({ requests: 3, usd: 0.02, unpriced: 1 });
    expect(stats.totals.usage.webSearchRequests).toBe(3);
  });
});
