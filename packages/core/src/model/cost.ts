/**
 * What API responses cost in US dollars, priced from a bundled price table (`@pydantic/genai-prices`): the cost
 * shapes of a session file, of `cctrail stats --json` and of an archive's `index.json`.
 */

/** The price table cost was computed with: shown wherever a cost is shown. */
export interface PriceTable {
  /** npm package the prices come from. */
  name: string;
  /** Its exact version. */
  version: string;
  /** The day that version was published (UTC, `YYYY-MM-DD`): prices are as of that day. */
  date: string;
}

/** What some API responses cost. */
export interface Cost {
  /** US dollars of the responses the price table prices. */
  usd: number;
  /** Responses with tokens whose model the price table does not know: they are not in `usd`, never guessed. */
  unpriced: number;
}

/**
 * Web searches the API ran (`server_tool_use.web_search_requests`) and their fee. The fee is billed per search,
 * apart from tokens, and kept out of every other cost figure (which price tokens only, as ccusage does): it is
 * shown beside them.
 */
export interface WebSearchCost {
  /** Web searches, each API response counted once. */
  requests: number;
  /** US dollars of the searches the price table prices (its price per thousand searches of the model). */
  usd: number;
  /** Searches of responses whose model the table has no search price for: not in `usd`, never guessed. */
  unpriced: number;
}

/** Claude Code's own figure for a session (its `cost-state` record), beside cctrail's. */
export interface ClaudeCodeCost {
  /** `totalCostUSD` of the session's last `cost-state` record. */
  usd: number;
  /** Its `modelUsage[model].costUSD` per model, when written. */
  byModel: Record<string, number>;
}

/** The cost of one session, broken down like its usage (`Session.usage`). */
export interface SessionCost {
  priceTable: PriceTable;
  total: Cost;
  /** The main conversation (not in any sidechain). */
  main: Cost;
  /** Keyed by model as written (`unknown` when a response names none). */
  byModel: Record<string, Cost>;
  /** Keyed by epoch index. */
  byEpoch: Record<string, Cost>;
  /** Keyed by sidechain id. */
  bySidechain: Record<string, Cost>;
  /** Keyed by the UTC day of each response (`YYYY-MM-DD`, `unknown` without a timestamp). */
  byDay: Record<string, Cost>;
  /** Models the price table does not know, sorted. */
  unpricedModels: string[];
  /** Claude Code's own figure, or null when the session carries no `cost-state` record. */
  claudeCode: ClaudeCodeCost | null;
  /** Its web searches and their fee, when it ran any (not in the figures above). */
  webSearch?: WebSearchCost;
}

/** Cost over many sessions, each API response counted once across files (stats and the archive index). */
export interface CostTotals {
  priceTable: PriceTable;
  total: Cost;
  /** Keyed by UTC day (`YYYY-MM-DD`), days in order. */
  byDay: Record<string, Cost>;
  /** Keyed by model as written. */
  byModel: Record<string, Cost>;
  /** Keyed by project folder name (`unknown` without one). */
  byProject: Record<string, Cost>;
  /** Models the price table does not know, sorted. */
  unpricedModels: string[];
  /** Web searches and their fee, when the responses ran any (not in the figures above). */
  webSearch?: WebSearchCost;
}
