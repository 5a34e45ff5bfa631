/**
 * Queries over a built session: the walks a reader of the model needs (children, subtrees, ancestors, the
 * active path) and the members of the main conversation, a sidechain or a branch. Plain functions over the
 * JSON model, so they work on a session read back from an archive too. No recursion: chains are deep.
 */
import type { Entry } from '../model/entry.js';
import type { Branch, Session, ToolCall } from '../model/session.js';

/**
 * The children of each entry in the built DAG (`Entry.parent`), in file order, by uuid. A sidechain's root is
 * a child of its spawning entry.
 *
 * @param entries A session's entries.
 */
export function childrenOf(entries: readonly Entry[]): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const e of entries) {
    if (e.parent === null) continue;
    const list = children.get(e.parent);
    if (list) list.push(e.uuid);
    else children.set(e.parent, [e.uuid]);
  }
  return children;
}

/**
 * An entry and everything below it in the built DAG, in file order.
 *
 * @param session A built session.
 * @param head Uuid of the entry the subtree starts at.
 * @param children `childrenOf(session.entries)`, when the caller already has it.
 */
export function subtree(
  session: Session,
  head: string,
  children: ReadonlyMap<string, readonly string[]> = childrenOf(session.entries),
): Entry[] {
  const keep = new Set<string>();
  const stack = [head];
  while (stack.length > 0) {
    const uuid = stack.pop()!;
    if (keep.has(uuid)) continue;
    keep.add(uuid);
    for (const c of children.get(uuid) ?? []) stack.push(c);
  }
  // Sorting the positions of the subtree, not filtering every entry, keeps a session of many small branches
  // linear: each branch costs its own size.
  const at = positionsOf(session.entries);
  const places: number[] = [];
  for (const uuid of keep) {
    const i = at.get(uuid);
    if (i !== undefined) places.push(i);
  }
  places.sort((a, b) => a - b);
  return places.map((i) => session.entries[i]!);
}

/** File position of each entry by uuid (the first, for a uuid seen twice), computed once per entry list. */
const positions = new WeakMap<readonly Entry[], Map<string, number>>();
function positionsOf(entries: readonly Entry[]): Map<string, number> {
  let at = positions.get(entries);
  if (!at) {
    at = new Map();
    for (let i = 0; i < entries.length; i++) if (!at.has(entries[i]!.uuid)) at.set(entries[i]!.uuid, i);
    positions.set(entries, at);
  }
  return at;
}

/**
 * The uuids from a root down to an entry (the entry last). Where the walk up reaches a compaction boundary it
 * continues from that compaction's logical parent, so the path spans every epoch.
 *
 * @param session A built session.
 * @param uuid The entry to start from (an empty list when it is not in the session).
 * @param options `acrossCompactions: false` stops at the root of the entry's epoch.
 */
export function ancestors(
  session: Session,
  uuid: string,
  options: { acrossCompactions?: boolean } = {},
): string[] {
  const across = options.acrossCompactions !== false;
  const byUuid = new Map(session.entries.map((e) => [e.uuid, e]));
  const logical = new Map<string, string>();
  for (const c of session.compactions)
    if (c.uuid !== null && c.logicalParent !== null) logical.set(c.uuid, c.logicalParent);
  const path: string[] = [];
  const seen = new Set<string>();
  let at = byUuid.get(uuid);
  while (at && !seen.has(at.uuid)) {
    seen.add(at.uuid);
    path.push(at.uuid);
    let up = at.parent;
    if (up === null && across) up = logical.get(at.uuid) ?? at.logicalParentUuid;
    at = up === null ? undefined : byUuid.get(up);
  }
  return path.reverse();
}

/**
 * The active path of a session: uuids from its first root to its leaf, in order, across compactions.
 *
 * @param session A built session.
 * @param options `acrossCompactions: false` stops at the root of the last epoch.
 */
export function activePath(session: Session, options: { acrossCompactions?: boolean } = {}): string[] {
  return session.leaf === null ? [] : ancestors(session, session.leaf, options);
}

/**
 * The entries of the main conversation that are on its active branches (not abandoned), in file order.
 *
 * @param session A built session.
 */
export function activeEntries(session: Session): Entry[] {
  return session.entries.filter((e) => e.active && e.sidechain === null);
}

/**
 * The entries of one sidechain, in file order.
 *
 * @param session A built session.
 * @param sidechainId `Sidechain.id`.
 */
export function sidechainEntries(session: Session, sidechainId: string): Entry[] {
  return session.entries.filter((e) => e.sidechain === sidechainId);
}

/**
 * The entries of an abandoned branch: its head and everything below it, in file order.
 *
 * @param session A built session.
 * @param branch One of `session.branches`.
 * @param children `childrenOf(session.entries)`, when the caller already has it.
 */
export function branchEntries(
  session: Session,
  branch: Branch,
  children: ReadonlyMap<string, readonly string[]> = childrenOf(session.entries),
): Entry[] {
  return subtree(session, branch.head, children);
}

/**
 * The tool calls made in one sidechain, or in the main conversation for `null`.
 *
 * @param session A built session.
 * @param sidechainId `Sidechain.id`, or null for the main conversation.
 */
export function toolCallsIn(session: Session, sidechainId: string | null): ToolCall[] {
  return session.tools.filter((t) => t.sidechain === sidechainId);
}
