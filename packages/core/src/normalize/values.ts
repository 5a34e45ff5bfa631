/** Small readers of loosely typed JSON values. */
import type { RawRecord } from '../read/records.js';

/** The value when it is a string, else null. */
export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Whether a value is a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
