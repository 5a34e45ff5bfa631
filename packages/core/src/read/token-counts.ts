/**
 * The range of a token count: a non-negative integer no larger than `Number.MAX_SAFE_INTEGER`. A value outside
 * it (negative, fractional, 1e308, a string) is not data: it counts as 0 and the line gets a diagnostic, so sums
 * stay finite and exact enough to be written as JSON numbers.
 */

/** The token fields of `message.usage` as written (snake_case), and of its `cache_creation` object. */
const USAGE_FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
] as const;
const CACHE_FIELDS = ['ephemeral_5m_input_tokens', 'ephemeral_1h_input_tokens'] as const;

/**
 * Whether a value is a token count cctrail adds up.
 *
 * @param value A value as written.
 */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The token fields of a record's `message.usage` that are present but out of range, as `usage.<field>=<value>`.
 *
 * @param record A record as written.
 */
export function tokenCountsOutOfRange(record: Record<string, unknown>): readonly string[] {
  const message = record.message;
  if (typeof message !== 'object' || message === null) return NONE;
  const usage = (message as Record<string, unknown>).usage;
  if (typeof usage !== 'object' || usage === null) return NONE;
  const raw = usage as Record<string, unknown>;
  const cache = raw.cache_creation;
  const cacheFields = typeof cache === 'object' && cache !== null ? (cache as Record<string, unknown>) : null;
  // Most usages are in range: checked first without building a name or a list.
  if (allInRange(raw, USAGE_FIELDS) && (cacheFields === null || allInRange(cacheFields, CACHE_FIELDS)))
    return NONE;
  const bad: string[] = [];
  for (const field of USAGE_FIELDS) check(raw[field], `usage.${field}`, bad);
  if (cacheFields !== null) {
    for (const field of CACHE_FIELDS) check(cacheFields[field], `usage.cache_creation.${field}`, bad);
  }
  return bad;
}

/** The list of a usage with every count in range (shared: never changed). */
const NONE: readonly string[] = [];

/** Whether every one of `fields` of `record` is absent or a token count. */
function allInRange(record: Record<string, unknown>, fields: readonly string[]): boolean {
  for (let i = 0; i < fields.length; i++) if (!inRange(record[fields[i]!])) return false;
  return true;
}

/** Whether a token field's value is absent or a token count. */
function inRange(value: unknown): boolean {
  return value === undefined || value === null || isTokenCount(value);
}

function check(value: unknown, name: string, bad: string[]): void {
  if (inRange(value)) return;
  bad.push(`${name}=${String(JSON.stringify(value)).slice(0, 40)}`);
}
