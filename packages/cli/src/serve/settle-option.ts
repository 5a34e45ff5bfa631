import { CliError } from '../command-line/errors.js';

/**
 * Reads `--settle` (of `cctrail serve` and `report --watch`): seconds, 0 or more (default 20), as milliseconds.
 *
 * @param value The option as given, if it was.
 */
export function settleOption(value: string | undefined): number {
  if (value === undefined) return 20_000;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value)) throw new CliError(`--settle must be a number of seconds, got ${value}`);
  return seconds * 1000;
}
