import type { RereadsAfterCompaction } from '@cctrail/core';
import { area, line, max, scaleLinear } from 'd3';
import { formatUsd } from './cost-view.js';
import { escapeHtml, type SafeHtml, trusted } from './html.js';
import type { Entry, Session } from './model.js';

/**
 * The compaction timeline: context size of every API call of the main conversation (input + cache read +
 * cache creation), compaction markers with their trigger and tokens before/after, epoch bands and sidechain
 * spans. `timelineSeries` computes the data; `timelineSvg` draws it at build time (d3 scales and shapes,
 * string SVG, every text escaped) so it shows without JavaScript; `<title>`s give native tooltips.
 */

/** One API call. */
interface CallPoint {
  /** 0-based position among the calls. */
  index: number;
  uuid: string;
  timestamp: string | null;
  /** input + cache read + cache creation. */
  context: number;
  output: number;
  epoch: number;
}

/** A compaction placed between calls. */
interface CompactionMarker {
  uuid: string | null;
  /** Position on the call axis (between the calls before and after it). */
  x: number;
  kind: 'full' | 'micro';
  trigger: 'auto' | 'manual' | null;
  preTokens: number | null;
  postTokens: number | null;
  timestamp: string | null;
}

/** A stretch of calls: an epoch or a sidechain's run. */
interface Span {
  label: string;
  from: number;
  to: number;
  /** What an epoch's API responses cost, when the archive stage priced the session. */
  usd?: number | undefined;
}

/** Everything the timeline draws. */
export interface TimelineSeries {
  calls: CallPoint[];
  markers: CompactionMarker[];
  epochs: Span[];
  sidechains: Span[];
  /** Files read again after a compaction, at the call that read them. */
  rereads: { x: number; file: string; tokens: number }[];
  maxContext: number;
}

function contextOf(e: Entry): number {
  const u = e.usage;
  return u ? u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens : 0;
}

/**
 * Computes the series of the main conversation's active path. One point per API response: core's
 * `Session.responses` when present (usage counted once per response), else the assistant lines grouped by
 * `message.id`.
 */
