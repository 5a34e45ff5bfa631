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
 * The first copy seen of a string equal to `value` (the value itself when it is new, long, or not a string).
 *
 * @param value A field's value as parsed.
 */
export function shared<T>(value: T): T {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return value;
  const known = seen.get(value);
  if (known !== undefined) return known as T;
  if (seen.size >= MAX_VALUES) seen.clear();
  seen.set(value, value);
  return value;
}
