/**
 * Conversations across files (FORMAT.md §13.6): one conversation may be spread over several session files —
 * continued after an auto-compaction or a `--resume` in a new file, copied by `/branch`, written again whole.
 * These shapes are plain JSON data, written into the archive's `index.json`.
 */

import type { ReportedRuns } from '../archive/reported-runs.js';
import type { Cost } from './cost.js';
import type { Usage } from './entry.js';

/** How a session file continues, copies or repeats another. */
export type SessionLinkKind =
  /** A compaction boundary's `logicalParentUuid` lies in the other file (auto-compaction continued in a new file). */
  | 'compaction'
  /** It starts below (or with a copy of) an entry of the other file (`--resume` writing a new file). */
  | 'resume'
  /** A 1.0.x `summary` line names the other file's leaf. */
  | 'summary'
  /** A `/branch` copy: entries with `forkedFrom` or a `fork-context-ref` record. */
  | 'fork'
  /** Every entry is also in the other file. */
  | 'duplicate';

/** A link from one session file to another. */
export interface SessionLink {
  kind: SessionLinkKind;
  /** The other session's id. */
  session: string;
  /** The entry the link goes through (logical parent, resumed parent, summary leaf, fork point), when known. */
  at: string | null;
}

/** One session file's place in its conversation. */
export interface ConversationMember {
  id: string;
  project: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** The file it continues (compaction, resume, summary), null for the first. */
  continuedFrom: SessionLink | null;
  /** Files that continue it. */
  continuedIn: SessionLink[];
  /** The file it was copied from by `/branch`, with the fork point. */
  forkedFrom: SessionLink | null;
  /** The file that holds all of its entries. */
  duplicateOf: string | null;
  /** Full compactions of its main conversation, in file order. */
  compactions: { uuid: string; trigger: 'auto' | 'manual' | null; timestamp: string | null }[];
}

/** What a conversation adds up to, every entry, response, compaction, agent and tool call counted once. */
export interface ConversationTotals {
  files: number;
  lines: number;
  entries: number;
  compactions: number;
  epochs: number;
  /** Real forks in its files (rewinds, retries) plus one per `/branch` copy that goes on from its fork point. */
  forks: number;
  sidechains: number;
  toolCalls: number;
  usage: Usage;
  /** What its API responses cost, each counted once across its files (absent in archives written before cost). */
  cost?: Cost;
  /**
   * What the spawns of its runs without a transcript report (each run once across its files; absent when none):
   * its tokens and cost add these, as a lower bound.
   */
  reportedBySpawn?: ReportedRuns;
}

/**
 * An epoch of a conversation's joined graph (schema 2, additive): the entries between two full compactions,
 * each uuid once however many files copy it.
 */
export interface JoinedEpoch {
  /** The compaction boundary that opened it, null for the first epoch (and for one a file starts without one). */
  compaction: string | null;
  trigger: 'auto' | 'manual' | null;
  timestamp: string | null;
  /** Session files that hold entries of it, in time order: where the files change along the timeline. */
  files: string[];
  /** Main-conversation entries (sidechain entries belong to their spawn's epoch but are not counted here). */
  entries: number;
  /** Its API responses (sidechains' included), each once. */
  usage: Usage;
  cost?: Cost;
}

/** Branch points of a conversation's joined graph by class, each once, plus the `/branch` copies that go on. */
export interface JoinedForkCounts {
  rewinds: number;
  retries: number;
  sideCommands: number;
  artefacts: number;
  /** `/branch` copies that go on from their fork point. */
  branches: number;
}

/** A conversation: the session files that make one history, in time order, and its totals. */
export interface Conversation {
  /** Id of its first session. */
  id: string;
  title: string | null;
  startedAt: string | null;
  endedAt: string | null;
  sessions: ConversationMember[];
  totals: ConversationTotals;
  /** Its epochs on the joined graph, in order (absent in archives written before them). */
  epochs?: JoinedEpoch[];
  /** Branch points of the joined graph by class (absent in archives written before them). */
  forkKinds?: JoinedForkCounts;
}
