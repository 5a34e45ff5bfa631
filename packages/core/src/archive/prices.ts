/**
 * Prices one API response with Anthropic's prices from the pinned `@pydantic/genai-prices` table (its data is
 * bundled, never fetched at run time). `anthropic-prices.json` is a snapshot of that table's Anthropic models
 * (`scripts/snapshot-prices.mjs`), so a thread does not parse every provider's data; a test checks the snapshot
 * equals the installed table and every price here equals its `calcPrice`. Models are matched by the table's own
 * rules, in its order.
 */
import type { PriceTable } from '../model/cost.js';
import type { Usage } from '../model/entry.js';
import snapshot from './anthropic-prices.json' with { type: 'json' };

/** The price table every cost is computed with (its date is the version's publication day, as the snapshot has it). */
export const PRICE_TABLE: PriceTable = {
  name: snapshot.name,
  version: snapshot.version,
  date: snapshot.date,
};

/** A model's match rule, as the table writes it. */
type Match =
  | { equals: string }
  | { starts_with: string }
  | { ends_with: string }
  | { contains: string }
  | { regex: string }
  | { or: Match[] }
  | { and: Match[] };

/** A price per million tokens: flat, or by tier of the prompt's total input tokens. */
type Price = number | { base: number; tiers: { start: number; price: number }[] };
type Prices = Partial<Record<string, Price>>;
interface Model {
  id: string;
  match: Match;
  prices: Prices | { constraint?: { type: string; start_date: string }; prices: Prices }[];
}

const MODELS = snapshot.models as Model[];

/** The placeholder model of lines Claude Code writes itself (no API call): they cost nothing. */
const SYNTHETIC = '<synthetic>';

/**
 * What one API response cost in USD: 0 for a response without tokens or a `<synthetic>` line, null when the
 * price table does not know its model (never guessed).
 *
 * As in the table, input is the total including cached tokens: input + cache creation + cache read decide the
 * long-context tier, and each kind is priced at its own rate; 1-hour cache writes are priced apart from 5-minute
 * ones.
 *
 * @param model The model as written (`message.model`), or null.
 * @param usage The response's usage, counted once.
 * @param timestamp When it was answered (ISO 8601): prices that changed on a date are taken as of then (the
 *   table's first price without a timestamp).
 * @example responseCost('claude-sonnet-4-5-20250929', usage, '2026-01-02T10:00:00Z') // 0.0123
 */
export function responseCost(model: string | null, usage: Usage, timestamp: string | null): number | null {
  const input = usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
  if (input + usage.outputTokens === 0 || model === SYNTHETIC) return 0;
  const found = model === null ? undefined : modelOf(model);
  if (found === undefined) return null;
  const prices = pricesAt(found, timestamp === null ? Number.NaN : Date.parse(timestamp));
  const write1h = Math.min(usage.cacheCreation1hTokens, usage.cacheCreationInputTokens);
  // Each kind falls back to its parent's price when the table gives none: 1-hour writes → writes → input.
  const writeKey = prices.cache_write_mtok === undefined ? 'input_mtok' : 'cache_write_mtok';
  const write1hKey = prices.cache_write_1h_mtok === undefined ? writeKey : 'cache_write_1h_mtok';
  const readKey = prices.cache_read_mtok === undefined ? 'input_mtok' : 'cache_read_mtok';
  return roundUsd(
    cost(prices.input_mtok, usage.inputTokens, input) +
      cost(prices[writeKey], usage.cacheCreationInputTokens - write1h, input) +
      cost(prices[write1hKey], write1h, input) +
      cost(prices[readKey], usage.cacheReadInputTokens, input) +
      cost(prices.output_mtok, usage.outputTokens, input),
  );
}

/** Models looked up so far (the table is fixed): undefined for a model it does not know. */
const byId = new Map<string, Model | undefined>();

function modelOf(model: string): Model | undefined {
  if (byId.has(model)) return byId.get(model);
  const id = model.toLowerCase().trim();
  let found = MODELS.find((m) => matches(m.match, id));
  // As the table does: a dated id (`-20250514`) is tried again as `-2025-05-14`.
  const dashed = id.replace(DATE, (whole, dash, y, m, d) =>
    validDay(y, m, d) ? `${dash}${y}-${m}-${d}` : whole,
  );
  if (found === undefined && dashed !== id) found = MODELS.find((m) => matches(m.match, dashed));
  byId.set(model, found);
  return found;
}

const DATE = /(-)(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=-|:|$)/g;

function validDay(y: string, m: string, d: string): boolean {
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return day.getUTCMonth() === Number(m) - 1 && day.getUTCDate() === Number(d);
}

function matches(rule: Match, id: string): boolean {
  if ('or' in rule) return rule.or.some((r) => matches(r, id));
  if ('and' in rule) return rule.and.every((r) => matches(r, id));
  if ('equals' in rule) return id === rule.equals.toLowerCase();
  if ('starts_with' in rule) return id.startsWith(rule.starts_with.toLowerCase());
  if ('ends_with' in rule) return id.endsWith(rule.ends_with.toLowerCase());
  if ('contains' in rule) return id.includes(rule.contains.toLowerCase());
  return new RegExp(rule.regex).test(id);
}

/** The prices in force at a time: the latest entry whose start date has come, else the first. */
function pricesAt(model: Model, time: number): Prices {
  if (!Array.isArray(model.prices)) return model.prices;
  const at = Number.isNaN(time) ? 0 : time;
  for (let i = model.prices.length - 1; i >= 0; i--) {
    const entry = model.prices[i]!;
    if (entry.constraint === undefined || at >= Date.parse(entry.constraint.start_date)) return entry.prices;
  }
  return model.prices[0]!.prices;
}

/** USD of `tokens` at a price per million, the tier chosen by the prompt's total input tokens. */
function cost(price: Price | undefined, tokens: number, input: number): number {
  if (price === undefined || tokens <= 0) return 0;
  if (typeof price === 'number') return (price * tokens) / 1e6;
  let rate = price.base;
  for (const tier of price.tiers) if (input > tier.start) rate = tier.price;
  return (rate * tokens) / 1e6;
}

/**
 * What a response's web searches cost in USD, billed per search apart from its tokens: the table's price per
 * thousand searches of its model as of its time. Null when the table has no such price for it (an unknown model,
 * or one without web search): such searches are counted as unpriced, never guessed.
 *
 * @param model The model as written, or null.
 * @param requests Web searches the response ran.
 * @param timestamp When it was answered (ISO 8601), as for `responseCost`.
 */
export function webSearchCost(
  model: string | null,
  requests: number,
  timestamp: string | null,
): number | null {
  if (requests <= 0 || model === SYNTHETIC) return 0;
  const found = model === null ? undefined : modelOf(model);
  if (found === undefined) return null;
  const price = pricesAt(found, timestamp === null ? Number.NaN : Date.parse(timestamp)).web_searches_kcount;
  return typeof price === 'number' ? roundUsd((price * requests) / 1000) : null;
}

/**
 * A dollar amount rounded to a billionth of a dollar: sums of binary fractions stay the figures a person
 * would write (0.0048, not 0.0048000000000000004), far below any price's precision.
 */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}
