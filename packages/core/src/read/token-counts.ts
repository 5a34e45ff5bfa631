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
export function tokenCountsOutOfRange(record: Record<string, unknown>): string[] {
  const message = record.message;
  if (typeof message !== 'object' || message === null) return [];
  const usage = (message as Record<string, unknown>).usage;
  if (typeof usage !== 'object' || usage === null) return [];
  const raw = usage as Record<string, unknown>;
  const bad: string[] = [];
  for (const field of USAGE_FIELDS) check(raw[field], `usage.${field}`, bad);
  const cache = raw.cache_creation;
  if (typeof cache === 'object' && cache !== null) {
    for (const field of CACHE_FIELDS)
      check((cache as Record<string, unknown>)[field], `usage.cache_creation.${field}`, bad);
  }
  return bad;
}

function check(value: unknown, name: string, bad: string[]): void {
  if (value === undefined || value === null || isTokenCount(value)) return;
  bad.push(`${name}=${String(JSON.stringify(value)).slice(0, 40)}`);
}
