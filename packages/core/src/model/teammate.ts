/**
 * Teammates written as their own session file (FORMAT.md §13.2, ~2.1.220+): a named spawn (`Agent`/`Task` with
 * `name`, `team_name`) runs as a top-level `<uuid>.jsonl` in the project folder whose entries carry `teamName` and
 * `agentName`; the spawn's result says `agent_id: <name>@session-<8hex>`. A `TeammateLink` joins the spawn in the
 * lead session to the teammate's file. Plain JSON data, written into the archive's `index.json`.
 */
import type { Cost } from './cost.js';
import type { Usage } from './entry.js';

/** A named spawn of a lead session joined to the teammate's own session file. */
export interface TeammateLink {
  project: string | null;
  /** The session that spawned the teammate. */
  lead: string;
  /** The spawn's sidechain in the lead session (`task-<toolUseId>` when no agent file was there). */
  sidechain: string;
  toolUseId: string;
  /** The teammate's name (`name` of the spawn = `agentName` of its entries). */
  name: string;
  team: string | null;
  /** `<name>@session-<8hex>` from the spawn's result, when written. */
  agentRef: string | null;
  /** The teammate's own session (its file stays a session of the project). */
  session: string;
  /** `completed` when the teammate's last main entry is an answer, else `incomplete`. */
  status: 'completed' | 'incomplete';
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  /** First line of the teammate's last answer, at most 200 characters. */
  result: string | null;
  /**
   * The teammate's usage and cost, for reference only: they are counted in the teammate's own session (and the
   * project's totals through it), never again in the lead's.
   */
  usage: Usage;
  cost?: Cost;
}
