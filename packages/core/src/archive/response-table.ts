/**
 * A session's API responses as a statistics digest keeps them: column by column, so that a digest parsed from JSON
 * text is a few arrays of numbers and one string of keys, not objects per response (a run holds every session's
 * digest at once). Steps that sum usage or cost make the rows they need (`usagesOf`, `costsOf`) and drop them.
 */
import type { Usage } from '../model/entry.js';
import type { ResponseCost } from './cost-totals.js';
import type { ResponseUsage } from './duplicates.js';
import { type IdList, idList, idsOf } from './id-list.js';

/** The API responses of a session that have tokens, in the session's order (see `responseTable`). */
export interface ResponseTable {
  /** Each response's key (`responseKey`). */
  keys: IdList;
  /** Seven numbers a response: its usage's tokens (`USAGE_FIELDS` in order) and counted responses. */
  usage: number[];
  /** USD a response, null when the price table does not know its model. */
  usd: (number | null)[];
  /** The models of the responses, each once; `model` holds a response's index into it. */
  models: string[];
  model: number[];
  /** The UTC days of the responses, each once; `day` holds a response's index into it. */
  days: string[];
  day: number[];
  /** `[response, web search requests]` of each response whose usage counts any (rare: absent when none). */
  searches?: number[];
  /** The responses whose cost has a web search fee (rare: absent when none). */
  webSearch?: { at: number; requests: number; usd: number | null }[];
}

const USAGE_FIELDS = [
  'inputTokens',
  'outputTokens',
  'cacheCreationInputTokens',
  'cacheReadInputTokens',
  'cacheCreation5mTokens',
  'cacheCreation1hTokens',
  'responses',
] as const;
const WIDTH = USAGE_FIELDS.length;

/**
 * The table of a session's responses.
 *
 * @param usages `responseUsages` of the session.
 * @param costs `responseCosts` of the session: the same responses in the same order.
 */
export function responseTable(
  usages: readonly ResponseUsage[],
  costs: readonly ResponseCost[],
): ResponseTable {
  const table: ResponseTable = {
    keys: idList(usages.map((u) => u.key)),
    usage: [],
    usd: [],
    models: [],
    model: [],
    days: [],
    day: [],
  };
  const searches: number[] = [];
  usages.forEach(({ usage }, at) => {
    for (const field of USAGE_FIELDS) table.usage.push(usage[field]);
    if (usage.webSearchRequests !== undefined) searches.push(at, usage.webSearchRequests);
  });
  const webSearch: NonNullable<ResponseTable['webSearch']> = [];
  costs.forEach((cost, at) => {
    table.usd.push(cost.usd);
    table.model.push(indexIn(table.models, cost.model));
    table.day.push(indexIn(table.days, cost.day));
    if (cost.webSearch) webSearch.push({ at, ...cost.webSearch });
  });
  if (searches.length > 0) table.searches = searches;
  if (webSearch.length > 0) table.webSearch = webSearch;
  return table;
}

/**
 * The usage of each response of a table, keyed for `totalUsage`.
 *
 * @param table As `responseTable` made it.
 */
export function usagesOf(table: ResponseTable): ResponseUsage[] {
  const keys = idsOf(table.keys);
  const out: ResponseUsage[] = [];
  const numbers = table.usage;
  for (let at = 0; at < keys.length; at++) {
    const row = at * WIDTH;
    const usage: Usage = {
      inputTokens: numbers[row]!,
      outputTokens: numbers[row + 1]!,
      cacheCreationInputTokens: numbers[row + 2]!,
      cacheReadInputTokens: numbers[row + 3]!,
      cacheCreation5mTokens: numbers[row + 4]!,
      cacheCreation1hTokens: numbers[row + 5]!,
      responses: numbers[row + 6]!,
    };
    out.push({ key: keys[at]!, usage });
  }
  const searches = table.searches ?? [];
  for (let i = 0; i < searches.length; i += 2) out[searches[i]!]!.usage.webSearchRequests = searches[i + 1]!;
  return out;
}

/**
 * The cost of each response of a table, keyed for `costTotals`.
 *
 * @param table As `responseTable` made it.
 */
export function costsOf(table: ResponseTable): ResponseCost[] {
  const keys = idsOf(table.keys);
  const out: ResponseCost[] = [];
  for (let at = 0; at < keys.length; at++)
    out.push({
      key: keys[at]!,
      usd: table.usd[at] ?? null,
      model: table.models[table.model[at]!]!,
      day: table.days[table.day[at]!]!,
    });
  for (const { at, requests, usd } of table.webSearch ?? []) out[at]!.webSearch = { requests, usd };
  return out;
}

function indexIn(list: string[], value: string): number {
  const at = list.indexOf(value);
  if (at !== -1) return at;
  list.push(value);
  return list.length - 1;
}
