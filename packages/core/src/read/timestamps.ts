/** Timestamps as written: an ISO 8601 date and time, or nothing cctrail trusts. */

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The value when it is an ISO 8601 date and time that names a real instant (`2026-02-10T09:14:04.820Z`), else null.
 *
 * @param value A `timestamp` as written.
 */
export function timestampOrNull(value: unknown): string | null {
  return typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
}
