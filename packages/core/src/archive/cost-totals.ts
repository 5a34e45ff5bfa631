/**
 * Cost over many sessions: each API response counted once even when several files hold it (as usage is, see
 * `totalUsage`), broken down per UTC day, model and project.
 */

import { hasUsage, responseKey } from '../graph/usage.js';
import type { Cost, CostTotals, WebSearchCost } from '../model/cost.js';
import type { Session } from '../model/session.js';
import { setOwn } from '../own-keys.js';
import { PRICE_TABLE } from './prices.js';
import { addCost, addWebSearch, costBucket, costOf, emptyCost, utcDay, webSearchOf } from './session-cost.js';

/** What one API response cost, under the key that identifies it across files. */
export interface ResponseCost {
  key: string;
  /** USD, or null when the price table does not know its model. */
  usd: number | null;
  /** Model as written, `unknown` without one. */
  model: string;
  /** UTC day, `YYYY-MM-DD` or `unknown`. */
  day: string;
  /** Its web searches and their fee (null: no price), when it ran any: not in `usd`. */
  webSearch?: { requests: number; usd: number | null };
}

/**
 * The cost of each API response of a session that has tokens, keyed for `costTotals`.
 *
 * @param session A built session (priced or not).
 */
export function responseCosts(session: Pick<Session, 'responses'>): ResponseCost[] {
  const out: ResponseCost[] = [];
  for (const response of session.responses) {
    if (!hasUsage(response)) continue;
    const cost: ResponseCost = {
      key: responseKey(response.id, response.requestId, response.entries[0] ?? ''),
      usd: costOf(response),
      model: response.model ?? 'unknown',
      day: utcDay(response.timestamp),
    };
    const webSearch = webSearchOf(response);
    if (webSearch) cost.webSearch = webSearch;
    out.push(cost);
  }
  return out;
}

/**
 * Cost over sessions, each response counted once (the first session that holds it names its project).
 *
 * @param lists Per session: its project folder name and its response costs, in listing order.
 */
export function costTotals(
  lists: Iterable<{ project: string | null; costs: readonly ResponseCost[] }>,
): CostTotals {
  const seen = new Map<string, { cost: ResponseCost; project: string }>();
  for (const { project, costs } of lists) {
    for (const cost of costs) {
      const known = seen.get(cost.key);
      if (!known) seen.set(cost.key, { cost, project: project ?? 'unknown' });
      else if (cost.usd !== null && (known.cost.usd === null || cost.usd > known.cost.usd)) known.cost = cost;
    }
  }
  const sum = new CostSum();
  for (const { cost, project } of seen.values())
    sum.add(cost.usd, cost.model, cost.day, project, cost.webSearch);
  return sum.totals();
}

/** Cost totals summed one response at a time, in the order they are added (see `costTotals`). */
export class CostSum {
  readonly #totals: CostTotals = {
    priceTable: PRICE_TABLE,
    total: emptyCost(),
    byDay: {},
    byModel: {},
    byProject: {},
    unpricedModels: [],
  };
  readonly #unpriced = new Set<string>();
  #webSearch: WebSearchCost | null = null;

  /** Adds one response's cost (`usd` null: not priced) under its model, UTC day and project. */
  add(
    usd: number | null,
    model: string,
    day: string,
    project: string,
    webSearch: { requests: number; usd: number | null } | undefined,
  ): void {
    const totals = this.#totals;
    if (webSearch) this.#webSearch = addWebSearch(this.#webSearch, webSearch.requests, webSearch.usd);
    if (usd === null) this.#unpriced.add(model);
    addCost(totals.total, usd);
    addCost(costBucket(totals.byDay, day), usd);
    addCost(costBucket(totals.byModel, model), usd);
    addCost(costBucket(totals.byProject, project), usd);
  }

  /** The totals, their breakdowns sorted by key. */
  totals(): CostTotals {
    const totals = this.#totals;
    totals.byDay = sortedByKey(totals.byDay);
    totals.byModel = sortedByKey(totals.byModel);
    totals.byProject = sortedByKey(totals.byProject);
    totals.unpricedModels = [...this.#unpriced].sort();
    if (this.#webSearch) totals.webSearch = this.#webSearch;
    return totals;
  }
}

function sortedByKey(record: Record<string, Cost>): Record<string, Cost> {
  const out: Record<string, Cost> = {};
  for (const key of Object.keys(record).sort()) setOwn(out, key, record[key]!);
  return out;
}
