/**
 * The line a command prints about what it redacted: how many distinct secrets, and how many of them each rule
 * found, the most first (`12 secrets redacted: 7 aws-access-token, 5 assignment`).
 *
 * @param total Distinct secrets redacted.
 * @param byRule How many of them each rule found.
 */
export function redactedLine(total: number, byRule: Readonly<Record<string, number>>): string {
  const counted = `${total} ${total === 1 ? 'secret' : 'secrets'} redacted`;
  const rules = Object.entries(byRule)
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([rule, count]) => `${count} ${rule}`);
  return rules.length === 0 ? counted : `${counted} (${rules.join(', ')})`;
}
