import { type ArchiveStats, archiveStats } from '@cctrail/core/archive';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/command-line/errors.js';
import { costBreakdown } from '../src/commands/stats-by.js';
import { costCell, costLines, renderCostBreakdown } from '../src/commands/stats-cost.js';
import { styleFor } from '../src/terminal/terminal.js';

const plain = styleFor({ isTTY: false } as unknown as NodeJS.WriteStream, {});

/** Statistics with a cost per day, model and project, as combineStats gives them. */
function withCost(): ArchiveStats {
  const stats = archiveStats([]);
  stats.cost.total = { usd: 12.5, unpriced: 2 };
  stats.cost.byDay = { '2026-01-01': { usd: 2.5, unpriced: 0 }, '2026-01-02': { usd: 10, unpriced: 2 } };
  stats.cost.byModel = { 'claude-opus-4-6': { usd: 12.5, unpriced: 0 }, 'glm-4.6': { usd: 0, unpriced: 2 } };
  stats.cost.byProject = { '-home-a': { usd: 0.005, unpriced: 0 }, '-home-b': { usd: 12.495, unpriced: 2 } };
  stats.cost.unpricedModels = ['glm-4.6'];
  return stats;
}

describe('stats cost output', () => {
  it('reads --by and refuses anything else', () => {
    expect(costBreakdown(undefined)).toBeNull();
    expect(costBreakdown('day')).toBe('day');
    expect(() => costBreakdown('week')).toThrow(CliError);
  });

  it('shows dollars and the responses without a price', () => {
    expect(costCell({ usd: 1234.5, unpriced: 0 })).toBe('$1,234.50');
    expect(costCell({ usd: 0.0042, unpriced: 3 })).toBe('$0.0042 +3?');
  });

  it('names the price table and the models without a price under the totals', () => {
    expect(costLines(withCost())).toEqual([
      '  cost: $12.50 + 2 API responses without a price (glm-4.6)',
      '  prices: @pydantic/genai-prices 0.1.8 (2026-09-23), USD',
    ]);
  });

  it('shows the web searches and their fee apart from the cost, with those without a price', () => {
    const stats = withCost();
    stats.cost.webSearch = { requests: 1250, usd: 12.4, unpriced: 10 };
    expect(costLines(stats)).toEqual([
      '  cost: $12.50 + 2 API responses without a price (glm-4.6)',
      '  web searches: 1 250, fee $12.40, 10 of them without a price (not in the cost above)',
      '  prices: @pydantic/genai-prices 0.1.8 (2026-09-23), USD',
    ]);
    stats.cost.webSearch = { requests: 3, usd: 0.03, unpriced: 0 };
    expect(costLines(stats)[1]).toBe('  web searches: 3, fee $0.03 (not in the cost above)');
  });

  it('breaks the cost down by day in order, and by project costliest first', () => {
    expect(renderCostBreakdown(withCost(), 'day', plain)).toMatchInlineSnapshot(`
      "Cost by day
      day           cost  share  without a price
      ──────────  ──────  ─────  ───────────────
      2026-01-01   $2.50    20%
      2026-01-02  $10.00    80%                2
        prices: @pydantic/genai-prices 0.1.8 (2026-09-23), USD"
    `);
    const byProject = renderCostBreakdown(withCost(), 'project', plain).split('\n');
    expect(byProject[3]).toMatch(/^-home-b +\$12\.50/);
    expect(byProject[4]).toMatch(/^-home-a +\$0\.0050/);
  });
});
