import { rereadsAfterCompactions } from '@cctrail/core';
import { sessionCost } from '@cctrail/core/archive';
import { describe, expect, it } from 'vitest';
import { timelineSeries } from '../src/views/charts/timeline.js';
import { MAX_DOTS, timelineSvg } from '../src/views/charts/timeline-svg.js';
import { demoSession, linearSession } from './helpers/demo.js';

describe('timelineSeries', () => {
  it('gives the context size of every API call of the active main path', () => {
    const s = timelineSeries(demoSession());
    // a1 a2 a3 a4 | a5 a6 a7: abandoned a3a and sidechain calls are not in the main context
    expect(s.calls.map((c) => c.context)).toEqual([9_012, 11_005, 11_505, 180_005, 20_005, 23_005, 23_505]);
    expect(s.calls.map((c) => c.epoch)).toEqual([0, 0, 0, 0, 1, 1, 1]);
    expect(s.maxContext).toBe(185_000);
  });

  it('places compaction markers between calls with their figures', () => {
    const s = timelineSeries(demoSession());
    expect(s.markers).toEqual([
      expect.objectContaining({
        uuid: 'c1',
        x: 3.5,
        kind: 'full',
        trigger: 'auto',
        preTokens: 185_000,
        postTokens: 21_000,
      }),
    ]);
  });

  it('gives epoch bands and sidechain spans', () => {
    const s = timelineSeries(demoSession());
    expect(s.epochs).toEqual([
      expect.objectContaining({ label: 'epoch 1', from: 0, to: 3 }),
      expect.objectContaining({ label: 'epoch 2', from: 4, to: 6 }),
    ]);
    expect(s.epochs[0]?.fromT).toBe(s.calls[0]?.t);
    expect(s.epochs[1]?.toT).toBe(s.calls[6]?.t);
    expect(s.sidechains).toHaveLength(1);
    expect(s.sidechains[0]?.label).toBe('test-runner');
    expect(s.sidechains[0]?.from).toBeGreaterThanOrEqual(2);
  });

  it('places files read again after a compaction at the call that read them', () => {
    const s = demoSession();
    const series = timelineSeries(s, rereadsAfterCompactions(s));
    expect(series.rereads).toEqual([
      { x: 4, t: series.calls[4]?.t, file: 'src/cart.ts', tokens: expect.any(Number) },
    ]);
    expect(timelineSvg(series).value).toContain('Read again after a compaction: src/cart.ts');
  });
});

describe('timelineSvg', () => {
  it('draws escaped SVG with points, marker and epoch bands', () => {
    const svg = timelineSvg(timelineSeries(demoSession())).value;
    expect(svg).toMatch(/^<svg class="timeline" viewBox="0 0 960 300"/);
    expect(svg.match(/<circle class="tl-dot"/g)).toHaveLength(7);
    expect(svg).toContain('tl-marker--full');
    expect(svg).toContain('185,000 → 21,000 tokens');
    expect(svg.match(/class="tl-epoch /g)).toHaveLength(2);
    expect(svg).not.toContain('NaN');
  });

  it('labels each epoch with its cost once the session is priced', () => {
    const session = demoSession();
    expect(timelineSvg(timelineSeries(session)).value).not.toContain('epoch 1 ·');
    session.cost = sessionCost(session);
    const svg = timelineSvg(timelineSeries(session)).value;
    expect(Object.keys(session.cost.byEpoch).length).toBeGreaterThan(1);
    for (const [epoch, cost] of Object.entries(session.cost.byEpoch))
      expect(svg).toContain(
        `epoch ${Number(epoch) + 1} · $${cost.usd < 0.01 ? cost.usd.toFixed(4) : cost.usd.toFixed(2)}`,
      );
  });

  it('escapes hostile agent types in tooltips', () => {
    const series = timelineSeries(demoSession());
    series.sidechains[0] = { label: '<script>x</script>', from: 0, to: 1, fromT: null, toT: null };
    const svg = timelineSvg(series).value;
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
  });

  it('draws only the line for very long sessions', () => {
    const svg = timelineSvg(timelineSeries(linearSession('long', 2 * (MAX_DOTS + 10)))).value;
    expect(svg).not.toContain('tl-dot');
    expect(svg).toContain('tl-line');
  });

  it('draws an empty session without NaN', () => {
    const svg = timelineSvg({
      calls: [],
      markers: [],
      epochs: [],
      sidechains: [],
      rereads: [],
      maxContext: 0,
      contextLimit: 200_000,
      timed: false,
    }).value;
    expect(svg).not.toContain('NaN');
  });
});
