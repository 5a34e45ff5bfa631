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

/**
 * Splits `{…}{…}` at its top-level boundaries: a `}` that closes depth 0 (outside strings) directly followed by
 * `{`. One scan, then one parse per part, so a long line that does not parse costs linear time. A prefix that
 * parses as an object can only return to depth 0 at its own end, so these are exactly the boundaries where the
 * left part parses; a part that does not parse makes the whole line invalid.
 */
function splitGlued(text: string): RawRecord[] | null {
  const records: RawRecord[] = [];
  let start = 0;
  for (const end of topLevelEnds(text)) {
    const part = tryParse(text.slice(start, end));
    if (!part.ok || !isObject(part.value)) return null;
    records.push(part.value);
    start = end;
  }
  return records.length > 1 ? records : null;
}

/** The offsets where each glued part ends (the last one is the text's length). */
function topLevelEnds(text: string): number[] {
  const ends: number[] = [];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0 && c === 0x7d && text.charCodeAt(i + 1) === 0x7b) ends.push(i + 1);
    }
  }
  ends.push(text.length);
  return ends;
}
