import { CliError } from '../command-line/errors.js';

/** The breakdowns `stats --by` prints. */
export const COST_BREAKDOWNS = ['day', 'model', 'project', 'agent'] as const;

/** One of `COST_BREAKDOWNS`. */
export type CostBreakdown = (typeof COST_BREAKDOWNS)[number];

/**
 * Reads `--by`: which cost breakdown to print, or null without one.
 *
 * @param value The option's value.
 * @throws CliError when it names no breakdown.
 */
export function costBreakdown(value: string | undefined): CostBreakdown | null {
  if (value === undefined) return null;
  const found = COST_BREAKDOWNS.find((by) => by === value);
  if (found === undefined)
    throw new CliError(`--by ${value} is not a breakdown`, {
      hint: `use one of: ${COST_BREAKDOWNS.join(', ')}`,
    });
  return found;
}