export function timelineSeries(
  session: Session,
  rereads: readonly RereadsAfterCompaction[] = [],
): TimelineSeries {
  const calls: CallPoint[] = [];
  /** Call index of every assistant entry, to place re-reads. */
  const callOfEntry = new Map<string, number>();
  const markers: CompactionMarker[] = [];
  const byUuid = new Map(session.entries.map((e, i) => [e.uuid, { e, i }]));
  const positions: number[] = [];
  const responses = Array.isArray(session.responses) ? session.responses : null;
  if (responses) {
    const main = responses
      .filter((r) => r.sidechain === null)
      .map((r) => ({ r, first: byUuid.get(r.entries[0] ?? '') }))
      .filter((x) => x.first?.e.active === true)
      .sort((a, b) => (a.first?.i ?? 0) - (b.first?.i ?? 0));
    for (const { r, first } of main) {
      const u = r.usage;
      for (const uuid of r.entries) callOfEntry.set(uuid, calls.length);
      positions.push(first?.i ?? 0);
      calls.push({
        index: calls.length,
        uuid: first?.e.uuid ?? '',
        timestamp: r.timestamp ?? first?.e.timestamp ?? null,
        context: u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens,
        output: u.outputTokens,
        epoch: r.epoch,
      });
    }
  } else {
    const byMessage = new Map<string, CallPoint>();
    session.entries.forEach((e, i) => {
      if (e.sidechain !== null || !e.active || e.actor !== 'claude' || !e.usage) return;
      const id = e.message?.id ?? null;
      const existing = id ? byMessage.get(id) : undefined;
      if (existing) {
        callOfEntry.set(e.uuid, existing.index);
        existing.context = Math.max(existing.context, contextOf(e));
        existing.output = Math.max(existing.output, e.usage.outputTokens);
        return;
      }
      const point: CallPoint = {
        index: calls.length,
        uuid: e.uuid,
        timestamp: e.timestamp,
        context: contextOf(e),
        output: e.usage.outputTokens,
        epoch: e.epoch,
      };
      callOfEntry.set(e.uuid, point.index);
      calls.push(point);
      positions.push(i);
      if (id) byMessage.set(id, point);
    });
  }
  for (const c of session.compactions) {
    if (c.sidechain !== null || c.uuid === null) continue;
    const at = byUuid.get(c.uuid);
    if (!at) continue;
    let before = 0;
    while (before < positions.length && (positions[before] ?? 0) < at.i) before++;
    markers.push({
      uuid: c.uuid,
      x: before - 0.5,
      kind: c.kind,
      trigger: c.trigger,
      preTokens: c.preTokens,
      postTokens: c.postTokens,
      timestamp: c.timestamp,
    });
  }
  // Compactions written without a uuid (seed records) are placed by time.
  for (const c of session.compactions) {
    if ((c.uuid !== null && byUuid.has(c.uuid)) || c.sidechain !== null || !c.timestamp) continue;
    const t = Date.parse(c.timestamp);
    const after = calls.findIndex((p) => p.timestamp !== null && Date.parse(p.timestamp) >= t);
    markers.push({
      uuid: null,
      x: (after < 0 ? calls.length : after) - 0.5,
      kind: c.kind,
      trigger: c.trigger,
      preTokens: c.preTokens,
      postTokens: c.postTokens,
      timestamp: c.timestamp,
    });
  }
  markers.sort((a, b) => a.x - b.x);
  const epochs: Span[] = [];
  for (const p of calls) {
    const last = epochs[epochs.length - 1];
    if (last && last.label === `epoch ${p.epoch}`) last.to = p.index;
    else
      epochs.push({ label: `epoch ${p.epoch}`, from: p.index, to: p.index, usd: epochUsd(session, p.epoch) });
  }
  const sidechains: Span[] = [];
  const times = calls.map((p) => (p.timestamp ? Date.parse(p.timestamp) : Number.NaN));
  for (const sc of session.sidechains) {
    if (sc.parentSidechain !== null || !sc.startedAt) continue;
    const start = Date.parse(sc.startedAt);
    const end = sc.endedAt ? Date.parse(sc.endedAt) : start;
    let from = -1;
    let to = -1;
    times.forEach((t, i) => {
      if (t >= start && from < 0) from = i;
      if (t <= end) to = i;
    });
    if (from < 0) from = calls.length - 1;
    sidechains.push({
      label: sc.agentType,
      from: Math.max(0, from - 0.5),
      to: Math.max(from - 0.5, Math.min(to + 0.5, calls.length - 1)),
    });
  }
  const maxContext = Math.max(max(calls, (p) => p.context) ?? 0, max(markers, (m) => m.preTokens ?? 0) ?? 0);
  const rereadPoints = rereads.flatMap((r) =>
    r.files.flatMap((f) => {
      const x = callOfEntry.get(f.firstUuid);
      return x === undefined ? [] : [{ x, file: f.file, tokens: f.tokens }];
    }),
  );
  return { calls, markers, epochs, sidechains, rereads: rereadPoints, maxContext };
}

/** Most calls drawn with a dot and a tooltip each. */
export const MAX_DOTS = 1500;

