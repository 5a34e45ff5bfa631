import type { Cost } from '@cctrail/core';
import { isFailedSpawn } from '../agents/agents.js';
import type { ManifestSession } from '../site/site-model.js';

/**
 * A session's cost per epoch, split between the main thread and its sub-agents. A sub-agent's API responses
 * fall in the epoch of its spawning call (core's `assignEpochs`), so an epoch's sub-agent cost is the cost of the
 * runs spawned in it; the main thread's is the rest. A run without its transcript adds what its spawn's result
 * reports (a lower bound) to its epoch's sub-agents, once: none of its responses is in the session's figures.
 */

/** What an epoch cost. */
export interface EpochCost {
  epoch: number;
  main: Cost;
  subAgents: Cost;
  /** Sub-agent runs spawned in the epoch. */
  runs: number;
  /** Of those, runs whose cost is what their spawn's result reports (a lower bound). */
  reported: number;
}

/** Rounded as core rounds dollars (to the 1e-9), so that a difference of sums does not print `-$0.00`. */
function round(usd: number): number {
  return Math.max(0, Math.round(usd * 1e9) / 1e9);
}

/**
 * A session's cost per epoch, main thread and sub-agents apart, epochs in order; empty for a session file
 * written without cost.
 *
 * @param s The session of the manifest (its runs carry their epoch).
 */
export function epochCosts(s: ManifestSession): EpochCost[] {
  if (!s.cost) return [];
  const byEpoch = new Map<number, EpochCost>();
  const at = (epoch: number) => {
    let e = byEpoch.get(epoch);
    if (!e) {
      e = { epoch, main: { usd: 0, unpriced: 0 }, subAgents: { usd: 0, unpriced: 0 }, runs: 0, reported: 0 };
      byEpoch.set(epoch, e);
    }
    return e;
  };
  for (const [key, cost] of Object.entries(s.cost.byEpoch)) {
    const e = at(Number(key));
    e.main = { usd: cost.usd, unpriced: cost.unpriced };
  }
  for (const run of s.sidechains) {
    if (isFailedSpawn(run) || run.epoch === null || run.epoch === undefined) continue;
    const e = at(run.epoch);
    e.runs++;
    e.subAgents.usd += run.cost.usd;
    e.subAgents.unpriced += run.cost.unpriced;
    if (run.reported) {
      e.reported++;
      continue;
    }
    // A run with a transcript: its responses are in the epoch's figure, which the main thread keeps the rest of.
    e.main.usd -= run.cost.usd;
    e.main.unpriced = Math.max(0, e.main.unpriced - run.cost.unpriced);
  }
  return [...byEpoch.values()]
    .map((e) => ({
      ...e,
      main: { ...e.main, usd: round(e.main.usd) },
      subAgents: { ...e.subAgents, usd: round(e.subAgents.usd) },
    }))
    .sort((a, b) => a.epoch - b.epoch);
}
