/**
 * A statistics digest keeps its lists compact (entry uuids and tool call ids as one string, API responses column by
 * column) and gives back exactly what it was made of: any id, every response's usage and cost, web searches.
 */
import { describe, expect, it } from 'vitest';
import { costTotals, responseCosts } from '../src/archive/cost-totals.js';
import { findDuplicates, responseUsages, totalUsage } from '../src/archive/duplicates.js';
import { firstId, idList, idsOf } from '../src/archive/id-list.js';
import { costsOf, responseTable, usagesOf } from '../src/archive/response-table.js';
import { responseTotals } from '../src/archive/response-totals.js';
import { statsDigest } from '../src/archive/session-stats.js';
import { answer, prompt, sessionOf } from './helpers.js';

const ODD = ['a b', 'c\\d', '\\s', ' ', '', 'x\\\\ y', 'e\nf'];

describe('idList', () => {
  it('gives back any ids, spaces and backslashes included, in their order', () => {
    for (const ids of [[], [''], ['u1'], ['u1', 'u2'], ODD, [...ODD].reverse()]) {
      const list = idList(ids);
      expect(typeof list).toBe('string');
      expect(idsOf(list)).toEqual(ids);
      expect(firstId(list)).toBe(ids[0]);
    }
  });

  it('finds duplicates from lists as from arrays', () => {
    const sessions = [
      { id: 'a', uuids: ['a b', 'c\\d'] },
      { id: 'b', uuids: ['a b', 'c\\d', 'x'] },
      { id: 'c', uuids: ['a', 'b', 'c\\d'] },
      { id: 'd', uuids: ['a', 'b c\\d'] },
    ];
    const found = findDuplicates(sessions);
    expect(found).toEqual(['b', null, null, null]);
    expect(findDuplicates(sessions.map((s) => ({ id: s.id, uuids: idList(s.uuids) })))).toEqual(found);
  });
});

// p1 ─ a1 (Sonnet 4.5, 2 searches) ─ p2 ─ a2 (unknown model, 1 search) ─ p3 ─ a3 (Opus, none, a day later)
function records() {
  const usage = (searches: number) => ({
    input_tokens: 100_000,
    output_tokens: 10_000,
    cache_read_input_tokens: 7,
    ...(searches > 0 ? { server_tool_use: { web_search_requests: searches, web_fetch_requests: 0 } } : {}),
  });
  const at = (day: number) => `2026-06-0${day}T12:00:00.000Z`;
  const one = answer('a1', 'p1', 'one', 'msg_1');
  one.message = { ...one.message, model: 'claude-sonnet-4-5-20250929', usage: usage(2) };
  const two = answer('a2', 'p2', 'two', 'msg_2');
  two.message = { ...two.message, model: 'claude-unknown-9', usage: usage(1) };
  const three = answer('a3', 'p3', 'three', 'msg_3');
  three.message = { ...three.message, model: 'claude-opus-4-6', usage: usage(0) };
  return [
    prompt('p1', null, 'go'),
    one,
    prompt('p2', 'a1', 'on'),
    two,
    prompt('p3', 'a2', 'more'),
    three,
  ].map((record) => ({ ...record, timestamp: at(record === three ? 2 : 1) }));
}

describe('responseTable', () => {
  it('gives back every response usage and cost, unpriced ones and web searches included', async () => {
    const session = await sessionOf(records());
    const usages = responseUsages(session);
    const costs = responseCosts(session);
    expect(usages.length).toBe(3);
    expect(costs.some((c) => c.usd === null)).toBe(true);
    expect(costs.filter((c) => c.webSearch).length).toBe(2);
    expect(usages.filter((u) => u.usage.webSearchRequests !== undefined).length).toBe(2);
    const table = responseTable(usages, costs);
    expect(usagesOf(table)).toEqual(usages);
    expect(costsOf(table)).toEqual(costs);
    // As a digest sent between threads or cached: JSON text.
    const sent = JSON.parse(JSON.stringify(statsDigest(session))) as ReturnType<typeof statsDigest>;
    expect(usagesOf(sent.responses)).toEqual(usages);
    expect(costsOf(sent.responses)).toEqual(costs);
    expect(idsOf(sent.uuids)).toEqual(session.entries.map((e) => e.uuid));
  });
});

describe('responseTotals', () => {
  it('counts each response once, as totalUsage and costTotals do over the rows', async () => {
    const all = await sessionOf(records());
    // A copy that holds the first two responses, one of them with more tokens and no search, in another project.
    const usages = responseUsages(all);
    const costs = responseCosts(all);
    const copyUsages = usages.slice(0, 2).map((u, i) => ({
      key: u.key,
      usage: i === 0 ? { ...u.usage, outputTokens: 99_999, webSearchRequests: 0 } : u.usage,
    }));
    const copyCosts = costs.slice(0, 2).map((c, i) => (i === 0 ? { ...c, usd: (c.usd ?? 0) + 1 } : c));
    const lists = [
      { project: 'a', usages, costs },
      { project: null, usages: copyUsages, costs: copyCosts },
      { project: 'c', usages: [], costs: [] },
    ];
    for (const order of [lists, [...lists].reverse()]) {
      const totals = responseTotals(
        order.map((l) => ({ project: l.project, responses: responseTable(l.usages, l.costs) })),
      );
      expect(totals.usage).toEqual(totalUsage(order.map((l) => l.usages)));
      expect(totals.cost).toEqual(costTotals(order.map((l) => ({ project: l.project, costs: l.costs }))));
    }
  });
});
