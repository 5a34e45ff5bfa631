import { scaleLinear, scaleUtc } from 'd3-scale';
import { area, line } from 'd3-shape';
import { formatUsd } from '../figures/cost-view.js';
import { escapeHtml, type SafeHtml, trusted } from '../html/html.js';
import type { CallPoint, Span, TimelineSeries } from './timeline.js';

/**
 * Draws the compaction timeline (`timeline.ts`) at build time: d3 scales and shapes, string SVG, every text
 * escaped, so it shows without JavaScript; `<title>`s give native tooltips. Time runs along the x axis (each
 * API call a mark at its time) when every call has one, else the calls' order; the context window is a line.
 */

/** Most calls drawn with a dot and a tooltip each. */
export const MAX_DOTS = 1500;

const fmt = (n: number): string => n.toLocaleString('en-US');
const kfmt = (n: number): string =>
  n >= 1_000_000 ? `${(n / 1e6).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
const when = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/** An epoch band's label, with its cost when known: `epoch 2 · $1.20`. */
const epochLabel = (ep: Span) => (ep.usd === undefined ? ep.label : `${ep.label} · ${formatUsd(ep.usd)}`);

/** The x position of things on the chart: by time, or by the calls' order. */
function xAxis(series: TimelineSeries, left: number, right: number) {
  const n = Math.max(1, series.calls.length);
  const byIndex = scaleLinear()
    .domain([-0.5, n - 0.5])
    .range([left, right]);
  if (!series.timed) {
    const ticks = byIndex.ticks(Math.min(10, n)).filter((t) => Number.isInteger(t) && t >= 0 && t < n);
    return {
      at: (index: number, _t: number | null) => byIndex(index),
      ticks: ticks.map((t) => ({ x: byIndex(t), label: String(t + 1) })),
      title: 'API call',
    };
  }
  const first = series.calls[0]!.t!;
  const last = series.calls[series.calls.length - 1]!.t!;
  const pad = (last - first) * 0.02;
  const byTime = scaleUtc()
    .domain([first - pad, last + pad])
    .range([left, right]);
  const label = byTime.tickFormat(6);
  return {
    at: (index: number, t: number | null) => (t === null ? byIndex(index) : byTime(t)),
    ticks: byTime.ticks(6).map((d) => ({ x: byTime(d), label: label(d) })),
    title: 'time (UTC) · each dot an API call',
  };
}

/** Draws the timeline as an SVG string (responsive `viewBox`, colours from CSS classes). */
export function timelineSvg(
  series: TimelineSeries,
  opts: { width?: number; height?: number } = {},
): SafeHtml {
  const width = opts.width ?? 960;
  const height = opts.height ?? 300;
  const m = { top: 28, right: 16, bottom: 34, left: 56 };
  const x = xAxis(series, m.left, width - m.right);
  const limit = series.contextLimit;
  const y = scaleLinear()
    .domain([0, Math.max(1000, series.maxContext, limit) * 1.08])
    .nice()
    .range([height - m.bottom, m.top]);
  const parts: string[] = [];
  parts.push(
    `<svg class="timeline" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="tl-title tl-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="tl-title">Context size per API call</title>`,
    `<desc id="tl-desc">${escapeHtml(`${series.calls.length} API calls, ${series.markers.length} compactions, peak context ${fmt(series.maxContext)} tokens${limit > 0 ? ` of a ${kfmt(limit)} context window` : ''}.`)}</desc>`,
  );
  const slot = series.calls.length > 1 ? (width - m.left - m.right) / series.calls.length / 2 : 4;
  series.epochs.forEach((ep, i) => {
    const pad = Math.min(slot, 4);
    const x0 = series.timed ? x.at(ep.from, ep.fromT) - pad : x.at(ep.from - 0.5, null);
    const x1 = series.timed ? x.at(ep.to, ep.toT) + pad : x.at(ep.to + 0.5, null);
    parts.push(
      `<rect class="tl-epoch tl-epoch--${i % 2}" x="${x0.toFixed(1)}" y="${m.top}" width="${Math.max(0, x1 - x0).toFixed(1)}" height="${height - m.top - m.bottom}"><title>${escapeHtml(`${epochLabel(ep)}: calls ${ep.from + 1}–${ep.to + 1}`)}</title></rect>`,
      `<text class="tl-epoch-label" x="${(x0 + 4).toFixed(1)}" y="${m.top + 12}">${escapeHtml(epochLabel(ep))}</text>`,
    );
  });
  series.sidechains.forEach((sc, i) => {
    const x0 = x.at(sc.from, sc.fromT ?? null);
    const x1 = Math.max(x0 + 6, x.at(sc.to, sc.toT ?? null));
    const row = i % 3;
    parts.push(
      `<rect class="tl-side" x="${x0.toFixed(1)}" y="${height - m.bottom + 4 + row * 4}" width="${(x1 - x0).toFixed(1)}" height="3"><title>${escapeHtml(`sub-agent ${sc.label}`)}</title></rect>`,
    );
  });
  for (const t of y.ticks(5)) {
    parts.push(
      `<line class="tl-grid" x1="${m.left}" x2="${width - m.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/>`,
      `<text class="tl-axis" x="${m.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${kfmt(t)}</text>`,
    );
  }
  if (limit > 0)
    parts.push(
      `<g class="tl-limit"><title>${escapeHtml(`Context window: ${fmt(limit)} tokens`)}</title><line x1="${m.left}" x2="${width - m.right}" y1="${y(limit).toFixed(1)}" y2="${y(limit).toFixed(1)}"/><text x="${width - m.right - 4}" y="${(y(limit) - 4).toFixed(1)}" text-anchor="end">context window ${kfmt(limit)}</text></g>`,
    );
  for (const t of x.ticks)
    parts.push(
      `<text class="tl-axis" x="${t.x.toFixed(1)}" y="${height - m.bottom + 22}" text-anchor="middle">${escapeHtml(t.label)}</text>`,
    );
  parts.push(
    `<text class="tl-axis" x="${width - m.right}" y="${height - 2}" text-anchor="end">${x.title}</text>`,
  );
  if (series.calls.length > 0) {
    const px = (p: CallPoint) => x.at(p.index, p.t);
    const a = area<CallPoint>()
      .x(px)
      .y0(y(0))
      .y1((p) => y(p.context));
    const l = line<CallPoint>()
      .x(px)
      .y((p) => y(p.context));
    parts.push(
      `<path class="tl-area" d="${a(series.calls) ?? ''}"/>`,
      `<path class="tl-line" d="${l(series.calls) ?? ''}"/>`,
    );
    const r = series.calls.length > 300 ? 1.5 : 3;
    // Past MAX_DOTS calls only the line is drawn: a dot and tooltip per call would make the page heavy.
    for (const p of series.calls.length <= MAX_DOTS ? series.calls : []) {
      const tip = `Call ${p.index + 1}${p.timestamp ? ` · ${when(p.timestamp)}` : ''}\ncontext ${fmt(p.context)} tokens · output ${fmt(p.output)}`;
      parts.push(
        `<circle class="tl-dot" cx="${px(p).toFixed(1)}" cy="${y(p.context).toFixed(1)}" r="${r}" data-tip="${escapeHtml(tip)}"><title>${escapeHtml(tip)}</title></circle>`,
      );
    }
  }
  for (const rr of series.rereads) {
    const rx = x.at(rr.x, rr.t ?? null);
    const ry = height - m.bottom - 1;
    const tip = `Read again after a compaction: ${rr.file}\n≈${fmt(rr.tokens)} tokens`;
    parts.push(
      `<path class="tl-reread" d="M${rx.toFixed(1)},${(ry - 9).toFixed(1)} l5,9 l-10,0 z" data-tip="${escapeHtml(tip)}"><title>${escapeHtml(tip)}</title></path>`,
    );
  }
  for (const mk of series.markers) {
    const mx = x.at(mk.x, mk.t ?? null).toFixed(1);
    const figures = [
      mk.preTokens !== null ? `${fmt(mk.preTokens)} tokens before` : '',
      mk.postTokens !== null
        ? `${fmt(mk.postTokens)} after${mk.postFromNext ? ' (the next response)' : ''}`
        : '',
    ].filter((f) => f !== '');
    const tokens =
      mk.preTokens !== null && mk.postTokens !== null
        ? `${fmt(mk.preTokens)} → ${fmt(mk.postTokens)} tokens${mk.postFromNext ? ' (next response)' : ''}`
        : figures.join(' · ');
    const tip = `${mk.kind === 'micro' ? 'Microcompaction' : 'Compaction'}${mk.trigger ? ` (${mk.trigger})` : ''}${mk.timestamp ? ` · ${when(mk.timestamp)}` : ''}${tokens ? `\n${tokens}` : ''}`;
    parts.push(
      `<g class="tl-marker tl-marker--${mk.kind}" data-tip="${escapeHtml(tip)}"><title>${escapeHtml(tip)}</title>`,
      `<line x1="${mx}" x2="${mx}" y1="${m.top - 6}" y2="${height - m.bottom}"/>`,
      mk.preTokens !== null ? `<circle cx="${mx}" cy="${y(mk.preTokens).toFixed(1)}" r="4"/>` : '',
      `<text x="${mx}" y="${m.top - 10}" text-anchor="middle">${mk.trigger === 'manual' ? 'manual' : mk.kind === 'micro' ? 'micro' : 'auto'}</text>`,
      '</g>',
    );
  }
  parts.push('</svg>');
  return trusted(parts.join(''));
}
