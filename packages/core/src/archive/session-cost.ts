/**
 * What one session cost: each API response priced once (see `responseCost`), summed like its usage per model,
 * epoch, sidechain and UTC day, with Claude Code's own figure beside it when the session carries one.
 */
import { diagnostic } from '../diagnostics.js';
import { hasUsage } from '../graph/usage.js';
import type { Cost, SessionCost, WebSearchCost } from '../model/cost.js';
import type { ApiResponse, Session } from '../model/session.js';
import { ownValue, setOwn } from '../own-keys.js';
import { utcDayOf } from '../read/timestamps.js';
import { claudeCodeCost, costDiffers } from './claude-code-cost.js';
import { PRICE_TABLE, responseCost, roundUsd, webSearchCost } from './prices.js';

/** A cost of nothing. */
export function emptyCost(): Cost {
  return { usd: 0, unpriced: 0 };
}

/**
 * Adds what one response cost into a sum (mutating it): null counts as an unpriced response.
 *
 * @param sum The sum so far.
 * @param usd The response's cost, or null when it has no price.
 */
export function addCost(sum: Cost, usd: number | null): Cost {
  if (usd === null) sum.unpriced++;
  else sum.usd = roundUsd(sum.usd + usd);
  return sum;
}

/**
 * Adds a response's web searches and their fee into a sum (null: none yet), and returns the sum.
 *
 * @param sum The sum so far, or null.
 * @param requests The response's web searches.
 * @param usd Their fee, or null when the price table has no price for them.
 */
export function addWebSearch(sum: WebSearchCost | null, requests: number, usd: number | null): WebSearchCost {
  const total = sum ?? { requests: 0, usd: 0, unpriced: 0 };
  total.requests += requests;
  if (usd === null) total.unpriced += requests;
  else total.usd = roundUsd(total.usd + usd);
  return total;
}

/**
 * The fee of an API response's web searches (see `webSearchCost`), or undefined when it ran none.
 *
 * @param response One grouped API response.
 */
export function webSearchOf(response: ApiResponse): { requests: number; usd: number | null } | undefined {
  const requests = response.usage.webSearchRequests ?? 0;
  if (requests <= 0) return undefined;
  return { requests, usd: webSearchCost(response.model, requests, response.timestamp) };
}

/**
 * The cost bucket of a key, created empty when missing.
 *
 * @param record Costs by key.
 * @param key The key.
 */
export function costBucket(record: Record<string, Cost>, key: string): Cost {
  return ownValue(record, key) ?? setOwn(record, key, emptyCost());
}

/** The UTC day of a timestamp (`YYYY-MM-DD`), `unknown` without one. */
export function utcDay(timestamp: string | null): string {
  return timestamp === null ? 'unknown' : (utcDayOf(timestamp) ?? 'unknown');
}

/**
 * What an API response cost (its stored `cost` when the session was priced, else priced now).
 *
 * @param response One grouped API response.
 */
export function costOf(response: ApiResponse): number | null {
  if (response.cost !== undefined) return response.cost;
  return hasUsage(response) ? responseCost(response.model, response.usage, response.timestamp) : 0;
}

/**
 * Computes the cost of a session from its API responses, without changing it.
 *
 * @param session A built session (content is not needed).
 */
export function sessionCost(session: Pick<Session, 'responses' | 'metadata'>): SessionCost {
  const cost: SessionCost = {
    priceTable: PRICE_TABLE,
    total: emptyCost(),
    main: emptyCost(),
    byModel: {},
    byEpoch: {},
    bySidechain: {},
    byDay: {},
    unpricedModels: [],
    claudeCode: claudeCodeCost(session.metadata),
  };
  const unpriced = new Set<string>();
  let webSearch: WebSearchCost | null = null;
  for (const response of session.responses) {
    if (!hasUsage(response)) continue;
    const searches = webSearchOf(response);
    if (searches) webSearch = addWebSearch(webSearch, searches.requests, searches.usd);
    const usd = costOf(response);
    const model = response.model ?? 'unknown';
    if (usd === null) unpriced.add(model);
    addCost(cost.total, usd);
    addCost(costBucket(cost.byModel, model), usd);
    addCost(costBucket(cost.byEpoch, String(response.epoch)), usd);
    addCost(costBucket(cost.byDay, utcDay(response.timestamp)), usd);
    addCost(response.sidechain === null ? cost.main : costBucket(cost.bySidechain, response.sidechain), usd);
  }
  cost.unpricedModels = [...unpriced].sort();
  if (webSearch) cost.webSearch = webSearch;
  return cost;
}

/**
 * Prices a session in place: sets each API response's `cost` and the session's `cost`, and adds a
 * `cost-differs` diagnostic when Claude Code's own figure differs from cctrail's by more than 1 %. Call it once,
 * after `buildSession` and before the session is written or digested.
 *
 * @param session A built session (content is not needed).
 */
export function priceSession(session: Session): void {
  if (session.cost !== undefined) return;
  for (const response of session.responses) {
    response.cost = hasUsage(response) ? responseCost(response.model, response.usage, response.timestamp) : 0;
  }
  session.cost = sessionCost(session);
  const differs = costDiffers(session.cost);
  if (differs !== null) {
    const file = session.files.find((f) => f.role === 'main')?.path ?? null;
    session.diagnostics.push(diagnostic('cost-differs', file, null, { message: differs }));
  }
}
