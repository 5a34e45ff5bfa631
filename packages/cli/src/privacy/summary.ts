/** Rules named in the line; the others are counted together. */
const MOST_RULES = 8;

/**
 * The line a command prints about what it redacted: how many distinct secrets, and how many of them each rule
 * found, the most first (`12 secrets redacted (7 aws-access-key, 5 assignment)`); past eight rules, the others
 * are counted together (`…, 9 by 4 other rules`).
 *
 * @param total Distinct secrets redacted.
 * @param byRule How many of them each rule found.
 */
export function redactedLine(total: number, byRule: Readonly<Record<string, number>>): string {
  const counted = `${total} ${total === 1 ? 'secret' : 'secrets'} redacted`;
  const rules = Object.entries(byRule)
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  if (rules.length === 0) return counted;
  const named = rules.length > MOST_RULES ? rules.slice(0, MOST_RULES - 1) : rules;
  const parts = named.map(([rule, count]) => `${count} ${rule}`);
  const others = rules.slice(named.length);
  if (others.length > 0)
    parts.push(`${others.reduce((sum, [, count]) => sum + count, 0)} by ${others.length} other rules`);
  return `${counted} (${parts.join(', ')})`;
}
