import type { Session } from './model.js';

// Owned by the CLI work (issue 3): per-session and archive-wide statistics shared by `cctrail stats` and the
// report's agent pages. Placeholder shapes until then.

/** Statistics of one session (the `sessions[]` items of `cctrail stats --json`). */
export interface SessionStats {
  sessionId: string;
}
/** Statistics of one agent type across sessions. */
export interface AgentStats {
  agentType: string;
}
/** Compaction statistics across sessions. */
export interface CompactionStats {
  sessionsWithCompactions: number;
}
/** Statistics over many sessions. */
export interface ArchiveStats {
  sessions: SessionStats[];
}

/** Computes the statistics of one session. */
export function sessionStats(session: Session): SessionStats {
  return { sessionId: session.id };
}

/** Computes statistics over many sessions. */
export function archiveStats(sessions: readonly Session[]): ArchiveStats {
  return { sessions: sessions.map(sessionStats) };
}
