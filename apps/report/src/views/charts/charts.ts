import { totalTokens } from '@cctrail/core';
import { max } from 'd3-array';
import { scaleBand, scaleLinear } from 'd3-scale';
import { escapeHtml, type SafeHtml, trusted } from '../html/html.js';
import type { ArchiveSessionSummary } from '../model.js';
import { type Bar, type TimeBars, timeBars } from './time-bars.js';

/**
 * Build-time SVG charts of the index page: tokens over time and sessions by number of compactions. Data
 * shaping (`tokensOverTime`, `compactionHistogram`) is separate from drawing (`barChartSvg`).
 */

export type { Bar };

/**
 * Tokens over time (UTC, by session start), the whole range between the first and the last session: a bar a
 * day, a week or a month (`timeBars`).
 *
 * @param sessions Sessions' index lines; duplicate copies are left out.
 * @param maxBars Most bars before days are grouped.
 * @param reported Tokens that runs without a transcript add to a session, as the archive's totals count them
 *   (each run once); a bar that holds some says "≥".
 */
export function tokensOverTime(
  sessions: readonly ArchiveSessionSummary[],
  maxBars?: number,
  reported?: ReadonlyMap<ArchiveSessionSummary, number>,
): TimeBars {
  const tokens = new Map<string, number>();
  const count = new Map<string, number>();
  const lowerBound = new Set<string>();
  for (const s of sessions) {
    if (!s.startedAt || s.duplicateOf) continue;
    const day = s.startedAt.slice(0, 10);
    const extra = reported?.get(s) ?? 0;
    if (extra > 0) lowerBound.add(day);
    tokens.set(day, (tokens.get(day) ?? 0) + totalTokens(s.usage) + extra);
    count.set(day, (count.get(day) ?? 0) + 1);
  }
  return timeBars(
    tokens,
    (label, value, days) => {
      const n = days.reduce((a, d) => a + (count.get(d) ?? 0), 0);
      const mark = days.some((d) => lowerBound.has(d)) ? '≥ ' : '';
      return `${label}: ${mark}${value.toLocaleString('en-US')} tokens in ${n} sessions`;
    },
    maxBars,
  );
}

/** Sessions by number of compactions: 0, 1, 2, 3, 4 and 5+. */
export function compactionHistogram(sessions: readonly ArchiveSessionSummary[]): Bar[] {
  const counts = [0, 0, 0, 0, 0, 0];
  for (const s of sessions) {
    if (s.duplicateOf) continue;
    const i = Math.min(5, Math.max(0, s.compactions ?? 0));
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts.map((value, i) => {
    const label = i === 5 ? '5+' : String(i);
    return { label, value, tip: `${value} sessions with ${label} compaction${i === 1 ? '' : 's'}` };
  });
}

/** Draws bars as an SVG string; labels are thinned out to stay readable. */
export function barChartSvg(
  bars: readonly Bar[],
  opts: { title: string; integer?: boolean; width?: number; height?: number; format?: (n: number) => string },
): SafeHtml {
  const width = opts.width ?? 640;
  const height = opts.height ?? 220;
  const m = { top: 12, right: 10, bottom: 30, left: 52 };
  const x = scaleBand<number>()
    .domain(bars.map((_, i) => i))
    .range([m.left, width - m.right])
    .padding(0.15);
  const y = scaleLinear()
    .domain([0, Math.max(1, max(bars, (b) => b.value) ?? 0)])
    .nice()
    .range([height - m.bottom, m.top]);
  const k = (n: number): string =>
    opts.format
      ? opts.format(n)
      : n >= 1e9
        ? `${(n / 1e9).toFixed(1)}G`
        : n >= 1e6
          ? `${(n / 1e6).toFixed(1)}M`
          : n >= 1e3
            ? `${Math.round(n / 1e3)}k`
            : String(n);
  const parts: string[] = [
    `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(opts.title)}" xmlns="http://www.w3.org/2000/svg">`,
  ];
  for (const t of y.ticks(4).filter((t) => opts.integer !== true || Number.isInteger(t))) {
    parts.push(
      `<line class="tl-grid" x1="${m.left}" x2="${width - m.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/>`,
      `<text class="tl-axis" x="${m.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${k(t)}</text>`,
    );
  }
  const every = Math.max(1, Math.ceil(bars.length / 8));
  // Month-day labels, unless the bars span years: then the whole date (or month), fewer of them.
  const years = new Set(bars.map((b) => b.label.slice(0, 4))).size > 1;
  const shown = (label: string) => (label.length === 10 && !years ? label.slice(5) : label);
  const step = years ? Math.max(1, Math.ceil(bars.length / 5)) : every;
  bars.forEach((b, i) => {
    const bx = x(i) ?? 0;
    const by = y(b.value);
    parts.push(
      `<rect class="bar" x="${bx.toFixed(1)}" y="${by.toFixed(1)}" width="${x.bandwidth().toFixed(1)}" height="${Math.max(0, height - m.bottom - by).toFixed(1)}" data-tip="${escapeHtml(b.tip)}"><title>${escapeHtml(b.tip)}</title></rect>`,
    );
    if (i % step === 0)
      parts.push(
        `<text class="tl-axis" x="${(bx + x.bandwidth() / 2).toFixed(1)}" y="${height - m.bottom + 16}" text-anchor="middle">${escapeHtml(shown(b.label))}</text>`,
      );
  });
  parts.push('</svg>');
  return trusted(parts.join(''));
}

/** Labels of the buckets of `AgentTypeStats.distribution` (`agents.ts`). */
const BUCKET_LABELS = ['1', '2–5', '6–20', '21–50', '51–200', '201+'];

/** A small inline bar chart of runs per entry-count bucket (no axes; a title per bar). */
export function entriesSparkline(counts: readonly number[]): SafeHtml {
  const w = 84;
  const h = 22;
  const n = counts.length;
  const top = Math.max(1, ...counts);
  const bw = w / n;
  const bars = counts.map((c, i) => {
    const bh = c === 0 ? 0 : Math.max(2, (c / top) * (h - 2));
    const tip = `${c} run${c === 1 ? '' : 's'} of ${BUCKET_LABELS[i] ?? '?'} entries`;
    return `<rect class="bar" x="${(i * bw + 1).toFixed(1)}" y="${(h - bh).toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${bh.toFixed(1)}" data-tip="${escapeHtml(tip)}"><title>${escapeHtml(tip)}</title></rect>`;
  });
  return trusted(
    `<svg class="spark" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${escapeHtml(`runs by entries: ${counts.join(', ')}`)}" xmlns="http://www.w3.org/2000/svg"><line class="tl-grid" x1="0" x2="${w}" y1="${h - 0.5}" y2="${h - 0.5}"/>${bars.join('')}</svg>`,
  );
}
