import { totalTokens } from '@cctrail/core';
import type { Conversation } from '@cctrail/core/archive';
import { scaleUtc } from 'd3-scale';
import { escapeHtml, type SafeHtml, trusted } from '../html/html.js';

/**
 * The joined timeline of a conversation's page, drawn at build time as the session timeline is (`timeline-svg.ts`:
 * d3 scales, string SVG, every text escaped, native `<title>` tooltips, no script): time along the x axis, one
 * lane per file from its first to its last entry, the joined epochs as bands with their tokens, and a line at
 * each compaction. It is drawn from the archive's index alone (the conversation's files are not opened), so it
 * shows where the files and epochs lie in time, not each API call's context.
 */

/** A file's lane: its label and link target. */
export interface ChartFile {
  id: string;
  name: string;
}

const msOf = (iso: string | null | undefined): number | null => {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(t) ? t : null;
};
const kfmt = (n: number): string =>
  n >= 1_000_000 ? `${(n / 1e6).toFixed(1)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
const when = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/**
 * Draws a conversation's joined timeline, or null when none of its files has a time.
 *
 * @param c The conversation.
 * @param files Its files in time order, with the names its page gives them.
 */
export function conversationChartSvg(c: Conversation, files: readonly ChartFile[]): SafeHtml | null {
  const member = new Map(c.sessions.map((m) => [m.id, m]));
  const spans = files.map((f) => {
    const m = member.get(f.id);
    const from = msOf(m?.startedAt);
    return { f, from, to: msOf(m?.endedAt) ?? from };
  });
  const times = spans.flatMap((s) => [s.from, s.to]).filter((t): t is number => t !== null);
  if (times.length === 0) return null;
  const lane = 22;
  const width = 960;
  const m = { top: 30, right: 16, bottom: 34, left: 16 };
  const height = m.top + spans.length * lane + m.bottom;
  const first = Math.min(...times);
  const last = Math.max(...times, first + 60_000);
  const pad = (last - first) * 0.02;
  const x = scaleUtc()
    .domain([first - pad, last + pad])
    .range([m.left, width - m.right]);
  const bottom = height - m.bottom;
  const parts: string[] = [
    `<svg class="timeline conversation-chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="cc-title cc-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="cc-title">The conversation's files and epochs over time</title>`,
    `<desc id="cc-desc">${escapeHtml(`${files.length} files, ${c.totals.compactions} compactions, ${c.totals.epochs} epochs.`)}</desc>`,
  ];
  const epochs = c.epochs ?? [];
  epochs.forEach((e, i) => {
    const from = i === 0 ? first : (msOf(e.timestamp) ?? null);
    const next = epochs[i + 1];
    const to = next ? (msOf(next.timestamp) ?? null) : last;
    if (from === null || to === null) return;
    const x0 = x(from);
    const x1 = Math.max(x0 + 2, x(to));
    const label = `epoch ${i + 1} · ${kfmt(totalTokens(e.usage))} tokens`;
    parts.push(
      `<rect class="tl-epoch tl-epoch--${i % 2}" x="${x0.toFixed(1)}" y="${m.top}" width="${(x1 - x0).toFixed(1)}" height="${bottom - m.top}"><title>${escapeHtml(`${label} · ${e.entries} entries`)}</title></rect>`,
      `<text class="tl-epoch-label" x="${(x0 + 4).toFixed(1)}" y="${m.top - 4}">${escapeHtml(label)}</text>`,
    );
  });
  spans.forEach((s, i) => {
    if (s.from === null || s.to === null) return;
    const x0 = x(s.from);
    const x1 = Math.max(x0 + 4, x(s.to));
    const y = m.top + i * lane + 4;
    const tip = `${s.f.name}\n${when(new Date(s.from).toISOString())} → ${when(new Date(s.to).toISOString())}`;
    parts.push(
      `<g class="cc-file" data-session="${escapeHtml(s.f.id)}"><title>${escapeHtml(tip)}</title>`,
      `<rect x="${x0.toFixed(1)}" y="${y}" width="${(x1 - x0).toFixed(1)}" height="${lane - 8}" rx="3"/>`,
      `<text x="${Math.min(x0 + 4, width - m.right - 200).toFixed(1)}" y="${y + lane - 12}">${escapeHtml(s.f.name)}</text>`,
      '</g>',
    );
  });
  const compactions: { timestamp: string | null; trigger: string | null }[] =
    epochs.length > 0 ? epochs.slice(1) : c.sessions.flatMap((s) => s.compactions);
  for (const e of compactions) {
    const t = msOf(e.timestamp);
    if (t === null) continue;
    const cx = x(t).toFixed(1);
    const tip = `Compaction${e.trigger ? ` (${e.trigger})` : ''} · ${when(e.timestamp ?? '')}`;
    parts.push(
      `<g class="tl-marker tl-marker--full"><title>${escapeHtml(tip)}</title><line x1="${cx}" x2="${cx}" y1="${m.top}" y2="${bottom}"/></g>`,
    );
  }
  const label = x.tickFormat(6);
  for (const d of x.ticks(6))
    parts.push(
      `<text class="tl-axis" x="${x(d).toFixed(1)}" y="${bottom + 18}" text-anchor="middle">${escapeHtml(label(d))}</text>`,
    );
  parts.push(
    `<text class="tl-axis" x="${width - m.right}" y="${height - 2}" text-anchor="end">time (UTC)</text>`,
    '</svg>',
  );
  return trusted(parts.join(''));
}
