/**
 * What Claude Code writes: one JSON object per line. This module turns a line of text into raw records,
 * loosely, recovering records glued together on one line. Nothing here interprets a record.
 */

/** A JSON object as written on a line. */
export type RawRecord = Record<string, unknown>;

/** The outcome of parsing one line. */
export type ParsedLine =
  | { kind: 'blank' }
  | { kind: 'records'; records: RawRecord[]; glued: boolean }
  | { kind: 'not-an-object' }
  | { kind: 'invalid' };

/**
 * Parses one line. Two or more records written without a newline between them (`…}{"type":…`) are split
 * and returned in order with `glued: true`.
 */
export function parseLine(text: string): ParsedLine {
  if (text.trim() === '') return { kind: 'blank' };
  const whole = tryParse(text);
  if (whole.ok) {
    return isObject(whole.value)
      ? { kind: 'records', records: [whole.value], glued: false }
      : { kind: 'not-an-object' };
  }
  const parts = splitGlued(text);
  return parts ? { kind: 'records', records: parts, glued: true } : { kind: 'invalid' };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isObject(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Splits `{…}{…}` at the boundaries where each left part parses as an object. */
function splitGlued(text: string): RawRecord[] | null {
  const records: RawRecord[] = [];
  let rest = text;
  while (rest.length > 0) {
    const whole = tryParse(rest);
    if (whole.ok) {
      if (!isObject(whole.value)) return null;
      records.push(whole.value);
      return records.length > 1 ? records : null;
    }
    let found = false;
    let from = 0;
    for (;;) {
      const at = rest.indexOf('}{', from);
      if (at === -1) break;
      const left = tryParse(rest.slice(0, at + 1));
      if (left.ok && isObject(left.value)) {
        records.push(left.value);
        rest = rest.slice(at + 1);
        found = true;
        break;
      }
      from = at + 1;
    }
    if (!found) return null;
  }
  return records.length > 1 ? records : null;
}
