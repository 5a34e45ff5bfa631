import { join } from 'node:path';
import { emptyUsage, type Session } from '@cctrail/core';
import { priceSession } from '@cctrail/core/archive';
import { describe, expect, it } from 'vitest';
import { formatUsd, indexCostView, rereadCostUsd, sessionCostView } from '../src/views/figures/cost-view.js';
import { demoSession, writeArchive } from './helpers/demo.js';
import { siteOf } from './helpers/site.js';
import { tempFolder } from './helpers/temp.js';

const tmp = tempFolder('cctrail-cost-view-');

/**
 * The demo session with two priced responses: Sonnet 4.5 in epoch 0 on 2 Jan, and an unknown model in epoch 1;
 * with `searches`, the web searches each of them ran.
 */
function priced(searches?: [number, number]): Session {
  const s = demoSession();
  const base = { entries: ['x'], sidechain: null, requestId: 'r' };
  s.responses = [
    // 100,000 input × $3 + 10,000 output × $15 per million = $0.45
    {
      ...base,
      id: 'm1',
      model: 'claude-sonnet-4-5-20250929',
      usage: { ...emptyUsage(), inputTokens: 100_000, outputTokens: 10_000, responses: 1 },
      timestamp: '2026-01-02T10:00:00Z',
      epoch: 0,
    },
    {
      ...base,
      id: 'm2',
      model: 'glm-4.6',
      usage: { ...emptyUsage(), inputTokens: 10, responses: 1 },
      timestamp: '2026-01-04T10:00:00Z',
      epoch: 1,
    },
  ];
  for (const [i, n] of (searches ?? []).entries()) s.responses[i]!.usage.webSearchRequests = n;
  priceSession(s);
  return s;
}

describe('cost views', () => {
  it('formats dollars as stats does', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(1234.567)).toBe('$1,234.57');
  });

  it('formats cents as the locale does for every amount: rounding, thousands, negatives, huge and odd numbers', () => {
    const cents = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    const amounts = [0.01, 1.005, 2.675, 999.995, 1e6 + 0.125, 123456789.555, 1e21, -0, -1.5, -1234.567];
    for (let i = 0; i < 2000; i++) amounts.push(((i * 7919) % 100_003) / 7);
    // (Below a cent, four decimals: the case above.)
    for (const usd of [...amounts, Number.NaN, Number.POSITIVE_INFINITY].filter((x) => !(x > 0 && x < 0.01)))
      expect(formatUsd(usd)).toBe(`$${usd.toLocaleString('en-US', cents)}`);
  });

  it('gives the index its total, a bar per day between the first and the last, by model and by project', async () => {
    const dir = writeArchive(join(tmp, 'a'), [{ id: 'shop', cwd: '/home/dev/shop', sessions: [priced()] }]);
    const view = indexCostView(await siteOf(dir, join(tmp, 'cache-a')));
    expect(view?.total).toMatchObject({ label: 'Cost', value: '$0.45', sub: '+ 1 without a price' });
    expect(view?.perDay.map((b) => [b.label, Number(b.value.toFixed(9))])).toEqual([
      ['2026-01-02', 0.45],
      ['2026-01-03', 0],
      ['2026-01-04', 0],
    ]);
    expect(view?.chart).toContain('<svg');
    expect(view?.chart).toContain('$0.40');
    expect(view?.byModel.map((r) => [r.label, r.text, r.unpriced])).toEqual([
      ['claude-sonnet-4-5-20250929', '$0.45', 0],
      ['glm-4.6', '$0.00', 1],
    ]);
    expect(view?.byProject.map((r) => r.label)).toEqual(['/home/dev/shop']);
    expect(view?.unpricedModels).toEqual(['glm-4.6']);
    expect(view?.priceTable).toBe('Prices in US dollars from @pydantic/genai-prices 0.1.8 (2026-09-23).');
  });

  it('gives a session its cost per epoch, and nothing for a file written without cost', async () => {
    const plain = demoSession();
    const dir = writeArchive(join(tmp, 'b'), [
      { id: 'shop', cwd: null, sessions: [priced(), { ...plain, id: 'p' }] },
    ]);
    const [withCost, without] = (await siteOf(dir, join(tmp, 'cache-b'))).projects[0]!.sessions;
    const view = sessionCostView(withCost!);
    expect(view?.byEpoch.map((r) => [r.label, r.text])).toEqual([
      ['Epoch 1', '$0.45'],
      ['Epoch 2', '$0.00 + 1 without a price'],
    ]);
    expect(view?.claudeCode).toBeNull();
    expect(sessionCostView(without!)).toBeNull();
  });

  it("shows the web searches' fee apart from the cost, on the index and the session, and none without searches", async () => {
    // Four searches on Sonnet 4.5 ($10 per thousand) and two on a model without a search price.
    const s = priced([4, 2]);
    const dir = writeArchive(join(tmp, 'w'), [{ id: 'shop', cwd: null, sessions: [s] }]);
    const site = await siteOf(dir, join(tmp, 'cache-w'));
    const line =
      'Web searches: 6 searches, fee $0.04, 2 of them without a price (billed per search, not in the cost above).';
    expect(sessionCostView(site.projects[0]!.sessions[0]!)?.webSearch).toBe(line);
    expect(indexCostView(site)?.webSearch).toBe(line);
    expect(indexCostView(site)?.total.value).toBe('$0.45');
    const none = await siteOf(
      writeArchive(join(tmp, 'n'), [{ id: 'shop', cwd: null, sessions: [priced()] }]),
      join(tmp, 'cache-n'),
    );
    expect(sessionCostView(none.projects[0]!.sessions[0]!)?.webSearch).toBeNull();
    expect(indexCostView(none)?.webSearch).toBeNull();
  });

  it('prices re-reads after a compaction as cache writes of the costliest model', () => {
    const cost = priced().cost!;
    // 40,000 tokens × $3.75 per million (Sonnet 4.5, 5-minute cache write)
    const rereads = [
      { compaction: 'c', epoch: 1, timestamp: '2026-01-03T00:00:00Z', files: [], tokens: 40_000 },
    ];
    expect(rereadCostUsd(rereads, cost)).toBeCloseTo(0.15, 12);
    expect(rereadCostUsd(rereads, null)).toBeNull();
  });
});
