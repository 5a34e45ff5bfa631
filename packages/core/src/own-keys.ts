/**
 * Records keyed by strings from the input (model names, project folders, agent ids). A plain object looks up
 * `constructor`, `toString` or `__proto__` on its prototype, and assigning `__proto__` replaces the prototype
 * instead of adding a key: these two helpers read and write own properties only, so any name is a key.
 */

/**
 * The value of `record`'s own property `key`, or undefined (never one inherited from `Object.prototype`).
 *
 * @param record A record keyed by input strings.
 * @param key Any string.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets `record`'s own property `key` to `value` (also for `__proto__`), and returns `value`.
 *
 * @param record A record keyed by input strings.
 * @param key Any string.
 * @param value The value.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): T {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
  return value;
}
