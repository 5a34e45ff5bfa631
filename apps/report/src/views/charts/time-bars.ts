/**
 * Bars over time for the index's activity and cost charts: the whole range between the first and the last
 * day, never cut. A range of at most `MAX_BARS` days is drawn a bar a day; a longer one a bar a week (weeks
 * start on Monday), then a bar a month, so that a sparse archive spread over years stays readable.
 */

/** Most bars of a chart before days are grouped into weeks, then months. */
const MAX_BARS = 120;
const DAY = 86_400_000;

/** A labelled bar. */
export interface Bar {
  label: string;
  value: number;
  /** Tooltip text. */
  tip: string;
}

/** How long one bar is. */
export type BarUnit = 'day' | 'week' | 'month';

/** Bars with the time each stands for. */
export interface TimeBars {
  unit: BarUnit;
  bars: Bar[];
}

const isDay = (d: string) => /^\d{4}-\d{2}-\d{2}$/.test(d);
const dayAt = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The first day of the bar holding `day` (a Monday for weeks, the 1st for months). */
function bucketStart(day: string, unit: BarUnit): string {
  if (unit === 'day') return day;
  if (unit === 'month') return `${day.slice(0, 7)}-01`;
  const t = Date.parse(`${day}T00:00:00Z`);
  return dayAt(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY);
}

function nextStart(start: string, unit: BarUnit): string {
  const t = Date.parse(`${start}T00:00:00Z`);
  if (unit === 'day') return dayAt(t + DAY);
  if (unit === 'week') return dayAt(t + 7 * DAY);
  const d = new Date(t);
  return dayAt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

/**
 * Sums values per day into bars covering every day from the first to the last.
 *
 * @param values Value per UTC day (`YYYY-MM-DD`); other keys are left out.
 * @param tip The tooltip of a bar from its time (`week of 2026-01-05`), its value and the days it sums.
 * @param maxBars Most bars before a longer unit is used.
 */
export function timeBars(
  values: ReadonlyMap<string, number>,
  tip: (label: string, value: number, days: string[]) => string,
  maxBars = MAX_BARS,
): TimeBars {
  const days = [...values.keys()].filter(isDay).sort();
  if (days.length === 0) return { unit: 'day', bars: [] };
  const first = days[0]!;
  const last = days[days.length - 1]!;
  const span = (Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY + 1;
  const unit: BarUnit = span <= maxBars ? 'day' : span <= maxBars * 7 ? 'week' : 'month';
  const sums = new Map<string, { value: number; days: string[] }>();
  for (const day of days) {
    const key = bucketStart(day, unit);
    const cur = sums.get(key) ?? { value: 0, days: [] };
    cur.value += values.get(day) ?? 0;
    cur.days.push(day);
    sums.set(key, cur);
  }
  const bars: Bar[] = [];
  for (let at = bucketStart(first, unit); at <= last; at = nextStart(at, unit)) {
    const label = unit === 'month' ? at.slice(0, 7) : at;
    const cur = sums.get(at);
    bars.push({
      label,
      value: cur?.value ?? 0,
      tip: tip(barTime(label, unit), cur?.value ?? 0, cur?.days ?? []),
    });
  }
  return { unit, bars };
}

/** How a bar's time is named in a tooltip: `2026-01-05`, `week of 2026-01-05`, `2026-01`. */
function barTime(label: string, unit: BarUnit): string {
  return unit === 'week' ? `week of ${label}` : label;
}
