/**
 * The active path after the branch points are classified: only the path to the conversation's last leaf is
 * active. Two shapes the fork rule does not reach:
 *
 * - a re-written response: a parent whose conversational children are copies of one API response (the second a
 *   later copy of the first, `replay`). The child on the path to the leaf stays active (else the last by file
 *   position); the others and everything below them are abandoned.
 * - an attempt abandoned and re-asked from a new root: a main-conversation root, before the leaf's tree, whose
 *   first prompt is asked again by a later root of the active conversation. Its whole tree is abandoned.
 */
import type { Dag } from '../graph/dag.js';
import type { Entry } from '../model/entry.js';
import type { Branch, BranchPoint } from '../model/session.js';
import { promptText } from '../normalize/prompt-text.js';

/**
 * Abandons the copies of re-written responses and the trees of re-asked attempts that are not on the path to
 * the leaf; returns the branches it abandoned (each also added to `branches`).
 *
 * @param dag The linked session (entries' `active` already set by the fork rule).
 * @param branchPoints The classified branch points.
 * @param branches The abandoned branches found so far (appended to).
 * @param leaf Uuid of the conversation's last leaf.
 */
export function settleActivePath(
  dag: Dag,
  branchPoints: readonly BranchPoint[],
  branches: Branch[],
  leaf: string | null,
): Branch[] {
  const { entries, index } = dag;
  const leafAt = leaf === null ? undefined : index.get(leaf);
  if (leafAt === undefined) return [];
  const onPath = pathTo(dag, leafAt);
  const added: Branch[] = [];
  for (const point of branchPoints) {
    if (point.kind !== 'replay') continue;
    const kids = point.children.map((u) => index.get(u)!).filter((c) => entries[c]!.active);
    if (kids.length < 2) continue;
    const keep = kids.find((c) => onPath[c]) ?? kids[kids.length - 1]!;
    for (const c of kids) if (c !== keep) added.push(abandonSubtree(dag, c, point.uuid));
  }
  // Roots of the main conversation, in file order; the leaf's own chain of trees is `onPath`.
  const roots = dag.roots.filter((r) => entries[r]!.sidechain === null && !dag.broken.has(r));
  const askedLater = new Map<string, number>();
  for (const r of roots) {
    if (!onPath[r]) continue;
    const text = firstPromptBelow(dag, r);
    if (text !== null && !askedLater.has(text)) askedLater.set(text, r);
  }
  for (const r of roots) {
    if (onPath[r] || !entries[r]!.active || r > leafAt) continue;
    const text = firstPromptBelow(dag, r);
    const again = text === null ? undefined : askedLater.get(text);
    if (again !== undefined && again > r) added.push(abandonSubtree(dag, r, entries[again]!.uuid));
  }
  branches.push(...added);
  return added;
}

/** Marks `head` and every active entry below it abandoned from `point`; returns the branch. */
export function abandonSubtree(dag: Dag, head: number, point: string): Branch {
  const { entries, children } = dag;
  const branch: Branch = {
    branchPoint: point,
    head: entries[head]!.uuid,
    leaf: entries[head]!.uuid,
    entries: 0,
    startedAt: null,
    endedAt: null,
  };
  let last = head;
  const stack = [head];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const entry = entries[at]!;
    if (!entry.active) continue;
    entry.active = false;
    entry.branchPoint = point;
    branch.entries += 1;
    if (at > last) last = at;
    if (entry.timestamp) {
      if (!branch.startedAt || entry.timestamp < branch.startedAt) branch.startedAt = entry.timestamp;
      if (!branch.endedAt || entry.timestamp > branch.endedAt) branch.endedAt = entry.timestamp;
    }
    for (const c of children[at]!) stack.push(c);
  }
  branch.leaf = entries[last]!.uuid;
  return branch;
}

/** Entries on the path from the leaf up to its root, across compactions by their logical parents. */
function pathTo(dag: Dag, leafAt: number): Uint8Array {
  const { entries, parent, index } = dag;
  const on = new Uint8Array(entries.length);
  let at = leafAt;
  while (at >= 0 && !on[at]) {
    on[at] = 1;
    let up = parent[at]!;
    if (up < 0) {
      const jump = entries[at]!.logicalParentUuid;
      up = jump ? (index.get(jump) ?? -1) : -1;
    }
    at = up;
  }
  return on;
}

/** The text of the first prompt in a root's tree, following first children (a few steps at most). */
function firstPromptBelow(dag: Dag, root: number): string | null {
  let at = root;
  for (let steps = 0; steps < 50 && at >= 0; steps++) {
    const entry: Entry = dag.entries[at]!;
    if (entry.kind === 'prompt') return promptText(entry.content)?.trim() || null;
    if (entry.kind === 'assistant') return null;
    at = dag.children[at]![0] ?? -1;
  }
  return null;
}
