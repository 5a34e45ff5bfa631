import type { Diagnostic, Session } from '@cctrail/core';
import { priceSession, type StatsDigest, statsDigest } from '@cctrail/core/archive';

/**
 * What a run keeps of a session beside its file: its statistics digest (which duplicate detection, usage totals
 * and the time filters read) and its diagnostics. Small whatever the session's size, and cheap to send from a
 * worker thread or to cache.
 */
export interface Skeleton {
  id: string;
  /** Project slug. */
  project: string | null;
  /** `digest.stats.duplicateOf` is null until the run marks duplicates across sessions. */
  digest: StatsDigest;
  /** The session's diagnostics, without the raw text of bad lines. */
  diagnostics: Diagnostic[];
  /** None of its lines is a transcript record. */
  notATranscript: boolean;
}

/**
 * The skeleton of a built session (with or without content: the digest is the same). The session is priced
 * first (core's `priceSession`: each response's cost, the session's cost, a `cost-differs` diagnostic), and not
 * changed otherwise: its diagnostics keep their raw text for the session file.
 *
 * @param session A session as `buildSession` returned it (`duplicateOf` still null).
 */
export function skeletonOf(session: Session): Skeleton {
  priceSession(session);
  return {
    id: session.id,
    project: session.project.slug,
    digest: statsDigest(session),
    diagnostics: session.diagnostics.map(({ raw: _raw, ...diagnostic }) => diagnostic),
    notATranscript:
      session.accounting.entries === 0 && session.diagnostics.some((d) => d.code === 'not-a-transcript'),
  };
}
