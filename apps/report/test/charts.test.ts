import { describe, expect, it } from 'vitest';
import {
  barChartSvg,
  compactionHistogram,
  entriesSparkline,
  tokensOverTime,
} from '../src/views/charts/charts.js';
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
    const { unit, bars } = tokensOverTime([
      summary('2026-01-01T10:00:00Z', 100),
      summary('2026-01-01T23:00:00Z', 50),
      summary('2026-01-03T01:00:00Z', 7),
      summary('2026-01-03T02:00:00Z', 1000, 0, 'other'),
      summary(null, 5),
    ]);
    expect(unit).toBe('day');
    expect(bars.map((b) => [b.label, b.value])).toEqual([
      ['2026-01-01', 150],
      ['2026-01-02', 0],
      ['2026-01-03', 7],
    ]);
    expect(bars[0]?.tip).toBe('2026-01-01: 150 tokens in 2 sessions');
  });
  it('keeps the whole range: a bar a week when the days are too many, a bar a month beyond', () => {
    // 2026-01-01 is a Thursday: its week starts on Monday 2025-12-29.
    const weeks = tokensOverTime(
      [summary('2026-01-01T00:00:00Z', 1), summary('2026-02-11T00:00:00Z', 2)],
      30,
    );
    expect(weeks.unit).toBe('week');
    expect(weeks.bars[0]).toMatchObject({
      label: '2025-12-29',
      value: 1,
      tip: 'week of 2025-12-29: 1 tokens in 1 sessions',
    });
    expect(weeks.bars.at(-1)).toMatchObject({ label: '2026-02-09', value: 2 });
    expect(weeks.bars).toHaveLength(7);
    // one session months after the others is a bar of its own, the earlier ones are all still there
    const months = tokensOverTime(
      [
        summary('2025-01-01T00:00:00Z', 294_000_000),
        summary('2025-01-20T00:00:00Z', 6_000_000),
        summary('2026-03-05T00:00:00Z', 4500),
      ],
      30,
    );
    expect(months.unit).toBe('month');
    expect(months.bars).toHaveLength(15);
    expect(months.bars[0]).toMatchObject({ label: '2025-01', value: 300_000_000 });
    expect(months.bars.at(-1)).toMatchObject({ label: '2026-03', value: 4500 });
    expect(months.bars.reduce((a, b) => a + b.value, 0)).toBe(300_004_500);
  });
  it('labels the axis with the year when the bars span years', () => {
    const svg = barChartSvg(
      [
        { label: '2025-12-29', value: 1, tip: 'a' },
        { label: '2026-01-05', value: 2, tip: 'b' },
      ],
      { title: 't' },
    ).value;
    expect(svg).toContain('>2025-12-29</text>');
    expect(barChartSvg([{ label: '2026-01-05', value: 2, tip: 'b' }], { title: 't' }).value).toContain(
      '>01-05</text>',
    );
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
