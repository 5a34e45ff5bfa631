/**
 * Prices one API response with the price table bundled in `@pydantic/genai-prices` (pinned; its data is never
 * fetched at run time). Models are matched as the table's own match rules say, within Anthropic's models only.
 */
import { calcPrice } from '@pydantic/genai-prices';
import type { PriceTable } from '../model/cost.js';
import type { Usage } from '../model/entry.js';

/** The price table every cost is computed with (a test checks it is the installed version). */
export const PRICE_TABLE: PriceTable = {
  name: '@pydantic/genai-prices',
  version: '0.1.8',
  date: '2026-09-23',
};

/** The placeholder model of lines Claude Code writes itself (no API call): they cost nothing. */
const SYNTHETIC = '<synthetic>';

/** Prices conditional on a date take the table's first price when a response has no timestamp. */
const UNDATED = new Date(0);

/**
 * What one API response cost in USD: 0 for a response without tokens or a `<synthetic>` line, null when the
 * price table does not know its model (never guessed).
 *
 * The table's input count is the total including cached tokens, so input + cache creation + cache read are
 * summed into it and the cache counts passed beside it; 1-hour cache writes are priced apart from 5-minute ones.
 *
 * @param model The model as written (`message.model`), or null.
 * @param usage The response's usage, counted once.
 * @param timestamp When it was answered (ISO 8601): prices that changed on a date are taken as of then.
 * @example responseCost('claude-sonnet-4-5-20250929', usage, '2026-01-02T10:00:00Z') // 0.0123
 */
export function responseCost(model: string | null, usage: Usage, timestamp: string | null): number | null {
  const tokens =
    usage.inputTokens + usage.outputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
  if (tokens === 0 || model === SYNTHETIC) return 0;
  if (model === null || unknownModels.has(model)) return null;
  const at = timestamp === null ? UNDATED : new Date(timestamp);
  const price = calcPrice(
    {
      input_tokens: usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens,
      cache_read_tokens: usage.cacheReadInputTokens,
      cache_write_tokens: usage.cacheCreationInputTokens,
      cache_write_1h_tokens: Math.min(usage.cacheCreation1hTokens, usage.cacheCreationInputTokens),
      output_tokens: usage.outputTokens,
    },
    model,
    { providerId: 'anthropic', timestamp: Number.isNaN(at.getTime()) ? UNDATED : at },
  );
  if (price === null) {
    unknownModels.add(model);
    return null;
  }
  return price.total_price;
}

/** Models already found unknown: the table is fixed, so they are not looked up again. */
const unknownModels = new Set<string>();
