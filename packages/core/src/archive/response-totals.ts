/**
 * Usage and cost over many sessions' response tables, each API response counted once even when several tables
 * hold it: `totalUsage` of their `usagesOf` and `costTotals` of their `costsOf`, in one pass that makes no row.
 */
import { emptyUsage } from '../graph/usage.js';
import type { Cost, CostTotals } from '../model/cost.js';
import type { Usage } from '../model/entry.js';
import { CostSum } from './cost-totals.js';
import { idsOf } from './id-list.js';
import type { ResponseTable } from './response-table.js';

/** Tokens and responses of a usage row (`ResponseTable.usage`): six token counts, then counted responses. */
const WIDTH = 7;
const TOKENS = 6;

/**
 * Usage and cost over sessions, each response counted once: its usage the largest of each field over the copies
 * (`maxUsage`), its cost the highest priced copy's, its project the first session's that holds it.
 *
 * @param lists Per session: its project folder name and its response table, in listing order.
 */
export function responseTotals(lists: Iterable<{ project: string | null; responses: ResponseTable }>): {
  usage: Usage;
  cost: CostTotals;
} {
  const slotOf = new Map<string, number>();
  const rows: number[] = [];
  // Per slot (a response, in the order first seen): its web searches (undefined: none written; merged copies
  // keep them only when some, as `maxUsage` does), the copy whose cost counts and its project.
  const searches: (number | undefined)[] = [];
  const tables: ResponseTable[] = [];
  const at: number[] = [];
  const projects: string[] = [];
  for (const { project, responses: table } of lists) {
    const keys = idsOf(table.keys);
    const tableSearches = searchesOf(table);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const row = i * WIDTH;
      const slot = slotOf.get(key);
      if (slot === undefined) {
        slotOf.set(key, projects.length);
        for (let f = 0; f < WIDTH; f++) rows.push(table.usage[row + f]!);
        searches.push(tableSearches?.get(i));
        tables.push(table);
        at.push(i);
        projects.push(project ?? 'unknown');
        continue;
      }
      const base = slot * WIDTH;
      for (let f = 0; f < TOKENS; f++) rows[base + f] = Math.max(rows[base + f]!, table.usage[row + f]!);
      rows[base + TOKENS] = 1;
      const most = Math.max(searches[slot] ?? 0, tableSearches?.get(i) ?? 0);
      searches[slot] = most > 0 ? most : undefined;
      const usd = table.usd[i] ?? null;
      const known = tables[slot]!.usd[at[slot]!] ?? null;
      if (usd !== null && (known === null || usd > known)) {
        tables[slot] = table;
        at[slot] = i;
      }
    }
  }
  const usage = emptyUsage();
  const sum = new CostSum();
  const fees = new Map<ResponseTable, Map<number, { requests: number; usd: number | null }>>();
  for (let slot = 0; slot < projects.length; slot++) {
    const base = slot * WIDTH;
    // As `addUsage` adds them.
    usage.inputTokens += rows[base]!;
    usage.outputTokens += rows[base + 1]!;
    usage.cacheCreationInputTokens += rows[base + 2]!;
    usage.cacheReadInputTokens += rows[base + 3]!;
    usage.cacheCreation5mTokens += rows[base + 4]!;
    usage.cacheCreation1hTokens += rows[base + 5]!;
    usage.responses += rows[base + 6]!;
    const searched = searches[slot];
    if (searched !== undefined) usage.webSearchRequests = (usage.webSearchRequests ?? 0) + searched;
    const table = tables[slot]!;
    const i = at[slot]!;
    const fee = table.webSearch === undefined ? undefined : feesOf(fees, table).get(i);
    sum.add(
      table.usd[i] ?? null,
      table.models[table.model[i]!]!,
      table.days[table.day[i]!]!,
      projects[slot]!,
      fee,
    );
  }
  return { usage, cost: sum.totals() };
}

/** A table's web search requests by response, or undefined when no response counts any. */
function searchesOf(table: ResponseTable): Map<number, number> | undefined {
  if (table.searches === undefined) return undefined;
  const out = new Map<number, number>();
  for (let i = 0; i < table.searches.length; i += 2) out.set(table.searches[i]!, table.searches[i + 1]!);
  return out;
}

function feesOf(
  fees: Map<ResponseTable, Map<number, { requests: number; usd: number | null }>>,
  table: ResponseTable,
): Map<number, { requests: number; usd: number | null }> {
  let found = fees.get(table);
  if (found === undefined) {
    found = new Map((table.webSearch ?? []).map(({ at, requests, usd }) => [at, { requests, usd }]));
    fees.set(table, found);
  }
  return found;
}

/**
 * The usage and total cost of sessions (`responseTotals` of their digests' tables).
 *
 * @param sessions Sessions with their project folder name and statistics digest, in listing order.
 */
export function usageAndCost(
  sessions: readonly { project: string | null; digest: { responses: ResponseTable } }[],
): { usage: Usage; cost: Cost } {
  const { usage, cost } = responseTotals(
    sessions.map((s) => ({ project: s.project, responses: s.digest.responses })),
  );
  return { usage, cost: cost.total };
}
