/**
 * Timestamps as written: an ISO 8601 date and time, or nothing cctrail trusts. Most are UTC times of day as Claude
 * Code writes them (`2026-02-10T09:14:04.820Z`); for those only the date decides whether the timestamp names an
 * instant and which UTC day it falls on, so both are looked up by the date instead of parsing every timestamp.
 */

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** A UTC time of day that cannot carry into another day (hours 00–23, minutes and seconds 00–59). */
const PLAIN_UTC = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,3})?)?Z$/;
/** Dates (`YYYY-MM-DD` as written) and the UTC day they name (`2026-02-30` is March 2nd), null for none. */
const DAYS = new Map<string, string | null>();
/** Past this many dates the lookup starts again (a hostile file could write a different date on every line). */
const MAX_DAYS = 4096;
// The date looked up last and its day: a session's timestamps come in order, mostly on the same date.
let lastDate = '';
let lastDay: string | null = null;
// The value checked last and its result: a record's timestamp is checked, then normalized.
let lastValue: unknown;
let lastResult: string | null = null;

/**
 * The value when it is an ISO 8601 date and time that names a real instant (`2026-02-10T09:14:04.820Z`), else null.
 *
 * @param value A `timestamp` as written.
 */
export function timestampOrNull(value: unknown): string | null {
  if (value === lastValue) return lastResult;
  lastValue = value;
  if (typeof value !== 'string') lastResult = null;
  else if (PLAIN_UTC.test(value)) lastResult = dayOfDate(value) === null ? null : value;
  else lastResult = ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
  return lastResult;
}

/**
 * The UTC day of a timestamp (`YYYY-MM-DD`), or null when it names no instant.
 *
 * @param timestamp A timestamp as written.
 */
export function utcDayOf(timestamp: string): string | null {
  if (PLAIN_UTC.test(timestamp)) return dayOfDate(timestamp);
  const time = Date.parse(timestamp);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

/** The date whose midnight was looked up last by `instantOf`, and that instant. */
let instantDate = '';
let instantMidnight = Number.NaN;

/**
 * The instant a timestamp names, in milliseconds since the epoch (NaN when none): `Date.parse(timestamp)`, read
 * off the digits for the times Claude Code writes (`2026-02-10T09:14:04.820Z`, the midnight of each date parsed
 * once).
 *
 * @param timestamp A timestamp as written.
 */
export function instantOf(timestamp: string): number {
  if (timestamp.length !== 24 || !PLAIN_UTC.test(timestamp)) return Date.parse(timestamp);
  if (instantDate === '' || !timestamp.startsWith(instantDate)) {
    instantDate = timestamp.slice(0, 10);
    instantMidnight = Date.parse(`${instantDate}T00:00:00Z`);
  }
  if (Number.isNaN(instantMidnight)) return Date.parse(timestamp);
  const hours = digitAt(timestamp, 11) * 10 + digitAt(timestamp, 12);
  const minutes = digitAt(timestamp, 14) * 10 + digitAt(timestamp, 15);
  const seconds = digitAt(timestamp, 17) * 10 + digitAt(timestamp, 18);
  const ms = digitAt(timestamp, 20) * 100 + digitAt(timestamp, 21) * 10 + digitAt(timestamp, 22);
  return instantMidnight + ((hours * 60 + minutes) * 60 + seconds) * 1000 + ms;
}

/**
 * The digit at `at` of a timestamp. A function of the module, not a closure made per call: the CLI's bundle names
 * every function it makes (esbuild's `keepNames`), which costs a property definition per closure.
 */
function digitAt(timestamp: string, at: number): number {
  return timestamp.charCodeAt(at) - 48;
}

/** The UTC day that the date of a plain UTC timestamp names at midnight UTC, or null when it names none. */
function dayOfDate(timestamp: string): string | null {
  if (lastDate !== '' && timestamp.startsWith(lastDate)) return lastDay;
  const date = timestamp.slice(0, 10);
  let day = DAYS.get(date);
  if (day === undefined) {
    const time = Date.parse(`${date}T00:00:00Z`);
    day = Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
    if (DAYS.size >= MAX_DAYS) DAYS.clear();
    DAYS.set(date, day);
  }
  lastDate = date;
  lastDay = day;
  return day;
}
