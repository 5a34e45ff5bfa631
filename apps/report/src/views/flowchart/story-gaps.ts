import type { Entry, Session } from '../model.js';
import type { FlowNode } from './story-node.js';

/**
 * Entries of the flowchart's story (`mermaid-story.ts`) with no turn above them: the trees whose root's parent is
 * not in the file (a resumed or cut session). Each such entry belongs to the last turn (or compaction) that
 * starts before its tree's root in the file, so the conversation reads as one lane that goes on after a gap.
 */

/** The root of an entry's tree (loops guarded by the entries' count). */
function rootEntry(e: Entry, byId: ReadonlyMap<string, Entry>): Entry {
  let cur = e;
  for (let steps = 0; cur.parent !== null && steps <= byId.size; steps++) {
    const up = byId.get(cur.parent);
    if (!up) break;
    cur = up;
  }
  return cur;
}

/** The last start (turn or compaction) at a file position before `at`, or null when none is. */
function lastBefore(starts: readonly { node: FlowNode; at: number }[], at: number): FlowNode | null {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]!.at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? starts[lo - 1]!.node : null;
}

/**
 * Finds, for each entry without a turn above it, the turn it continues.
 *
 * @param session The session.
 * @param byId Its entries by uuid.
 * @param nodes The story's nodes so far, in file order.
 * @param pending The entries without a turn above them.
 * @param own Called with each entry and the turn before its tree (null: its tree starts before the first turn).
 */
export function ownAfterGaps(
  session: Session,
  byId: ReadonlyMap<string, Entry>,
  nodes: readonly FlowNode[],
  pending: readonly Entry[],
  own: (e: Entry, before: FlowNode | null) => void,
): void {
  const at = new Map(session.entries.map((e, i) => [e.uuid, i]));
  const starts = nodes
    .filter((n) => n.kind === 'active' || n.kind === 'compaction')
    .map((n) => ({ node: n, at: at.get(n.first.uuid) ?? 0 }));
  for (const e of pending) own(e, lastBefore(starts, at.get(rootEntry(e, byId).uuid) ?? 0));
}
