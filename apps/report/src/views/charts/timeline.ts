import { contextTokens, type RereadsAfterCompaction } from '@cctrail/core';
import { max } from 'd3-array';
import type { Compaction, Session } from '../model.js';
import { SYNTHETIC_MODEL, tokensAfterCompactions } from './compaction-after.js';

/**
 * The compaction timeline: context size of every API call of the main conversation (input + cache read +
 * cache creation), compaction markers with their trigger and tokens before/after, epoch bands and sidechain
 * spans, over time. `timelineSeries` computes the data; `timelineSvg` (`timeline-svg.ts`) draws it.
 */

/** One API call. */
export interface CallPoint {
  /** 0-based position among the calls. */
  index: number;
  uuid: string;
  timestamp: string | null;
  /** `timestamp` in ms since the epoch, null without one. */
  t: number | null;
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
  /** Its time in ms (its timestamp, else between the calls around it), null when unknown. */
  t: number | null;
  kind: 'full' | 'micro';
  trigger: 'auto' | 'manual' | null;
  preTokens: number | null;
  /** Tokens after it: as recorded, else the next response's context (`postFromNext`), else null. */
  postTokens: number | null;
  postFromNext: boolean;
  timestamp: string | null;
}

/** A stretch of calls: an epoch or a sidechain's run. */
export interface Span {
  label: string;
  from: number;
  to: number;
  /** Start and end in ms, null when unknown. */
  fromT: number | null;
  toT: number | null;
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
  rereads: { x: number; t: number | null; file: string; tokens: number }[];
  maxContext: number;
  /** The context window the calls ran against: 200k tokens, or 1M once a call went past 200k. */
  contextLimit: number;
  /** True when every call has a time and they span some: the x axis is then time, not the call's position. */
  timed: boolean;
}

/** The standard context window, and the long one (1M) some models offer. */
const CONTEXT_WINDOWS = [200_000, 1_000_000];

const msOf = (iso: string | null | undefined): number | null => {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(t) ? t : null;
};

/**
 * Computes the series of the main conversation's active path. One point per API response of core's
 * `Session.responses` (usage counted once per response). Responses Claude Code made up without calling the API
 * (`<synthetic>`) are not calls.
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
  const main = session.responses
    .filter((r) => r.sidechain === null && r.model !== SYNTHETIC_MODEL)
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
      t: msOf(r.timestamp ?? first?.e.timestamp),
      context: contextTokens(u),
      output: u.outputTokens,
      epoch: r.epoch,
    });
  }
  const after = tokensAfterCompactions(session);
  for (const c of session.compactions) {
    if (c.sidechain !== null || c.uuid === null) continue;
    const at = byUuid.get(c.uuid);
    if (!at) continue;
    let before = 0;
    while (before < positions.length && (positions[before] ?? 0) < at.i) before++;
    markers.push(marker(c, before - 0.5, after.get(c.uuid)));
  }
  // Compactions written without a uuid (seed records) are placed by time.
  for (const c of session.compactions) {
    if ((c.uuid !== null && byUuid.has(c.uuid)) || c.sidechain !== null || !c.timestamp) continue;
    const t = Date.parse(c.timestamp);
    const next = calls.findIndex((p) => p.timestamp !== null && Date.parse(p.timestamp) >= t);
    markers.push(marker(c, (next < 0 ? calls.length : next) - 0.5));
  }
  markers.sort((a, b) => a.x - b.x);
  for (const mk of markers) mk.t ??= between(calls, mk.x);
  const epochs: Span[] = [];
  for (const p of calls) {
    const last = epochs[epochs.length - 1];
    if (last && last.label === `epoch ${p.epoch + 1}`) {
      last.to = p.index;
      last.toT = p.t;
    } else
      epochs.push({
        label: `epoch ${p.epoch + 1}`,
        from: p.index,
        to: p.index,
        fromT: p.t,
        toT: p.t,
        usd: epochUsd(session, p.epoch),
      });
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
      fromT: start,
      toT: end,
    });
  }
  const maxContext = Math.max(max(calls, (p) => p.context) ?? 0, max(markers, (m) => m.preTokens ?? 0) ?? 0);
  const rereadPoints = rereads.flatMap((r) =>
    r.files.flatMap((f) => {
      const x = callOfEntry.get(f.firstUuid);
      return x === undefined ? [] : [{ x, t: calls[x]?.t ?? null, file: f.file, tokens: f.tokens }];
    }),
  );
  const timed =
    calls.length > 1 && calls.every((p) => p.t !== null) && calls[0]!.t! < calls[calls.length - 1]!.t!;
  const contextLimit = CONTEXT_WINDOWS.find((w) => w >= maxContext) ?? maxContext;
  return { calls, markers, epochs, sidechains, rereads: rereadPoints, maxContext, contextLimit, timed };
}

function marker(c: Compaction, x: number, after?: number): CompactionMarker {
  return {
    uuid: c.uuid,
    x,
    t: msOf(c.timestamp),
    kind: c.kind,
    trigger: c.trigger,
    preTokens: c.preTokens,
    postTokens: c.postTokens ?? after ?? null,
    postFromNext: c.postTokens === null && after !== undefined,
    timestamp: c.timestamp,
  };
}

/** The time half-way between the calls either side of position `x` (null when one has no time). */
function between(calls: readonly CallPoint[], x: number): number | null {
  const before = calls[Math.floor(x)]?.t ?? null;
  const next = calls[Math.ceil(x)]?.t ?? null;
  if (before === null) return next;
  return next === null ? before : (before + next) / 2;
}

const epochUsd = (session: Session, epoch: number) => session.cost?.byEpoch[String(epoch)]?.usd;
