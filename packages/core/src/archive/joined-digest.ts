/**
 * What one session file gives the joined graph of its conversation (see `joined-epochs.ts`): small plain data,
 * part of the session's statistics digest.
 */
import { hasUsage } from '../graph/usage.js';
import type { ForkKind, Session } from '../model/session.js';

/** What a session gives the joined graph: its entries' epochs, its epochs' boundaries, responses, branch points. */
export interface JoinedDigest {
  /** Per entry (in the order of `StatsDigest.uuids`): its epoch in the file; `-1 - epoch` for a sidechain's entry. */
  epochOf: number[];
  /** Per epoch of the file: the compaction boundary that opened it, null for the first. */
  boundaries: (string | null)[];
  /** Per API response with usage, in the order of `StatsDigest.responses`: its epoch in the file. */
  responseEpochs: number[];
  /** Branch points of the file. */
  branchPoints: { uuid: string; kind: ForkKind }[];
}

/**
 * Digests what the joined graph needs of a session.
 *
 * @param session A built session (content is not needed).
 */
export function joinedDigest(session: Session): JoinedDigest {
  return {
    epochOf: session.entries.map((e) => (e.sidechain === null ? e.epoch : -1 - e.epoch)),
    boundaries: session.epochs.map((e) => e.compaction),
    responseEpochs: session.responses.filter(hasUsage).map((r) => r.epoch),
    branchPoints: session.branchPoints.map(({ uuid, kind }) => ({ uuid, kind })),
  };
}
