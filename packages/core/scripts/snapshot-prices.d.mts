/** A version of the price table as `snapshot-prices.mjs` writes it. */
export interface PriceSnapshot {
  name: string;
  version: string;
  /** The day the version was published (UTC, `YYYY-MM-DD`). */
  date: string;
  models: { id: string; match: unknown; prices: unknown }[];
}
export function priceSnapshot(
  manifest: { name: string; version: string },
  models: readonly { id: string; match: unknown; prices: unknown }[],
  published: Record<string, unknown>,
): PriceSnapshot;
