/**
 * Claude Code's own cost of a session (its `cost-state {totalCostUSD, modelUsage}` record, FORMAT.md §13.5): a
 * cross-check for cctrail's figure.
 */
import type { ClaudeCodeCost, SessionCost } from '../model/cost.js';
import type { MetadataRecord } from '../model/entry.js';
import { ownValue, setOwn } from '../own-keys.js';

/** Differences up to this share of Claude Code's figure are rounding and table noise. */
const TOLERANCE = 0.01;

/**
 * Claude Code's figure from the last `cost-state` record of a session (the record is cumulative), or null.
 *
 * @param metadata The session's metadata records.
 */
export function claudeCodeCost(metadata: readonly MetadataRecord[]): ClaudeCodeCost | null {
  for (let i = metadata.length - 1; i >= 0; i--) {
    const record = metadata[i]!;
    if (record.type !== 'cost-state') continue;
    const usd = record.record.totalCostUSD;
    if (typeof usd !== 'number' || !Number.isFinite(usd)) continue;
    return { usd, byModel: modelCosts(record.record.modelUsage) };
  }
  return null;
}

function modelCosts(modelUsage: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (typeof modelUsage !== 'object' || modelUsage === null) return out;
  for (const [model, usage] of Object.entries(modelUsage)) {
    const usd = (usage as { costUSD?: unknown } | null)?.costUSD;
    if (typeof usd === 'number' && Number.isFinite(usd)) setOwn(out, model, usd);
  }
  return out;
}

/**
 * Why cctrail's cost differs from Claude Code's by more than 1 %, naming the models that differ (or, when
 * Claude Code wrote no figure per model, the session's models), or null when they agree or there is nothing
 * to compare.
 *
 * @param cost The session's cost, with Claude Code's figure.
 */
export function costDiffers(cost: SessionCost): string | null {
  const theirs = cost.claudeCode;
  if (theirs === null || !differs(cost.total.usd, theirs.usd)) return null;
  const named = Object.entries(theirs.byModel)
    .filter(([model, usd]) => differs(ownValue(cost.byModel, model)?.usd ?? 0, usd))
    .map(([model]) => model);
  const models = named.length > 0 ? named : Object.keys(cost.byModel);
  return (
    `cctrail's cost of the session ($${cost.total.usd.toFixed(4)}) differs by more than 1 % from Claude Code's ` +
    `own figure ($${theirs.usd.toFixed(4)}, its cost-state record); model${models.length === 1 ? '' : 's'}: ` +
    `${models.sort().join(', ') || 'none'}.`
  );
}

function differs(ours: number, theirs: number): boolean {
  return Math.abs(ours - theirs) > TOLERANCE * Math.abs(theirs);
}
