/**
 * One copy of each repeated value. `JSON.parse` makes a fresh string of every value on every line, so a session's
 * `sessionId`, `cwd`, `version`, branch and model would be held once per entry; entries keep the first copy seen
 * instead. Only for fields whose values repeat from line to line (never uuids, timestamps or text).
 */

/** Longer values are kept as they are (hashing them costs more than their copies). */
const MAX_LENGTH = 256;
/** Past this many values the table starts again (a hostile file could write a different value on every line). */
const MAX_VALUES = 4096;
const seen = new Map<string, string>();
/**
 * The copy returned last for each length (modulo 64): the fields shared here repeat from line to line and mostly
 * differ in length, so a value is mostly the one returned last for its length, which a comparison finds without
 * hashing the value.
 */
const recent: (string | undefined)[] = new Array(64).fill(undefined);

/**
 * A kept copy of a string equal to `value` (the value itself when it is new, long, or not a string).
 *
 * @param value A field's value as parsed.
 */
export function shared<T>(value: T): T {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return value;
  const slot = value.length & 63;
  const last = recent[slot];
  if (last === value) return last as T;
  let known = seen.get(value);
  if (known === undefined) {
    if (seen.size >= MAX_VALUES) seen.clear();
    seen.set(value, value);
    known = value;
  }
  recent[slot] = known;
  return known as T;
}
