import { describe, expect, it } from 'vitest';
import { barChartSvg, compactionHistogram, entriesSparkline, tokensPerDay } from '../src/views/charts.js';
import { demoSession, summaryOf, usage } from './helpers/demo.js';

const summary = (
  startedAt: string | null,
  tokens: number,
  compactions = 0,
  duplicateOf: string | null = null,
) => ({
  ...summaryOf(demoSession(), 'x.json'),
  startedAt,
  usage: usage(tokens, 0, 0, 0),
  compactions,
  duplicateOf,
});

describe('charts', () => {
  it('sums tokens per UTC day, filling empty days, skipping duplicates', () => {
    const bars = tokensPerDay([
      summary('2026-01-01T10:00:00Z', 100),
      summary('2026-01-01T23:00:00Z', 50),
      summary('2026-01-03T01:00:00Z', 7),
      summary('2026-01-03T02:00:00Z', 1000, 0, 'other'),
      summary(null, 5),
    ]);
    expect(bars.map((b) => [b.label, b.value])).toEqual([
      ['2026-01-01', 150],
      ['2026-01-02', 0],
      ['2026-01-03', 7],
    ]);
  });
  it('keeps at most maxDays days', () => {
    expect(
      tokensPerDay([summary('2025-01-01T00:00:00Z', 1), summary('2026-01-01T00:00:00Z', 1)], 30),
    ).toHaveLength(30);
  });
  it('counts sessions by number of compactions', () => {
    const bars = compactionHistogram([
      summary(null, 0, 0),
      summary(null, 0, 1),
      summary(null, 0, 1),
      summary(null, 0, 9),
    ]);
    expect(bars.map((b) => b.value)).toEqual([1, 2, 0, 0, 0, 1]);
    expect(bars[5]?.label).toBe('5+');
  });
  it('draws escaped bars', () => {
    const svg = barChartSvg([{ label: '<x>', value: 3, tip: '<b>tip</b>' }], { title: 'T"' }).value;
    expect(svg).toContain('aria-label="T&quot;"');
    expect(svg).toContain('&lt;b&gt;tip&lt;/b&gt;');
    expect(svg).not.toContain('NaN');
  });
  it('draws a sparkline of runs by entries', () => {
    const svg = entriesSparkline([1, 0, 3, 0, 0, 2]).value;
    expect(svg.match(/<rect/g)).toHaveLength(6);
    expect(svg).toContain('3 runs of 6–20 entries');
    expect(svg).not.toContain('NaN');
  });
});