const fmt = (n: number): string => n.toLocaleString('en-US');
const kfmt = (n: number): string =>
  n >= 1_000_000 ? `${(n / 1e6).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);

/** Draws the timeline as an SVG string (responsive `viewBox`, colours from CSS classes). */
export function timelineSvg(
  series: TimelineSeries,
  opts: { width?: number; height?: number } = {},
): SafeHtml {
  const width = opts.width ?? 960;
  const height = opts.height ?? 300;
  const m = { top: 28, right: 16, bottom: 34, left: 56 };
  const n = Math.max(1, series.calls.length);
  const x = scaleLinear()
    .domain([-0.5, n - 0.5])
    .range([m.left, width - m.right]);
  const y = scaleLinear()
    .domain([0, Math.max(1000, series.maxContext) * 1.08])
    .nice()
    .range([height - m.bottom, m.top]);
  const parts: string[] = [];
  parts.push(
    `<svg class="timeline" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="tl-title tl-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="tl-title">Context size per API call</title>`,
    `<desc id="tl-desc">${escapeHtml(`${series.calls.length} API calls, ${series.markers.length} compactions, peak context ${fmt(series.maxContext)} tokens.`)}</desc>`,
  );
  series.epochs.forEach((ep, i) => {
    const x0 = x(ep.from - 0.5);
    const x1 = x(ep.to + 0.5);
    parts.push(
      `<rect class="tl-epoch tl-epoch--${i % 2}" x="${x0.toFixed(1)}" y="${m.top}" width="${Math.max(0, x1 - x0).toFixed(1)}" height="${height - m.top - m.bottom}"><title>${escapeHtml(`${epochLabel(ep)}: calls ${ep.from + 1}–${ep.to + 1}`)}</title></rect>`,
      `<text class="tl-epoch-label" x="${(x0 + 4).toFixed(1)}" y="${m.top + 12}">${escapeHtml(epochLabel(ep))}</text>`,
    );
  });
  series.sidechains.forEach((sc, i) => {
    const x0 = x(sc.from);
    const x1 = Math.max(x0 + Math.max(6, (x(1) - x(0)) * 0.4), x(sc.to));
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
  for (const t of x.ticks(Math.min(10, n)).filter((t) => Number.isInteger(t) && t >= 0 && t < n)) {
    parts.push(
      `<text class="tl-axis" x="${x(t).toFixed(1)}" y="${height - m.bottom + 22}" text-anchor="middle">${t + 1}</text>`,
    );
  }
  parts.push(
    `<text class="tl-axis" x="${width - m.right}" y="${height - 2}" text-anchor="end">API call</text>`,
  );
  if (series.calls.length > 0) {
    const a = area<CallPoint>()
      .x((p) => x(p.index))
      .y0(y(0))
      .y1((p) => y(p.context));
    const l = line<CallPoint>()
      .x((p) => x(p.index))
      .y((p) => y(p.context));
    parts.push(
      `<path class="tl-area" d="${a(series.calls) ?? ''}"/>`,
      `<path class="tl-line" d="${l(series.calls) ?? ''}"/>`,
    );
    const r = series.calls.length > 300 ? 1.5 : 3;
    // Past MAX_DOTS calls only the line is drawn: a dot and tooltip per call would make the page heavy.
    for (const p of series.calls.length <= MAX_DOTS ? series.calls : []) {
      const tip = `Call ${p.index + 1}${p.timestamp ? ` · ${p.timestamp.replace('T', ' ').slice(0, 19)}` : ''}\ncontext ${fmt(p.context)} tokens · output ${fmt(p.output)}`;
      parts.push(
        `<circle class="tl-dot" cx="${x(p.index).toFixed(1)}" cy="${y(p.context).toFixed(1)}" r="${r}" data-tip="${escapeHtml(tip)}"><title>${escapeHtml(tip)}</title></circle>`,
      );
    }
  }
  for (const rr of series.rereads) {
    const rx = x(rr.x);
    const ry = height - m.bottom - 1;
    const tip = `Read again after a compaction: ${rr.file}\n≈${fmt(rr.tokens)} tokens`;
    parts.push(
      `<path class="tl-reread" d="M${rx.toFixed(1)},${(ry - 9).toFixed(1)} l5,9 l-10,0 z" data-tip="${escapeHtml(tip)}"><title>${escapeHtml(tip)}</title></path>`,
    );
  }
  for (const mk of series.markers) {
    const mx = x(mk.x).toFixed(1);
    const tip = `${mk.kind === 'micro' ? 'Microcompaction' : 'Compaction'}${mk.trigger ? ` (${mk.trigger})` : ''}${mk.timestamp ? ` · ${mk.timestamp.replace('T', ' ').slice(0, 19)}` : ''}\n${mk.preTokens !== null ? fmt(mk.preTokens) : '?'} → ${mk.postTokens !== null ? fmt(mk.postTokens) : '?'} tokens`;
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

const epochUsd = (session: Session, epoch: number) => session.cost?.byEpoch[String(epoch)]?.usd;
/** An epoch band's label, with its cost when known: `epoch 2 · $1.20`. */
const epochLabel = (ep: Span) => (ep.usd === undefined ? ep.label : `${ep.label} · ${formatUsd(ep.usd)}`);
