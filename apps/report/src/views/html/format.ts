/** Numbers, counts and times as the pages print them. */

/** A figure of a page header. */
export interface Figure {
  label: string;
  value: string;
  /** A smaller second line (e.g. the time of a date). */
  sub?: string;
  title?: string;
}

/** `1 session`, `2 sessions`: a count with its noun (plural by adding `s` unless given). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** `1,234`. */
export function num(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '—' : n.toLocaleString('en-US');
}

/** `1.2M`, `34k`. */
export function compact(n: number): string {
  if (!Number.isFinite(n)) return '—';
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return n.toLocaleString('en-US');
}

/** `2026-01-02 13:45` (UTC), or an em dash for no time or text that is not an ISO 8601 time. */
export function when(iso: string | null): string {
  return iso && ISO_TIME.test(iso) ? iso.replace('T', ' ').slice(0, 16) : '—';
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** `45 s`, `12 min`, `1.5 h`, `2.0 d`: a duration in one short unit. */
export function durationShort(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} d`;
}

/** Formats milliseconds as `850 ms`, `12.3 s`, `4 min 5 s` or `2 h 3 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}
