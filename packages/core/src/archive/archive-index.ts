import type { ForkCounts } from '../analyses/fork-kinds.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Conversation } from '../model/conversation.js';
import type { Cost, CostTotals } from '../model/cost.js';
import type { Usage } from '../model/entry.js';
import type { SCHEMA_VERSION } from '../model/session.js';
import type { TeammateLink } from '../model/teammate.js';

/**
 * The shapes of a cctrail archive folder (`cctrail export -o DIR`): `DIR/index.json` lists projects and
 * sessions; each session is one JSON file holding a `Session` (see `model/session.ts`). The report reads this folder.
 */

/** One session's line in `index.json`. */
export interface ArchiveSessionSummary {
  /** Session id as written by Claude Code (not sanitized). */
  id: string;
  /** Path of the session file inside the archive folder, `/`-separated, made of sanitized ids only. */
  file: string;
  title: string | null;
  firstPrompt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  entries: number;
  /** Real forks: rewinds + retries. */
  forks: number;
  abandonedEntries: number;
  /** Branch points by class (schema 2; absent in archives of schema 1). */
  forkKinds?: ForkCounts;
  sidechains: number;
  compactions: number;
  toolCalls: number;
  usage: Usage;
  /** What the session cost, each API response counted once. */
  cost: Cost;
  duplicateOf: string | null;
  diagnostics: { error: number; warning: number; info: number };
  /** Transcript files the session was read from, relative to the input root. */
  sources: string[];
  /** Id of the conversation it belongs to, when that conversation spans several files (see `ArchiveIndex.conversations`). */
  conversation?: string;
  /**
   * Schema 3: present when this export did not read the session's transcripts from its input, so its line and
   * file are those an earlier export wrote (an archive never forgets; see `ArchivedStatus`).
   */
  archived?: ArchivedStatus;
}

/**
 * Why a session of an archive was not read from the input of the export that wrote the index (schema 3).
 * `missing`: its transcripts were looked for where an earlier export found them and are gone (Claude Code deletes
 * transcripts older than `cleanupPeriodDays`); `kept`: they were outside this export's inputs or filters, and the
 * archive kept the session as it was.
 */
export interface ArchivedStatus {
  status: 'missing' | 'kept';
  /**
   * The UTC day (`YYYY-MM-DD`) an export last read its transcripts: they were deleted on or after it. Null when no
   * export recorded it (archives before schema 3).
   */
  lastSeen: string | null;
}

/** One project's entry in `index.json`. */
export interface ArchiveProject {
  /** Folder name under `projects/` as found on disk. */
  slug: string;
  /** Sanitized, unique folder name used inside the archive. */
  id: string;
  /** Working directory read from the transcripts (the slug is lossy). */
  cwd: string | null;
  sessions: ArchiveSessionSummary[];
}

/** `index.json` of an archive folder. */
export interface ArchiveIndex {
  schemaVersion: typeof SCHEMA_VERSION;
  generator: { name: 'cctrail'; version: string };
  projects: ArchiveProject[];
  /** Usage over all sessions, each API response counted once across files. */
  usage: Usage;
  /** Cost over all sessions (each API response counted once across files), per UTC day, model and project. */
  cost: CostTotals;
  /** Conversations that span several session files, with their links and totals (schema version 2). */
  conversations?: Conversation[];
  /** Named spawns joined to the teammates' own session files (FORMAT.md §13.2; schema version 2, additive). */
  teammates?: TeammateLink[];
  /** Input paths that were not read (`skipped-path` diagnostics: the path and why); absent when none. */
  diagnostics?: Diagnostic[];
}
