/** Session-wide facts read off the entries: the time span, distinct values, the most common value. */
import type { Entry } from '../model/entry.js';
import { instantOf } from '../read/timestamps.js';

/**
 * The earliest and latest timestamps of the entries, as ISO strings (null when none parses).
 *
 * @param entries A session's entries.
 */
export function timeSpan(entries: readonly Entry[]): { start: string | null; end: string | null } {
  let start: number | null = null;
  let end: number | null = null;
  for (const entry of entries) {
    if (!entry.timestamp) continue;
    const t = instantOf(entry.timestamp);
    if (!Number.isFinite(t)) continue;
    if (start === null || t < start) start = t;
    if (end === null || t > end) end = t;
  }
  return {
    start: start === null ? null : new Date(start).toISOString(),
    end: end === null ? null : new Date(end).toISOString(),
  };
}

/**
 * The distinct non-null values, in first-seen order.
 *
 * @param values Any strings or nulls.
 */
export function distinct(values: readonly (string | null)[]): string[] {
  const out = new Set<string>();
  for (const v of values) if (v !== null) out.add(v);
  return [...out];
}

/**
 * The most frequent non-null value (the first to reach the top count), or null.
 *
 * @param values Any strings or nulls.
 */
export function mostCommon(values: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  let bestCount = 0;
  for (const v of values) {
    if (v === null) continue;
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (n > bestCount) [best, bestCount] = [v, n];
  }
  return best;
}
